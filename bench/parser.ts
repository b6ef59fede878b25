/**
 * Argument previews: toolgate's incremental parser against the peers that reparse the whole
 * buffer on each read (partial-json, as CopilotKit and TanStack AI use it; the AI SDK's
 * parsePartialJson), and one JSON.parse of the final text.
 *
 * Each fragment is 4 characters. Two read modes: a preview read after every fragment, and one
 * read per frame (a fixed 64 fragments, so runs compare). The quadratic peers on long streams
 * would take most of an hour per run; there they are timed at a few dozen points along the
 * stream and the cost is integrated (the output says which rows were sampled).
 */
import { parse as partialJsonParse } from 'partial-json';
import { parsePartialJson as aiParsePartialJson } from 'ai';
import { createArgumentsParser } from '../src/core/json/arguments-parser';
import { fragments } from './inputs';

export const FRAME = 64;
const SAMPLE_POINTS = 40;
/** Above this many reads, a peer is sampled rather than run in full. */
const FULL_RUN_LIMIT = 3000;

export interface ParserRow {
  input: string;
  bytes: number;
  fragments: number;
  mode: 'every fragment' | 'every frame';
  competitor: string;
  /** Total CPU over the stream, ms. */
  totalMs: number;
  /** One fragment plus its read (if any): 99th percentile and worst, µs. */
  p99Us: number;
  maxUs: number;
  method: 'measured' | `sampled at ${number} points, integrated`;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] as number;
}

function summarize(costs: Float64Array) {
  let total = 0;
  for (const c of costs) total += c;
  const sorted = Float64Array.from(costs).sort();
  return { totalMs: total, p99Us: percentile(sorted, 0.99) * 1000, maxUs: (sorted[sorted.length - 1] ?? 0) * 1000 };
}

/**
 * toolgate, as the store runs it (`keepText: false`: the call keeps its text itself, as any
 * reader must). After one warm-up run, the total is timed around the whole stream, best of
 * `runs`; a timer per fragment would add its own cost (about 0.1 µs a call here, a fifth of
 * the parser's) to every fragment. Then one more run times each fragment plus its read for the
 * 99th percentile and the worst. The heap is collected before the warm-up only: a forced full
 * collection between runs also throws away the optimised code, which a session never does
 * between its calls.
 */
function measureToolgate(frags: readonly string[], every: number, runs = 7) {
  const stream = () => {
    const parser = createArgumentsParser({ keepText: false });
    for (let i = 0; i < frags.length; i++) {
      parser.append(frags[i] as string);
      if ((i + 1) % every === 0 || i === frags.length - 1) void parser.value;
    }
  };
  gc();
  stream();
  let totalMs = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    stream();
    totalMs = Math.min(totalMs, performance.now() - t0);
  }
  const costs = new Float64Array(frags.length);
  const parser = createArgumentsParser({ keepText: false });
  for (let i = 0; i < frags.length; i++) {
    const t0 = performance.now();
    parser.append(frags[i] as string);
    if ((i + 1) % every === 0 || i === frags.length - 1) void parser.value;
    costs[i] = performance.now() - t0;
  }
  return { ...summarize(costs), totalMs };
}

type Reparse = (text: string) => unknown | Promise<unknown>;

const PEERS: Record<string, Reparse> = {
  'partial-json (reparse)': (text) => {
    try {
      return partialJsonParse(text);
    } catch {
      return undefined;
    }
  },
  'AI SDK parsePartialJson': (text) => aiParsePartialJson(text),
};

async function timeOnce(reparse: Reparse, text: string): Promise<number> {
  const t0 = performance.now();
  const out = reparse(text);
  if (out instanceof Promise) await out;
  return performance.now() - t0;
}

/** A peer reparsing the buffer at each read: measured in full, or sampled and integrated. */
async function measurePeer(reparse: Reparse, frags: readonly string[], every: number) {
  const readAt: number[] = [];
  for (let i = 0; i < frags.length; i++) if ((i + 1) % every === 0 || i === frags.length - 1) readAt.push(i);
  const prefixes = new Array<number>(frags.length);
  let length = 0;
  for (let i = 0; i < frags.length; i++) prefixes[i] = length += (frags[i] as string).length;
  const text = frags.join('');
  const costs = new Float64Array(frags.length);

  if (readAt.length <= FULL_RUN_LIMIT) {
    let best = Infinity;
    for (let r = 0; r < 2; r++) {
      gc();
      let buffer = '';
      const run = new Float64Array(frags.length);
      for (let i = 0, k = 0; i < frags.length; i++) {
        const t0 = performance.now();
        buffer += frags[i];
        if (readAt[k] === i) {
          const out = reparse(buffer);
          if (out instanceof Promise) await out;
          k++;
        }
        run[i] = performance.now() - t0;
      }
      const total = run.reduce((a, b) => a + b, 0);
      if (total < best) {
        best = total;
        costs.set(run);
      }
    }
    return { ...summarize(costs), method: 'measured' as const };
  }

  // Sampled: the cost of a read at evenly spaced points, median of 3, interpolated between them.
  const points: { read: number; ms: number }[] = [];
  for (let s = 0; s < SAMPLE_POINTS; s++) {
    const read = Math.round((s / (SAMPLE_POINTS - 1)) * (readAt.length - 1));
    const prefix = text.slice(0, prefixes[readAt[read] as number]);
    const runs = [await timeOnce(reparse, prefix), await timeOnce(reparse, prefix), await timeOnce(reparse, prefix)].sort((a, b) => a - b);
    points.push({ read, ms: runs[1] as number });
  }
  for (let r = 0, p = 0; r < readAt.length; r++) {
    while (p < points.length - 2 && (points[p + 1] as { read: number }).read < r) p++;
    const a = points[p] as { read: number; ms: number };
    const b = points[p + 1] ?? a;
    const t = b.read === a.read ? 0 : (r - a.read) / (b.read - a.read);
    costs[readAt[r] as number] = a.ms + (b.ms - a.ms) * t;
  }
  return { ...summarize(costs), method: `sampled at ${SAMPLE_POINTS} points, integrated` as const };
}

/** JSON.parse of the final text, once: best of 5. */
export function measureJsonParse(text: string): number {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    JSON.parse(text);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

export interface BenchParserOptions {
  /** Run the peers too (default true). */
  peers?: boolean;
  /** Read modes (default both). A wide open array read after every fragment is quadratic for any parser that hands out plain arrays. */
  modes?: readonly ParserRow['mode'][];
}

export async function benchParser(input: string, text: string, options: BenchParserOptions = {}): Promise<ParserRow[]> {
  const frags = fragments(text, 4);
  const rows: ParserRow[] = [];
  const base = { input, bytes: text.length, fragments: frags.length };
  const modes = options.modes ?? ['every fragment', 'every frame'];
  for (const [mode, every] of [['every fragment', 1], ['every frame', FRAME]] as const) {
    if (!modes.includes(mode)) continue;
    const ours = measureToolgate(frags, every);
    rows.push({ ...base, mode, competitor: 'toolgate', ...ours, method: 'measured' });
    if (options.peers === false) continue;
    for (const [name, reparse] of Object.entries(PEERS)) {
      rows.push({ ...base, mode, competitor: name, ...(await measurePeer(reparse, frags, every)) });
    }
  }
  const jsonMs = measureJsonParse(text);
  rows.push({ ...base, mode: 'every frame', competitor: 'JSON.parse (final text, once)', totalMs: jsonMs, p99Us: 0, maxUs: jsonMs * 1000, method: 'measured' });
  return rows;
}

/**
 * The case: a wide array still open, its preview read after every 4-character fragment.
 * `items` single-digit numbers (`[1,2,…`, two characters an item), so ten times the items is ten
 * times the text. Best of `runs`: seven by default, since the smaller case takes a few milliseconds,
 * which one busy moment on a shared machine can double (a best of three once read 150 ms where the
 * next run read 8).
 */
export function measureWideOpenArray(items: number, runs = 7): { items: number; bytes: number; fragments: number; totalMs: number } {
  const text = `{"values":[${Array.from({ length: items }, (_, i) => i % 10).join(',')}]}`;
  const frags = fragments(text, 4);
  let totalMs = Infinity;
  for (let r = 0; r < runs; r++) {
    gc();
    const t0 = performance.now();
    const parser = createArgumentsParser({ keepText: false });
    for (const f of frags) {
      parser.append(f);
      void parser.value;
    }
    totalMs = Math.min(totalMs, performance.now() - t0);
  }
  return { items, bytes: text.length, fragments: frags.length, totalMs };
}
