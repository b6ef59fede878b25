import { describe, expect, it, vi } from 'vitest';
import { createToolStreamStore, type ToolCall } from 'toolgate/core';
import { createArgumentsParser } from 'toolgate/json';
import { callOf } from '../../src/core/stream/call-table';
import { canonicalJson } from '../../src/core/json/canonical-json';
import type { JsonValue } from '../../src/core/json/json-value';
import { sameJson } from '../../src/core/json/json-diff';
import fc from 'fast-check';
import { toolEvents as e } from 'toolgate/testing';

function streamed(text: string, final: unknown, chunk = 3) {
  const onError = vi.fn();
  const store = createToolStreamStore({ onError });
  const { dispatch } = store.getState();
  dispatch(e.start('c1', { name: 'pay' }));
  for (let i = 0; i < text.length; i += chunk) dispatch(e.delta('c1', text.slice(i, i + chunk)));
  dispatch(e.complete('c1', final));
  return { call: callOf(store.getState(), 'c1') as ToolCall, codes: onError.mock.calls.map(([, , code]) => code as string), reasons: onError.mock.calls.map(([reason]) => reason as string) };
}

describe('arguments-complete that contradicts the streamed text', () => {
  it('keeps the final value, marks argumentsMismatch and reports it (arguments-mismatch)', () => {
    const { call, codes, reasons } = streamed('{"to":"bob","amount":5}', { to: 'mallory', amount: 5000000 });
    expect(call).toMatchObject({ status: 'issued', arguments: { to: 'mallory', amount: 5000000 }, argumentsMismatch: true });
    expect(call.partialArguments).toEqual({ to: 'mallory', amount: 5000000 });
    expect(codes).toEqual(['arguments-mismatch']);
    expect(reasons[0]).toMatch(/call 'c1': the final arguments \{"to":"mallory","amount":5000000\} differ from the streamed text \{"to":"bob","amount":5\}/);
  });

  it('compares by value: key order, spacing and number spelling do not count', () => {
    const { call, codes } = streamed('{ "amount" : 5.0e0 ,\n "to" : "bob" }', { to: 'bob', amount: 5 });
    expect(call.argumentsMismatch).toBeUndefined();
    expect(codes).toEqual([]);
    expect(streamed('{"a":[1,{"b":"c"}]}', '{"a": [1, {"b": "c"}]}').call.argumentsMismatch).toBeUndefined();
  });

  it('accepts a final value that text cut short was heading for, and refuses one it contradicts', () => {
    expect(streamed('{"to":"bo', { to: 'bob', amount: 5 }).call.argumentsMismatch).toBeUndefined();
    expect(streamed('{"items":[1,2', { items: [1, 2, 3] }).call.argumentsMismatch).toBeUndefined();
    const cut = streamed('{"to":"al', { to: 'bob' });
    expect(cut.call.argumentsMismatch).toBe(true);
    expect(cut.reasons[0]).toMatch(/contradict what the streamed text showed \{"to":"al"\}/);
    expect(streamed('{"amount":1,', { amount: 1000 }).call.argumentsMismatch).toBe(true);
  });

  it('marks final arguments that replace text which is not JSON', () => {
    const { call, codes } = streamed("{'to': 'bob'}", { to: 'bob' });
    expect(call).toMatchObject({ arguments: { to: 'bob' }, argumentsMismatch: true, argumentsError: undefined });
    expect(codes).toEqual(['invalid-arguments', 'arguments-mismatch']);
  });

  it('compares nothing when no text streamed (a model that does not stream arguments)', () => {
    const { call, codes } = streamed('', { to: 'bob' });
    expect(call.argumentsMismatch).toBeUndefined();
    expect(codes).toEqual([]);
  });
});

describe('duplicate keys', () => {
  it.each([
    ['{"amount":1,"to":"bob","amount":1000000}', ['amount']],
    ['{"a":{"b":1,"c":2,"b":3}}', ['a', 'b']],
    ['[{"x":1},{"x":1,"y":2,"x":3}]', [1, 'x']],
    ['{"__proto__":1,"__proto__":2}', ['__proto__']],
    ['{"a":1,"b":{"a":2},"c":[{"a":3}]}', undefined],
  ] as const)('the parser names the first key written twice in one object: %s', (text, path) => {
    const parser = createArgumentsParser();
    for (const ch of text) parser.push(ch);
    expect(parser.duplicateKeyPath).toEqual(path);
    expect(parser.value).toEqual(JSON.parse(text));
  });

  it('marks duplicateKeyPath on the call as soon as the key repeats, reported once (duplicate-key)', () => {
    const onError = vi.fn();
    const store = createToolStreamStore({ onError });
    const { dispatch } = store.getState();
    dispatch(e.start('c1'));
    dispatch(e.delta('c1', '{"amount":1,"to":"bob",'));
    expect(callOf(store.getState(), 'c1')?.duplicateKeyPath).toBeUndefined();
    dispatch(e.delta('c1', '"amount":'));
    expect(callOf(store.getState(), 'c1')?.duplicateKeyPath).toEqual(['amount']);
    dispatch(e.delta('c1', '1000000}'));
    dispatch(e.complete('c1', { amount: 1000000, to: 'bob' }));
    expect(callOf(store.getState(), 'c1')).toMatchObject({ duplicateKeyPath: ['amount'], arguments: { amount: 1000000, to: 'bob' }, argumentsMismatch: undefined });
    expect(onError.mock.calls.map(([, , code]) => code)).toEqual(['duplicate-key']);
    expect(onError.mock.calls[0]?.[0]).toMatch(/writes the key amount twice; the last value counts/);
  });

  it('finds a repeated key in final arguments given as JSON text', () => {
    const { call, codes } = streamed('', '{"amount":1,"amount":1000000}');
    expect(call).toMatchObject({ arguments: { amount: 1000000 }, duplicateKeyPath: ['amount'] });
    expect(codes).toEqual(['duplicate-key']);
  });
});

describe('comparing by value', () => {
  it('says two JSON values are the same exactly when their canonical JSON (RFC 8785) is the same (2,000 pairs, seed 1592590400)', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    // Pairs that are often equal: a value and a reordered, respelled copy of it, or two values.
    const pair = fc.oneof(
      fc.tuple(value, value),
      value.map((v) => [v, JSON.parse(JSON.stringify(reorder(v)))] as const),
      fc.tuple(fc.constantFrom(0, -0, 1e21, 1e-7, 5), fc.constantFrom(0, -0, 1e21, 1e-7, 5.0)),
    );
    fc.assert(
      fc.property(pair, ([a, b]) => sameJson(a, b) === (canonicalJson(a as JsonValue) === canonicalJson(b as JsonValue))),
      { seed: 1592590400, numRuns: 2000 },
    );
  });
});

/** The same value with every object's keys in reverse order. */
function reorder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reorder);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reorder(x)]));
}
