/**
 * The diff a person reads before approving arguments they edited: changes at paths, in the order
 * of the edited value, aligned inside arrays, and never confused by key order or `__proto__`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonValue } from 'toolgate/core';
import { canonicalJson, diffJson, formatJsonPath, type JsonChange } from 'toolgate/json';

const SEED = 19_001;

/**
 * Rebuild the edited value from `before` and the changes, reading their paths as documented: an
 * added or changed array element by its index in the edited array, a removed one by its index in
 * the array it left. The diff is right when this gives `after` back.
 */
function apply(before: JsonValue, changes: readonly JsonChange[]): JsonValue {
  const key = (path: readonly (string | number)[]) => JSON.stringify(path);
  const rebuild = (value: JsonValue, path: (string | number)[]): JsonValue => {
    const here = changes.find((c) => c.kind === 'changed' && key(c.path) === key(path));
    if (here) return (here as { after: JsonValue }).after;
    const below = changes.filter((c) => c.path.length === path.length + 1 && key(c.path.slice(0, -1)) === key(path));
    if (Array.isArray(value)) {
      const removed = new Set(below.filter((c) => c.kind === 'removed').map((c) => c.path.at(-1)));
      const items: JsonValue[] = value.filter((_, i) => !removed.has(i));
      for (const c of below.filter((c) => c.kind === 'added').sort((x, y) => (x.path.at(-1) as number) - (y.path.at(-1) as number))) {
        items.splice(c.path.at(-1) as number, 0, (c as { after: JsonValue }).after);
      }
      return items.map((item, j) => (below.some((c) => c.kind === 'added' && c.path.at(-1) === j) ? item : rebuild(item, [...path, j])));
    }
    if (typeof value === 'object' && value !== null) {
      const out: Record<string, JsonValue> = {};
      const put = (k: string, v: JsonValue) => Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      for (const [k, v] of Object.entries(value)) if (!below.some((c) => c.kind === 'removed' && c.path.at(-1) === k)) put(k, rebuild(v, [...path, k]));
      for (const c of below) if (c.kind === 'added') put(c.path.at(-1) as string, c.after);
      return out;
    }
    return value;
  };
  return rebuild(before, []);
}

describe('diffJson', () => {
  it('lists a changed field, an added one and a removed one at their paths', () => {
    const { changes, truncated } = diffJson({ to: 'bob', amount: 500, memo: 'rent' }, { to: 'bob', amount: 50, currency: 'EUR' });
    expect(truncated).toBe(false);
    expect(changes).toEqual([
      { path: ['amount'], kind: 'changed', before: 500, after: 50 },
      { path: ['currency'], kind: 'added', after: 'EUR' },
      { path: ['memo'], kind: 'removed', before: 'rent' },
    ]);
  });

  it('finds nothing between values that differ only in key order', () => {
    expect(diffJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }).changes).toEqual([]);
  });

  it('reads an element inserted in the middle of an array as one addition, not as every later element changed', () => {
    const { changes } = diffJson(['ann', 'bob', 'cy'], ['ann', 'dee', 'bob', 'cy']);
    expect(changes).toEqual([{ path: [1], kind: 'added', after: 'dee' }]);
  });

  it('goes inside an element that changed in place', () => {
    const { changes } = diffJson({ legs: [{ from: 'BER', to: 'LIS' }] }, { legs: [{ from: 'BER', to: 'OPO' }] });
    expect(changes).toEqual([{ path: ['legs', 0, 'to'], kind: 'changed', before: 'LIS', after: 'OPO' }]);
    expect(formatJsonPath(changes[0]!.path)).toBe('legs[0].to');
  });

  it('treats a __proto__ key as an ordinary key', () => {
    const before = JSON.parse('{"__proto__": {"admin": false}}') as JsonValue;
    const after = JSON.parse('{"__proto__": {"admin": true}}') as JsonValue;
    expect(diffJson(before, after).changes).toEqual([{ path: ['__proto__', 'admin'], kind: 'changed', before: false, after: true }]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('stops at its limit and says the list was cut', () => {
    const before = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i]));
    const after = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i + 1]));
    const { changes, truncated } = diffJson(before, after, { limit: 5 });
    expect(changes).toHaveLength(5);
    expect(truncated).toBe(true);
  });

  it('diffs a value nested 20,000 levels deep without overflowing the stack', () => {
    let a: JsonValue = 1;
    let b: JsonValue = 2;
    for (let i = 0; i < 20_000; i++) {
      a = [a];
      b = [b];
    }
    expect(diffJson(a, b).changes).toHaveLength(1);
  });

  it('gives back the edited value when its changes are applied, and nothing for equal values (fast-check, fixed seed)', () => {
    const json = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>;
    fc.assert(
      fc.property(json, json, (before, after) => {
        const { changes } = diffJson(before, after);
        expect(changes.length === 0).toBe(canonicalJson(before) === canonicalJson(after));
        expect(canonicalJson(apply(before, changes))).toBe(canonicalJson(after));
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('names paths as a person reads them', () => {
    expect(formatJsonPath([])).toBe('(the whole value)');
    expect(formatJsonPath(['odd key', 2])).toBe('["odd key"][2]');
  });
});
