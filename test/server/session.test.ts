// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createManualTimer } from '../../server/timer';
import { APP_TOOLS, TestClient, autoAnswer, resumeOf, useTestServer, type Frame } from './helpers';

const { startServer, connect, track } = useTestServer();

describe('reference server: the session', () => {
  it('welcomes a hello with a session id, its mode, the offered tools and the scripts', async () => {
    const server = await startServer();
    const { welcome } = await connect();
    expect(welcome).toMatchObject({
      type: 'session.welcome',
      resumed: false,
      currentSeq: 0,
      epoch: 0,
      capabilities: ['tool-stream-v1'],
      mode: 'stream',
      clientTools: 'accept',
    });
    expect(welcome.sessionId).toMatch(/^sess_/);
    const names = (welcome.tools as Frame[]).map((t) => `${t.location}:${t.name}`);
    expect(names).toEqual(expect.arrayContaining(['server:search_docs', 'server:deploy_service', 'app:set_title', 'app:insert_text']));
    expect((welcome.scripts as Frame[]).map((s) => s.name)).toEqual(expect.arrayContaining(['search', 'no-stream', 'stop', 'long', 'parallel', 'deploy', 'write']));
    expect(server.sessions.has(welcome.sessionId as string)).toBe(true);
  });

  it('offers app tools to the model only when the agent accepts client tools', async () => {
    await startServer({ clientTools: 'ignore' });
    const { client, welcome } = await connect();
    expect((welcome.tools as Frame[]).some((t) => t.location === 'app')).toBe(false);
    const { ended } = await client.runTurn('edit');
    expect(ended.status).toBe('completed');
    expect(client.frames.some((f) => f.type === 'tool.call')).toBe(false);
    expect(client.stream()).toEqual([]);
  });

  it('offers the app tools of a tools.update, which replaces the declared set', async () => {
    await startServer();
    const { client } = await connect({ tools: [] });
    client.send({ type: 'tools.update', tools: [APP_TOOLS[0]] });
    const offered = await client.waitFor((f) => f.type === 'tools.offered');
    expect((offered.tools as Frame[]).filter((t) => t.location === 'app').map((t) => t.name)).toEqual(['set_title']);
    client.send({ type: 'tools.update', tools: [] });
    const again = await client.waitFor((f) => f.type === 'tools.offered' && f !== offered);
    expect((again.tools as Frame[]).filter((t) => t.location === 'app')).toEqual([]);
  });

  it('gives every session event a rising seq and leaves connection frames without one', async () => {
    await startServer();
    const { client, welcome } = await connect();
    autoAnswer(client);
    await client.runTurn('edit');
    const seqs = client.events().map((f) => f.seq as number);
    expect(seqs.length).toBeGreaterThan(10);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(welcome.seq).toBeUndefined();
    expect(client.frames.filter((f) => f.type === 'session.welcome' || f.type === 'room.response').every((f) => f.seq === undefined)).toBe(true);
  });

  it('sends tool.preview alongside tool.stream to a client that speaks tool-stream-v1, never for another call', async () => {
    await startServer();
    const { client } = await connect();
    await client.runTurn('search');
    const callId = client.stream()[0]!.callId as string;
    const previews = client.frames.filter((f) => f.type === 'tool.preview');
    expect(previews.length).toBeGreaterThan(0);
    expect(previews.every((p) => p.callId === callId && p.name === 'search_docs' && typeof p.turnId === 'string')).toBe(true);
    const deltas = client.stream(callId).filter((f) => f.phase === 'arguments-delta').map((f) => f.delta as string).join('');
    expect(previews.at(-1)!.arguments).toBe(deltas);
  });

  it('sends only tool.preview when the client does not announce tool-stream-v1', async () => {
    await startServer();
    const { client, welcome } = await connect({ capabilities: [] });
    expect(welcome).toMatchObject({ mode: 'preview', capabilities: [] });
    await client.runTurn('search');
    expect(client.stream()).toEqual([]);
    const previews = client.frames.filter((f) => f.type === 'tool.preview');
    expect(previews.length).toBeGreaterThan(1);
    expect(JSON.parse(previews.at(-1)!.arguments as string)).toEqual({ query: 'rotate api keys', limit: 3 });
    // Each preview extends the text of the one before it.
    for (let i = 1; i < previews.length; i++) {
      expect((previews[i]!.arguments as string).startsWith(previews[i - 1]!.arguments as string)).toBe(true);
    }
  });

  it('acts as a legacy server that sends previews only when toolStream is off', async () => {
    await startServer({ toolStream: false });
    const { client, welcome } = await connect();
    expect(welcome.mode).toBe('preview');
    await client.runTurn('search');
    expect(client.stream()).toEqual([]);
    expect(client.frames.some((f) => f.type === 'tool.preview')).toBe(true);
  });

  it('answers a message before hello with HELLO_REQUIRED and records it', async () => {
    const server = await startServer();
    const client = await TestClient.open(server.url);
    track(client);
    client.send({ type: 'turn.start', prompt: 'search' });
    const error = await client.waitFor((f) => f.type === 'error');
    expect(error.code).toBe('HELLO_REQUIRED');
    expect(server.ignored.at(-1)).toMatchObject({ reason: 'hello-required', message: 'turn.start' });
  });

  it('answers frames that are not JSON, unknown messages and bad fields with an error and keeps the session', async () => {
    await startServer();
    const { client } = await connect();
    client.sendText('{not json');
    client.send({ type: 'warp.drive' });
    client.send({ type: 'turn.start' });
    client.send({ type: 'tool.result', callId: 'x' });
    await client.waitFor((f) => f.type === 'error' && f.code === 'BAD_JSON');
    await client.waitFor((f) => f.type === 'error' && f.code === 'UNKNOWN_MESSAGE');
    await client.waitFor((f) => f.type === 'error' && f.code === 'BAD_MESSAGE' && /prompt/.test(f.message as string));
    await client.waitFor((f) => f.type === 'error' && f.code === 'BAD_MESSAGE' && /epoch/.test(f.message as string));
    const { ended } = await client.runTurn('search');
    expect(ended.status).toBe('completed');
  });

  it('refuses a second turn while one runs, and an unknown script', async () => {
    await startServer();
    const { client } = await connect();
    client.send({ type: 'turn.start', prompt: 'no such script' });
    const unknown = await client.waitFor((f) => f.type === 'error' && f.code === 'UNKNOWN_SCRIPT');
    expect(unknown.scripts).toContain('search');
    client.send({ type: 'turn.start', prompt: 'edit' });
    await client.waitFor((f) => f.type === 'tool.call');
    client.send({ type: 'turn.start', prompt: 'search' });
    const busy = await client.waitFor((f) => f.type === 'error' && f.code === 'TURN_IN_PROGRESS');
    expect(busy.turnId).toMatch(/^turn_/);
  });

  it('sends closed on session.close, then closes the socket and refuses to resume the session', async () => {
    const server = await startServer();
    const { client, welcome } = await connect();
    client.send({ type: 'session.close' });
    const closed = await client.waitFor((f) => f.type === 'closed');
    expect(closed.seq).toBe(1);
    expect((await client.closed).code).toBe(1000);
    expect(server.sessions.has(welcome.sessionId as string)).toBe(false);
    const again = await connect(resumeOf(welcome, 0));
    expect(again.welcome).toMatchObject({ type: 'session.refused', reason: 'closed' });
    expect((await again.client.closed).code).toBe(4410);
  });

  it('sends closed on a server-side close mid-turn and nothing after it, with no terminal event for open calls', async () => {
    const server = await startServer();
    const { client, welcome } = await connect();
    client.send({ type: 'turn.start', prompt: 'edit' });
    const call = await client.waitFor((f) => f.type === 'tool.call');
    expect(server.closeSession(welcome.sessionId as string)).toBe(true);
    const closed = await client.waitFor((f) => f.type === 'closed');
    await client.closed;
    expect(client.events().at(-1)).toBe(closed);
    expect(client.phases(call.callId as string)).not.toContain('settled');
    expect(client.phases(call.callId as string)).not.toContain('cancelled');
  });

  it('refuses to resume a session it does not know', async () => {
    await startServer();
    const { client, welcome } = await connect({ resume: { sessionId: 'sess_nope', token: 'a'.repeat(43), lastSeq: 3 } });
    expect(welcome).toMatchObject({ type: 'session.refused', reason: 'unknown' });
    expect((await client.closed).code).toBe(4404);
  });

  it('resumes the same session after a lost connection and replays only the events after lastSeq', async () => {
    await startServer();
    const first = await connect();
    const sessionId = first.welcome.sessionId as string;
    autoAnswer(first.client);
    await first.client.runTurn('edit');
    const seen = first.client.events();
    const lastSeq = seen[4]!.seq as number;
    await first.client.terminate();
    const second = await connect(resumeOf(first.welcome, lastSeq));
    expect(second.welcome).toMatchObject({ type: 'session.welcome', sessionId, resumed: true, currentSeq: seen.at(-1)!.seq });
    await second.client.waitFor((f) => f.seq === seen.at(-1)!.seq);
    expect(second.client.events().map((f) => f.seq)).toEqual(seen.slice(5).map((f) => f.seq));
    expect(second.client.events()).toEqual(seen.slice(5));
    // The session goes on: a new turn on the new socket continues the numbering.
    autoAnswer(second.client);
    await second.client.runTurn('search');
    expect(second.client.events().at(-1)!.seq).toBeGreaterThan(seen.at(-1)!.seq as number);
  });

  it('keeps running a turn while the socket is gone and replays what happened meanwhile', async () => {
    await startServer();
    const first = await connect();
    first.client.send({ type: 'turn.start', prompt: 'edit' });
    const call = await first.client.waitFor((f) => f.type === 'tool.call');
    const lastSeq = first.client.events().at(-1)!.seq as number;
    await first.client.terminate();
    await new Promise((r) => setImmediate(r));
    const second = await connect(resumeOf(first.welcome, lastSeq));
    // The pending call still waits for its result: answer it on the new socket.
    second.client.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: { ok: true, output: 'done' } });
    autoAnswer(second.client);
    const ended = await second.client.waitFor((f) => f.type === 'turn.ended');
    expect(ended.status).toBe('completed');
    expect(second.client.events()[0]!.seq).toBe(lastSeq + 1);
    expect(second.client.phases(call.callId as string)).toEqual(['settled']);
  });

  it('hands the session to the newest socket of the same page when a resume arrives while the old one is still open', async () => {
    await startServer();
    const first = await connect({ page: 'page-a' });
    const second = await connect({ ...resumeOf(first.welcome, 0), page: 'page-a' });
    expect(second.welcome.resumed).toBe(true);
    await first.client.closed;
    await second.client.runTurn('search');
    expect(first.client.frames.some((f) => f.type === 'turn.started')).toBe(false);
  });

  it('closes a session whose socket stays away past the resume window', async () => {
    const timer = createManualTimer();
    const server = await startServer({ timer, resumeWindowMs: 1000 });
    const { client, welcome } = await connect();
    await client.terminate();
    await new Promise((r) => setImmediate(r));
    const session = server.session(welcome.sessionId as string)!;
    expect(session.closed).toBe(false);
    await timer.advance(999);
    expect(session.closed).toBe(false);
    await timer.advance(1);
    expect(session.closed).toBe(true);
    expect(session.events().at(-1)).toMatchObject({ type: 'closed', reason: 'expired' });
  });

  it('sends closed to every session when the server shuts down', async () => {
    const server = await startServer();
    const { client } = await connect();
    await server.close();
    expect(client.events().at(-1)).toMatchObject({ type: 'closed', reason: 'shutdown' });
  });
});
