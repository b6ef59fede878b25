// @vitest-environment node
/**
 * `connectReferenceSession(url, { persist })` (docs/protocol.md, "Sessions that survive a reload"): the resume
 * triple is kept in the storage the app chose, and a page made after a reload takes the session
 * up again: the server replays it from seq 0 (the new page has an empty store), the requests
 * still waiting come again once (`resent`), and the replay's own copies of requests are history.
 * A reload is simulated as it happens: the old page's socket goes without a goodbye, and the new
 * page finds the storage as the old one left it (`storage.copy()`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ReferenceSession, WebSocketConstructor } from 'toolgate/client';
import type { ReferenceServer } from '../../server/server';
import { fakeStorage, type FakeStorage } from '../fixtures/fake-storage';
import WebSocket from 'ws';
import { APP_TOOLS, connect, startServer, turnEnded, until, type Recorded } from './helpers';

let server: ReferenceServer | undefined;
const sessions: ReferenceSession[] = [];

function open(options: Parameters<typeof connect>[1] = {}): Recorded {
  const recorded = connect(server!.url, options);
  sessions.push(recorded.session);
  return recorded;
}

/** A page that will go away in a reload. */
function openLeaving(options: Parameters<typeof connect>[1] = {}): Recorded & { gone: () => void } {
  const page = leavingPage();
  return { ...open({ ...options, WebSocket: page.WebSocket }), gone: page.gone };
}

afterEach(async () => {
  for (const session of sessions.splice(0)) session.close();
  await server?.close();
  server = undefined;
});

const KEY = 'toolgate:session';
/** The page before the reload: once it is gone, it never connects again. */
function leavingPage(): { WebSocket: WebSocketConstructor; gone: () => void } {
  let gone = false;
  class PageSocket extends WebSocket {
    constructor(url: string) {
      if (gone) throw new Error('the page is gone');
      super(url);
    }
  }
  return { WebSocket: PageSocket as unknown as WebSocketConstructor, gone: () => void (gone = true) };
}

/** The page goes away without closing its session (a reload): its socket drops, and it never comes back. */
async function reload(page: Recorded & { gone: () => void }, storage: FakeStorage): Promise<FakeStorage> {
  page.session.persistence?.flush();
  const left = storage.copy();
  page.gone();
  server!.dropConnection(page.session.sessionId!);
  await until(() => page.session.status === 'closed');
  return left;
}

function savedResume(storage: FakeStorage): unknown {
  return JSON.parse(storage.items.get(KEY) ?? 'null')?.resume;
}

describe('connectReferenceSession({ persist }): the session is kept across a reload', () => {
  it('keeps the resume triple in the storage given once the server welcomed the session, and the lastSeq it reached', async () => {
    server = await startServer();
    const storage = fakeStorage();
    const { session, events } = open({ persist: { storage } });
    const welcome = await session.ready;
    expect(savedResume(storage)).toEqual({ sessionId: welcome.sessionId, token: welcome.resumeToken, lastSeq: 0 });
    const turnId = session.startTurn('search');
    await until(() => turnEnded(events, turnId));
    session.persistence!.flush();
    expect(savedResume(storage)).toEqual({ sessionId: welcome.sessionId, token: welcome.resumeToken, lastSeq: events.at(-1)!.seq });
  });

  it('keeps nothing without persist, and writes the triple at most once a second while events stream', async () => {
    server = await startServer();
    const storage = fakeStorage();
    const unsaved = open();
    await unsaved.session.ready;
    expect(unsaved.session.persistence).toBeUndefined();
    const saved = open({ persist: { storage }, tools: APP_TOOLS });
    saved.session.onToolCall((call) => saved.session.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: { ok: true, output: null } }));
    await saved.session.ready;
    const writes = storage.writes;
    const turnId = saved.session.startTurn('long', { params: { size: 2000 } });
    await until(() => turnEnded(saved.events, turnId));
    expect(saved.events.length).toBeGreaterThan(100);
    expect(storage.writes - writes).toBeLessThanOrEqual(2);
  });

  it('resumes the session after a reload from seq 0: the whole session again, in order, each event once', async () => {
    server = await startServer();
    const storage = fakeStorage();
    const first = openLeaving({ persist: { storage } });
    const welcome = await first.session.ready;
    const turnId = first.session.startTurn('search');
    await until(() => turnEnded(first.events, turnId));
    const seen = [...first.events];
    const left = await reload(first, storage);

    const page = open({ persist: { storage: left } });
    expect(page.session.restored).toBe(true);
    page.session.onToolCall(() => {});
    const again = await page.session.ready;
    expect(again).toMatchObject({ sessionId: welcome.sessionId, resumed: true });
    await until(() => page.events.length === seen.length);
    expect(page.events).toEqual(seen);
    expect(page.errors).toEqual([]);
  });

  it('waits to connect until the page listens for app-tool calls, so the replay reaches every part of the page', async () => {
    server = await startServer();
    const storage = fakeStorage();
    const first = openLeaving({ persist: { storage } });
    await first.session.ready;
    const left = await reload(first, storage);
    const page = open({ persist: { storage: left } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(page.session.status).toBe('connecting');
    expect(page.session.welcome).toBeUndefined();
    page.session.onToolCall(() => {});
    await page.session.ready;
    expect(page.session.status).toBe('open');
  });

  it('gets an approval request still waiting once, in its place in the replay, with the same request id and arguments', async () => {
    server = await startServer();
    const storage = fakeStorage();
    const first = openLeaving({ persist: { storage } });
    await first.session.ready;
    first.session.startTurn('deploy');
    const request = await until(() => first.events.find((e) => e.type === 'tool.approval-request'));
    const left = await reload(first, storage);

    const page = open({ persist: { storage: left } });
    page.session.onToolCall(() => {});
    const again = await until(() => page.events.find((e) => e.type === 'tool.approval-request'));
    expect(again).toEqual(request);
    await page.session.ready;
    await until(() => page.session.lastSeq === server!.session(page.session.sessionId!)!.seq);
    expect(page.events.filter((e) => e.type === 'tool.approval-request')).toHaveLength(1);
  });

  it('delivers to nobody a request of the replay that was answered while the page was away: it is history', async () => {
    server = await startServer();
    const storage = fakeStorage();
    const first = openLeaving({ persist: { storage } });
    await first.session.ready;
    const turnId = first.session.startTurn('deploy');
    const request = await until(() => first.events.find((e) => e.type === 'tool.approval-request'));
    const left = await reload(first, storage);
    // Meanwhile the turn ends on the server (its gate's request is answered no).
    server.session(first.session.sessionId!)!.interrupt(turnId);

    const page = open({ persist: { storage: left } });
    const calls: unknown[] = [];
    page.session.onToolCall((call) => calls.push(call));
    await until(() => turnEnded(page.events, turnId));
    expect(page.events.filter((e) => e.type === 'tool.approval-request')).toEqual([]);
    expect(page.events.filter((e) => e.callId === request.callId).map((e) => e.phase)).toContain('cancelled');
    expect(calls).toEqual([]);
  });

  it('gets an app-tool call still out once after a reload; after a lost connection, the resent copy of a call this page has is not delivered again', async () => {
    server = await startServer();
    const storage = fakeStorage();
    const tools = [...APP_TOOLS, { name: 'send_invoice', description: 'Send an invoice.', parameters: { type: 'object' } }];
    const first = openLeaving({ persist: { storage }, tools });
    await first.session.ready;
    const calls: unknown[] = [];
    first.session.onToolCall((call) => calls.push(call));
    first.session.startTurn('write');
    await until(() => calls.length === 1);
    // A lost connection (not a reload): the page keeps its call, and the resent copy is not delivered.
    const before = first.session.welcome;
    server.dropConnection(first.session.sessionId!);
    await until(() => first.session.status === 'open' && first.session.welcome !== before);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(1);
    expect(first.errors).toEqual([]);

    const left = await reload(first, storage);
    const page = open({ persist: { storage: left } });
    const again: Record<string, unknown>[] = [];
    page.session.onToolCall((call) => again.push(call as unknown as Record<string, unknown>));
    await until(() => again.length === 1);
    expect(again).toEqual(calls);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(again).toHaveLength(1);
  });

  it('forgets the kept session when it ends for good: close(), the server’s closed, or a refused resume', async () => {
    server = await startServer();
    const closedStorage = fakeStorage();
    const closedByPage = open({ persist: { storage: closedStorage } });
    await closedByPage.session.ready;
    expect(closedStorage.items.has(KEY)).toBe(true);
    closedByPage.session.close();
    await until(() => closedByPage.session.status === 'closed');
    expect([...closedStorage.items.keys()]).toEqual([]);

    const serverStorage = fakeStorage();
    const closedByServer = open({ persist: { storage: serverStorage } });
    await closedByServer.session.ready;
    server.closeSession(closedByServer.session.sessionId!);
    await until(() => closedByServer.session.status === 'closed');
    expect([...serverStorage.items.keys()]).toEqual([]);

    // A page that finds a session the server no longer knows: refused, and forgotten.
    const stale = fakeStorage([[KEY, JSON.stringify({ version: 1, resume: { sessionId: 'sess_gone', token: 'x', lastSeq: 3 } })]]);
    const refused = open({ persist: { storage: stale } });
    refused.session.onToolCall(() => {});
    await until(() => refused.session.status === 'closed');
    expect(refused.errors.map((e) => e.reason)).toEqual([expect.stringMatching(/refused to resume session sess_gone/)]);
    expect([...stale.items.keys()]).toEqual([]);
  });

  it('goes on when the storage throws: the turn completes, onError says once that the session is not kept, and nothing stays in storage', async () => {
    server = await startServer();
    const storage = fakeStorage();
    storage.broken = true;
    const page = open({ persist: { storage } });
    page.session.onToolCall(() => {});
    await page.session.ready;
    const turnId = page.session.startTurn('search');
    expect((await until(() => turnEnded(page.events, turnId))).status).toBe('completed');
    expect(page.errors.map((e) => e.reason)).toEqual([
      expect.stringMatching(/^the session could not be kept in storage \(reading toolgate:session: SecurityError: .*\): it is no longer kept, and a reload will start a new session$/),
    ]);
    expect(page.session.persistence!.active).toBe(false);
  });

  it('goes on when the storage is full: onError once, the entry already kept is removed, so a reload starts a new session', async () => {
    server = await startServer();
    const storage = fakeStorage();
    const page = open({ persist: { storage } });
    await page.session.ready;
    expect(storage.items.has(KEY)).toBe(true);
    storage.quota = 0;
    page.session.persistence!.saveGrants({ version: 1, grants: [] });
    const turnId = page.session.startTurn('search');
    expect((await until(() => turnEnded(page.events, turnId))).status).toBe('completed');
    expect(page.errors.map((e) => e.reason)).toEqual([expect.stringMatching(/could not be kept in storage \(saving toolgate:session: QuotaExceededError/)]);
    expect([...storage.items.keys()]).toEqual([]);
    const left = storage.copy();
    const next = open({ persist: { storage: left } });
    expect(next.session.restored).toBe(false);
    await next.session.ready;
    expect(next.session.sessionId).not.toBe(page.session.sessionId);
  });
});

