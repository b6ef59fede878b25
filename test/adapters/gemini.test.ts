import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createGeminiAdapter } from 'toolgate/adapters';
import type { ToolStreamEvent } from 'toolgate/core';
import { PartialArgsBuilder, parseJsonPath } from '../../src/adapters/gemini';
import { group } from './group';

function run(chunks: unknown[], adapter = createGeminiAdapter()) {
  const events = chunks.flatMap((c) => adapter.push(c));
  events.push(...adapter.end());
  return group(events);
}

const part = (functionCall: unknown) => ({ functionCall });
const response = (id: string, parts: unknown[], finishReason?: string) => ({
  candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }],
  responseId: id,
});
const entry = (jsonPath: string, value: Record<string, unknown>, willContinue = false) => ({
  jsonPath,
  ...value,
  ...(willContinue ? { willContinue } : {}),
});
type Entry = ReturnType<typeof entry>;
const stream = (id: string, entries: Entry[], willContinue = true) => response(id, [part({ partialArgs: entries, ...(willContinue ? { willContinue } : {}) })]);

/** Feed raw entries to a builder the way the adapter does; returns all text and the value. */
function build(entries: Entry[]): { text: string; value: unknown } {
  const { calls } = run([response('r', [part({ name: 'f', willContinue: true })]), ...entries.map((e) => stream('r', [e])), response('r', [part({})])]);
  const call = calls[0]!;
  return { text: call.deltas.join(''), value: call.arguments };
}

describe('jsonPath', () => {
  it('reads dotted keys, indexes and quoted keys', () => {
    expect(parseJsonPath('$.recipe.steps[1]')).toEqual(['recipe', 'steps', 1]);
    expect(parseJsonPath(`$['a.b']["c\\"d"][0][12].e`)).toEqual(['a.b', 'c"d', 0, 12, 'e']);
  });
  it('refuses what it cannot read', () => {
    for (const bad of ['recipe', '$..a', '$.a[x]', "$['a", '$a']) expect(() => parseJsonPath(bad)).toThrow();
  });
});

describe('rebuilding Gemini partialArgs', () => {
  it('writes the JSON text of the object the paths describe, closing strings and containers', () => {
    const { text, value } = build([
      entry('$.recipe.ingredients[0].amount', { stringValue: '16 ' }, true),
      entry('$.recipe.ingredients[0].amount', { stringValue: 'oz' }, true),
      entry('$.recipe.ingredients[0].amount', { stringValue: '' }),
      entry('$.recipe.ingredients[0].fresh', { boolValue: true }),
      entry('$.recipe.ingredients[1].amount', { numberValue: 2 }),
      entry('$.recipe.name', { stringValue: 'Lasagna "al forno"\n' }),
      entry('$.recipe.note', { nullValue: 'NULL_VALUE' }),
    ]);
    const expected = {
      recipe: { ingredients: [{ amount: '16 oz', fresh: true }, { amount: 2 }], name: 'Lasagna "al forno"\n', note: null },
    };
    expect(value).toEqual(expected);
    expect(text).toBe(JSON.stringify(expected));
  });

  it('fills skipped array slots with null, as JSON.stringify does', () => {
    const { text, value } = build([entry('$.items[2]', { stringValue: 'c' })]);
    expect(value).toEqual({ items: [null, null, 'c'] });
    expect(text).toBe('{"items":[null,null,"c"]}');
  });

  it('keeps a __proto__ key as an own key', () => {
    const { value } = build([entry('$.__proto__.polluted', { boolValue: true })]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stops writing text when a path steps back into a closed container, but still completes with the whole object', () => {
    const { calls } = run([
      response('r', [part({ name: 'f', willContinue: true })]),
      stream('r', [entry('$.a.x', { numberValue: 1 })]),
      stream('r', [entry('$.b', { numberValue: 2 })]),
      stream('r', [entry('$.a.y', { numberValue: 3 })]),
      response('r', [part({})]),
    ]);
    expect(calls[0]!.deltas.join('')).toBe('{"a":{"x":1},"b":2');
    expect(calls[0]).toMatchObject({ outcome: 'complete', arguments: { a: { x: 1, y: 3 }, b: 2 } });
  });

  it('ignores a late empty closing entry for a string that already closed', () => {
    const { text, value } = build([entry('$.a', { stringValue: 'x' }), entry('$.a', { stringValue: '' })]);
    expect(value).toEqual({ a: 'x' });
    expect(text).toBe('{"a":"x"}');
  });

  it('equals JSON.stringify of the value for any object sent in document order (property)', () => {
    type Node = { kind: 'leaf'; value: unknown } | { kind: 'obj'; entries: [string, Node][] } | { kind: 'arr'; items: Node[] };
    const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((n) => (n === 0 ? 0 : n));
    const leaf = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), number, fc.boolean(), fc.constant(null));
    const key = fc.oneof(fc.constantFrom('a', 'b_1', '__proto__', 'constructor'), fc.string({ maxLength: 6 }));
    const { node } = fc.letrec<{ node: Node }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf.map((value): Node => ({ kind: 'leaf', value })),
        fc.uniqueArray(fc.tuple(key, tie('node')), { minLength: 1, maxLength: 4, selector: ([k]) => k }).map((entries): Node => ({ kind: 'obj', entries })),
        fc.array(tie('node'), { minLength: 1, maxLength: 4 }).map((items): Node => ({ kind: 'arr', items })),
      ),
    }));
    const root = fc.uniqueArray(fc.tuple(key, node), { minLength: 1, maxLength: 4, selector: ([k]) => k });

    const toText = (n: Node): string =>
      n.kind === 'leaf'
        ? JSON.stringify(n.value)
        : n.kind === 'obj'
          ? `{${n.entries.map(([k, v]) => `${JSON.stringify(k)}:${toText(v)}`).join(',')}}`
          : `[${n.items.map(toText).join(',')}]`;
    const seg = (k: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `.${k}` : `['${k.replace(/[\\']/g, (c) => `\\${c}`)}']`);
    const toEntries = (n: Node, path: string, piece: number): Entry[] => {
      if (n.kind === 'obj') return n.entries.flatMap(([k, v]) => toEntries(v, path + seg(k), piece));
      if (n.kind === 'arr') return n.items.flatMap((v, i) => toEntries(v, `${path}[${i}]`, piece));
      if (typeof n.value !== 'string') {
        return [entry(path, n.value === null ? { nullValue: null } : typeof n.value === 'number' ? { numberValue: n.value } : { boolValue: n.value })];
      }
      // Gemini's shape: pieces that go on, then an empty closing entry; short strings whole.
      const points = [...n.value];
      if (points.length <= piece) return [entry(path, { stringValue: n.value })];
      const out: Entry[] = [];
      for (let i = 0; i < points.length; i += piece) out.push(entry(path, { stringValue: points.slice(i, i + piece).join('') }, true));
      out.push(entry(path, { stringValue: '' }));
      return out;
    };
    // Containers only exist through their leaves: an empty object or array has no path.
    const hasEmpty = (n: Node): boolean =>
      n.kind === 'obj' ? n.entries.some(([, v]) => hasEmpty(v)) : n.kind === 'arr' ? n.items.some(hasEmpty) : false;

    fc.assert(
      fc.property(root, fc.integer({ min: 1, max: 5 }), (entries, piece) => {
        const tree: Node = { kind: 'obj', entries };
        fc.pre(!hasEmpty(tree));
        const builder = new PartialArgsBuilder();
        let text = '';
        for (const e of toEntries(tree, '$', piece)) {
          const raw = e as Record<string, unknown>;
          const value = 'stringValue' in raw ? raw.stringValue : 'numberValue' in raw ? raw.numberValue : 'boolValue' in raw ? raw.boolValue : null;
          text += builder.apply({ segments: parseJsonPath(e.jsonPath), value, isString: 'stringValue' in raw, willContinue: raw.willContinue === true });
        }
        text += builder.close();
        const expected = toText(tree);
        expect(text).toBe(expected);
        expect(builder.value).toEqual(JSON.parse(expected));
        expect(builder.textDetached).toBe(false);
      }),
      { seed: 20260811, numRuns: 300 },
    );
  });
});

describe('the Gemini adapter', () => {
  it('completes whole calls at once, without text, with derived ids in the response', () => {
    const { events, calls } = run([
      response('resp', [part({ name: 'add', args: { a: 1 } }), part({ name: 'mul', args: { b: 2 } })], 'STOP'),
    ]);
    expect(events.map((e) => e.phase)).toEqual(['start', 'arguments-complete', 'start', 'arguments-complete']);
    expect(calls.map((c) => [c.callId, c.turnId, c.arguments])).toEqual([
      ['resp:1', 'resp', { a: 1 }],
      ['resp:2', 'resp', { b: 2 }],
    ]);
  });

  it("uses the functionCall's own id where it has one, and {} for a call without args", () => {
    const { calls } = run([response('r', [part({ id: 'fc-7', name: 'ping' })])]);
    expect(calls[0]).toMatchObject({ callId: 'fc-7', arguments: {} });
  });

  it('closes a streaming call at finishReason STOP when its terminal part is missing', () => {
    const { calls } = run([
      response('r', [part({ name: 'f', willContinue: true })]),
      stream('r', [entry('$.a', { stringValue: 'x' }, true)]),
      response('r', [{ text: '' }], 'STOP'),
    ]);
    expect(calls[0]).toMatchObject({ outcome: 'complete', arguments: { a: 'x' } });
    expect(calls[0]!.deltas.join('')).toBe('{"a":"x"}');
  });

  it('fails a streaming call cut at MAX_TOKENS', () => {
    const { calls } = run([
      response('r', [part({ name: 'f', willContinue: true })]),
      stream('r', [entry('$.a', { stringValue: 'x' }, true)]),
      response('r', [], 'MAX_TOKENS'),
    ]);
    expect(calls[0]!.message).toBe('Gemini: the response finished with MAX_TOKENS; the arguments of f are incomplete');
  });

  it('fails a call that still expected more when the stream ends', () => {
    const { calls } = run([response('r', [part({ name: 'f', willContinue: true })]), stream('r', [entry('$.a', { numberValue: 1 })])]);
    expect(calls[0]!.outcome).toBe('failed');
    expect(calls[0]!.message).toMatch(/^Gemini: the stream ended while the call still expected more arguments/);
  });

  it('keeps the calls of consecutive responses apart and fails what the first left open', () => {
    const { calls } = run([
      response('r1', [part({ name: 'f', willContinue: true })]),
      response('r2', [part({ name: 'f', args: { b: 1 } })], 'STOP'),
    ]);
    expect(calls.map((c) => [c.callId, c.turnId, c.outcome])).toEqual([
      ['r1:1', 'r1', 'failed'],
      ['r2:1', 'r2', 'complete'],
    ]);
  });

  it('reports partialArgs with no call streaming, and a bad jsonPath, without disturbing the open call', () => {
    const reasons: string[] = [];
    const adapter = createGeminiAdapter({ onError: (r) => reasons.push(r) });
    const events: ToolStreamEvent[] = [];
    events.push(...adapter.push(stream('r', [entry('$.a', { numberValue: 1 })])));
    events.push(...adapter.push(response('r', [part({ name: 'f', willContinue: true })])));
    events.push(...adapter.push(stream('r', [entry('a.b', { numberValue: 1 })])));
    events.push(...adapter.push(stream('r', [entry('$.ok', { boolValue: true })], false)));
    expect(reasons).toEqual([
      'Gemini: candidates[0].content.parts[0].functionCall has partialArgs but no call is streaming',
      'Gemini: jsonPath "a.b" does not start with $',
    ]);
    expect(group(events).calls[0]).toMatchObject({ outcome: 'complete', arguments: { ok: true } });
  });

  it('fails the streaming call on an error chunk', () => {
    const { calls } = run([response('r', [part({ name: 'f', willContinue: true })]), { error: { code: 500, message: 'Internal' } }]);
    expect(calls[0]!.message).toMatch(/^Gemini: the stream reported an error: Internal/);
  });
});
