/**
 * JSON values as the kit holds them: plain, deep-frozen copies that nobody can change after
 * they were shown, with keys such as `__proto__` kept as ordinary own keys.
 */

/**
 * A JSON value: what `JSON.parse` can return.
 *
 * @example
 * const args: JsonValue = { to: 'bob', amounts: [5, 10], note: null };
 */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * What {@link snapshotJson} returns: a frozen copy, or why the value is not JSON.
 *
 * @example
 * const snapshot: JsonSnapshot = snapshotJson(args);
 * if (!snapshot.ok) refuse(snapshot.reason);
 */
export type JsonSnapshot = { ok: true; value: JsonValue } | { ok: false; reason: string };

/**
 * Define `key` as an own, enumerable data property, as `JSON.parse` does. Plain assignment
 * would call the `__proto__` setter and change the object's prototype instead.
 *
 * @example
 * const target: Record<string, unknown> = {};
 * defineOwn(target, '__proto__', 1);
 * Object.getPrototypeOf(target) === Object.prototype // true: the key is data
 */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * A deep-frozen plain copy of `value`, or the reason it is not JSON (functions, `undefined`,
 * symbols, bigints, non-finite numbers, cycles, class instances other than plain objects
 * and arrays). Used wherever arguments are shown and then sent: docs/protocol.md, "Confirmation"
 * refuses arguments that are not JSON before review.
 *
 * @example
 * snapshotJson({ when: new Date() }) // { ok: false, reason: '…' }: a Date is not plain JSON
 * snapshotJson({ to: 'bob' })       // { ok: true, value: { to: 'bob' } }, deep-frozen
 */
export function snapshotJson(value: unknown, root = 'arguments'): JsonSnapshot {
  const seen = new Set<object>();
  let failure: string | undefined;

  const copy = (v: unknown, path: string): JsonValue => {
    if (failure !== undefined) return null;
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        if (!Number.isFinite(v)) failure = `${path} is ${String(v)}, which JSON cannot carry`;
        return v;
      case 'object': {
        if (v === null) return null;
        if (seen.has(v)) {
          failure = `${path} refers back to itself (a cycle)`;
          return null;
        }
        seen.add(v);
        let out: JsonValue;
        if (Array.isArray(v)) {
          const items: JsonValue[] = new Array(v.length);
          for (let i = 0; i < v.length; i++) items[i] = copy(v[i], `${path}[${i}]`);
          out = Object.freeze(items);
        } else {
          const proto = Object.getPrototypeOf(v) as unknown;
          if (proto !== Object.prototype && proto !== null) {
            failure = `${path} is a ${describeObject(v)}, not a plain object`;
            return null;
          }
          const obj: Record<string, JsonValue> = {};
          for (const key of Object.keys(v)) {
            defineOwn(obj, key, copy((v as Record<string, unknown>)[key], `${path}.${key}`));
          }
          out = Object.freeze(obj);
        }
        seen.delete(v);
        return out;
      }
      default:
        failure = `${path} is ${typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`}, which JSON cannot carry`;
        return null;
    }
  };

  let result: JsonValue;
  try {
    result = copy(value, root);
  } catch (error) {
    // JSON.parse builds values nested deeper than this recursive copy can walk: refuse them with a
    // reason rather than throw into the reducer, the app-tool host or a confirmation request.
    if (error instanceof RangeError) return { ok: false, reason: `${root === 'arguments' ? 'arguments are' : `${root} is`} nested too deeply to be copied` };
    throw error;
  }
  return failure === undefined ? { ok: true, value: result } : { ok: false, reason: failure };
}

function describeObject(v: object): string {
  const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'non-plain object';
}

/**
 * Deep-freeze a value the kit built itself (already plain JSON). Returns it.
 *
 * @example
 * const args = deepFreeze(JSON.parse(text));
 * Object.isFrozen(args) // true
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
