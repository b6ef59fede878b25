// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAppToolHost, createToolStreamStore, type AppToolHost } from 'toolgate/core';
import { bindAppToolHost } from 'toolgate/client';
import { connectReferenceSession, type ReferenceSession } from 'toolgate/client';
import type { ReferenceServer } from '../../server/server';
import { APP_TOOLS, connect, startServer, turnEnded, until, type Recorded } from './helpers';

let server: ReferenceServer | undefined;
const sessions: ReferenceSession[] = [];
const hosts: AppToolHost[] = [];

function open(options: Parameters<typeof connect>[1] = {}): Recorded {
  const recorded = connect(server!.url, options);
  sessions.push(recorded.session);
  return recorded;
}

afterEach(async () => {
  for (const host of hosts.splice(0)) host.close();
  for (const session of sessions.splice(0)) session.close();
  await server?.close();
  server = undefined;
});

const seqs = (events: Record<string, unknown>[]) => events.map((e) => e.seq as number);

describe('connectReferenceSession: connecting and hello', () => {
  it('goes from connecting to open, says hello itself when nobody else does, and learns the session', async () => {
    server = await startServer();
    const { session, statuses } = open({ tools: APP_TOOLS });
    expect(session.status).toBe('connecting');
    let seenInListener: unknown;
    session.onFrame((frame) => {
      if (frame.type === 'session.welcome') seenInListener = session.welcome;
    });
    const welcome = await session.ready;
    expect(seenInListener).toBe(welcome); // onFrame runs after the client applied the frame
    expect(session.status).toBe('open');
    expect(statuses).toEqual(['connecting', 'open']);
    expect(session.sessionId).toBe(welcome.sessionId);
    expect(session.capabilities).toEqual(['tool-stream-v1']);
    expect(welcome.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['set_title', 'insert_text']));
  });

  it('lets bindAppToolHost say hello with the host tools, and answers its calls through the session', async () => {
    server = await startServer();
    const { session, events } = open();
    const host = createAppToolHost();
    hosts.push(host);
    const titles: string[] = [];
    host.register({ ...APP_TOOLS[0]!, run: (args) => void titles.push((args as { title: string }).title) });
    host.register({ ...APP_TOOLS[1]!, run: () => 'inserted' });
    bindAppToolHost(session, host, { onError: (error) => { throw error; } });
    const welcome = await session.ready;
    expect(welcome.tools.filter((t) => t.location === 'app').map((t) => t.name)).toEqual(['set_title', 'insert_text']);
    const turnId = session.startTurn('edit');
    await until(() => turnEnded(events, turnId));
    expect(titles).toEqual(['Release notes']);
    const results = [...server.session(session.sessionId!)!.results.values()];
    expect(results).toEqual([
      { ok: true, output: null },
      { ok: true, output: 'inserted' },
      { ok: true, output: 'inserted' },
    ]);
  });

  it('turns a second hello on the same connection into tools.update (the server takes one hello)', async () => {
    server = await startServer();
    const { session, errors } = open();
    await session.ready;
    const host = createAppToolHost();
    hosts.push(host);
    host.register({ ...APP_TOOLS[0]!, run: () => null });
    const frames: Record<string, unknown>[] = [];
    session.onFrame((frame) => frames.push(frame));
    bindAppToolHost(session, host);
    const offered = await until(() => frames.find((f) => f.type === 'tools.offered'));
    expect((offered.tools as { name: string }[]).map((t) => t.name)).toContain('set_title');
    expect(errors).toEqual([]);
    expect(server.ignored).toEqual([]);
  });

  it('queues what is sent before the welcome and sends it after', async () => {
    server = await startServer();
    const { session, events } = open();
    const turnId = session.startTurn('search');
    expect(session.status).toBe('connecting');
    const ended = await until(() => turnEnded(events, turnId));
    expect(ended.status).toBe('completed');
  });

  it('keeps trying while the server cannot be reached, then gives up as closed with a reason', async () => {
    server = await startServer();
    const url = server.url;
    await server.close();
    server = undefined;
    const { session, errors, events } = connect(url, { reconnect: { initialDelayMs: 5, maxDelayMs: 10, maxAttempts: 2 } });
    await until(() => session.status === 'closed');
    expect(errors.map((e) => e.reason)).toEqual([expect.stringMatching(/gave up reconnecting .* after 2 attempts/)]);
    expect(events).toEqual([{ type: 'closed', reason: 'unreachable' }]);
    await expect(session.ready).rejects.toThrow(/before the server welcomed it/);
  });

  it('uses globalThis.WebSocket by default and says so clearly when there is none', () => {
    const reasons: string[] = [];
    const session = connectReferenceSession('ws://127.0.0.1:9', { onError: (reason) => reasons.push(reason) });
    if ((globalThis as { WebSocket?: unknown }).WebSocket === undefined) {
      expect(session.status).toBe('closed');
      expect(reasons).toEqual([expect.stringMatching(/no WebSocket constructor/)]);
    } else {
      session.close();
    }
  });
});

describe('connectReferenceSession: events and seq', () => {
  it('delivers every session event once, in seq order, to subscribe; tool.call also to onToolCall', async () => {
    server = await startServer();
    const { session, events } = open({ tools: APP_TOOLS });
    const calls: unknown[] = [];
    session.onToolCall((call) => {
      calls.push(call);
      session.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: { ok: true, output: null } });
    });
    const store = createToolStreamStore();
    session.subscribe((event) => store.getState().dispatch(event));
    const turnId = session.startTurn('parallel');
    await until(() => turnEnded(events, turnId));
    expect(seqs(events)).toEqual(server.session(session.sessionId!)!.events().map((e) => e.seq));
    expect(session.lastSeq).toBe(events.at(-1)!.seq);
    expect(calls).toEqual([expect.objectContaining({ type: 'tool.call', name: 'set_title' })]);
    const state = store.getState();
    expect(state.order).toHaveLength(4);
    expect(Object.values(state.calls).map((c) => c.status)).toEqual(['settled', 'settled', 'settled', 'settled']);
  });

  it('reports a repeated seq to onError and does not deliver it again', async () => {
    server = await startServer();
    const { session, events, errors } = open();
    await session.ready;
    const turnId = session.startTurn('search');
    await until(() => turnEnded(events, turnId));
    const delivered = events.length;
    session.injectFault({ fault: 'malformed', frame: 'repeat-seq' });
    await until(() => errors.length > 0);
    expect(errors[0]!.reason).toMatch(/repeated turn.ended event: seq \d+ was already delivered/);
    expect(events).toHaveLength(delivered);
  });

  it('reports frames that are not JSON or not objects, and keeps working', async () => {
    server = await startServer();
    const { session, events, errors } = open();
    await session.ready;
    session.injectFault({ fault: 'malformed', frame: 'invalid-json' });
    session.injectFault({ fault: 'malformed', frame: 'not-an-object' });
    await until(() => errors.length >= 2);
    expect(errors.map((e) => e.reason)).toEqual([
      expect.stringMatching(/^a frame from the server is not JSON: \{"type":"tool.stream"/),
      expect.stringMatching(/^a frame from the server is not a JSON object: \[/),
    ]);
    const turnId = session.startTurn('search');
    expect((await until(() => turnEnded(events, turnId))).status).toBe('completed');
    expect(session.status).toBe('open');
  });

  it('passes malformed objects on to the kit, whose store reports them and stays consistent', async () => {
    server = await startServer();
    const { session, events } = open();
    const storeErrors: string[] = [];
    const store = createToolStreamStore({ onError: (reason) => storeErrors.push(reason) });
    session.subscribe((event) => store.getState().dispatch(event));
    const turnId = session.startTurn('malformed');
    await until(() => turnEnded(events, turnId));
    expect(storeErrors.length).toBeGreaterThan(0);
    expect(Object.values(store.getState().calls).map((c) => c.status)).toEqual(['settled']);
  });

  it('sends an instant pacing (Infinity, which JSON cannot carry) as 0', async () => {
    server = await startServer({ speed: 1 });
    const { session, events, errors } = open();
    const turnId = session.startTurn('search', { speed: Infinity });
    expect((await until(() => turnEnded(events, turnId))).status).toBe('completed');
    expect(errors).toEqual([]);
  });

  it('reports the server refusing a message', async () => {
    server = await startServer();
    const { session, errors } = open();
    await session.ready;
    session.startTurn('no-such-script');
    await until(() => errors.length > 0);
    expect(errors[0]!.reason).toMatch(/^the server refused a message: UNKNOWN_SCRIPT/);
  });
});

describe('connectReferenceSession: lost connections and resume', () => {
  it('reconnects after a lost connection, resumes the same session and delivers no event twice', async () => {
    server = await startServer({ speed: 1, tokenDelayMs: 2 });
    const { session, events, statuses } = open({ tools: APP_TOOLS });
    session.onToolCall((call) => session.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: { ok: true, output: null } }));
    await session.ready;
    const sessionId = session.sessionId!;
    const turnId = session.startTurn('edit');
    await until(() => events.some((e) => e.type === 'tool.stream' && e.phase === 'arguments-delta'));
    server.dropConnection(sessionId);
    await until(() => session.status === 'reconnecting');
    await until(() => turnEnded(events, turnId));
    expect(session.sessionId).toBe(sessionId);
    expect(statuses).toEqual(['connecting', 'open', 'reconnecting', 'open']);
    expect(statuses).not.toContain('closed');
    // Exactly the server's log: nothing missed, nothing twice.
    expect(seqs(events)).toEqual(server.session(sessionId)!.events().map((e) => e.seq));
    expect(server.session(sessionId)!.results.size).toBe(3);
  });

  it('sends again a result that went into a socket already gone, once the resumed replay caught up', async () => {
    server = await startServer();
    const { session, events, errors } = open({ tools: APP_TOOLS });
    let dropped = false;
    session.onToolCall((call) => {
      if (!dropped) {
        // The server loses the socket just before the page answers: the answer is written into it and lost.
        dropped = true;
        server!.dropConnection(session.sessionId!);
      }
      session.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: { ok: true, output: call.name } });
    });
    await session.ready;
    const turnId = session.startTurn('edit');
    expect((await until(() => turnEnded(events, turnId))).status).toBe('completed');
    expect(dropped).toBe(true);
    const results = [...server.session(session.sessionId!)!.results.values()];
    expect(results).toEqual([
      { ok: true, output: 'set_title' },
      { ok: true, output: 'insert_text' },
      { ok: true, output: 'insert_text' },
    ]);
    expect(server.ignored).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('does not send again an answer the server already acted on', async () => {
    server = await startServer({ speed: 1, tokenDelayMs: 2 });
    const { session, events } = open({ tools: APP_TOOLS });
    session.onToolCall((call) => session.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: { ok: true, output: null } }));
    await session.ready;
    const turnId = session.startTurn('edit');
    await until(() => events.some((e) => e.type === 'tool.stream' && e.phase === 'settled'));
    server.dropConnection(session.sessionId!);
    await until(() => turnEnded(events, turnId));
    expect(server.ignored).toEqual([]);
  });

  it('does not send again an interrupt the server said it ignored', async () => {
    server = await startServer();
    const { session } = open();
    const frames: Record<string, unknown>[] = [];
    session.onFrame((frame) => frames.push(frame));
    await session.ready;
    session.send({ type: 'turn.interrupt', turnId: 'no-such-turn' });
    await until(() => frames.some((f) => f.type === 'turn.interrupt-ignored'));
    server.dropConnection(session.sessionId!);
    await until(() => session.status === 'reconnecting');
    await until(() => session.status === 'open' && session.welcome?.resumed);
    await session.room.describeTools(); // a round trip: anything resent would have arrived before its answer
    expect(server.ignored.filter((r) => r.message === 'turn.interrupt')).toHaveLength(1);
  });

  it('sends what was said while reconnecting once the resumed session is welcomed', async () => {
    server = await startServer();
    const { session, events } = open({ reconnect: { initialDelayMs: 50, maxDelayMs: 50 } });
    await session.ready;
    server.dropConnection(session.sessionId!);
    await until(() => session.status === 'reconnecting');
    const turnId = session.startTurn('search');
    expect((await until(() => turnEnded(events, turnId))).status).toBe('completed');
  });

  it('ends as closed, with a closed event for the store, when the server refuses the resume', async () => {
    server = await startServer();
    const { session, events, errors } = open({ reconnect: { initialDelayMs: 100, maxDelayMs: 100 } });
    await session.ready;
    const id = session.sessionId!;
    server.dropConnection(id);
    server.closeSession(id); // closed while nobody listened: its `closed` cannot be replayed
    await until(() => session.status === 'closed');
    expect(errors.map((e) => e.reason)).toEqual([expect.stringMatching(/refused to resume/)]);
    expect(events.at(-1)).toEqual({ type: 'closed', reason: 'refused: closed' });
  });
});

describe('connectReferenceSession: close', () => {
  it('close() ends the session for good: the server closes it and no reconnect follows', async () => {
    server = await startServer();
    const { session, events, statuses } = open();
    await session.ready;
    const id = session.sessionId!;
    session.close();
    await until(() => session.status === 'closed');
    expect(events.at(-1)).toMatchObject({ type: 'closed', reason: 'client' });
    expect(server.session(id)!.closed).toBe(true);
    expect(statuses).toEqual(['connecting', 'open', 'closed']);
    const errors: string[] = [];
    const late = connectReferenceSession(server.url, { WebSocket, onError: (r) => errors.push(r) });
    sessions.push(late);
    await late.ready;
    expect(late.sessionId).not.toBe(id);
  });

  it('a server-side close reaches subscribers as closed and the status becomes closed', async () => {
    server = await startServer();
    const { session, events } = open();
    await session.ready;
    server.closeSession(session.sessionId!);
    await until(() => session.status === 'closed');
    expect(events.at(-1)).toMatchObject({ type: 'closed', reason: 'server' });
  });

  it('refuses to send after close, with a reason', async () => {
    server = await startServer();
    const { session, errors } = open();
    await session.ready;
    session.close();
    await until(() => session.status === 'closed');
    session.send({ type: 'turn.interrupt', turnId: 't' });
    expect(errors.at(-1)!.reason).toMatch(/the session is closed: turn.interrupt was not sent/);
  });
});
