import { describe, expect, it } from 'vitest';
import { createAGUIAdapter } from 'toolgate/adapters';
import { createToolStreamStore, type ToolStreamEvent } from 'toolgate/core';
import { group } from './group';

function run(events: unknown[], adapter = createAGUIAdapter()) {
  const out = events.flatMap((e) => adapter.push(e));
  out.push(...adapter.end());
  return group(out);
}

const started = (runId: string) => ({ type: 'RUN_STARTED', threadId: 'th', runId });
const finished = (runId: string, outcome?: unknown) => ({ type: 'RUN_FINISHED', threadId: 'th', runId, ...(outcome ? { outcome } : {}) });
const phases = (events: ToolStreamEvent[]) => events.map((e) => `${e.callId}:${e.phase}`);

describe('the AG-UI adapter', () => {
  it('streams TOOL_CALL_ARGS as argument text, completes at TOOL_CALL_END and settles at TOOL_CALL_RESULT; the run is the turn', () => {
    const { calls, events } = run([
      started('run-1'),
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'weather', parentMessageId: 'm1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"city":' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '"Oslo"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { type: 'TOOL_CALL_RESULT', toolCallId: 'c1', messageId: 'm2', content: '{"sky":"clear"}' },
      finished('run-1'),
    ]);
    expect(calls[0]).toMatchObject({ turnId: 'run-1', name: 'weather', deltas: ['{"city":', '"Oslo"}'], arguments: { city: 'Oslo' } });
    expect(phases(events)).toEqual(['c1:start', 'c1:arguments-delta', 'c1:arguments-delta', 'c1:arguments-complete', 'c1:settled']);
  });

  it('reads an empty argument text at TOOL_CALL_END as no arguments', () => {
    const { calls } = run([started('r'), { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'now' }, { type: 'TOOL_CALL_END', toolCallId: 'c1' }]);
    expect(calls[0]).toMatchObject({ outcome: 'complete', arguments: {} });
  });

  it('reads TOOL_CALL_CHUNK: the first opens the call, the next continue it, another event ends it', () => {
    const { calls } = run([
      started('r'),
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'search', delta: '{"q":' },
      { type: 'TOOL_CALL_CHUNK', delta: '"cats"}' },
      { type: 'TOOL_CALL_CHUNK', toolCallId: 'c2', toolCallName: 'open', delta: '{}' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
    ]);
    expect(calls.map((c) => [c.callId, c.outcome, c.arguments])).toEqual([
      ['c1', 'complete', { q: 'cats' }],
      ['c2', 'complete', {}],
    ]);
  });

  it('keeps a call left for the page open at RUN_FINISHED (success or interrupt), and settles it from a later run', () => {
    const adapter = createAGUIAdapter();
    const first = [
      started('run-1'),
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'setTitle' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{"title":"Hi"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      finished('run-1', { type: 'interrupt', interrupts: [{ id: 'i1', reason: 'tool_call', toolCallId: 'c1' }] }),
    ].flatMap((e) => adapter.push(e));
    expect(first.at(-1)).toMatchObject({ phase: 'arguments-complete' });
    const second = [started('run-2'), { type: 'TOOL_CALL_RESULT', toolCallId: 'c1', messageId: 'm', content: 'ok' }, finished('run-2')].flatMap((e) =>
      adapter.push(e),
    );
    expect(second).toEqual([{ type: 'tool.stream', phase: 'settled', callId: 'c1', ok: true, output: 'ok' }]);
  });

  it('ends the open arguments at RUN_FINISHED, cancels every open call when the run was cancelled, and ends them at RUN_ERROR', () => {
    const open = [started('r'), { type: 'TOOL_CALL_START', toolCallId: 'a', toolCallName: 't' }, { type: 'TOOL_CALL_ARGS', toolCallId: 'a', delta: '{"x":' }];
    const issued = [{ type: 'TOOL_CALL_START', toolCallId: 'b', toolCallName: 't' }, { type: 'TOOL_CALL_END', toolCallId: 'b' }];
    const terminal = (events: ToolStreamEvent[]) => events.filter((e) => ['failed', 'cancelled', 'settled'].includes(e.phase));
    expect(phases(terminal(run([...open, ...issued, finished('r')]).events))).toEqual(['a:failed']);
    expect(phases(terminal(run([...open, ...issued, finished('r', { type: 'cancelled' })]).events))).toEqual(['a:cancelled', 'b:cancelled']);
    const errored = run([...open, ...issued, { type: 'RUN_ERROR', message: 'model overloaded' }]);
    expect(phases(terminal(errored.events))).toEqual(['a:failed', 'b:cancelled']);
    expect(errored.calls[0]!.message).toBe('AG-UI: the stream reported an error: model overloaded');
  });

  it('nests a sub-agent’s calls under the call that started it, also through a nested sub-agent', () => {
    const { events } = run([
      started('r'),
      { type: 'TOOL_CALL_START', toolCallId: 'research', toolCallName: 'research' },
      { type: 'TOOL_CALL_END', toolCallId: 'research' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'researcher', parentToolCallId: 'research' },
      { type: 'TOOL_CALL_START', toolCallId: 'search', toolCallName: 'search', subagentRunId: 's1' },
      { type: 'SUBAGENT_STARTED', subagentRunId: 's2', name: 'reader', parentSubagentRunId: 's1' },
      { type: 'TOOL_CALL_START', toolCallId: 'read', toolCallName: 'read', subagentRunId: 's2' },
      { type: 'TOOL_CALL_START', toolCallId: 'top', toolCallName: 'summarise' },
    ]);
    const starts = events.filter((e) => e.phase === 'start') as Array<ToolStreamEvent & { parentCallId?: string }>;
    expect(starts.map((e) => [e.callId, e.parentCallId])).toEqual([
      ['research', undefined],
      ['search', 'research'],
      ['read', 'research'],
      ['top', undefined],
    ]);
  });

  it('ends only a failed sub-agent’s own calls at SUBAGENT_ERROR', () => {
    const { events } = run([
      started('r'),
      { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'helper' },
      { type: 'TOOL_CALL_START', toolCallId: 'inner', toolCallName: 't', subagentRunId: 's1' },
      { type: 'TOOL_CALL_START', toolCallId: 'outer', toolCallName: 't' },
      { type: 'SUBAGENT_ERROR', subagentRunId: 's1', message: 'gave up' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'outer', delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: 'outer' },
    ]);
    expect(phases(events.filter((e) => e.phase === 'failed' || e.phase === 'arguments-complete'))).toEqual(['inner:failed', 'outer:arguments-complete']);
  });

  it('reports malformed events and events for calls that never started, and the store takes every event it sends', () => {
    const reasons: string[] = [];
    const codes: string[] = [];
    const store = createToolStreamStore({ onError: (reason) => reasons.push(`store: ${reason}`) });
    const adapter = createAGUIAdapter({
      onError: (reason, _event, code) => {
        reasons.push(reason);
        codes.push(code);
      },
    });
    for (const event of [
      started('r'),
      { type: 'TOOL_CALL_START', toolCallId: 'c1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'zz', delta: '{' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'ok' },
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'again' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: 7 },
      { type: 'TOOL_CALL_RESULT', toolCallId: 'nobody', content: 'x' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
    ]) {
      for (const e of adapter.push(event)) store.getState().dispatch(e);
    }
    expect(reasons).toEqual([
      'AG-UI: TOOL_CALL_START.toolCallName is missing',
      'AG-UI: TOOL_CALL_ARGS for tool call zz, which never started',
      'AG-UI: TOOL_CALL_START for tool call c1, which already started',
      'AG-UI: TOOL_CALL_ARGS.delta is number 7, not a string',
      'AG-UI: TOOL_CALL_RESULT for tool call nobody, which never started',
    ]);
    expect(codes).toEqual(['malformed-chunk', 'unknown-call', 'malformed-chunk', 'malformed-chunk', 'unknown-call']);
    expect(store.getState().calls['c1']).toMatchObject({ status: 'issued', arguments: {} });
  });
});
