/**
 * Canonical JSON (RFC 8785, JCS) and SHA-256 fingerprints, written for the reference server
 * alone. The kit has its own implementation; keeping two lets a test compare them, so that a
 * bug in one cannot hide in both (DESIGN.md, "Reference server").
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
  writeValue(value, parts, [], '$');
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

function writeValue(value: unknown, out: string[], stack: object[], path: string): void {
  switch (typeof value) {
    case 'string':
      out.push(quote(value, path));
      return;
    case 'number':
      out.push(formatNumber(value, path));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object':
      break;
    default:
      // undefined, function, symbol, bigint: none is a JSON value.
      throw new CanonicalJsonError(`${path}: a ${typeof value} is not a JSON value`);
  }
  if (value === null) {
    out.push('null');
    return;
  }
  if (stack.includes(value)) throw new CanonicalJsonError(`${path}: cyclic structure`);
  stack.push(value);
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      // A hole in a sparse array reads as undefined and is refused like undefined.
      writeValue(value[i], out, stack, `${path}[${i}]`);
    }
    out.push(']');
  } else {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new CanonicalJsonError(`${path}: only plain objects are JSON objects`);
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort(compareUtf16);
    out.push('{');
    keys.forEach((key, i) => {
      if (i > 0) out.push(',');
      out.push(quote(key, `${path} key`), ':');
      writeValue(record[key], out, stack, `${path}.${key}`);
    });
    out.push('}');
  }
  stack.pop();
}

function formatNumber(n: number, path: string): string {
  if (!Number.isFinite(n)) throw new CanonicalJsonError(`${path}: ${n} is not a JSON number`);
  // RFC 8785 §3.2.2.3: ECMAScript Number::toString, with minus zero written as 0.
  if (n === 0) return '0';
  return String(n);
}

const SHORT_ESCAPES: Record<number, string> = {
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0c: '\\f',
  0x0d: '\\r',
  0x22: '\\"',
  0x5c: '\\\\',
};

function quote(s: string, path: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      // I-JSON (RFC 7493 §2.1, required by RFC 8785 §3.1): no lone surrogates.
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      throw new CanonicalJsonError(`${path}: lone surrogate U+${c.toString(16).toUpperCase()} at index ${i}`);
    }
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i);
    out += SHORT_ESCAPES[c] ?? `\\u${c.toString(16).padStart(4, '0')}`;
    start = i + 1;
  }
  return `${out}${s.slice(start)}"`;
}
