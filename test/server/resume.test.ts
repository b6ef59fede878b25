// @vitest-environment node
/**
 * Resume tokens (docs/protocol.md, "Sessions that survive a reload"): the welcome carries a secret, and a
 * resume needs it. Knowing a session id is not enough to take a session over.
 */
import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inspectReferenceServer } from '../../server/introspect';
import { autoAnswer, resumeOf, useTestServer } from './helpers';

// Counted, never changed: the comparison of tokens must go through the constant-time one.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const { startServer, connect } = useTestServer();
afterEach(() => {
  vi.mocked(crypto.timingSafeEqual).mockClear();
});

describe('reference server: resume tokens', () => {
  it('gives each session a resume token of at least 128 random bits in its welcome', async () => {
    await startServer();
    const tokens = await Promise.all([connect(), connect(), connect()].map(async (c) => (await c).welcome.resumeToken as string));
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      // base64url: six bits a character.
      expect(token.length * 6).toBeGreaterThanOrEqual(128);
    }
    expect(new Set(tokens).size).toBe(3);
  });

  it('repeats the token in a resumed welcome, so the page keeps one secret for the session', async () => {
    await startServer();
    const first = await connect();
    await first.client.terminate();
    const again = await connect(resumeOf(first.welcome, 0));
    expect(again.welcome).toMatchObject({ type: 'session.welcome', resumed: true, resumeToken: first.welcome.resumeToken });
  });

  it('refuses a resume with a wrong token: an error frame, no session, and the session’s live socket keeps its session', async () => {
    const server = await startServer();
    const owner = await connect();
    autoAnswer(owner.client);
    const intruder = await connect({ resume: { sessionId: owner.welcome.sessionId, token: `${owner.welcome.resumeToken}x`, lastSeq: 0 } });
    expect(intruder.welcome).toMatchObject({ type: 'session.refused', reason: 'unknown', sessionId: owner.welcome.sessionId });
    expect((await intruder.client.closed).code).toBe(4404);
    // The owner was not dropped and goes on; the intruder saw none of its events.
    expect(owner.client.socket.readyState).toBe(1);
    const { ended } = await owner.client.runTurn('edit');
    expect(ended.status).toBe('completed');
    expect(intruder.client.events()).toEqual([]);
    expect(server.session(owner.welcome.sessionId as string)!.connected).toBe(true);
    expect(inspectReferenceServer(server)).toMatchObject({ live: 1, known: 1 });
  });

  it('refuses a resume that names the session but carries no token (an id is not enough)', async () => {
    const server = await startServer();
    const owner = await connect();
    const bare = await connect({ sessionId: owner.welcome.sessionId, lastSeq: 0 });
    expect(bare.welcome).toMatchObject({ type: 'session.refused', reason: 'unknown' });
    expect(bare.welcome.message).toMatch(/token/);
    expect((await bare.client.closed).code).toBe(4404);
    expect(owner.client.socket.readyState).toBe(1);
    expect(server.session(owner.welcome.sessionId as string)!.connected).toBe(true);
  });

  it('answers a wrong token exactly as an unknown session, so the refusal tells nothing about the id', async () => {
    await startServer();
    const owner = await connect();
    const wrong = await connect({ resume: { sessionId: owner.welcome.sessionId, token: 'a'.repeat(43), lastSeq: 0 } });
    const unknown = await connect({ resume: { sessionId: 'sess_000000000000000000000000', token: 'a'.repeat(43), lastSeq: 0 } });
    const { sessionId: _a, ...wrongRest } = wrong.welcome;
    const { sessionId: _b, ...unknownRest } = unknown.welcome;
    expect(wrongRest).toEqual(unknownRest);
  });

  it('compares tokens in constant time, for a known session and an unknown one alike', async () => {
    await startServer();
    const owner = await connect();
    const compare = vi.mocked(crypto.timingSafeEqual);
    compare.mockClear();
    await connect({ resume: { sessionId: owner.welcome.sessionId, token: 'short', lastSeq: 0 } });
    await connect({ resume: { sessionId: 'sess_unknown', token: 'x'.repeat(500), lastSeq: 0 } });
    await owner.client.terminate();
    await connect(resumeOf(owner.welcome, 0));
    expect(compare).toHaveBeenCalledTimes(3);
    // Digests of equal length whatever was sent: the comparison never stops at a length.
    for (const [a, b] of compare.mock.calls) {
      expect((a as Buffer).length).toBe(32);
      expect((b as Buffer).length).toBe(32);
    }
  });

  it('lets the same page (its nonce) take over from a socket the server still holds, and tells the older socket it lost the session', async () => {
    await startServer();
    const first = await connect({ page: 'page-a' });
    const second = await connect({ ...resumeOf(first.welcome, 0), page: 'page-a' });
    expect(second.welcome.resumed).toBe(true);
    expect(await first.client.waitFor((f) => f.type === 'session.taken')).toMatchObject({ sessionId: first.welcome.sessionId });
    expect((await first.client.closed).code).toBe(4409);
  });

  it('refuses a resume from another page while the session’s socket is live (in-use, 4409): only one page runs its app tools', async () => {
    const server = await startServer();
    const holder = await connect({ page: 'page-a' });
    autoAnswer(holder.client);
    for (const page of ['page-b', undefined]) {
      const other = await connect({ ...resumeOf(holder.welcome, 0), ...(page === undefined ? {} : { page }) });
      expect(other.welcome).toMatchObject({ type: 'session.refused', reason: 'in-use', sessionId: holder.welcome.sessionId });
      expect((await other.client.closed).code).toBe(4409);
      expect(other.client.events()).toEqual([]);
    }
    // The holder was not dropped: its turn's app-tool call comes to it, and is answered once.
    const { ended } = await holder.client.runTurn('edit');
    expect(ended.status).toBe('completed');
    expect(server.ignored.filter((r) => r.reason === 'result-ignored' || r.message === 'tool.result')).toEqual([]);
    expect(server.session(holder.welcome.sessionId as string)!.connected).toBe(true);
  });

  it('lets another page resume once the holder’s socket is gone (never a lockout after a lost connection)', async () => {
    await startServer();
    const holder = await connect({ page: 'page-a' });
    await holder.client.terminate();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const other = await connect({ ...resumeOf(holder.welcome, 0), page: 'page-b' });
    expect(other.welcome).toMatchObject({ type: 'session.welcome', resumed: true });
  });

  it('refuses a resume with the right token of a closed session as closed, and with a wrong one as unknown', async () => {
    await startServer();
    const { client, welcome } = await connect();
    client.send({ type: 'session.close' });
    await client.closed;
    expect((await connect(resumeOf(welcome, 1))).welcome).toMatchObject({ type: 'session.refused', reason: 'closed' });
    const wrong = await connect({ resume: { sessionId: welcome.sessionId, token: 'nope', lastSeq: 1 } });
    expect(wrong.welcome).toMatchObject({ type: 'session.refused', reason: 'unknown' });
  });

  it('refuses a resume whose missing events are no longer kept (gap), rather than replay with a hole', async () => {
    await startServer({ limits: { maxReplayBytes: 2000 } });
    const first = await connect();
    autoAnswer(first.client);
    await first.client.runTurn('edit');
    await first.client.terminate();
    const early = await connect(resumeOf(first.welcome, 0));
    expect(early.welcome).toMatchObject({ type: 'session.refused', reason: 'gap' });
    expect((await early.client.closed).code).toBe(4412);
    const last = first.client.events().at(-1)!.seq as number;
    const late = await connect(resumeOf(first.welcome, last));
    expect(late.welcome).toMatchObject({ type: 'session.welcome', resumed: true });
  });
});
