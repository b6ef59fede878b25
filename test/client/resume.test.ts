// @vitest-environment node
/**
 * The client keeps the session's resume token and presents it when it reconnects; the resume
 * triple `{ sessionId, token, lastSeq }` can be read, and given back to take the session up again
 * (what a page that keeps it across a reload does).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ReferenceSession } from 'toolgate/client';
import type { ReferenceServer } from '../../server/server';
import { APP_TOOLS, connect, startServer, turnEnded, until, type Recorded } from './helpers';

let server: ReferenceServer | undefined;
const sessions: ReferenceSession[] = [];

function open(options: Parameters<typeof connect>[1] = {}): Recorded {
  const recorded = connect(server!.url, options);
  sessions.push(recorded.session);
  return recorded;
}

afterEach(async () => {
  for (const session of sessions.splice(0)) session.close();
  await server?.close();
  server = undefined;
});

describe('connectReferenceSession: the resume token', () => {
  it('reads the resume triple once welcomed: the session id, the welcome’s token, and the last event delivered', async () => {
    server = await startServer();
    const { session, events } = open();
    expect(session.resume).toBeUndefined();
    const welcome = await session.ready;
    expect(session.resume).toEqual({ sessionId: welcome.sessionId, token: welcome.resumeToken, lastSeq: 0 });
    const turnId = session.startTurn('search');
    await until(() => turnEnded(events, turnId));
    expect(session.resume).toEqual({ sessionId: welcome.sessionId, token: welcome.resumeToken, lastSeq: events.at(-1)!.seq });
  });

  it('presents the token when it reconnects, so the server resumes the same session', async () => {
    server = await startServer();
    const { session, statuses } = open();
    const welcome = await session.ready;
    const original = server.session(welcome.sessionId)!;
    server.dropConnection(welcome.sessionId);
    await until(() => session.status === 'open' && session.welcome !== welcome);
    expect(session.welcome).toMatchObject({ sessionId: welcome.sessionId, resumed: true });
    expect(server.session(welcome.sessionId)).toBe(original);
    expect(statuses).toEqual(['connecting', 'open', 'reconnecting', 'open']);
    expect(server.ignored).toEqual([]);
  });

  it('takes a session up again from a saved triple after the page that had it went away, replaying what it missed', async () => {
    server = await startServer();
    const first = open({ tools: APP_TOOLS, reconnect: { maxAttempts: 0 } });
    await first.session.ready;
    first.session.onToolCall((call) => first.session.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: { ok: true, output: null } }));
    const done = first.session.startTurn('search');
    await until(() => turnEnded(first.events, done));
    const saved = first.session.resume!;
    // The page goes away without closing the session (a reload): the server keeps it for a resume.
    server.dropConnection(saved.sessionId);
    await until(() => first.session.status === 'closed');
    expect(server.session(saved.sessionId)!.closed).toBe(false);
    server.injectFault(saved.sessionId, { fault: 'malformed', frame: 'unknown-type' }); // an event it has not seen
    const again = open({ resume: saved });
    const welcome = await again.session.ready;
    expect(welcome).toMatchObject({ sessionId: saved.sessionId, resumed: true, resumeToken: saved.token });
    await until(() => again.events.some((e) => e.type === 'tool.teleport'));
    expect(again.events.map((e) => e.seq)).toEqual([saved.lastSeq + 1]);
    expect(again.session.resume).toEqual({ ...saved, lastSeq: saved.lastSeq + 1 });
  });

  it('ends closed with the refusal when a saved triple carries a wrong token, and the session’s own page keeps it', async () => {
    server = await startServer();
    const owner = open();
    const welcome = await owner.session.ready;
    const intruder = open({ resume: { sessionId: welcome.sessionId, token: 'not-the-token', lastSeq: 0 } });
    await until(() => intruder.session.status === 'closed');
    expect(intruder.errors.map((e) => e.reason)).toEqual([expect.stringMatching(/refused to resume session .*: no session with that id and token/)]);
    expect(intruder.events).toEqual([{ type: 'closed', reason: 'refused: unknown' }]);
    await expect(intruder.session.ready).rejects.toThrow(/before the server welcomed it/);
    // The owner was never dropped.
    expect(owner.statuses).toEqual(['connecting', 'open']);
    const turnId = owner.session.startTurn('search');
    expect((await until(() => turnEnded(owner.events, turnId))).status).toBe('completed');
  });
});
