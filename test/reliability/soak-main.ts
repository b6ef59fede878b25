/**
 * `npm run soak` (scripts/soak.mjs bundles this and runs it with `node --expose-gc`).
 *
 * 10,000 calls (by default) through the reference server (a process of its own), the client, the
 * store, the app-tool host and the approval gate, in sessions of 1,000 calls each; every session
 * ends with `closed`. The page keeps every session's objects (store, host, client, controller)
 * referenced, as an application that holds on to them would. Checked:
 * - before each close: every call shown once and ended, every app call run once;
 * - after each close: the store, the host and the confirmation queue are empty, sampled call
 *   objects are collected, and the heap after a forced GC is back at the baseline (measured after
 *   a warm-up session closed) within the stated tolerance.
 *
 * Options: --calls=N (10000), --sessions=S (10), --tolerance-mb=T (1). The tolerance is below what
 * one session holds before its close (about 1 MB for 1,000 calls), and every closed page stays
 * referenced, so a leak of a tenth of each session would add up past it over ten sessions.
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
  // Warm-up: one session through every path, closed; then the baseline.
  const warm = openSoakPage(server.url);
  kept.push(warm);
  await warm.session.ready;
  await runTurns(warm, 4, 'warm', { interruptEvery: 4, deployEvery: 4 });
  await closePage(warm);
  failures.push(...checkAfterClose(warm).map((p) => `warm-up: ${p}`));
  const baseline = await settledHeap();

  const rows: string[] = [];
  let calls = 0;
  let events = 0;
  let worstAfter = baseline;
  let largestSession = 0;
  for (let s = 0; s < SESSIONS; s++) {
    const page = openSoakPage(server.url);
    kept.push(page);
    await page.session.ready;
    const t0 = performance.now();
    const turns = await runTurns(page, 1, `s${s}`, { minCalls: CALLS_PER_SESSION });
    const ms = performance.now() - t0;
    failures.push(...checkBeforeClose(page).map((p) => `session ${s}: ${p}`));
    const held = (await settledHeap()) - baseline;
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
    const after = await settledHeap();
    const alive = refs.filter((r) => r.deref() !== undefined).length;
    if (alive > 0) failures.push(`session ${s}: ${alive} of ${refs.length} watched objects are still reachable after closed`);
    worstAfter = Math.max(worstAfter, after);
    calls += page.counts.calls;
    events += page.counts.events;
    rows.push(
      `  session ${String(s).padStart(2)}: ${String(page.counts.calls).padStart(5)} calls, ${String(page.counts.events).padStart(6)} events, ` +
        `${turns.turnMs.length} turns (${turns.interrupted} interrupted, ${turns.deploys} through the gate), ${(ms / 1000).toFixed(1)} s, ` +
        `first turn ${Math.round(turns.turnMs[0] ?? 0)} ms, last ${Math.round(turns.turnMs.at(-1) ?? 0)} ms; held before close ${mb(held)}, ` +
        `after close ${mb(after - baseline)} over baseline`,
    );
  }
  const seconds = (performance.now() - started) / 1000;
  const growth = worstAfter - baseline;
  if (growth > TOLERANCE_MB * MB) failures.push(`the heap after closed is ${mb(growth)} over its baseline (tolerance ${TOLERANCE_MB} MB)`);
  if (calls < CALLS) failures.push(`only ${calls} calls ran (asked for ${CALLS})`);

  console.log(`toolgate soak: ${calls} calls in ${SESSIONS} sessions (${events} events) in ${seconds.toFixed(1)} s, ${Math.round(calls / seconds)} calls/s`);
  console.log(rows.join('\n'));
  console.log(`  heap baseline (after a warm-up session closed, forced GC): ${mb(baseline)}`);
  console.log(`  largest session held before its close: ${mb(largestSession)}`);
  console.log(`  worst heap after closed: ${mb(worstAfter)} (${mb(growth)} over baseline; tolerance ${TOLERANCE_MB} MB) with all ${kept.length} closed pages still referenced`);
  console.log('  (a turn costs more as its session grows: the store copies its record of calls on every event)');
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
