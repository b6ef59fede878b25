// @vitest-environment node
/**
 * What one client may cost the reference server (server/README.md "Limits"): what waits to be
 * sent to a socket that stops reading, what a turn may be asked to produce, how many sessions one
 * address may hold, and how long a session that never started a turn outlives its socket. Each
 * test counts closes, refusals and sessions; none measures time.
 */
import WebSocket from 'ws';
import { describe, expect, it, vi } from 'vitest';
import { inspectReferenceServer } from '../../server/introspect';
import { createManualTimer } from '../../server/timer';
import { TestClient, autoAnswer, resumeOf, useTestServer, type Frame } from './helpers';

const { startServer, connect, track } = useTestServer();

/** Let socket closes reach the server. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Say hello from `localAddress` (any 127.x.y.z is this machine); resolves with the client and the answer. */
async function helloFrom(url: string, localAddress: string): Promise<{ client: TestClient; answer: Frame; socket: WebSocket }> {
  const socket = new WebSocket(url, { localAddress });
  const client = await new Promise<TestClient>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => resolve(TestClient.adopt(socket)));
  });
  track(client);
  client.send({ type: 'hello', capabilities: ['tool-stream-v1'], tools: [] });
  const answer = await client.waitFor((f) => f.type === 'session.welcome' || f.type === 'error');
  return { client, answer, socket };
}

describe('reference server: a client that stops reading', () => {
  it('drops a socket that has more than limits.maxBufferedBytes waiting to be sent, and its session waits for a resume', async () => {
    const server = await startServer({ limits: { maxBufferedBytes: 64 * 1024 } });
    const { client, welcome } = await connect({ tools: [] });
    const id = welcome.sessionId as string;
    // Stop reading: what the server writes piles up in the kernel's buffers, then in its own.
    (client.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    // Each tools.update is answered with the tools offered, this one's 900 KB description included:
    // cheap to ask, and more than the kernel's buffers hold after a few dozen.
    const tool = { name: 'echo', description: 'x'.repeat(900 * 1024), parameters: { type: 'object' } };
    for (let i = 0; i < 60 && !server.ignored.some((r) => r.sessionId === id && r.reason === 'send-buffer-full'); i++) {
      client.send({ type: 'tools.update', tools: [tool] });
      await settle();
    }
    await vi.waitFor(() => expect(server.session(id)!.connected).toBe(false), { timeout: 15_000, interval: 20 });
    const drops = server.ignored.filter((r) => r.sessionId === id && r.reason === 'send-buffer-full');
    expect(drops).toHaveLength(1);
    expect((drops[0]!.detail as { buffered: number }).buffered).toBeGreaterThan(64 * 1024);
    // A lost connection, not an end: the page may resume and gets what it missed.
    expect(server.session(id)!.closed).toBe(false);
    const again = await connect(resumeOf(welcome, 0));
    expect(again.welcome).toMatchObject({ type: 'session.welcome', resumed: true, sessionId: id });
  }, 30_000);

  it('lets a resume replay more than limits.maxBufferedBytes at once to a socket that reads', async () => {
    const server = await startServer({ limits: { maxBufferedBytes: 1024 } });
    const first = await connect({ tools: [] });
    const { ended } = await first.client.runTurn('long', { params: { size: 50_000 } });
    expect(ended.status).toBe('completed');
    await first.client.terminate();
    const again = await connect({ ...resumeOf(first.welcome, 0), tools: [] });
    await again.client.waitFor((f) => f.type === 'turn.ended');
    expect(again.client.events().length).toBe(first.client.events().length);
    expect(server.ignored.filter((r) => r.reason === 'send-buffer-full')).toEqual([]);
  });
});

describe('reference server: what a client may ask of a turn', () => {
  it('clamps params.size to limits.maxScriptSize', async () => {
    await startServer({ limits: { maxScriptSize: 1000 } });
    const { client } = await connect();
    autoAnswer(client);
    await client.runTurn('long', { params: { size: 50_000_000 } });
    const complete = client.stream().find((f) => f.phase === 'arguments-complete')!;
    expect((complete.arguments as { text: string }).text).toHaveLength(1000);
  });

  it('clamps a speed slower than limits.minTurnSpeed to it, so a turn cannot be made to last for ever', async () => {
    const timer = createManualTimer();
    await startServer({ timer, speed: 1, tokenDelayMs: 30, limits: { minTurnSpeed: 0.5 } });
    const { client } = await connect({ tools: [] });
    client.send({ type: 'turn.start', prompt: 'search', speed: 1e-9 });
    await client.waitFor((f) => f.type === 'turn.started');
    // At speed 0.5 the whole scripted turn fits in a few simulated minutes; at 1e-9 it would take years.
    for (let i = 0; i < 200 && !client.frames.some((f) => f.type === 'turn.ended'); i++) {
      await timer.advance(1_000);
      await settle();
    }
    expect(client.frames.find((f) => f.type === 'turn.ended')).toMatchObject({ status: 'completed' });
  });
});

describe('reference server: sessions one address may hold', () => {
  it('refuses a hello beyond limits.maxSessionsPerAddress sessions from one address with SERVER_BUSY and 1013, and lets another address in', async () => {
    const server = await startServer({ limits: { maxSessionsPerAddress: 3 } });
    const flood = await Promise.all(Array.from({ length: 3 }, () => helloFrom(server.url, '127.0.0.2')));
    expect(flood.map((f) => f.answer.type)).toEqual(['session.welcome', 'session.welcome', 'session.welcome']);
    // Gone from the socket, still held for a resume: they count all the same.
    await Promise.all(flood.map((f) => f.client.terminate()));
    const fourth = await helloFrom(server.url, '127.0.0.2');
    expect(fourth.answer).toMatchObject({ type: 'error', code: 'SERVER_BUSY', message: expect.stringMatching(/this address holds 3 sessions/) });
    expect((await fourth.client.closed).code).toBe(1013);
    const other = await helloFrom(server.url, '127.0.0.3');
    expect(other.answer.type).toBe('session.welcome');
    expect(inspectReferenceServer(server)).toMatchObject({ live: 4 });
  });

  it('lets an address open sessions again once its own have closed', async () => {
    const server = await startServer({ limits: { maxSessionsPerAddress: 1 } });
    const first = await helloFrom(server.url, '127.0.0.2');
    first.client.send({ type: 'session.close' });
    await first.client.waitFor((f) => f.type === 'closed');
    const second = await helloFrom(server.url, '127.0.0.2');
    expect(second.answer.type).toBe('session.welcome');
    expect(inspectReferenceServer(server)).toMatchObject({ live: 1 });
  });
});

describe('reference server: a session that never started a turn', () => {
  it('closes limits.unusedSessionTtlMs after its socket went away, not after the whole resume window', async () => {
    const timer = createManualTimer();
    const server = await startServer({ timer, resumeWindowMs: 300_000, limits: { unusedSessionTtlMs: 5_000 } });
    const unused = await connect({ tools: [] });
    const used = await connect({ tools: [] });
    await used.client.runTurn('search');
    await unused.client.terminate();
    await used.client.terminate();
    await settle();
    await timer.advance(5_000);
    expect(server.session(unused.welcome.sessionId as string)!.closed).toBe(true);
    expect(server.session(used.welcome.sessionId as string)!.closed).toBe(false);
    await timer.advance(295_000);
    expect(server.session(used.welcome.sessionId as string)!.closed).toBe(true);
  });

  it('after one address opened and dropped as many sessions as it may, another client still gets a session at once', async () => {
    const timer = createManualTimer();
    const server = await startServer({ timer, limits: { maxSessions: 10, maxSessionsPerAddress: 5, unusedSessionTtlMs: 5_000 } });
    for (let i = 0; i < 20; i++) {
      const attempt = await helloFrom(server.url, '127.0.0.2');
      await attempt.client.terminate();
    }
    await settle();
    expect(inspectReferenceServer(server)).toMatchObject({ live: 5 });
    const victim = await helloFrom(server.url, '127.0.0.3');
    expect(victim.answer.type).toBe('session.welcome');
    await timer.advance(5_000);
    expect(inspectReferenceServer(server)).toMatchObject({ live: 1 });
  });
});
