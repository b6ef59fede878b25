/**
 * `npm run bench -- server`, second part: what one client costs the reference server
 * (server/README.md "Limits"), each as a ratio against a quiet run in the same process.
 *
 * - Memory held under a slow reader: a client that stops reading asks for large answers (each
 *   `tools.update` is answered with the tools offered, a 900 KB description included); the
 *   server's resident memory above its baseline, at its peak, ÷ the same for a client that reads.
 *   Without `maxBufferedBytes` the server keeps every answer queued for the socket.
 * - A victim's round trips during a flood: one address (127.0.0.2) opens and drops 1,000 sessions
 *   while another client asks `describeTools` over and over; its p99 round trip ÷ the same client's
 *   on a quiet server, and whether it got a session at all (before `maxSessionsPerAddress` it was
 *   answered SERVER_BUSY for the whole resume window).
 * Everything goes to 127.0.0.1 (and 127.0.0.2, the same machine), bounded in count and time.
 */
import WebSocket from 'ws';
import { startReferenceServer } from '../server/server';
import type { Gate } from './main';

export interface ClientCostRow {
  what: string;
  quiet: string;
  loaded: string;
  ratio: number;
  note: string;
}

const ANSWERS = 40;
const FLOOD = 1_000;
const DEADLINE_MS = 60_000;

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const rss = (): number => process.memoryUsage().rss;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function open(url: string, localAddress?: string): Promise<WebSocket> {
  const socket = new WebSocket(url, localAddress === undefined ? {} : { localAddress });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Say hello on `socket`; resolves with the first answer's type (`session.welcome` or `error`). */
function hello(socket: WebSocket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('message', (data) => resolve(String((JSON.parse(String(data)) as { type?: unknown }).type)));
    socket.send(JSON.stringify({ type: 'hello', capabilities: [], tools: [] }));
  });
}

/** Peak resident memory above the baseline while a client asks for ANSWERS large answers, reading them or not. */
async function heldWhileAsking(reads: boolean): Promise<{ peakMb: number; dropped: boolean }> {
  const server = await startReferenceServer({ port: 0, speed: Infinity, log: () => {} });
  try {
    const socket = await open(server.url);
    await hello(socket);
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('error', () => {});
    if (!reads) (socket as unknown as { _socket: { pause(): void } })._socket.pause();
    gc();
    const base = rss();
    let peak = 0;
    const tool = { name: 'echo', description: 'x'.repeat(900 * 1024), parameters: { type: 'object' } };
    const started = performance.now();
    for (let i = 0; i < ANSWERS && !closed && performance.now() - started < DEADLINE_MS; i++) {
      socket.send(JSON.stringify({ type: 'tools.update', tools: [tool] }));
      await pause(20);
      peak = Math.max(peak, rss() - base);
    }
    await pause(200);
    peak = Math.max(peak, rss() - base);
    const dropped = server.ignored.some((r) => r.reason === 'send-buffer-full');
    socket.terminate();
    return { peakMb: Math.max(peak, 0) / 2 ** 20, dropped };
  } finally {
    await server.close();
  }
}

/** The victim's round trips (`describeTools` every 8 ms, `count` of them), during `busy` work or alone. */
async function victimTrips(url: string, count: number): Promise<{ welcomed: boolean; trips: number[] }> {
  const socket = await open(url);
  socket.on('error', () => {});
  const welcomed = (await hello(socket)) === 'session.welcome';
  const trips: number[] = [];
  if (!welcomed) {
    socket.terminate();
    return { welcomed, trips };
  }
  const waiting = new Map<string, () => void>();
  socket.on('message', (data) => waiting.get(String((JSON.parse(String(data)) as { id?: unknown }).id))?.());
  for (let i = 0; i < count; i++) {
    const id = `trip-${i}`;
    const started = performance.now();
    await new Promise<void>((resolve) => {
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ type: 'room.request', id, method: 'describeTools', params: {} }));
    });
    waiting.delete(id);
    trips.push(performance.now() - started);
    await pause(8);
  }
  socket.terminate();
  return { welcomed, trips };
}

/** One address opens and drops FLOOD sessions, a few at a time; resolves with how many it got and how many were refused. */
async function flood(url: string): Promise<{ opened: number; refused: number }> {
  let opened = 0;
  let refused = 0;
  const started = performance.now();
  for (let i = 0; i < FLOOD && performance.now() - started < DEADLINE_MS; i += 20) {
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const socket = await open(url, '127.0.0.2');
        socket.on('error', () => {});
        if ((await hello(socket)) === 'session.welcome') opened += 1;
        else refused += 1;
        socket.terminate();
      }),
    );
  }
  return { opened, refused };
}

const p99 = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? NaN;
};

export async function benchClientCosts(): Promise<{ rows: ClientCostRow[]; gates: Gate[] }> {
  const reading = await heldWhileAsking(true);
  const stalled = await heldWhileAsking(false);
  process.stdout.write(`server: ${ANSWERS} answers of 900 KB: reader held ${reading.peakMb.toFixed(1)} MB, slow reader ${stalled.peakMb.toFixed(1)} MB (dropped: ${stalled.dropped})\n`);

  const quietServer = await startReferenceServer({ port: 0, speed: Infinity, log: () => {} });
  const quiet = await victimTrips(quietServer.url, 200).finally(() => quietServer.close());
  const floodServer = await startReferenceServer({ port: 0, speed: Infinity, resumeWindowMs: 300_000, log: () => {} });
  let flooded: { opened: number; refused: number };
  let victim: { welcomed: boolean; trips: number[] };
  try {
    // A first wave fills what the address may hold; the victim comes while the second runs.
    const first = await flood(floodServer.url);
    const [second, during] = await Promise.all([flood(floodServer.url), victimTrips(floodServer.url, 200)]);
    flooded = { opened: first.opened + second.opened, refused: first.refused + second.refused };
    victim = during;
  } finally {
    await floodServer.close();
  }
  process.stdout.write(`server: flood of ${2 * FLOOD} hellos from one address: ${flooded.opened} sessions, ${flooded.refused} refused; victim welcomed: ${victim.welcomed}\n`);

  const memoryRatio = stalled.peakMb / Math.max(reading.peakMb, 1);
  const tripRatio = victim.welcomed ? p99(victim.trips) / p99(quiet.trips) : Infinity;
  const rows: ClientCostRow[] = [
    {
      what: `memory held while a client asks for ${ANSWERS} answers of 900 KB (peak RSS above baseline)`,
      quiet: `${reading.peakMb.toFixed(1)} MB (reads)`,
      loaded: `${stalled.peakMb.toFixed(1)} MB (stops reading)`,
      ratio: memoryRatio,
      note: stalled.dropped ? 'slow reader dropped (send-buffer-full)' : 'slow reader NOT dropped',
    },
    {
      what: `a victim's p99 round trip while one address opens and drops ${2 * FLOOD} sessions`,
      quiet: `${p99(quiet.trips).toFixed(1)} ms`,
      loaded: victim.welcomed ? `${p99(victim.trips).toFixed(1)} ms` : 'refused (SERVER_BUSY)',
      ratio: tripRatio,
      note: `flood got ${flooded.opened} sessions, ${flooded.refused} refused`,
    },
  ];
  const gates: Gate[] = [
    { kind: 'gate', name: 'server: a client that stops reading is dropped (send-buffer-full)', measured: String(stalled.dropped), limit: 'true', pass: stalled.dropped },
    {
      kind: 'gate',
      name: 'server: memory held for a slow reader ÷ for a reader',
      measured: memoryRatio.toFixed(2),
      limit: '≤ 3',
      pass: memoryRatio <= 3,
    },
    { kind: 'gate', name: 'server: a victim gets a session during a flood from one address', measured: String(victim.welcomed), limit: 'true', pass: victim.welcomed },
    {
      kind: 'goal',
      name: "server: a victim's p99 round trip during the flood ÷ on a quiet server (noisy here)",
      measured: Number.isFinite(tripRatio) ? tripRatio.toFixed(2) : 'refused',
      limit: '≤ 5',
      pass: tripRatio <= 5,
    },
  ];
  return { rows, gates };
}
