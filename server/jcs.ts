/**
 * Canonical JSON (RFC 8785, JCS) and SHA-256 fingerprints, written for the reference server
 * alone. The kit has its own implementation; keeping two lets a test compare them, so that a
 * bug in one cannot hide in both (docs/architecture.md, "The reference server").
 */
import { createHash } from 'node:crypto';

export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';
}

/**
 * The RFC 8785 text of a JSON value: object members sorted by UTF-16 code units, no
 * whitespace, numbers as ECMAScript writes them (RFC 8785 §3.2.2.3 adopts that algorithm),
 * strings with the minimal escapes of §3.2.2.2. Throws on anything that is not I-JSON:
 * non-finite numbers, `undefined`, functions, symbols, bigints, lone surrogates, cycles and
 * objects that are not plain (Date, Map, class instances).
 */
export function canonicalize(value: unknown): string {
  const parts: string[] = [];
  for (const piece of canonicalPieces(value)) parts.push(piece);
  return parts.join('');
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The fingerprint the server binds confirmations and approvals to: SHA-256 of the JCS text. */
export function fingerprintOf(value: unknown): string {
  return sha256Hex(canonicalize(value));
}

/**
 * `fingerprintOf`, computed in slices of at most about `sliceMs` of work, giving the event loop
 * back between them: a large value (a megabyte of arguments, ten thousand members) never holds up
 * the other sessions for longer than a slice.
 */
export async function fingerprintInSlices(value: unknown, sliceMs = 4): Promise<string> {
  const parts: string[] = [];
  let sliceStart = performance.now();
  let count = 0;
  for (const piece of canonicalPieces(value)) {
    parts.push(piece);
    if (++count % 256 !== 0 || performance.now() - sliceStart < sliceMs) continue;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  }
  const hash = createHash('sha256');
  // The digest in slices too: a megabyte of text is a few milliseconds of hashing.
  for (let i = 0; i < parts.length; i += 4096) {
    hash.update(parts.slice(i, i + 4096).join(''), 'utf8');
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return hash.digest('hex');
}

/**
 * A fingerprint as a client may send it: hex in either case, optionally prefixed `sha256:`.
 * Returns the lowercase 64-digit form, or `undefined` when it is not a SHA-256 hex digest.
 */
export function normalizeFingerprint(input: unknown): string | undefined {
  if (typeof input !== 'string') return undefined;
  const hex = (input.startsWith('sha256:') ? input.slice(7) : input).toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : undefined;
}

/** Compare two strings by UTF-16 code units, as RFC 8785 §3.2.3 sorts member names. */
export function compareUtf16(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Where a value sits: its container and its key there (the root has neither). */
interface Place {
  parent: Open | undefined;
  key: string | number | undefined;
}

/** An array or object being written: its members and how far the writing got. */
interface Open extends Place {
  value: object;
  /** The object's sorted keys, or null for an array. */
  keys: readonly string[] | null;
  length: number;
  index: number;
}

/** `$.a[2].b`: written only for an error message, so the walk costs nothing on the way. */
function pathOf(place: Place): string {
  const parts: string[] = [];
  for (let p: Place | undefined = place; p?.parent; p = p.parent) parts.push(typeof p.key === 'number' ? `[${p.key}]` : `.${String(p.key)}`);
  return `$${parts.reverse().join('')}`;
}

/** The text of a value that is not a container, or `undefined` for a container. */
function leaf(value: unknown, place: Place): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value, place);
    case 'number':
      return formatNumber(value, place);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return value === null ? 'null' : undefined;
    default:
      // undefined, function, symbol, bigint: none is a JSON value.
      throw new CanonicalJsonError(`${pathOf(place)}: a ${typeof value} is not a JSON value`);
  }
}

function opening(value: object, place: Place, open: Set<object>): Open {
  // The containers being written: meeting one again is a cycle.
  if (open.has(value)) throw new CanonicalJsonError(`${pathOf(place)}: cyclic structure`);
  open.add(value);
  if (Array.isArray(value)) return { parent: place.parent, key: place.key, value, keys: null, length: value.length, index: 0 };
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new CanonicalJsonError(`${pathOf(place)}: only plain objects are JSON objects`);
  // The default sort compares strings by UTF-16 code units, which is §3.2.3's order (and what
  // compareUtf16 spells out); it is native, so a wide object sorts fast.
  const keys = Object.keys(value).sort();
  return { parent: place.parent, key: place.key, value, keys, length: keys.length, index: 0 };
}

/**
 * The canonical text of `root`, piece by piece, with an explicit stack rather than recursion:
 * no depth of nesting can overflow the call stack, and a caller can pause between pieces.
 */
function* canonicalPieces(root: unknown): Generator<string, void, undefined> {
  const open = new Set<object>();
  const stack: Open[] = [];
  let next: (Place & { value: unknown }) | undefined = { value: root, parent: undefined, key: undefined };
  for (;;) {
    if (next) {
      const text = leaf(next.value, next);
      if (text !== undefined) {
        yield text;
      } else {
        const container = opening(next.value as object, next, open);
        stack.push(container);
        yield container.keys ? '{' : '[';
      }
      next = undefined;
    }
    const top = stack.at(-1);
    if (!top) return;
    if (top.index === top.length) {
      yield top.keys ? '}' : ']';
      open.delete(top.value);
      stack.pop();
      continue;
    }
    const i = top.index++;
    if (top.keys) {
      const key = top.keys[i]!;
      yield `${i > 0 ? ',' : ''}${quote(key, { parent: top, key: `${key} key` })}:`;
      next = { value: (top.value as Record<string, unknown>)[key], parent: top, key };
    } else {
      if (i > 0) yield ',';
      // A hole in a sparse array reads as undefined and is refused like undefined.
      next = { value: (top.value as unknown[])[i], parent: top, key: i };
    }
  }
}

function formatNumber(n: number, place: Place): string {
  if (!Number.isFinite(n)) throw new CanonicalJsonError(`${pathOf(place)}: ${n} is not a JSON number`);
  // RFC 8785 §3.2.2.3: ECMAScript Number::toString, with minus zero written as 0.
  if (n === 0) return '0';
  return String(n);
}

/** A surrogate that is not half of a pair (I-JSON, RFC 7493 §2.1, required by RFC 8785 §3.1). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * RFC 8785 §3.2.2.2 adopts ECMAScript's QuoteJSONString by reference (as §3.2.2.3 adopts
 * Number::toString): `\"`, `\\`, `\b \t \n \f \r`, other controls as lowercase `\u00xx`, nothing
 * else escaped. The engine's `JSON.stringify` is that algorithm, natively: a megabyte of escapes
 * costs milliseconds, where a loop over characters here stalled every other session for a tenth
 * of a second. Lone surrogates, which it would escape, are refused first.
 */
function quote(s: string, place: Place): string {
  const lone = LONE_SURROGATE.exec(s);
  if (lone) {
    const c = s.charCodeAt(lone.index);
    throw new CanonicalJsonError(`${pathOf(place)}: lone surrogate U+${c.toString(16).toUpperCase()} at index ${lone.index}`);
  }
  return JSON.stringify(s);
}
