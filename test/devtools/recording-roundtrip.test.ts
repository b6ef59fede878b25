import { describe, expect, it, vi } from 'vitest';
import { createToolgate, createToolStreamStore, type ToolStreamState } from 'toolgate/core';
import { createDevtoolsRecorder, inspectRecording, recordingToJson, toRecording } from 'toolgate/devtools';
import { callEvents, createManualClock, createScriptedSession, parseRecording, replayEvents, toolEvents as e } from 'toolgate/testing';

const plain = (state: ToolStreamState) => JSON.parse(JSON.stringify({ calls: state.calls, order: state.order, closed: state.closed })) as unknown;

/** A real session through a real client: streamed calls, an approval a person answers, an app tool, a refused frame, a local interrupt. */
async function recordSession() {
  const clock = createManualClock({ start: 1_700_000_000_000 });
  const client = createToolgate({ storeOptions: { now: clock.now } });
  const recorder = createDevtoolsRecorder(client, { scheduleFrame: (flush) => flush() });
  const session = createScriptedSession();
  client.connect(session);
  client.host.register({ name: 'set_title', run: (args: unknown) => ({ title: (args as { title: string }).title }) });

  for (const event of callEvents('c1', { name: 'search', turnId: 't1', arguments: { q: 'cats' } })) {
    session.emit(event);
    await clock.advance(40);
  }
  session.emit(e.start('c2', { name: 'delete_file', turnId: 't1' }));
  session.emit({ type: 'tool.stream', phase: 'arguments-complete', callId: 'c2', arguments: { path: '/tmp/a' } });
  session.emit({ type: 'tool.approval-request', requestId: 'r1', callId: 'c2', name: 'delete_file', arguments: { path: '/tmp/a' }, risk: 'high' });
  await vi.waitFor(() => expect(client.approvals.getState().status).toBe('reviewing'));
  await clock.advance(1_200);
  expect(client.approvals.approve()).toBe(true);
  await session.waitForMessage('tool.approval');
  session.emit({ type: 'tool.stream', phase: 'settled', callId: 'c2', ok: true });
  session.emit({ type: 'tool.stream', phase: 'progress', callId: 'nobody', progress: 1 }); // refused: unknown call
  session.emit(e.start('a1', { name: 'set_title', turnId: 't2', location: 'app' }));
  session.emit({ type: 'tool.stream', phase: 'arguments-complete', callId: 'a1', arguments: { title: 'Hi' } });
  await session.callTool({ callId: 'a1', turnId: 't2', name: 'set_title', arguments: { title: 'Hi' } });
  session.emit({ type: 'tool.stream', phase: 'settled', callId: 'a1', ok: true, output: { title: 'Hi' } });
  session.emit(e.start('c3', { name: 'search', turnId: 't3' }));
  await clock.advance(10);
  client.calls.getState().interrupt('t3');
  recorder.flush();
  const { entries, length } = recorder.getState();
  return { client, session, entries: entries.slice(0, length) };
}

describe('devtools recording: a session exported, replayed and inspected', () => {
  it('replays into a fresh store with replayEvents and reaches the same state, timestamps included', async () => {
    const { client, session, entries } = await recordSession();
    const written = recordingToJson(toRecording(entries));
    if (!written.ok) throw new Error(written.reason);
    const read = parseRecording(written.text);
    if (!read.ok) throw new Error(read.reason);
    const recording = read.recording;

    // What the recording holds: the refused frame with its reason, the page's events and answers.
    expect(recording.refused).toEqual([expect.objectContaining({ issue: 'unknown-call' })]);
    expect(recording.events).toContainEqual(expect.objectContaining({ type: 'toolgate.page', event: expect.objectContaining({ type: 'interrupt', turnId: 't3' }) }));
    expect(recording.events).toContainEqual(expect.objectContaining({ type: 'toolgate.page', event: expect.objectContaining({ type: 'approval', callId: 'c2' }) }));
    expect(recording.answers.map((a) => a.message)).toEqual(session.sent);

    const clock = createManualClock({ start: recording.startedAt });
    const fresh = createToolStreamStore({ now: clock.now });
    await replayEvents(fresh, recording, { clock });
    const original = client.calls.getState();
    expect(plain(fresh.getState())).toEqual(plain(original));
    expect(fresh.getState().calls['c1']?.startedAt).toBe(original.calls['c1']?.startedAt);
    expect(fresh.getState().calls['c2']?.approval).toBe('approved');
    expect(fresh.getState().calls['c3']?.status).toBe('cancelled');
  });

  it('inspects an imported recording as the live recorder saw it: the same types, verdicts and call states', async () => {
    const { entries } = await recordSession();
    const inspected = inspectRecording(toRecording(entries));
    const shape = (list: typeof entries) =>
      list.filter((entry) => entry.source !== 'tool-call' && entry.source !== 'error').map((entry) => [entry.type, entry.callId, entry.verdict?.outcome, entry.call?.status]);
    expect(shape(inspected)).toEqual(shape(entries));
  });

  it('refuses what is not a recording with a reason, and a recording whose events are not JSON', () => {
    expect(parseRecording('{')).toMatchObject({ ok: false, reason: expect.stringMatching(/^not JSON/) });
    expect(parseRecording('{"format":"toolgate.recording","version":2,"startedAt":0,"events":[],"answers":[],"refused":[]}')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('version'),
    });
    expect(parseRecording('[]')).toMatchObject({ ok: false });
    const cyclic: Record<string, unknown> = { type: 'x' };
    cyclic['self'] = cyclic;
    const written = recordingToJson({ format: 'toolgate.recording', version: 1, startedAt: 0, events: [cyclic], answers: [], refused: [] });
    expect(written).toMatchObject({ ok: false, reason: expect.stringContaining('not JSON') });
  });

  it('a replayed session frame that names a page event is refused, as it was live: only the page makes them', async () => {
    const store = createToolStreamStore();
    const refused: string[] = [];
    const watched = createToolStreamStore({ onError: (_r, _e, code) => refused.push(code) });
    await replayEvents(watched, [e.start('c1', { name: 'x', turnId: 't1' }), { type: 'toolgate.interrupt', turnId: 't1' }]);
    expect(refused).toEqual(['local-only']);
    expect(watched.getState().calls['c1']?.status).toBe('pending');
    // A page event in a recording goes through the store's own action.
    await replayEvents(store, { format: 'toolgate.recording', version: 1, startedAt: 0, events: [e.start('c1', { name: 'x', turnId: 't1' }), { type: 'toolgate.page', event: { type: 'interrupt', turnId: 't1' } }], answers: [], refused: [] });
    expect(store.getState().calls['c1']?.status).toBe('cancelled');
  });
});
