/**
 * `npm run soak` (scripts/soak.mjs bundles this and runs it with `node --expose-gc`).
 *
 * 10,000 calls (by default) through the reference server (a process of its own), the client, the
 * store, the app-tool host and the approval gate, in sessions of 1,000 calls each; every session
 * ends with `closed`. The page keeps every session's objects (store, host, client, controller)
 * referenced until the end, as an application that holds on to them would. Checked (heap after a
 * forced GC):
 * - before each close: every call shown once and ended, every app call run once;
 * - after each close: the store, the host and the confirmation queue are empty, sampled call
 *   objects are collected, and what is left of the session, its closed page still referenced, is
 *   within --page-tolerance-kb (300) of the heap before it opened (a session of 1,000 calls holds
 *   1 to 2 MB before its close; its closed page's own objects and compiled code stay);
 * - once the closed pages are let go: the heap is within --tolerance-mb (1) of the baseline taken
 *   after three warm-up sessions.
 *
 * Options: --calls=N (10000), --sessions=S (10), --tolerance-mb=T (1), --page-tolerance-kb=K (300).
 * Prints a summary; exits 1 when a check fails.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { checkAfterClose, checkBeforeClose, closePage, openSoakPage, runTurns, type SoakPage } from './soak';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  console.error('Run with node --expose-gc (npm run soak does).');
  process.exit(2);
}

const option = (name: string, fallback: number): number => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg === undefined ? fallback : Number(arg.slice(name.length + 3));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};
const CALLS = option('calls', 10_000);
const SESSIONS = option('sessions', 10);
const TOLERANCE_MB = option('tolerance-mb', 1);
const PAGE_TOLERANCE_KB = option('page-tolerance-kb', 300);
const CALLS_PER_SESSION = Math.ceil(CALLS / SESSIONS);

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(2)} MB`;

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 6; i++) {
    (gc as () => void)();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** The server, in its own process (its logs of every session are kept for tests, not the page's memory). */
async function startServer(): Promise<{ url: string; stop(): void }> {
  const here = dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, [join(here, 'soak-server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined) resolve(line.trim());
    });
    child.on('exit', (code) => reject(new Error(`the soak server exited (${String(code)})`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

const failures: string[] = [];
const server = await startServer();
const kept: SoakPage[] = [];
const started = performance.now();
try {
  // Warm-up: three sessions through every path, closed, so that the baseline holds the code the
  // engine compiles for them (what still grows later is mostly more of that code, and the small
  // shell of each closed page kept referenced).
  for (let w = 0; w < 3; w++) {
    const warm = openSoakPage(server.url);
    kept.push(warm);
    await warm.session.ready;
    await runTurns(warm, 4, `warm${w}`, { interruptEvery: 4, deployEvery: 4 });
    await closePage(warm);
    failures.push(...checkAfterClose(warm).map((p) => `warm-up: ${p}`));
  }
  const baseline = await settledHeap();

  const rows: string[] = [];
  let calls = 0;
  let events = 0;
  let largestSession = 0;
  let largestLeft = 0;
  for (let s = 0; s < SESSIONS; s++) {
    const opened = await settledHeap();
    const page = openSoakPage(server.url);
    kept.push(page);
    await page.session.ready;
    const t0 = performance.now();
    const turns = await runTurns(page, 1, `s${s}`, { minCalls: CALLS_PER_SESSION });
    const ms = performance.now() - t0;
    failures.push(...checkBeforeClose(page).map((p) => `session ${s}: ${p}`));
    // This harness's own bookkeeping (a count per app call) must not count as the kit's memory.
    page.runs.clear();
    const held = (await settledHeap()) - opened;
    largestSession = Math.max(largestSession, held);
    // Watch (without holding) what the session shows, then close it.
    const refs = ((): WeakRef<object>[] => {
      const state = page.store.getState();
      const out: WeakRef<object>[] = [new WeakRef(state), new WeakRef(state.calls), new WeakRef(page.host.getState())];
      state.order.forEach((id, i) => i % 25 === 0 && out.push(new WeakRef(state.calls[id] as object)));
      return out;
    })();
    await closePage(page);
    failures.push(...checkAfterClose(page).map((p) => `session ${s}: ${p}`));
    const left = (await settledHeap()) - opened;
    largestLeft = Math.max(largestLeft, left);
    const alive = refs.filter((r) => r.deref() !== undefined).length;
    if (alive > 0) failures.push(`session ${s}: ${alive} of ${refs.length} watched objects are still reachable after closed`);
    if (left > PAGE_TOLERANCE_KB * 1024) failures.push(`session ${s}: ${mb(left)} left after closed (tolerance ${PAGE_TOLERANCE_KB} kB)`);
    calls += page.counts.calls;
    events += page.counts.events;
    rows.push(
      `  session ${String(s).padStart(2)}: ${String(page.counts.calls).padStart(5)} calls, ${String(page.counts.events).padStart(6)} events, ` +
        `${turns.turnMs.length} turns (${turns.interrupted} interrupted, ${turns.deploys} through the gate), ${(ms / 1000).toFixed(1)} s ` +
        `(first turn ${Math.round(turns.turnMs[0] ?? 0)} ms, last ${Math.round(turns.turnMs.at(-1) ?? 0)} ms); ` +
        `held before close ${mb(held)}, left after close ${mb(left)}`,
    );
  }
  // The application lets the closed pages go: the heap is back at the baseline.
  kept.splice(3);
  const final = await settledHeap();
  const seconds = (performance.now() - started) / 1000;
  const growth = final - baseline;
  if (growth > TOLERANCE_MB * MB) failures.push(`the heap is ${mb(growth)} over its baseline once the closed pages are let go (tolerance ${TOLERANCE_MB} MB)`);
  if (calls < CALLS) failures.push(`only ${calls} calls ran (asked for ${CALLS})`);

  console.log(`toolgate soak: ${calls} calls in ${SESSIONS} sessions (${events} events) in ${seconds.toFixed(1)} s, ${Math.round(calls / seconds)} calls/s`);
  console.log(rows.join('\n'));
  console.log(`  heap (forced GC) after three warm-up sessions closed: ${mb(baseline)}`);
  console.log(`  a session held up to ${mb(largestSession)} before its close; at most ${mb(largestLeft)} was left after it (the closed page's own objects, still referenced; tolerance ${PAGE_TOLERANCE_KB} kB)`);
  console.log(`  once the closed pages are let go: ${mb(final)}, ${mb(growth)} over the baseline (tolerance ${TOLERANCE_MB} MB)`);
  console.log(
    "  (a turn should cost about the same late in a session as early: the store's chunked call table copies one 32-call chunk per event, about 7.5 µs at 1,000 calls and 15 µs at 10,000 with the store alone)",
  );
} catch (error) {
  failures.push(`the soak stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  for (const page of kept) page.session.close();
  server.stop();
}
if (failures.length > 0) {
  console.log(`FAILED:\n${failures.map((f) => `  ${f}`).join('\n')}`);
  process.exit(1);
}
console.log('ok: nothing lost, nothing done twice, nothing kept after closed');
process.exit(0);
