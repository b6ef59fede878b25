/**
 * `npm run bench`: every figure measured in this run, every gate a ratio (absolute times on a
 * shared machine are noise; ratios measured side by side are not). Prints tables, writes
 * bench/results.json, and exits non-zero when a gate fails.
 *
 *   npm run bench                  all sections
 *   npm run bench -- parser store  only these sections (parser, store, devtools, growth, memory, render, size, server);
 *                                  `size` also builds small Vite apps to measure what the kit adds at first load
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchParser, FRAME, measureWideOpenArray, type ParserRow } from './parser';
import { benchThroughput, measureCostPerCall, measureWideThroughStore } from './store';
import { benchMemory } from './memory';
import { benchDevtools } from './devtools';
import { realisticArguments, wideArray } from './inputs';
import { table } from './table';

export interface Gate {
  name: string;
  measured: string;
  limit: string;
  pass: boolean;
  kind: 'gate' | 'goal';
}

const SECTIONS = ['parser', 'store', 'devtools', 'growth', 'memory', 'render', 'size', 'server'] as const;
type Section = (typeof SECTIONS)[number];

const asked = process.argv.slice(2).filter((a): a is Section => (SECTIONS as readonly string[]).includes(a));
const run = (section: Section) => asked.length === 0 || asked.includes(section);

const results: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, frame: `${FRAME} fragments of 4 characters` };
const gates: Gate[] = [];

const find = (rows: ParserRow[], input: string, mode: ParserRow['mode'], competitor: string) =>
  rows.find((r) => r.input === input && r.mode === mode && r.competitor === competitor) as ParserRow;

if (run('parser')) {
  const inputs: [string, string][] = [
    ['1 KB', realisticArguments(1_000)],
    ['10 KB', realisticArguments(10_000)],
    ['100 KB', realisticArguments(100_000)],
    ['1 MB', realisticArguments(1_000_000)],
  ];
  const rows: ParserRow[] = [];
  for (const [name, text] of inputs) {
    const started = performance.now();
    rows.push(...(await benchParser(name, text)));
    process.stdout.write(`parser: ${name} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
  }
  const wide: ParserRow[] = [];
  for (const count of [100_000, 200_000]) {
    const name = `wide open array, ${count / 1000}k numbers`;
    process.stdout.write(`parser: ${name}…\n`);
    wide.push(...(await benchParser(name, wideArray(count), { peers: false, modes: ['every frame'] })));
  }
  const withRatio = [...rows, ...wide].map((r) => {
    const ours = find([...rows, ...wide], r.input, r.mode, 'toolgate');
    return { ...r, 'x toolgate': ours === undefined || r.competitor.startsWith('JSON.parse') ? '' : (r.totalMs / ours.totalMs).toFixed(1) };
  });
  console.log('\nArgument previews: one fragment is 4 characters; a frame is 64 fragments\n');
  console.log(
    table(withRatio, [
      ['input', (r) => r.input],
      ['reads', (r) => r.mode],
      ['competitor', (r) => r.competitor],
      ['total ms', (r) => r.totalMs.toFixed(2)],
      ['p99 µs', (r) => r.p99Us.toFixed(1)],
      ['max µs', (r) => r.maxUs.toFixed(1)],
      ['x toolgate', (r) => r['x toolgate']],
      ['how', (r) => r.method],
    ]),
  );

  // How cost grows with size: the exponent k in total ∝ size^k, from 100 KB to 1 MB.
  const growth = (competitor: string, mode: ParserRow['mode']) => {
    const a = find(rows, '100 KB', mode, competitor);
    const b = find(rows, '1 MB', mode, competitor);
    return Math.log(b.totalMs / a.totalMs) / Math.log(b.bytes / a.bytes);
  };
  const growthRows = ['toolgate', 'partial-json (reparse)', 'AI SDK parsePartialJson'].flatMap((c) =>
    (['every fragment', 'every frame'] as const).map((mode) => ({ competitor: c, mode, k: growth(c, mode) })),
  );
  console.log('\nGrowth of total cost with size, 100 KB → 1 MB (1 = linear, 2 = quadratic)\n');
  console.log(table(growthRows, [['competitor', (r) => r.competitor], ['reads', (r) => r.mode], ['exponent', (r) => r.k.toFixed(2)]]));

  const json1mb = find(rows, '1 MB', 'every frame', 'JSON.parse (final text, once)');
  const ours1mb = find(rows, '1 MB', 'every frame', 'toolgate');
  gates.push({
    kind: 'gate',
    name: '1 MB, one read per frame: toolgate total / one JSON.parse of the final text',
    measured: (ours1mb.totalMs / json1mb.totalMs).toFixed(2),
    limit: '≤ 10',
    pass: ours1mb.totalMs <= 10 * json1mb.totalMs,
  });
  for (const mode of ['every fragment', 'every frame'] as const) {
    const ours = find(rows, '100 KB', mode, 'toolgate');
    const slowest = Math.min(
      find(rows, '100 KB', mode, 'partial-json (reparse)').totalMs,
      find(rows, '100 KB', mode, 'AI SDK parsePartialJson').totalMs,
    );
    gates.push({
      kind: mode === 'every fragment' ? 'gate' : 'goal',
      name: `100 KB, read ${mode}: the nearest peer's total / toolgate's`,
      measured: (slowest / ours.totalMs).toFixed(0),
      limit: '> 1000',
      pass: slowest / ours.totalMs > 1000,
    });
  }
  for (const input of ['1 KB', '10 KB', '100 KB', '1 MB']) {
    const ours = find(rows, input, 'every fragment', 'toolgate');
    gates.push({ kind: 'goal', name: `${input}: one fragment plus read, p99`, measured: `${ours.p99Us.toFixed(1)} µs`, limit: '< 50 µs', pass: ours.p99Us < 50 });
  }
  results.parser = { rows: withRatio, growth: growthRows };
}

if (run('store')) {
  process.stdout.write('\nstore: 100 calls open at once…\n');
  const rows = benchThroughput();
  const ours = rows[1] as { eventsPerSecond: number };
  console.log('\nReducer and store throughput, 100 calls open at once, fragments interleaved\n');
  console.log(
    table(rows, [
      ['path', (r) => r.competitor],
      ['events', (r) => String(r.events)],
      ['total ms', (r) => r.totalMs.toFixed(1)],
      ['events / s', (r) => Math.round(r.eventsPerSecond).toLocaleString('en')],
      ['x store', (r) => (ours.eventsPerSecond / r.eventsPerSecond).toFixed(2)],
    ]),
  );
  results.store = rows;
}

if (run('devtools')) {
  process.stdout.write('\ndevtools: 50 streams, panel closed and open…\n');
  const { rows, ratio, ratios } = benchDevtools();
  console.log('\n50 streams through a client with the coalescing store: the devtools panel closed, then open (its recorder and its work per frame); median times of 9 alternating pairs\n');
  console.log(
    table(rows, [
      ['panel', (r) => r.panel],
      ['events', (r) => String(r.events)],
      ['total ms', (r) => r.totalMs.toFixed(1)],
      ['panel frames', (r) => String(r.frames)],
      ['x closed', (r) => (r.totalMs / (rows[0] as { totalMs: number }).totalMs).toFixed(2)],
    ]),
  );
  console.log(`\nopen / closed, pair by pair: ${ratios.map((r) => r.toFixed(2)).join(' ')}; median ${ratio.toFixed(2)}`);
  gates.push({ kind: 'goal', name: 'devtools: 50 streams with the panel open / closed (median of 9 pairs)', measured: `${ratio.toFixed(2)}x`, limit: '≤ 1.5x', pass: ratio <= 1.5 });
  results.devtools = { rows, ratio, ratios };
}

if (run('growth')) {
  // Costs in proportion to the work: ten times the work should cost about ten times (a ratio near
  // 10), not a hundred (quadratic), and a store's cost per call should not grow with its session.
  process.stdout.write('\ngrowth: wide open arrays, long sessions…\n');
  // Warm the code up first, so the smaller case is not also the one that pays for compiling.
  measureWideOpenArray(2_000, 1);
  measureWideThroughStore(2_000, 1);
  measureCostPerCall(2_000, 1);
  const [wide4k, wide40k, wide400k] = [4_000, 40_000, 400_000].map((n) => measureWideOpenArray(n, n >= 400_000 ? 3 : 7));
  const [store3k, store30k] = [3_000, 30_000].map((n) => measureWideThroughStore(n));
  const [calls10k, calls100k] = [10_000, 100_000].map((n) => measureCostPerCall(n));
  const rows = [
    { what: 'parser: wide open array, preview read after every fragment', small: `${wide4k!.items.toLocaleString('en')} items: ${wide4k!.totalMs.toFixed(1)} ms`, large: `${wide40k!.items.toLocaleString('en')} items: ${wide40k!.totalMs.toFixed(1)} ms`, ratio: wide40k!.totalMs / wide4k!.totalMs },
    { what: 'parser: the same, ten times wider again', small: `${wide40k!.items.toLocaleString('en')} items: ${wide40k!.totalMs.toFixed(1)} ms`, large: `${wide400k!.items.toLocaleString('en')} items: ${wide400k!.totalMs.toFixed(1)} ms`, ratio: wide400k!.totalMs / wide40k!.totalMs },
    { what: 'store: wide open array, a subscriber reading the preview', small: `${store3k!.items.toLocaleString('en')} items: ${store3k!.totalMs.toFixed(1)} ms`, large: `${store30k!.items.toLocaleString('en')} items: ${store30k!.totalMs.toFixed(1)} ms`, ratio: store30k!.totalMs / store3k!.totalMs },
    { what: 'store: cost per call, a whole session', small: `${calls10k!.calls.toLocaleString('en')} calls: ${calls10k!.usPerCall.toFixed(1)} µs/call`, large: `${calls100k!.calls.toLocaleString('en')} calls: ${calls100k!.usPerCall.toFixed(1)} µs/call`, ratio: calls100k!.usPerCall / calls10k!.usPerCall },
  ];
  console.log('\nGrowth: ten times the work (the last row: the same work in a session ten times longer)\n');
  console.log(table(rows, [['what', (r) => r.what], ['smaller', (r) => r.small], ['larger', (r) => r.large], ['ratio', (r) => r.ratio.toFixed(1)]]));
  // 10x the work costing 10x is linear; 100x would be quadratic. The exponent k of cost ∝ work^k
  // says the same on a scale a noisy machine bends less: 1 is linear, 2 quadratic.
  for (const row of rows.slice(0, 3)) {
    const k = Math.log10(row.ratio);
    gates.push({ kind: 'gate', name: `${row.what}: 10x the work costs ${row.ratio.toFixed(1)}x (exponent)`, measured: k.toFixed(2), limit: '≤ 1.3', pass: k <= 1.3 });
  }
  const perCall = rows[3] as { ratio: number };
  gates.push({ kind: 'gate', name: 'store: cost per call at 100,000 calls / at 10,000', measured: `${perCall.ratio.toFixed(2)}x`, limit: '≤ 1.5x', pass: perCall.ratio <= 1.5 });
  results.growth = { wide: [wide4k, wide40k, wide400k], store: [store3k, store30k], perCall: [calls10k, calls100k] };
}

if (run('memory')) {
  const rows = benchMemory();
  console.log('\nRetained heap (after forced GC)\n');
  console.log(table(rows, [['stage', (r) => r.stage], ['heap KB', (r) => String(r.heapUsedKB)], ['over baseline KB', (r) => String(r.overBaselineKB)]]));
  const closed = rows[2] as { overBaselineKB: number };
  gates.push({ kind: 'gate', name: 'heap after closed, over the baseline before the session', measured: `${closed.overBaselineKB} KB`, limit: '≤ 256 KB', pass: closed.overBaselineKB <= 256 });
  results.memory = rows;
}

if (run('render')) {
  const { benchRender } = await import('./render');
  const rendered = await benchRender();
  results.render = rendered.rows;
  results.renderScroll = rendered.scrolls;
  gates.push(...rendered.gates);
}

if (run('size')) {
  const { benchSize } = await import('./size');
  const sized = await benchSize();
  results.size = sized.rows;
  gates.push(...sized.gates);
  const { benchAppSize } = await import('./app-size');
  const app = await benchAppSize(process.cwd());
  results.appSize = app.rows;
  results.appSizeParts = app.parts;
  gates.push(...app.gates);
}

if (run('server')) {
  const { benchServer } = await import('./server');
  const served = await benchServer();
  console.log("\nThe reference server: another session's round trips while one sends frames as heavy as the limits allow\n");
  console.log(
    table(served.rows, [
      ['sender', (r) => r.sender],
      ['runs', (r) => String(r.runs)],
      ['round trips', (r) => String(r.roundTrips)],
      ['p50 ms', (r) => r.p50Ms.toFixed(1)],
      ['p99 ms', (r) => r.p99Ms.toFixed(1)],
      ['max ms', (r) => r.maxMs.toFixed(1)],
      ['best run max ms', (r) => r.bestRunMaxMs.toFixed(1)],
      ['slowest frame answered, ms', (r) => r.slowestFrameMs.toFixed(1)],
      ['worst trip ÷ slowest frame', (r) => r.share.toFixed(2)],
      ['last frame closed', (r) => r.lastClosed.join(', ')],
    ]),
  );
  results.server = served.rows;
  gates.push(...served.gates);
  const { benchClientCosts } = await import('./client-costs');
  const costs = await benchClientCosts();
  console.log('\nThe reference server: what one client costs, against a quiet run\n');
  console.log(
    table(costs.rows, [
      ['what', (r) => r.what],
      ['quiet', (r) => r.quiet],
      ['loaded', (r) => r.loaded],
      ['ratio', (r) => (Number.isFinite(r.ratio) ? r.ratio.toFixed(2) : '∞')],
      ['', (r) => r.note],
    ]),
  );
  results.serverClientCosts = costs.rows;
  gates.push(...costs.gates);
}

console.log('\nGates (fail the run) and goals (reported)\n');
console.log(table(gates, [['', (g) => (g.pass ? 'pass' : g.kind === 'gate' ? 'FAIL' : 'miss')], ['kind', (g) => g.kind], ['what', (g) => g.name], ['measured', (g) => g.measured], ['limit', (g) => g.limit]]));
results.gates = gates;
// The file holds one run and says which sections it ran: figures of different runs never sit side by side.
results.sections = SECTIONS.filter(run);
const file = join(process.cwd(), 'bench', 'results.json');
writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
console.log(`\nwrote bench/results.json (${(results.sections as string[]).join(', ')})`);
process.exitCode = gates.some((g) => g.kind === 'gate' && !g.pass) ? 1 : 0;
