/**
 * Reading a provider's chunk without trusting it. Each reader returns `undefined` for a missing
 * (or null) field and throws {@link MalformedChunk} for a field of the wrong type, so "absent"
 * and "broken" are never confused; the adapter turns the throw into an `onError` report.
 */

/**
 * Why an adapter could not read a chunk, as the code of its `onError` report:
 * - `not-an-object`: the chunk is not an object (nor the JSON text of one);
 * - `not-json`: a text chunk that is not JSON;
 * - `malformed-chunk`: a known chunk type with a field of the wrong type, or a chunk that
 *   contradicts what came before (a fragment after its call's arguments ended);
 * - `unknown-call`: a chunk about a call that never started;
 * - `dropped-call`: a call that ended without ever receiving its name (nothing to show);
 * - `after-end`: a chunk pushed after `end()`;
 * - `ignored-chunk`: a chunk of a type the stream does not have (a newer API version, or not
 *   that API at all): ignored, and reported once per type;
 * - `adapter-failed`: the adapter itself threw (a bug): the chunk was skipped.
 *
 * @example
 * const adapter = createAnthropicAdapter({ onError: (reason, chunk, code: AdapterIssue) => { if (code !== 'after-end') log.warn(reason) } });
 */
export type AdapterIssue =
  | 'not-an-object'
  | 'not-json'
  | 'malformed-chunk'
  | 'unknown-call'
  | 'dropped-call'
  | 'after-end'
  | 'ignored-chunk'
  | 'adapter-failed'
  /** A chunk named an event only the page may produce (a local interrupt, an approval mark). */
  | 'local-only';

/** Thrown by the field readers and handlers; the adapter turns it into an `onError` report. */
export class MalformedChunk extends Error {
  constructor(
    message: string,
    readonly code: AdapterIssue = 'malformed-chunk',
  ) {
    super(message);
  }
}

export type Rec = Record<string, unknown>;

export function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function optString(obj: Rec, key: string, where: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new MalformedChunk(`${where}.${key} is ${describe(v)}, not a string`);
  return v;
}

export function optNumber(obj: Rec, key: string, where: string): number | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new MalformedChunk(`${where}.${key} is ${describe(v)}, not a number`);
  }
  return v;
}

export function optRecord(obj: Rec, key: string, where: string): Rec | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) throw new MalformedChunk(`${where}.${key} is ${describe(v)}, not an object`);
  return v;
}

export function optArray(obj: Rec, key: string, where: string): unknown[] | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw new MalformedChunk(`${where}.${key} is ${describe(v)}, not an array`);
  return v;
}

export function reqString(obj: Rec, key: string, where: string): string {
  const v = optString(obj, key, where);
  if (v === undefined) throw new MalformedChunk(`${where}.${key} is missing`);
  return v;
}

export function reqNumber(obj: Rec, key: string, where: string): number {
  const v = optNumber(obj, key, where);
  if (v === undefined) throw new MalformedChunk(`${where}.${key} is missing`);
  return v;
}

export function reqRecord(obj: Rec, key: string, where: string): Rec {
  const v = optRecord(obj, key, where);
  if (v === undefined) throw new MalformedChunk(`${where}.${key} is missing`);
  return v;
}

/** A chunk about a call the adapter never saw start. */
export function unknownCall(what: string, id: string): MalformedChunk {
  return new MalformedChunk(`${what} for tool call ${id}, which never started`, 'unknown-call');
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

/** A tool result's text is usually JSON: the value it holds; any other text as it came. */
export function jsonOrText(content: unknown): unknown {
  if (typeof content !== 'string') return content;
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}
