// @vitest-environment node
/**
 * Lifetimes and bounds: sessions without a socket go after the resume window and are forgotten
 * everywhere after one more, sockets that never say hello or stop answering pings are dropped,
 * and what one session makes the server keep (records, turns) stays bounded.
 */
import WebSocket from 'ws';
import { describe, expect, it, vi } from 'vitest';
import { inspectReferenceServer } from '../../server/introspect';
import { createManualTimer } from '../../server/timer';
import { TestClient, autoAnswer, useTestServer, type Frame } from './helpers';

const { startServer, connect, track } = useTestServer();

const invoice = { customerId: 'c_100', amount: 99.5, currency: 'EUR', memo: 'Workshop' };
/** Nothing of any session left in any of the server's maps. */
const EMPTY = { live: 0, known: 0, forgetTimers: 0, sockets: 0, room: { sessions: 0, confirmations: 0 }, records: { effects: 0, traces: 0, ignored: 0 }, sessions: {} };

/** Let socket closes reach the server. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('reference server: lifetimes', () => {
  it('closes a session whose socket stays away for the resume window, then forgets it everywhere after one more', async () => {
    const timer = createManualTimer();
    const server = await startServer({ timer, resumeWindowMs: 1000 });
    const { client, welcome } = await connect();
    const id = welcome.sessionId as string;
    await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    await client.room('invokeTool', { toolName: 'lookup_customer', arguments: { customerId: 'c_100' } });
    client.send({ type: 'no.such.message' });
    await client.roundTrip();
    expect(inspectReferenceServer(server)).toMatchObject({ live: 1, room: { sessions: 1, confirmations: 1 }, records: { effects: 1, traces: 1, ignored: 1 } });
    await client.terminate();
    await settle();
    await timer.advance(1000);
    expect(server.session(id)!.closed).toBe(true);
    expect(inspectReferenceServer(server)).toMatchObject({ live: 0, known: 1, forgetTimers: 1 });
    await timer.advance(1000);
    expect(server.session(id)).toBeUndefined();
    expect(inspectReferenceServer(server)).toEqual(EMPTY);
    expect(server.effects).toEqual([]);
    expect(timer.pending).toBe(0);
  });

  it('leaves no session behind after 300 sockets say hello and drop, once the window has passed twice', async () => {
    const timer = createManualTimer();
    const server = await startServer({ timer, resumeWindowMs: 60_000, limits: { maxSessionsPerAddress: 300 } });
    const sockets = await Promise.all(Array.from({ length: 300 }, () => TestClient.connect(server.url)));
    expect(inspectReferenceServer(server)).toMatchObject({ live: 300, sockets: 300 });
    await Promise.all(sockets.map(({ client }) => client.terminate()));
    await settle();
    expect(inspectReferenceServer(server)).toMatchObject({ live: 300, sockets: 0 });
    await timer.advance(60_000);
    expect(inspectReferenceServer(server)).toMatchObject({ live: 0, known: 300 });
    await timer.advance(60_000);
    expect(inspectReferenceServer(server)).toEqual(EMPTY);
    expect(timer.pending).toBe(0);
  }, 30_000);

  it('closes a socket that does not say hello within limits.helloTimeoutMs, with no session made', async () => {
    const server = await startServer({ limits: { helloTimeoutMs: 50 } });
    const client = await TestClient.open(server.url);
    track(client);
    expect(await client.closed).toEqual({ code: 4408, reason: 'no hello in time' });
    expect(inspectReferenceServer(server)).toMatchObject({ live: 0, known: 0 });
  });

  it('drops a socket that stops answering pings, and its session waits for a resume', async () => {
    const server = await startServer({ limits: { heartbeatMs: 40 } });
    const socket = new WebSocket(server.url, { autoPong: false });
    const welcome = await new Promise<Frame>((resolve) => {
      socket.once('open', () => socket.send(JSON.stringify({ type: 'hello', capabilities: [], tools: [] })));
      socket.once('message', (data) => resolve(JSON.parse(String(data)) as Frame));
    });
    const closed = await new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    expect(closed).toBe(1006);
    const session = server.session(welcome.sessionId as string)!;
    await vi.waitFor(() => expect(session.connected).toBe(false));
    expect(session.closed).toBe(false);
  });

  it('refuses a hello beyond limits.maxSessions live sessions with SERVER_BUSY and 1013', async () => {
    const server = await startServer({ limits: { maxSessions: 2 } });
    await connect();
    await connect();
    const third = await TestClient.open(server.url);
    track(third);
    third.send({ type: 'hello', capabilities: [], tools: [] });
    expect(await third.waitFor((f) => f.type === 'error')).toMatchObject({ code: 'SERVER_BUSY', message: expect.stringMatching(/holds 2 sessions/) });
    expect((await third.closed).code).toBe(1013);
    expect(inspectReferenceServer(server)).toMatchObject({ live: 2 });
  });
});

describe('reference server: what one session makes it keep is bounded', () => {
  it('keeps at most limits.maxRecordsPerSession records of a session, the newest, and leaves other sessions’ alone', async () => {
    const server = await startServer({ room: {}, limits: { maxRecordsPerSession: 10 } });
    const a = await connect();
    const b = await connect();
    for (let i = 0; i < 3; i++) await b.client.room('invokeTool', { toolName: 'add_note', arguments: { customerId: 'c_100', text: `b${i}` } });
    for (let i = 0; i < 25; i++) await a.client.room('invokeTool', { toolName: 'add_note', arguments: { customerId: 'c_100', text: `a${i}` } });
    const of = (session: Frame) => server.effects.filter((e) => e.sessionId === session.welcome.sessionId);
    expect(of(a).map((e) => (e.arguments as { text: string }).text)).toEqual(Array.from({ length: 10 }, (_, i) => `a${15 + i}`));
    expect(of(b)).toHaveLength(3);
  });

  it('keeps at most limits.maxRecords records in all, the newest', async () => {
    const server = await startServer({ room: {}, limits: { maxRecords: 5 } });
    const { client } = await connect();
    for (let i = 0; i < 8; i++) await client.room('invokeTool', { toolName: 'add_note', arguments: { customerId: 'c_100', text: `n${i}` } });
    expect(server.effects.map((e) => (e.arguments as { text: string }).text)).toEqual(['n3', 'n4', 'n5', 'n6', 'n7']);
  });

  it('keeps a large argument out of the record, saying so, and a long reason short', async () => {
    const server = await startServer({ room: {} });
    const { client } = await connect();
    const big = { customerId: 'c_100', text: 'x'.repeat(100_000) };
    await client.room('invokeTool', { toolName: 'add_note', arguments: big });
    expect(server.effects[0]).toMatchObject({ outcome: 'refused', code: 'FORBIDDEN', arguments: undefined, argumentsOmitted: { reason: 'more than 16384 bytes of JSON (or not JSON)' } });
    expect(server.effects[0]!.argumentsHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps at most limits.maxTurnsKept finished turns, with their calls and results', async () => {
    const server = await startServer({ limits: { maxTurnsKept: 2 } });
    const { client, welcome } = await connect();
    autoAnswer(client);
    for (let i = 0; i < 4; i++) await client.runTurn('search');
    const session = server.session(welcome.sessionId as string)!;
    expect(session.footprint()).toMatchObject({ turns: 2, calls: 2, results: 2 });
    expect([...session.results.keys()]).toEqual(['call_3', 'call_4']);
  });
});
