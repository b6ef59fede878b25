// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createManualTimer } from '../../server/timer';
import { autoAnswer, resumeOf, useTestServer, type Frame } from './helpers';

const { startServer, connect } = useTestServer();

const invoice = { customerId: 'c_101', amount: 1250, currency: 'EUR', memo: 'Consulting, March' };

describe('reference server: fault injection', () => {
  it('drops an invoke response: the effect happens once and is recorded, the answer never comes', async () => {
    const server = await startServer();
    const { client } = await connect();
    const { result } = await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    client.send({ type: 'fault', fault: 'drop-invoke-response' });
    await client.waitFor((f) => f.type === 'fault.ack' && f.fault === 'drop-invoke-response');
    client.send({ type: 'room.request', id: 'lost', method: 'invokeTool', params: { toolName: 'send_invoice', arguments: invoice, confirmationId: result.confirmationId } });
    await client.roundTrip();
    expect(client.frames.some((f) => f.type === 'room.response' && f.id === 'lost')).toBe(false);
    expect(server.effects).toEqual([expect.objectContaining({ toolName: 'send_invoice', outcome: 'accepted', responseDropped: true })]);
    // The trace was published all the same: it is not a receipt.
    expect(server.traces.some((t) => t.type === 'tool.completed')).toBe(true);
    // A blind retry with the same confirmation is refused, and recorded as refused.
    const retry = await client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: result.confirmationId });
    expect(retry.error.code).toBe('CONFIRMATION_CONSUMED');
    expect(server.effects.filter((e) => e.outcome === 'accepted')).toHaveLength(1);
    // The application's own check finds the one effect.
    const listed = await client.room('listEffects', { confirmationId: result.confirmationId });
    expect((listed.result.effects as Frame[]).map((e) => e.outcome)).toEqual(['accepted', 'refused']);
  });

  it('drops the invoke responses armed by a server option for every new session', async () => {
    const server = await startServer({ faults: { dropInvokeResponses: 1 } });
    const { client } = await connect();
    client.send({ type: 'room.request', id: 'lost', method: 'invokeTool', params: { toolName: 'lookup_customer', arguments: { customerId: 'c_100' } } });
    const next = await client.room('invokeTool', { toolName: 'lookup_customer', arguments: { customerId: 'c_100' } });
    expect(next.ok).toBe(true);
    expect(client.frames.some((f) => f.id === 'lost')).toBe(false);
    expect(server.effects.map((e) => e.responseDropped ?? false)).toEqual([true, false]);
  });

  it('delays room responses on the server clock', async () => {
    const timer = createManualTimer();
    await startServer({ timer });
    const { client } = await connect();
    client.send({ type: 'fault', fault: 'delay-responses', ms: 2000 });
    await client.waitFor((f) => f.type === 'fault.ack');
    client.send({ type: 'room.request', id: 'slow', method: 'describeTools', params: {} });
    // Anything answered meanwhile proves the request was handled without answering it.
    client.send({ type: 'turn.start', prompt: 'nothing-by-that-name' });
    await client.waitFor((f) => f.code === 'UNKNOWN_SCRIPT');
    await timer.advance(1999);
    expect(client.frames.some((f) => f.id === 'slow')).toBe(false);
    await timer.advance(1);
    expect((await client.waitFor((f) => f.id === 'slow')).ok).toBe(true);
  });

  it('disconnects the socket and keeps the session for a resume', async () => {
    const server = await startServer();
    const { client, welcome } = await connect();
    client.send({ type: 'fault', fault: 'disconnect' });
    const closed = await client.closed;
    expect(closed.code).toBe(1006);
    expect(server.sessions.has(welcome.sessionId as string)).toBe(true);
    const again = await connect(resumeOf(welcome, 0));
    expect(again.welcome.resumed).toBe(true);
  });

  it('disconnects mid-stream and, on resume, replays the rest so that no event arrives twice', async () => {
    await startServer();
    const first = await connect();
    first.client.send({ type: 'fault', fault: 'disconnect', afterEvents: 6 });
    await first.client.waitFor((f) => f.type === 'fault.ack');
    first.client.send({ type: 'turn.start', prompt: 'search' });
    await first.client.closed;
    const before = first.client.events();
    expect(before.map((f) => f.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    // The turn goes on without a socket; the resume replays what happened meanwhile.
    const second = await connect(resumeOf(first.welcome, 6));
    const ended = await second.client.waitFor((f) => f.type === 'turn.ended');
    expect(ended.status).toBe('completed');
    const after = second.client.events();
    const all = [...before, ...after].map((f) => f.seq as number);
    expect(all).toEqual(all.map((_, i) => i + 1));
    const callId = before.find((f) => f.phase === 'start')!.callId as string;
    const phases = [...before, ...after].filter((f) => f.type === 'tool.stream' && f.callId === callId).map((f) => f.phase);
    expect(phases.filter((p) => p === 'start')).toHaveLength(1);
    expect(phases.at(-1)).toBe('settled');
  });

  it('closes the session mid-stream with closed, after which nothing is sent and it cannot resume', async () => {
    await startServer();
    const { client, welcome } = await connect();
    client.send({ type: 'fault', fault: 'close-session', afterEvents: 5 });
    await client.waitFor((f) => f.type === 'fault.ack');
    client.send({ type: 'turn.start', prompt: 'search' });
    await client.closed;
    const events = client.events();
    expect(events.map((f) => f.type)).toEqual(['turn.started', 'tool.stream', 'tool.stream', 'tool.preview', 'tool.stream', 'closed']);
    expect(events.at(-1)).toMatchObject({ type: 'closed', reason: 'fault', seq: 6 });
    const again = await connect(resumeOf(welcome, 6));
    expect(again.welcome).toMatchObject({ type: 'session.refused', reason: 'closed' });
  });

  it('sends each malformed frame on demand and keeps the session working', async () => {
    await startServer();
    const { client } = await connect();
    await client.runTurn('no-stream');
    const lastSeq = client.events().at(-1)!.seq as number;
    const rawBefore = client.raw.length;
    for (const frame of ['invalid-json', 'unknown-phase', 'missing-call-id', 'unknown-type', 'not-an-object', 'repeat-seq']) {
      client.send({ type: 'fault', fault: 'malformed', frame });
    }
    await client.waitForRaw(rawBefore + 6);
    const raw = client.raw.slice(rawBefore);
    expect(() => JSON.parse(raw[0]!)).toThrow();
    expect(JSON.parse(raw[1]!)).toMatchObject({ type: 'tool.stream', phase: 'rewind', seq: lastSeq + 1 });
    const missing = JSON.parse(raw[2]!);
    expect(missing).toMatchObject({ type: 'tool.stream', phase: 'progress', seq: lastSeq + 2 });
    expect(missing.callId).toBeUndefined();
    expect(JSON.parse(raw[3]!)).toMatchObject({ type: 'tool.teleport', seq: lastSeq + 3 });
    expect(Array.isArray(JSON.parse(raw[4]!))).toBe(true);
    expect(raw[5]).toBe(raw[3]);
    const { ended } = await client.runTurn('search');
    expect(ended.status).toBe('completed');
    expect(ended.seq).toBeGreaterThan(lastSeq + 3);
  });

  it('mixes malformed frames into a turn whose call still completes', async () => {
    await startServer();
    const { client } = await connect();
    await client.runTurn('malformed');
    const callId = client.stream().find((f) => f.phase === 'start')!.callId as string;
    expect(client.raw.some((r) => r.startsWith('{"type":"tool.stream","phase":"arguments-delta","callId":') && !r.endsWith('}'))).toBe(true);
    expect(client.frames.some((f) => f.phase === 'rewind')).toBe(true);
    expect(client.phases(callId).at(-1)).toBe('settled');
    // The repeated frame (same seq) is a repeat, not more text: a page drops it by its seq.
    const deltas = [...new Map(client.stream(callId).filter((f) => f.phase === 'arguments-delta').map((f) => [f.seq, f.delta])).values()].join('');
    expect(JSON.parse(deltas)).toEqual({ query: 'deploying a service' });
  });

  it('disarms every fault on reset', async () => {
    await startServer();
    const { client } = await connect();
    client.send({ type: 'fault', fault: 'drop-invoke-response', count: 3 });
    client.send({ type: 'fault', fault: 'disconnect', afterEvents: 2 });
    client.send({ type: 'fault', fault: 'reset' });
    await client.waitFor((f) => f.type === 'fault.ack' && f.fault === 'reset');
    autoAnswer(client);
    await client.runTurn('search');
    expect((await client.room('invokeTool', { toolName: 'lookup_customer', arguments: { customerId: 'c_100' } })).ok).toBe(true);
  });

  it('refuses fault messages when fault injection is off', async () => {
    await startServer({ faults: false });
    const { client } = await connect();
    client.send({ type: 'fault', fault: 'disconnect' });
    expect((await client.waitFor((f) => f.type === 'error')).code).toBe('FAULTS_DISABLED');
    expect(client.socket.readyState).toBe(1);
  });

  it('answers a fault message it cannot read with BAD_MESSAGE', async () => {
    await startServer();
    const { client } = await connect();
    client.send({ type: 'fault', fault: 'malformed', frame: 'gibberish' });
    client.send({ type: 'fault', fault: 'meteor' });
    await client.waitFor((f) => f.code === 'BAD_MESSAGE' && /frame/.test(f.message as string));
    await client.waitFor((f) => f.code === 'BAD_MESSAGE' && /drop-invoke-response/.test(f.message as string));
  });

  it('lets a test drop a connection or inject a fault through the server handle', async () => {
    const server = await startServer();
    const { client, welcome } = await connect();
    const id = welcome.sessionId as string;
    expect(server.injectFault(id, { fault: 'malformed', frame: 'unknown-type' })).toBe(true);
    await client.waitFor((f) => f.type === 'tool.teleport');
    expect(server.dropConnection(id)).toBe(true);
    expect((await client.closed).code).toBe(1006);
    expect(server.session(id)!.connected).toBe(false);
    expect(server.injectFault('sess_none', { fault: 'reset' })).toBe(false);
  });
});
