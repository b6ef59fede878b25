/**
 * Realistic tool arguments for the benchmarks, the same every run (a seeded generator): nested
 * objects, arrays of records, long strings with escapes and emoji.
 */

/** mulberry32: a tiny seeded PRNG, so every run measures the same text. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'invoice', 'customer', 'ship', 'order', 'résumé', 'naïve', 'Zürich', '東京', 'emoji 😀', 'flag 🇫🇷', 'tab\there', 'quote "x"', 'back\\slash', 'line\nbreak'];

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)] as string);
  return out.join(' ');
}

function record(rand: () => number, id: number) {
  return {
    id,
    name: sentence(rand, 3),
    email: `user${id}@example.com`,
    active: rand() > 0.3,
    score: Math.round(rand() * 1e6) / 100,
    parent: rand() > 0.8 ? null : id - 1,
    tags: [sentence(rand, 1), sentence(rand, 1)],
    address: { street: `${id} ${sentence(rand, 2)}`, city: sentence(rand, 1), zip: String(10000 + id) },
    notes: sentence(rand, 8),
  };
}

/**
 * Tool arguments of about `bytes` characters of JSON: a document edit with a long body, nested
 * options and an array of records, in the proportions an agent writing a file or a data import
 * produces.
 */
export function realisticArguments(bytes: number): string {
  const rand = random(bytes);
  const records: unknown[] = [];
  const args = {
    path: 'src/data/customers.json',
    mode: 'replace',
    options: { format: { indent: 2, newline: '\n', quote: '"' }, backup: true, retries: 3, tags: ['import', 'nightly'] },
    summary: sentence(rand, 20),
    body: '',
    records,
  };
  let size = JSON.stringify(args).length;
  const bodyTarget = bytes * 0.3;
  const body: string[] = [];
  let bodySize = 0;
  while (bodySize < bodyTarget) {
    const line = sentence(rand, 10) + '\n';
    body.push(line);
    bodySize += JSON.stringify(line).length - 2;
  }
  args.body = body.join('');
  size = JSON.stringify(args).length;
  let id = 0;
  while (size < bytes) {
    const r = record(rand, id++);
    records.push(r);
    size += JSON.stringify(r).length + 1;
  }
  return JSON.stringify(args);
}

/** A wide open array: `{"values":[0.5, 1.5, …]}` with `count` numbers, written as it streams. */
export function wideArray(count: number): string {
  const rand = random(count);
  return JSON.stringify({ values: Array.from({ length: count }, () => Math.round(rand() * 1e4) / 100) });
}

/** Cut `text` into fragments of `size` code points (a stream never splits a character). */
export function fragments(text: string, size = 4): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}
