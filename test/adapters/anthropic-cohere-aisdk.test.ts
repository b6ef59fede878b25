import { describe, expect, it } from 'vitest';
import { createAISDKAdapter, createAnthropicAdapter, createCohereAdapter } from 'toolgate/adapters';
import { createToolStreamStore, isTerminalStatus, type ToolStreamEvent } from 'toolgate/core';
import { group } from './group';

function run(adapter: { push(c: unknown): ToolStreamEvent[]; end(): ToolStreamEvent[] }, chunks: unknown[]) {
  const events = chunks.flatMap((c) => adapter.push(c));
  events.push(...adapter.end());
  return group(events);
}

describe('the Anthropic adapter', () => {
  const messageStart = (id: string, content: unknown[] = []) => ({ type: 'message_start', message: { id, content } });
  const blockStart = (index: number, id: string, name: string, input: unknown = {}, type = 'tool_use') => ({
    type: 'content_block_start',
    index,
    content_block: { type, id, name, input },
  });
  const json = (index: number, partial: string) => ({
    type: 'content_block_delta',
    index,
    delta: { type: 'input_json_delta', partial_json: partial },
  });
  const stop = (index: number) => ({ type: 'content_block_stop', index });

  it('streams a tool block and completes at content_block_stop, skipping the empty first fragment', () => {
    const { calls } = run(createAnthropicAdapter(), [
      messageStart('msg_1'),
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Sure.' } },
      stop(0),
      blockStart(1, 'toolu_1', 'search'),
      json(1, ''),
      json(1, '{"q": "a\\'),
      json(1, 'nb"}'),
      stop(1),
      { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
      { type: 'message_stop' },
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ callId: 'toolu_1', turnId: 'msg_1', deltas: ['{"q": "a\\', 'nb"}'], arguments: { q: 'a\nb' } });
  });

  it('uses the input of content_block_start when no fragments follow', () => {
    const { calls } = run(createAnthropicAdapter(), [messageStart('m'), blockStart(0, 't', 'roll', { player: 'p1' }), stop(0)]);
    expect(calls[0]).toMatchObject({ outcome: 'complete', arguments: { player: 'p1' }, deltas: [] });
  });

  it('completes the whole tool_use blocks of message_start at once', () => {
    const { events } = run(createAnthropicAdapter(), [
      messageStart('m', [{ type: 'tool_use', id: 't', name: 'roll', input: { player: 'p2' } }]),
      { type: 'message_stop' },
    ]);
    expect(events.map((e) => e.phase)).toEqual(['start', 'arguments-complete']);
  });

  it('does not start a block twice when message_start already held it', () => {
    const { calls, orphans } = run(createAnthropicAdapter(), [
      messageStart('m', [{ type: 'tool_use', id: 't', name: 'roll', input: { a: 1 } }]),
      blockStart(0, 't', 'roll', { a: 1 }),
      json(0, '{"a":1}'),
      stop(0),
    ]);
    expect(calls).toHaveLength(1);
    expect(orphans).toEqual([]);
  });

  it('fails a block the stream cut at max_tokens without content_block_stop', () => {
    const { calls } = run(createAnthropicAdapter(), [
      messageStart('m'),
      blockStart(0, 't', 'make_file'),
      json(0, '{"lines": ["a'),
      { type: 'message_delta', delta: { stop_reason: 'max_tokens' } },
      { type: 'message_stop' },
    ]);
    expect(calls[0]!.outcome).toBe('failed');
    expect(calls[0]!.message).toMatch(/^Anthropic: the response stopped at max_tokens .*make_file/);
  });

  it('also says max_tokens when the stream ends right after message_delta', () => {
    const { calls } = run(createAnthropicAdapter(), [
      messageStart('m'),
      blockStart(0, 't', 'make_file'),
      json(0, '{"lines": ["a'),
      { type: 'message_delta', delta: { stop_reason: 'max_tokens' } },
    ]);
    expect(calls[0]!.message).toMatch(/max_tokens/);
  });

  it('fails a block whose text is not JSON at content_block_stop', () => {
    const { calls } = run(createAnthropicAdapter(), [messageStart('m'), blockStart(0, 't', 'f'), json(0, '{"a":'), stop(0)]);
    expect(calls[0]!.message).toMatch(/^Anthropic: the tool block ended; the arguments of f are incomplete/);
  });

  it('fails the open blocks on an error event', () => {
    const { calls } = run(createAnthropicAdapter(), [
      messageStart('m'),
      blockStart(0, 't', 'f'),
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    ]);
    expect(calls[0]!.message).toBe('Anthropic: the stream reported an error: Overloaded');
  });

  it('marks server tools and MCP tools as running on the server', () => {
    const { calls } = run(createAnthropicAdapter(), [
      messageStart('m'),
      blockStart(0, 's', 'web_search', { query: 'x' }, 'server_tool_use'),
      stop(0),
      blockStart(1, 'p', 'mcp_thing', { a: 1 }, 'mcp_tool_use'),
      stop(1),
      blockStart(2, 'c', 'client', { a: 1 }),
      stop(2),
    ]);
    expect(calls.map((c) => c.location)).toEqual(['server', 'server', undefined]);
  });

  it('closes an unfinished message when the next one starts, and keeps the messages apart', () => {
    const { calls } = run(createAnthropicAdapter(), [
      messageStart('m1'),
      blockStart(0, 'a', 'f'),
      json(0, '{"x":1}'),
      messageStart('m2'),
      blockStart(0, 'b', 'f'),
      json(0, '{"x":2}'),
      stop(0),
    ]);
    expect(calls.map((c) => [c.turnId, c.outcome, c.arguments])).toEqual([
      ['m1', 'complete', { x: 1 }],
      ['m2', 'complete', { x: 2 }],
    ]);
  });

  it('reports fragments for a block that never started, and malformed fields, and goes on', () => {
    const reasons: string[] = [];
    const adapter = createAnthropicAdapter({ onError: (r) => reasons.push(r) });
    const events = [
      messageStart('m'),
      blockStart(0, 't', 'f'),
      json(3, '{"x":'),
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 5 } },
      { type: 'content_block_start', index: 'one', content_block: {} },
      json(0, '{"ok":true}'),
      stop(0),
    ].flatMap((c) => adapter.push(c));
    expect(reasons).toEqual([
      'Anthropic: input_json_delta for block 3, which never started as a tool block',
      'Anthropic: content_block_delta.delta.partial_json is number 5, not a string',
      'Anthropic: content_block_start.index is the string "one", not a number',
    ]);
    expect(group(events).calls[0]).toMatchObject({ arguments: { ok: true } });
  });
});

describe('the Cohere adapter', () => {
  const start = (index: number, id: string, name: string) => ({
    type: 'tool-call-start',
    index,
    delta: { message: { tool_calls: { id, type: 'function', function: { name, arguments: '' } } } },
  });
  const delta = (index: number, args: string) => ({
    type: 'tool-call-delta',
    index,
    delta: { message: { tool_calls: { function: { arguments: args } } } },
  });

  it('streams each call from start to end, in the turn of message-start', () => {
    const { calls } = run(createCohereAdapter(), [
      { type: 'message-start', id: 'msg-1', delta: { message: { role: 'assistant' } } },
      { type: 'tool-plan-delta', delta: { message: { tool_plan: 'I will' } } },
      start(0, 'w_1', 'weather'),
      delta(0, '{"city":'),
      delta(0, '"Oslo"}'),
      { type: 'tool-call-end', index: 0 },
      { type: 'message-end', delta: { finish_reason: 'TOOL_CALL' } },
    ]);
    expect(calls[0]).toMatchObject({ callId: 'w_1', turnId: 'msg-1', arguments: { city: 'Oslo' } });
  });

  it('fails a call the response cut at MAX_TOKENS', () => {
    const { calls } = run(createCohereAdapter(), [
      { type: 'message-start', id: 'm' },
      start(0, 'w', 'weather'),
      delta(0, '{"city":"Os'),
      { type: 'message-end', delta: { finish_reason: 'MAX_TOKENS' } },
    ]);
    expect(calls[0]!.message).toMatch(/^Cohere: the response stopped at max_tokens/);
  });

  it("reads the cohere-ai SDK's camelCased events too", () => {
    const { calls } = run(createCohereAdapter(), [
      { type: 'message-start', id: 'm' },
      { type: 'tool-call-start', index: 0, delta: { message: { toolCalls: { id: 'w', function: { name: 'weather', arguments: '' } } } } },
      { type: 'tool-call-delta', index: 0, delta: { message: { toolCalls: { function: { arguments: '{"city":"Os' } } } } },
      { type: 'message-end', delta: { finishReason: 'MAX_TOKENS' } },
    ]);
    expect(calls[0]).toMatchObject({ name: 'weather', outcome: 'failed' });
    expect(calls[0]!.message).toMatch(/max_tokens/);
  });

  it('reports a delta for an index that never started', () => {
    const reasons: string[] = [];
    createCohereAdapter({ onError: (r) => reasons.push(r) }).push(delta(2, '{'));
    expect(reasons).toEqual(['Cohere: tool-call-delta for index 2, which never started']);
  });

  it('reports a malformed chunk while a call is open, and the open call still completes with its arguments', () => {
    const reasons: string[] = [];
    const adapter = createCohereAdapter({ onError: (r) => reasons.push(r) });
    const events = [
      { type: 'message-start', id: 'm' },
      start(0, 'w', 'weather'),
      delta(0, '{"city":'),
      { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: 7 } } } } },
      { type: 'tool-call-delta', index: 'zero', delta: { message: { tool_calls: { function: { arguments: '"Lima"' } } } } },
      'data: {"type":"tool-call-delta",',
      delta(0, '"Oslo"}'),
      { type: 'tool-call-end', index: 0 },
    ].flatMap((c) => adapter.push(c));
    events.push(...adapter.end());
    expect(reasons).toEqual([
      'Cohere: tool-call-delta.tool_calls.function.arguments is number 7, not a string',
      'Cohere: tool-call-delta.index is the string "zero", not a number',
      'Cohere: a chunk is not JSON: the string "{\\"type\\":\\"tool-call-delta\\","',
    ]);
    const { calls } = group(events);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ callId: 'w', outcome: 'complete', deltas: ['{"city":', '"Oslo"}'], arguments: { city: 'Oslo' } });
  });
});

describe('the AI SDK adapter', () => {
  it("completes with tool-input-available's input, then settles on the output", () => {
    const { events, calls } = run(createAISDKAdapter(), [
      { type: 'start', messageId: 'msg_1' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'weather' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"city":"Oslo"}' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'weather', input: { city: 'Oslo' } },
      { type: 'tool-output-available', toolCallId: 'c1', output: { temp: 3 }, preliminary: true },
      { type: 'tool-output-available', toolCallId: 'c1', output: { temp: 4 } },
      { type: 'finish-step' },
    ]);
    expect(calls[0]).toMatchObject({ turnId: 'msg_1', arguments: { city: 'Oslo' } });
    expect(events.map((e) => e.phase)).toEqual(['start', 'arguments-delta', 'arguments-complete', 'progress', 'settled']);
    // The preliminary output replaces the last one while the call runs; the final one settles it.
    expect(events[3]).toMatchObject({ output: { temp: 3 } });
    expect(events[4]).toMatchObject({ ok: true, output: { temp: 4 } });
  });

  it('starts and completes a call that arrives whole, and marks provider-executed tools', () => {
    const { events } = run(createAISDKAdapter(), [
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: { q: 'x' }, providerExecuted: true },
    ]);
    expect(events.slice(0, 2)).toEqual([
      expect.objectContaining({ phase: 'start', name: 'search', location: 'server' }),
      expect.objectContaining({ phase: 'arguments-complete', arguments: { q: 'x' } }),
    ]);
  });

  it('cancels at the end a provider-executed call whose output never came, and leaves a call issued to the page', () => {
    const { events } = run(createAISDKAdapter(), [
      { type: 'tool-input-available', toolCallId: 'hosted', toolName: 'search', input: {}, providerExecuted: true },
      { type: 'tool-input-available', toolCallId: 'page', toolName: 'setTitle', input: {} },
    ]);
    expect(events.filter((e) => e.phase === 'cancelled')).toEqual([{ type: 'tool.stream', phase: 'cancelled', callId: 'hosted' }]);
  });

  it('settles FAILED a call whose tool failed, fails one whose input was invalid, and rejects a denied one', () => {
    const { events } = run(createAISDKAdapter(), [
      { type: 'tool-input-available', toolCallId: 'a', toolName: 't', input: {} },
      { type: 'tool-output-error', toolCallId: 'a', errorText: 'disk full' },
      { type: 'tool-input-error', toolCallId: 'b', toolName: 't', input: 'x', errorText: 'expected object' },
      { type: 'tool-input-available', toolCallId: 'c', toolName: 't', input: {} },
      { type: 'tool-output-denied', toolCallId: 'c' },
    ]);
    expect(events.filter((e) => e.phase === 'failed' || e.phase === 'settled')).toEqual([
      { type: 'tool.stream', phase: 'settled', callId: 'a', ok: false, code: 'FAILED', message: 'disk full' },
      { type: 'tool.stream', phase: 'failed', callId: 'b', message: 'AI SDK: the input of t is invalid: expected object' },
      { type: 'tool.stream', phase: 'settled', callId: 'c', ok: false, code: 'REJECTED' },
    ]);
  });

  it('ends in the store every call whose tool failed, and every call open when the stream reports an error', () => {
    const store = createToolStreamStore({ onError: (reason) => rejected.push(reason) });
    const rejected: string[] = [];
    const { events } = run(createAISDKAdapter(), [
      { type: 'tool-input-available', toolCallId: 'a', toolName: 't', input: {} },
      { type: 'tool-output-error', toolCallId: 'a', errorText: 'disk full' },
      { type: 'tool-input-available', toolCallId: 'b', toolName: 't', input: { q: 1 } },
      { type: 'tool-input-start', toolCallId: 'c', toolName: 't' },
      { type: 'tool-input-delta', toolCallId: 'c', inputTextDelta: '{"q":' },
      { type: 'error', errorText: 'rate limited' },
    ]);
    for (const event of events) store.getState().dispatch(event);
    expect(rejected).toEqual([]);
    const status = (id: string) => store.getState().calls[id]?.status;
    expect([status('a'), store.getState().calls['a']?.code, status('b'), status('c')]).toEqual(['settled', 'FAILED', 'cancelled', 'failed']);
  });

  it('cancels open calls on abort and fails them on error', () => {
    const aborted = run(createAISDKAdapter(), [
      { type: 'tool-input-start', toolCallId: 'a', toolName: 't' },
      { type: 'abort' },
    ]);
    expect(aborted.events.map((e) => e.phase)).toEqual(['start', 'cancelled']);
    const failed = run(createAISDKAdapter(), [
      { type: 'tool-input-start', toolCallId: 'a', toolName: 't' },
      { type: 'error', errorText: 'rate limited' },
    ]);
    expect(failed.calls[0]!.message).toBe('AI SDK: the stream reported an error: rate limited');
  });

  it('does not stream text-encoded input as JSON', () => {
    const { calls } = run(createAISDKAdapter(), [
      { type: 'tool-input-start', toolCallId: 'a', toolName: 'patch', inputEncoding: 'text' },
      { type: 'tool-input-delta', toolCallId: 'a', inputTextDelta: '*** Begin Patch' },
      { type: 'tool-input-available', toolCallId: 'a', toolName: 'patch', input: '*** Begin Patch' },
    ]);
    expect(calls[0]).toMatchObject({ deltas: [], arguments: '*** Begin Patch' });
  });

  const terminal = (events: ToolStreamEvent[]) =>
    events.filter((e) => e.phase === 'settled' || e.phase === 'failed' || e.phase === 'cancelled');

  it('ends a call whose streamed input is not JSON once, even when the tool then fails', () => {
    const { events } = run(createAISDKAdapter(), [
      { type: 'tool-input-start', toolCallId: 'a', toolName: 't' },
      { type: 'tool-input-delta', toolCallId: 'a', inputTextDelta: '{"x":' },
      { type: 'tool-output-error', toolCallId: 'a', errorText: 'bad input' },
    ]);
    expect(events.map((e) => e.phase)).toEqual(['start', 'arguments-delta', 'failed']);
    expect(terminal(events)).toEqual([expect.objectContaining({ phase: 'failed', message: expect.stringMatching(/^AI SDK: the tool failed; the arguments of t are incomplete/) })]);
  });

  it('ends a call whose step finished with input that is not JSON once, whatever output follows', () => {
    const { events } = run(createAISDKAdapter(), [
      { type: 'tool-input-start', toolCallId: 'a', toolName: 't' },
      { type: 'tool-input-delta', toolCallId: 'a', inputTextDelta: '{"x":' },
      { type: 'finish-step' },
      { type: 'tool-output-available', toolCallId: 'a', output: 1, preliminary: true },
      { type: 'tool-output-available', toolCallId: 'a', output: 1 },
      { type: 'tool-output-denied', toolCallId: 'a' },
      { type: 'abort' },
    ]);
    expect(events.map((e) => e.phase)).toEqual(['start', 'arguments-delta', 'failed']);
  });

  it('cancels on abort every call not yet ended, also those whose input is complete', () => {
    const { events } = run(createAISDKAdapter(), [
      { type: 'tool-input-available', toolCallId: 'issued', toolName: 't', input: { a: 1 } },
      { type: 'tool-input-start', toolCallId: 'streaming', toolName: 't' },
      { type: 'tool-input-delta', toolCallId: 'streaming', inputTextDelta: '{"a":' },
      { type: 'tool-input-available', toolCallId: 'done', toolName: 't', input: {} },
      { type: 'tool-output-available', toolCallId: 'done', output: 'ok' },
      { type: 'abort' },
      { type: 'tool-output-available', toolCallId: 'issued', output: 'late' },
    ]);
    expect(terminal(events)).toEqual([
      { type: 'tool.stream', phase: 'settled', callId: 'done', ok: true, output: 'ok' },
      { type: 'tool.stream', phase: 'cancelled', callId: 'issued' },
      { type: 'tool.stream', phase: 'cancelled', callId: 'streaming' },
    ]);
  });

  it('leaves no call open in the store after an abort, and the store accepts every event', () => {
    const refused: string[] = [];
    const store = createToolStreamStore({ onError: (reason) => refused.push(reason) });
    const adapter = createAISDKAdapter();
    for (const chunk of [
      { type: 'start', messageId: 'm' },
      { type: 'tool-input-available', toolCallId: 'a', toolName: 't', input: { a: 1 } },
      { type: 'tool-input-start', toolCallId: 'b', toolName: 't' },
      { type: 'tool-input-delta', toolCallId: 'b', inputTextDelta: '{"b":' },
      { type: 'abort' },
    ]) {
      for (const e of adapter.push(chunk)) store.getState().dispatch(e);
    }
    for (const e of adapter.end()) store.getState().dispatch(e);
    const { calls, order } = store.getState();
    expect(order.map((id) => calls[id]!.status)).toEqual(['cancelled', 'cancelled']);
    expect(order.every((id) => isTerminalStatus(calls[id]!.status))).toBe(true);
    expect(refused).toEqual([]);
  });

  it('reports a malformed chunk while a call is open, and the open call still completes with its arguments', () => {
    const reasons: string[] = [];
    const adapter = createAISDKAdapter({ onError: (r) => reasons.push(r) });
    const events = [
      { type: 'start', messageId: 'm' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'weather' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"city":' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 42 },
      { type: 'tool-input-delta', toolCallId: ['c1'], inputTextDelta: '"Lima"' },
      'data: {"type":"tool-input-delta"',
      { type: 'tool-output-error', toolCallId: 'zz', errorText: 'x' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '"Oslo"}' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'weather', input: { city: 'Oslo' } },
      { type: 'finish-step' },
    ].flatMap((c) => adapter.push(c));
    events.push(...adapter.end());
    expect(reasons).toEqual([
      'AI SDK: tool-input-delta.inputTextDelta is number 42, not a string',
      'AI SDK: tool-input-delta.toolCallId is an array, not a string',
      'AI SDK: a chunk is not JSON: the string "{\\"type\\":\\"tool-input-delta\\""',
      'AI SDK: tool-output-error for tool call zz, which never started',
    ]);
    const { calls } = group(events);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ callId: 'c1', outcome: 'complete', deltas: ['{"city":', '"Oslo"}'], arguments: { city: 'Oslo' } });
  });

  it('reports chunks for unknown calls and goes on', () => {
    const reasons: string[] = [];
    const adapter = createAISDKAdapter({ onError: (r) => reasons.push(r) });
    adapter.push({ type: 'tool-input-delta', toolCallId: 'zz', inputTextDelta: '{' });
    adapter.push({ type: 'tool-output-available', toolCallId: 'zz', output: 1 });
    adapter.push({ type: 'tool-input-start', toolCallId: 5, toolName: 't' });
    expect(reasons).toEqual([
      'AI SDK: tool-input-delta for tool call zz, which never started',
      'AI SDK: tool-output-available for tool call zz, which never started',
      'AI SDK: tool-input-start.toolCallId is number 5, not a string',
    ]);
  });
});

describe('the AI SDK adapter and a reset step (AI SDK 7)', () => {
  it('cancels the calls the reset step took back, and keeps those of earlier steps', () => {
    const { events } = run(createAISDKAdapter(), [
      { type: 'start-step' },
      { type: 'tool-input-available', toolCallId: 'kept', toolName: 't', input: {} },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'tool-input-start', toolCallId: 'gone', toolName: 't' },
      { type: 'tool-input-delta', toolCallId: 'gone', inputTextDelta: '{"a":' },
      { type: 'reset-step' },
    ]);
    expect(events.filter((e) => e.phase === 'cancelled' || e.phase === 'failed')).toEqual([{ type: 'tool.stream', phase: 'cancelled', callId: 'gone' }]);
  });
});

describe('the Anthropic adapter and the results of server and MCP tools', () => {
  const serverCall = (index: number, id: string, name: string, type = 'server_tool_use') => [
    { type: 'content_block_start', index, content_block: { type, id, name, input: {} } },
    { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '{"query":"x"}' } },
    { type: 'content_block_stop', index },
  ];
  const settledOf = (events: ToolStreamEvent[]) => events.filter((e) => e.phase === 'settled' || e.phase === 'cancelled');

  it('settles a call with its result block, also one that comes in a later message', () => {
    const { events } = run(createAnthropicAdapter(), [
      { type: 'message_start', message: { id: 'm1', content: [] } },
      ...serverCall(0, 'srv_1', 'web_search'),
      { type: 'content_block_start', index: 1, content_block: { type: 'web_search_tool_result', tool_use_id: 'srv_1', content: [{ type: 'web_search_result', url: 'https://example.com', title: 'Example' }] } },
      ...serverCall(2, 'srv_2', 'code_execution'),
      { type: 'message_stop' },
      { type: 'message_start', message: { id: 'm2', content: [{ type: 'code_execution_tool_result', tool_use_id: 'srv_2', content: { type: 'code_execution_result', stdout: '42' } }] } },
      { type: 'message_stop' },
    ]);
    expect(settledOf(events)).toEqual([
      { type: 'tool.stream', phase: 'settled', callId: 'srv_1', ok: true, output: [{ type: 'web_search_result', url: 'https://example.com', title: 'Example' }] },
      { type: 'tool.stream', phase: 'settled', callId: 'srv_2', ok: true, output: { type: 'code_execution_result', stdout: '42' } },
    ]);
  });

  it('settles FAILED, with the error code as its message, a result that is an error; an MCP result with is_error too', () => {
    const { events } = run(createAnthropicAdapter(), [
      { type: 'message_start', message: { id: 'm1', content: [] } },
      ...serverCall(0, 'srv_1', 'web_search'),
      { type: 'content_block_start', index: 1, content_block: { type: 'web_search_tool_result', tool_use_id: 'srv_1', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } } },
      ...serverCall(2, 'mcp_1', 'fetch', 'mcp_tool_use'),
      { type: 'content_block_start', index: 3, content_block: { type: 'mcp_tool_result', tool_use_id: 'mcp_1', is_error: true, content: [{ type: 'text', text: 'denied' }] } },
    ]);
    expect(settledOf(events)).toEqual([
      expect.objectContaining({ callId: 'srv_1', ok: false, code: 'FAILED', message: 'max_uses_exceeded' }),
      expect.objectContaining({ callId: 'mcp_1', ok: false, code: 'FAILED', message: 'the tool reported an error', output: [{ type: 'text', text: 'denied' }] }),
    ]);
  });

  it('cancels at the end of the stream a server tool whose result never came, and leaves a client tool issued', () => {
    const { events } = run(createAnthropicAdapter(), [
      { type: 'message_start', message: { id: 'm1', content: [] } },
      ...serverCall(0, 'srv_1', 'web_search'),
      ...serverCall(1, 'tu_1', 'lookup', 'tool_use'),
      { type: 'message_stop' },
    ]);
    expect(settledOf(events)).toEqual([{ type: 'tool.stream', phase: 'cancelled', callId: 'srv_1' }]);
  });

  it('reports a result block for a call that never started', () => {
    const reasons: string[] = [];
    createAnthropicAdapter({ onError: (r) => reasons.push(r) }).push({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'web_search_tool_result', tool_use_id: 'nobody', content: [] },
    });
    expect(reasons).toEqual(['Anthropic: content_block_start.content_block (web_search_tool_result) for tool call nobody, which never started']);
  });
});
