/**
 * The fields of a call are listed once (`TOOL_CALL_KEYS` in src/core/stream/tool-call.ts, checked against
 * the `ToolCall` type). The record's constructor and its plain copy spell them out for speed; these
 * tests hold both to the list, keys and order, at every step a call goes through.
 */
import { describe, expect, it } from 'vitest';
import { appendArguments, createToolCall, fromToolCall, resetArguments, settleArguments, TOOL_CALL_FIELDS, TOOL_CALL_KEYS, updateToolCall, type CallRecord } from '../../src/core/stream/tool-call';

const started = (): CallRecord =>
  createToolCall({ callId: 'c1', name: 'search', turnId: 't1', status: 'pending', source: 'stream', location: 'server', risk: 'low', startedAt: 1 });

/** Each way a record is made, from a new call to one read back from a plain copy. */
function recordsOfEveryStep(): Array<[string, CallRecord]> {
  const created = started();
  const streamed = appendArguments(created, '{"q":"to', { status: 'streaming' });
  const updated = updateToolCall(streamed, { progress: { done: 1 } });
  const reset = resetArguments(updated, '{"q":"t', { status: 'streaming' });
  const settled = settleArguments(appendArguments(reset, 'ea"}', {}), { status: 'issued', arguments: { q: 'tea' }, issuedAt: 2 });
  const readBack = fromToolCall(JSON.parse(JSON.stringify(settled.toCall())));
  return [
    ['created', created],
    ['streamed', streamed],
    ['updated', updated],
    ['reset', reset],
    ['settled', settled],
    ['read back from JSON', readBack],
  ];
}

describe('the one list of a call’s fields', () => {
  it('is the plain copy’s keys, in order, and the record’s own fields are the list less what is built from the text', () => {
    expect(TOOL_CALL_FIELDS).toEqual(TOOL_CALL_KEYS.filter((key) => !['argumentsText', 'partialArguments', 'writingPath'].includes(key)));
    for (const [step, record] of recordsOfEveryStep()) {
      expect({ step, own: Object.keys(record) }).toEqual({ step, own: [...TOOL_CALL_FIELDS] });
      expect({ step, plain: Object.keys(record.toCall()) }).toEqual({ step, plain: [...TOOL_CALL_KEYS] });
    }
  });

  it('carries every field from the record into its plain copy and back', () => {
    const settled = recordsOfEveryStep().find(([step]) => step === 'settled')![1];
    const plain = settled.toCall();
    for (const key of TOOL_CALL_FIELDS) expect({ key, value: plain[key] }).toEqual({ key, value: settled[key] });
    expect(plain).toMatchObject({ callId: 'c1', status: 'issued', arguments: { q: 'tea' }, argumentsText: '{"q":"tea"}', partialArguments: { q: 'tea' }, progress: { done: 1 }, issuedAt: 2 });
    expect(fromToolCall(plain).toCall()).toEqual(plain);
  });

  it('starts a new call with every field there and undefined but what it was started with', () => {
    const plain = started().toCall();
    const known = { callId: 'c1', name: 'search', turnId: 't1', status: 'pending', source: 'stream', location: 'server', risk: 'low', startedAt: 1 };
    for (const key of TOOL_CALL_FIELDS) expect({ key, value: plain[key] }).toEqual({ key, value: (known as Record<string, unknown>)[key] });
    expect(plain).toMatchObject({ argumentsText: '', partialArguments: undefined, writingPath: undefined });
  });
});
