/**
 * JSON Pointer (RFC 6901) over a JSON value, reading own properties only: a pointer such as
 * `/__proto__/polluted` never reaches a prototype, and `/constructor` finds nothing on a plain
 * object that has no such key of its own.
 */

/**
 * The result of reading a pointer: the value found, or that nothing is there.
 *
 * @example
 * const read: PointerRead = readJsonPointer({ a: [1] }, '/a/0'); // { found: true, value: 1 }
 */
export type PointerRead = { found: true; value: unknown } | { found: false };

const NOTHING: PointerRead = Object.freeze({ found: false });

/**
 * Splits a pointer into its reference tokens, or `undefined` when it is not a JSON Pointer
 * (it must be empty or start with `/`, and `~` must be followed by `0` or `1`).
 */
export function parseJsonPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    if (/~(?![01])/.test(raw)) return undefined;
    tokens.push(raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return tokens;
}

/**
 * Reads `pointer` in `value`; `{ found: false }` for a pointer that is not valid or leads nowhere.
 *
 * @example
 * readJsonPointer({ 'a/b': 1 }, '/a~1b') // { found: true, value: 1 }
 */
export function readJsonPointer(value: unknown, pointer: string): PointerRead {
  const tokens = parseJsonPointer(pointer);
  if (tokens === undefined) return NOTHING;
  let at: unknown = value;
  for (const token of tokens) {
    if (Array.isArray(at)) {
      // RFC 6901: array indexes are decimal digits without leading zeros.
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return NOTHING;
      const index = Number(token);
      if (index >= at.length) return NOTHING;
      at = at[index];
    } else if (at !== null && typeof at === 'object') {
      if (!Object.prototype.hasOwnProperty.call(at, token)) return NOTHING;
      at = (at as Record<string, unknown>)[token];
    } else {
      return NOTHING;
    }
  }
  return { found: true, value: at };
}
