/**
 * Canonical JSON (RFC 8785, JSON Canonicalization Scheme, "JCS").
 *
 * docs/protocol.md, "Confirmation": the fingerprint a person compares is taken over the canonical JSON of
 * the exact arguments, so that the same value always gives the same text, whatever the order
 * in which its keys were written. The reference server hashes with its own implementation on
 * purpose (docs/architecture.md, "The reference server"): a bug in one cannot hide in both, so nothing here is
 * shared with `server/`.
 */

import type { JsonValue } from './json-value';

/**
 * Thrown when a value cannot be canonicalised: it is not JSON (functions, `undefined`,
 * symbols, bigints, non-finite numbers, cycles, class instances), or a string holds a lone
 * surrogate, which RFC 8785 section 3.1 excludes by requiring I-JSON (RFC 7493 section 2.1).
 *
 * @example
 * try { canonicalJson(JSON.parse('"\\ud800"')) } catch (e) { e instanceof CanonicalJsonError } // true
 */
export class CanonicalJsonError extends TypeError {
  override readonly name = 'CanonicalJsonError';
  /** Where in the value the problem sits, e.g. `arguments.items[2]`. */
  readonly path: string;
  constructor(message: string, path: string) {
    super(message);
    this.path = path;
  }
}

/**
 * The canonical JSON text of `value` (RFC 8785):
 * - no whitespace;
 * - numbers as ECMAScript serialises them (`1e+21`, `1e-7`, `-0` gives `0`; section 3.2.2.3);
 * - strings escaped only where JSON requires it, control characters as `\b \t \n \f \r` or
 *   lower-case `\u00hh`, everything else as is (section 3.2.2.2);
 * - object properties sorted by their names' UTF-16 code units (section 3.2.3), recursively;
 * - array order kept.
 *
 * Throws a {@link CanonicalJsonError} for anything that is not JSON or has a lone surrogate.
 * Own keys such as `__proto__` are ordinary keys here, as `JSON.parse` makes them.
 *
 * @example
 * canonicalJson({ b: [1e21, -0], a: 'é\n' }) // '{"a":"é\\n","b":[1e+21,0]}'
 */
export function canonicalJson(value: JsonValue): string {
  const active = new Set<object>();
  const parts: string[] = [];

  const write = (v: unknown, path: string): void => {
    switch (typeof v) {
      case 'string':
        parts.push(serializeString(v, path));
        return;
      case 'boolean':
        parts.push(v ? 'true' : 'false');
        return;
      case 'number':
        parts.push(serializeNumber(v, path));
        return;
      case 'object': {
        if (v === null) {
          parts.push('null');
          return;
        }
        if (active.has(v)) throw new CanonicalJsonError(`${path} refers back to itself (a cycle)`, path);
        active.add(v);
        if (Array.isArray(v)) {
          parts.push('[');
          for (let i = 0; i < v.length; i++) {
            if (i > 0) parts.push(',');
            write(v[i], `${path}[${i}]`);
          }
          parts.push(']');
        } else {
          const proto = Object.getPrototypeOf(v) as unknown;
          if (proto !== Object.prototype && proto !== null) {
            throw new CanonicalJsonError(`${path} is not a plain object`, path);
          }
          // RFC 8785 section 3.2.3: sort by UTF-16 code units. The default comparison of
          // Array.prototype.sort compares strings by code units, which is exactly that
          // (and not by code points or by locale).
          const keys = Object.keys(v).sort();
          parts.push('{');
          for (let i = 0; i < keys.length; i++) {
            const key = keys[i] as string;
            if (i > 0) parts.push(',');
            parts.push(serializeString(key, `${path} key ${JSON.stringify(key)}`), ':');
            // An own `__proto__` data property shadows the accessor, so this reads the own value.
            write((v as Record<string, unknown>)[key], `${path}.${key}`);
          }
          parts.push('}');
        }
        active.delete(v);
        return;
      }
      default:
        throw new CanonicalJsonError(
          `${path} is ${v === undefined ? 'undefined' : `a ${typeof v}`}, which JSON cannot carry`,
          path,
        );
    }
  };

  write(value, 'value');
  return parts.join('');
}

/**
 * RFC 8785 section 3.2.2.3: numbers are serialised as ECMAScript's Number::toString does,
 * which is what `JSON.stringify` does for finite numbers (and it writes `-0` as `0`).
 */
function serializeNumber(n: number, path: string): string {
  if (!Number.isFinite(n)) throw new CanonicalJsonError(`${path} is ${String(n)}, which JSON cannot carry`, path);
  return JSON.stringify(n);
}

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * RFC 8785 section 3.2.2.2. For well-formed strings, ECMAScript's `JSON.stringify` (QuoteJSONString)
 * escapes exactly as JCS asks: `\"`, `\\`, `\b \t \n \f \r`, other controls as lower-case
 * `\u00hh`, and everything else (including U+007F, U+2028 and U+2029) as is.
 * Lone surrogates are refused rather than escaped: I-JSON forbids them, and UTF-8 cannot encode
 * them, so hashing would silently replace them with U+FFFD and two different values would share
 * one fingerprint.
 */
function serializeString(s: string, path: string): string {
  if (LONE_SURROGATE.test(s)) {
    throw new CanonicalJsonError(`${path} holds a lone surrogate, which canonical JSON (I-JSON) cannot carry`, path);
  }
  return JSON.stringify(s);
}
