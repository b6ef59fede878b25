import { describe, expect, it } from 'vitest';
import {
  createOpenAIChatAdapter,
  createOpenAIRealtimeAdapter,
  createOpenAIResponsesAdapter,
} from 'toolgate/adapters';
import { group } from './group';
import type { ToolStreamEvent } from 'toolgate/core';

const chunk = (id: string, toolCalls: unknown[] | undefined, finish?: string, choice = 0) => ({
  id,
  object: 'chat.completion.chunk',
  choices: [{ index: choice, delta: toolCalls ? { tool_calls: toolCalls } : {}, finish_reason: finish ?? null }],
});
const tc = (index: number | undefined, args: string, id?: string, name?: string) => ({
  ...(index === undefined ? {} : { index }),
  ...(id ? { id, type: 'function' } : {}),
  function: { ...(name ? { name } : {}), arguments: args },
});

function run(adapter: { push(c: unknown): ToolStreamEvent[]; end(): ToolStreamEvent[] }, chunks: unknown[]) {
  const events = chunks.flatMap((c) => adapter.push(c));
  events.push(...adapter.end());
  return group(events);
}

describe('the OpenAI Chat adapter', () => {
  it('ends every call of a choice at its finish_reason, parsing the joined text', () => {
    const { calls, events } = run(createOpenAIChatAdapter(), [
      chunk('r1', [tc(0, '', 'a', 'add')]),
      chunk('r1', [tc(0, '{"a":')]),
      chunk('r1', [tc(1, '', 'b', 'mul')]),
      chunk('r1', [tc(0, '1}')]), // interleaved: index 0 again after index 1 began
      chunk('r1', [tc(1, '{"b":2}')]),
      chunk('r1', undefined, 'tool_calls'),
    ]);
    expect(calls.map((c) => [c.callId, c.name, c.outcome, c.arguments])).toEqual([
      ['a', 'add', 'complete', { a: 1 }],
      ['b', 'mul', 'complete', { b: 2 }],
    ]);
    // Both complete at the finishing chunk, not before.
    expect(events.slice(-2).map((e) => e.phase)).toEqual(['arguments-complete', 'arguments-complete']);
  });

  it('fails a call cut by finish_reason "length", naming max_tokens', () => {
    const { calls } = run(createOpenAIChatAdapter(), [
      chunk('r1', [tc(0, '{"text":"abc', 'a', 'write')]),
      chunk('r1', undefined, 'length'),
    ]);
    expect(calls[0]).toMatchObject({ outcome: 'failed' });
    expect(calls[0]!.message).toMatch(/^OpenAI Chat: .*max_tokens.*write/);
  });

  it('completes at end() a call whose text is complete JSON though no finish_reason came', () => {
    const { calls } = run(createOpenAIChatAdapter(), [chunk('r1', [tc(0, '{"a":1}', 'a', 'add')])]);
    expect(calls[0]).toMatchObject({ outcome: 'complete', arguments: { a: 1 } });
  });

  it('reads {} for a parameterless call that finished with no text', () => {
    const { calls } = run(createOpenAIChatAdapter(), [chunk('r1', [tc(0, '', 'a', 'ping')]), chunk('r1', undefined, 'tool_calls')]);
    expect(calls[0]).toMatchObject({ outcome: 'complete', arguments: {} });
  });

  it('keeps index 0 of consecutive responses apart, even with ids reused per response (Kimi)', () => {
    const { calls } = run(createOpenAIChatAdapter(), [
      chunk('r1', [tc(0, '{"a":1}', 'functions.add:0', 'add')]),
      chunk('r1', undefined, 'tool_calls'),
      chunk('r2', [tc(0, '{"a":2}', 'functions.add:0', 'add')]),
      chunk('r2', undefined, 'tool_calls'),
    ]);
    expect(calls.map((c) => [c.callId, c.turnId, c.arguments])).toEqual([
      ['functions.add:0', 'r1', { a: 1 }],
      ['functions.add:0#2', 'r2', { a: 2 }],
    ]);
  });

  it('takes a new id at an open index as a new call (several calls numbered 0)', () => {
    const { calls } = run(createOpenAIChatAdapter(), [
      chunk('r1', [tc(0, '{"a":1}', 'x', 'add')]),
      chunk('r1', [tc(0, '{"b":2}', 'y', 'mul')]),
      chunk('r1', undefined, 'tool_calls'),
    ]);
    expect(calls.map((c) => [c.callId, c.name, c.arguments])).toEqual([
      ['x', 'add', { a: 1 }],
      ['y', 'mul', { b: 2 }],
    ]);
  });

  it('treats a repeated id and name on every fragment as the same call', () => {
    const { calls } = run(createOpenAIChatAdapter(), [
      chunk('r1', [tc(0, '{"a":', 'x', 'add')]),
      chunk('r1', [tc(0, '1}', 'x', 'add')]),
      chunk('r1', undefined, 'tool_calls'),
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.arguments).toEqual({ a: 1 });
  });

  it('reads whole calls without an index (Mistral) and derives ids where none is given', () => {
    const { calls } = run(createOpenAIChatAdapter(), [
      chunk('r1', [tc(undefined, '{"a":1}', 'm1', 'add'), tc(undefined, '{"b":2}', undefined, 'mul')], 'tool_calls'),
    ]);
    expect(calls.map((c) => [c.callId, c.arguments])).toEqual([
      ['m1', { a: 1 }],
      ['r1:0/at:1', { b: 2 }],
    ]);
  });

  it('waits for the name before starting a call whose first fragment lacks it', () => {
    const { calls } = run(createOpenAIChatAdapter(), [
      chunk('r1', [tc(0, '{"a"', 'x')]),
      chunk('r1', [tc(0, ':1}', undefined, 'add')]),
      chunk('r1', undefined, 'tool_calls'),
    ]);
    expect(calls[0]).toMatchObject({ name: 'add', deltas: ['{"a":1}'], arguments: { a: 1 } });
  });

  it('keeps the calls of several choices apart', () => {
    const { calls } = run(createOpenAIChatAdapter(), [
      chunk('r1', [tc(0, '{"a":1}', undefined, 'add')], undefined, 0),
      chunk('r1', [tc(0, '{"a":2}', undefined, 'add')], undefined, 1),
      chunk('r1', undefined, 'tool_calls', 0),
      chunk('r1', undefined, 'tool_calls', 1),
    ]);
    expect(calls.map((c) => [c.callId, c.arguments])).toEqual([
      ['r1:0/0', { a: 1 }],
      ['r1:1/0', { a: 2 }],
    ]);
  });

  it('reads the legacy delta.function_call', () => {
    const { calls } = run(createOpenAIChatAdapter(), [
      { id: 'r1', choices: [{ index: 0, delta: { function_call: { name: 'add', arguments: '{"a":' } } }] },
      { id: 'r1', choices: [{ index: 0, delta: { function_call: { arguments: '1}' } }, finish_reason: 'function_call' }] },
    ]);
    expect(calls[0]).toMatchObject({ name: 'add', arguments: { a: 1 } });
  });

  it('fails the open calls when the stream reports an error', () => {
    const { calls } = run(createOpenAIChatAdapter(), [
      chunk('r1', [tc(0, '{"a":', 'x', 'add')]),
      { error: { message: 'upstream overloaded' } },
    ]);
    expect(calls[0]!.message).toBe('OpenAI Chat: the stream reported an error: upstream overloaded');
  });

  it('reports a malformed tool call with the provider name and leaves the other call alone', () => {
    const reasons: string[] = [];
    const adapter = createOpenAIChatAdapter({ onError: (r) => reasons.push(r) });
    const events = [
      ...adapter.push(chunk('r1', [tc(0, '{"a":', 'x', 'add')])),
      ...adapter.push(chunk('r1', [{ index: 1, function: { name: 5 } }])),
      ...adapter.push({ id: 'r1', choices: 'nope' }),
      ...adapter.push(chunk('r1', [tc(0, '1}')])),
      ...adapter.push(chunk('r1', undefined, 'tool_calls')),
    ];
    expect(reasons).toEqual([
      'OpenAI Chat: choices[0].delta.tool_calls[0].function.name is number 5, not a string',
      'OpenAI Chat: chunk.choices is the string "nope", not an array',
    ]);
    const { calls } = group(events);
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([['add', { a: 1 }]]);
  });

  it('ignores usage-only chunks, role chunks and text content', () => {
    const events = [
      { id: 'r1', choices: [] },
      { id: 'r1', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' } }] },
      { id: '', choices: [], prompt_filter_results: [] },
    ].flatMap((c) => createOpenAIChatAdapter().push(c));
    expect(events).toEqual([]);
  });
});

describe('the OpenAI Responses adapter', () => {
  const created = (id: string) => ({ type: 'response.created', response: { id, status: 'in_progress', output: [] } });
  const added = (item: string, name: string, type = 'function_call') => ({
    type: 'response.output_item.added',
    output_index: 0,
    item: { id: item, type, call_id: `call_${item}`, name, arguments: '' },
  });
  const delta = (item: string, d: string) => ({ type: 'response.function_call_arguments.delta', item_id: item, delta: d });

  it("completes with the .done event's arguments, the provider's final value", () => {
    const { calls } = run(createOpenAIResponsesAdapter(), [
      created('resp_1'),
      added('fc1', 'calc'),
      delta('fc1', '{"a":1'),
      delta('fc1', '}'),
      { type: 'response.function_call_arguments.done', item_id: 'fc1', arguments: '{"a":1}' },
      { type: 'response.output_item.done', item: { id: 'fc1', type: 'function_call', call_id: 'call_fc1', name: 'calc', arguments: '{"a":1}' } },
      { type: 'response.completed', response: { id: 'resp_1', status: 'completed' } },
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ callId: 'call_fc1', turnId: 'resp_1', outcome: 'complete', arguments: { a: 1 } });
    expect(calls[0]!.events.filter((e) => e.phase === 'arguments-complete')).toHaveLength(1);
  });

  it('completes from output_item.done when a compatible server skips the .done event', () => {
    const { calls } = run(createOpenAIResponsesAdapter(), [
      created('resp_1'),
      added('fc1', 'calc'),
      delta('fc1', '{"a":1}'),
      { type: 'response.output_item.done', item: { id: 'fc1', type: 'function_call', call_id: 'call_fc1', name: 'calc', arguments: '{"a":1}' } },
    ]);
    expect(calls[0]).toMatchObject({ outcome: 'complete', arguments: { a: 1 } });
  });

  it('fails the open call of a response that stopped at max_output_tokens', () => {
    const { calls } = run(createOpenAIResponsesAdapter(), [
      created('resp_1'),
      added('fc1', 'write'),
      delta('fc1', '{"text":"ab'),
      { type: 'response.incomplete', response: { id: 'resp_1', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } },
    ]);
    expect(calls[0]!.outcome).toBe('failed');
    expect(calls[0]!.message).toMatch(/^OpenAI Responses: the response stopped at max_output_tokens; the arguments of write/);
  });

  it('fails the open call of a failed response with its error', () => {
    const { calls } = run(createOpenAIResponsesAdapter(), [
      created('resp_1'),
      added('fc1', 'write'),
      { type: 'response.failed', response: { id: 'resp_1', status: 'failed', error: { code: 'server_error', message: 'boom' } } },
    ]);
    expect(calls[0]!.message).toMatch(/the response failed: boom/);
  });

  it('keeps the calls of consecutive responses in their own turns', () => {
    const { calls } = run(createOpenAIResponsesAdapter(), [
      created('resp_1'),
      added('fc1', 'a'),
      { type: 'response.function_call_arguments.done', item_id: 'fc1', arguments: '{}' },
      created('resp_2'),
      added('fc2', 'b'),
      { type: 'response.function_call_arguments.done', item_id: 'fc2', arguments: '{}' },
    ]);
    expect(calls.map((c) => c.turnId)).toEqual(['resp_1', 'resp_2']);
  });

  it('streams hosted MCP calls and marks them as running on the server', () => {
    const { calls } = run(createOpenAIResponsesAdapter(), [
      created('resp_1'),
      { type: 'response.output_item.added', item: { id: 'mcp_1', type: 'mcp_call', name: 'search', arguments: '', server_label: 'x' } },
      { type: 'response.mcp_call_arguments.delta', item_id: 'mcp_1', delta: '{"q":"a"}' },
      { type: 'response.mcp_call_arguments.done', item_id: 'mcp_1', arguments: '{"q":"a"}' },
    ]);
    expect(calls[0]).toMatchObject({ callId: 'mcp_1', location: 'server', arguments: { q: 'a' } });
  });

  it('ignores items that are not calls (messages, reasoning, MCP tool lists)', () => {
    const adapter = createOpenAIResponsesAdapter();
    expect(adapter.push({ type: 'response.output_item.added', item: { id: 'm', type: 'message', content: [] } })).toEqual([]);
    expect(adapter.push({ type: 'response.output_item.added', item: { id: 'r', type: 'reasoning' } })).toEqual([]);
    expect(adapter.push({ type: 'response.output_text.delta', item_id: 'm', delta: 'hi' })).toEqual([]);
  });

  it('reports a fragment for an item whose arguments already ended', () => {
    const reasons: string[] = [];
    const adapter = createOpenAIResponsesAdapter({ onError: (r) => reasons.push(r) });
    adapter.push(added('fc1', 'a'));
    adapter.push({ type: 'response.function_call_arguments.done', item_id: 'fc1', arguments: '{}' });
    expect(adapter.push(delta('fc1', 'x'))).toEqual([]);
    expect(reasons).toEqual(['OpenAI Responses: response.function_call_arguments.delta for item fc1, whose arguments already ended']);
  });

  it('reports a malformed delta and keeps streaming the other call', () => {
    const reasons: string[] = [];
    const adapter = createOpenAIResponsesAdapter({ onError: (r) => reasons.push(r) });
    const events = [
      ...adapter.push(added('fc1', 'a')),
      ...adapter.push({ type: 'response.function_call_arguments.delta', item_id: 'fc1', delta: 7 }),
      ...adapter.push({ type: 'response.function_call_arguments.delta', delta: '{' }),
      ...adapter.push(delta('fc1', '{"x":1}')),
      ...adapter.push({ type: 'response.function_call_arguments.done', item_id: 'fc1', arguments: '{"x":1}' }),
    ];
    expect(reasons).toEqual([
      'OpenAI Responses: response.function_call_arguments.delta.delta is number 7, not a string',
      'OpenAI Responses: response.function_call_arguments.delta.item_id is missing',
    ]);
    expect(group(events).calls[0]).toMatchObject({ deltas: ['{"x":1}'], arguments: { x: 1 } });
  });
});

describe('the OpenAI Realtime adapter', () => {
  it('parses pretty-printed arguments with trailing whitespace (gpt-realtime)', () => {
    const { calls } = run(createOpenAIRealtimeAdapter(), [
      { type: 'response.output_item.added', response_id: 'r1', item: { id: 'i1', type: 'function_call', call_id: 'c1', name: 'w' } },
      { type: 'response.function_call_arguments.delta', response_id: 'r1', item_id: 'i1', call_id: 'c1', delta: '{  \n  "city": "London" \n} \n' },
      { type: 'response.function_call_arguments.done', response_id: 'r1', item_id: 'i1', call_id: 'c1', name: 'w', arguments: '{  \n  "city": "London" \n} \n' },
    ]);
    expect(calls[0]).toMatchObject({ callId: 'c1', turnId: 'r1', arguments: { city: 'London' } });
  });

  it('does not lose a call whose output_item.added was missed: the .done names it', () => {
    const { calls } = run(createOpenAIRealtimeAdapter(), [
      { type: 'response.function_call_arguments.delta', response_id: 'r1', item_id: 'i1', call_id: 'c1', delta: '{"a":' },
      { type: 'response.function_call_arguments.delta', response_id: 'r1', item_id: 'i1', call_id: 'c1', delta: '1}' },
      { type: 'response.function_call_arguments.done', response_id: 'r1', item_id: 'i1', call_id: 'c1', name: 'f', arguments: '{"a":1}' },
    ]);
    expect(calls[0]).toMatchObject({ callId: 'c1', name: 'f', deltas: ['{"a":1}'], arguments: { a: 1 } });
  });

  it('reports a malformed event while a call is open, and the open call still completes with its arguments', () => {
    const reasons: string[] = [];
    const adapter = createOpenAIRealtimeAdapter({ onError: (r) => reasons.push(r) });
    const d = (delta: unknown, extra: object = {}) =>
      ({ type: 'response.function_call_arguments.delta', response_id: 'r1', item_id: 'i1', call_id: 'c1', delta, ...extra });
    const events = [
      { type: 'response.output_item.added', response_id: 'r1', item: { id: 'i1', type: 'function_call', call_id: 'c1', name: 'w' } },
      d('{"city":'),
      d(null),
      d('"Lima"', { item_id: 9 }),
      { type: 'response.output_item.added', response_id: 'r1', item: 'function_call' },
      '{"type":"response.function_call_arguments.delta",',
      d('"Oslo"}'),
      { type: 'response.function_call_arguments.done', response_id: 'r1', item_id: 'i1', call_id: 'c1', name: 'w', arguments: '{"city":"Oslo"}' },
    ].map((c) => (typeof c === 'string' ? c : JSON.stringify(c))).flatMap((m) => adapter.push(m));
    events.push(...adapter.end());
    expect(reasons).toEqual([
      'OpenAI Realtime: response.function_call_arguments.delta.delta is missing',
      'OpenAI Realtime: response.function_call_arguments.delta.item_id is number 9, not a string',
      'OpenAI Realtime: response.output_item.added.item is the string "function_call", not an object',
      expect.stringMatching(/^OpenAI Realtime: a chunk is not JSON: /),
    ]);
    const { calls } = group(events);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ callId: 'c1', turnId: 'r1', outcome: 'complete', deltas: ['{"city":', '"Oslo"}'], arguments: { city: 'Oslo' } });
  });

  it('cancels the open call of a response the user spoke over', () => {
    const { events } = run(createOpenAIRealtimeAdapter(), [
      { type: 'response.output_item.added', response_id: 'r1', item: { id: 'i1', type: 'function_call', call_id: 'c1', name: 'f' } },
      { type: 'response.function_call_arguments.delta', response_id: 'r1', item_id: 'i1', delta: '{"a"' },
      { type: 'response.done', response: { id: 'r1', status: 'cancelled', status_details: { type: 'cancelled', reason: 'turn_detected' } } },
    ]);
    expect(events.map((e) => e.phase)).toEqual(['start', 'arguments-delta', 'cancelled']);
  });
});

describe('the OpenAI Responses adapter and hosted MCP results', () => {
  const mcpCall = (id: string, done: Record<string, unknown>) => [
    { type: 'response.created', response: { id: 'resp_1' } },
    { type: 'response.output_item.added', item: { id, type: 'mcp_call', name: 'search', arguments: '' } },
    { type: 'response.mcp_call_arguments.delta', item_id: id, delta: '{"q":"x"}' },
    { type: 'response.mcp_call_arguments.done', item_id: id, arguments: '{"q":"x"}' },
    { type: 'response.output_item.done', item: { id, type: 'mcp_call', name: 'search', arguments: '{"q":"x"}', ...done } },
  ];

  it('settles a hosted MCP call with its output (JSON text read as its value), or FAILED with its error', () => {
    const ok = run(createOpenAIResponsesAdapter(), mcpCall('mcp_1', { status: 'completed', output: '{"hits":3}', error: null }));
    expect(ok.events.at(-1)).toEqual({ type: 'tool.stream', phase: 'settled', callId: 'mcp_1', ok: true, output: { hits: 3 } });
    const text = run(createOpenAIResponsesAdapter(), mcpCall('mcp_2', { output: 'plain words' }));
    expect(text.events.at(-1)).toMatchObject({ phase: 'settled', ok: true, output: 'plain words' });
    const failed = run(createOpenAIResponsesAdapter(), mcpCall('mcp_3', { status: 'failed', output: null, error: 'upstream 502' }));
    expect(failed.events.at(-1)).toEqual({ type: 'tool.stream', phase: 'settled', callId: 'mcp_3', ok: false, code: 'FAILED', message: 'upstream 502' });
  });
});
