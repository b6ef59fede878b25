/**
 * createSessionPersistence (docs/protocol.md, "Sessions that survive a reload"): what is
 * kept, how a saved entry is read back (checked field by field), and the one rule for a storage
 * that fails: the session goes on, onError says so once, and the entry is removed so that a
 * reload starts afresh instead of resuming without knowing what ran.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ErrorReporter } from 'toolgate/core';
import { createSessionPersistence } from 'toolgate/client';
import { fakeStorage } from '../fixtures/fake-storage';

const KEY = 'toolgate:session';
const RESUME = { sessionId: 'sess_1', token: 'secret-token', lastSeq: 0 };

function reported(): { onError: ErrorReporter; errors: { reason: string; code: string }[] } {
  const errors: { reason: string; code: string }[] = [];
  return { onError: (reason, _detail, code) => errors.push({ reason, code }), errors };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createSessionPersistence: what is kept', () => {
  it('keeps the resume triple at once for a new session, and restores it in the next page', () => {
    const storage = fakeStorage();
    const persistence = createSessionPersistence({ storage });
    expect(persistence.restored).toBeUndefined();
    persistence.saveResume(RESUME);
    expect(JSON.parse(storage.items.get(KEY)!)).toEqual({ version: 1, page: persistence.page, resume: RESUME });
    const next = createSessionPersistence({ storage: storage.copy() });
    expect(next.restored).toEqual(RESUME);
    // The next page (a reload) carries the nonce on: the server takes it for the same page.
    expect(next.page).toBe(persistence.page);
  });

  it('writes a newer lastSeq at most once a second, and at once on flush', () => {
    const storage = fakeStorage();
    const persistence = createSessionPersistence({ storage });
    persistence.saveResume(RESUME);
    const writes = storage.writes;
    for (let seq = 1; seq <= 500; seq++) persistence.saveResume({ ...RESUME, lastSeq: seq });
    expect(storage.writes).toBe(writes);
    vi.advanceTimersByTime(1000);
    expect(storage.writes).toBe(writes + 1);
    expect(JSON.parse(storage.items.get(KEY)!).resume.lastSeq).toBe(500);
    persistence.saveResume({ ...RESUME, lastSeq: 501 });
    persistence.flush();
    expect(JSON.parse(storage.items.get(KEY)!).resume.lastSeq).toBe(501);
    expect(storage.writes).toBe(writes + 2);
  });

  it('keeps the grants beside the triple and gives them back as saved', () => {
    const storage = fakeStorage();
    const persistence = createSessionPersistence({ storage });
    const grants = { version: 1, grants: [{ id: 'grant-1', toolName: 'search_docs', decision: 'allow', grantedAt: 5 }] };
    persistence.saveResume(RESUME);
    persistence.saveGrants(grants);
    expect(createSessionPersistence({ storage: storage.copy() }).restoredGrants).toEqual(grants);
  });

  it('keeps the latest calls the page ran, each running or answered, a large result without its output', () => {
    const storage = fakeStorage();
    const persistence = createSessionPersistence({ storage, keepCalls: 2, maxResultChars: 50 });
    persistence.saveResume(RESUME);
    persistence.calls.started('c1');
    persistence.calls.answered('c1', { ok: true, output: { small: 1 } });
    persistence.calls.started('c2');
    persistence.calls.answered('c2', { ok: true, output: 'x'.repeat(100) });
    persistence.calls.started('c3');
    const next = createSessionPersistence({ storage: storage.copy() });
    expect(next.calls.recall('c1')).toBeUndefined();
    expect(next.calls.recall('c2')).toEqual({ state: 'answered' });
    expect(next.calls.recall('c3')).toEqual({ state: 'running' });
    expect(persistence.calls.recall('c3')).toEqual({ state: 'running' });
  });

  it('removes everything on clear() and saves nothing after', () => {
    const storage = fakeStorage();
    const persistence = createSessionPersistence({ storage });
    persistence.saveResume(RESUME);
    persistence.calls.started('c1');
    persistence.clear();
    expect([...storage.items.keys()]).toEqual([]);
    persistence.saveResume({ ...RESUME, sessionId: 'sess_2' });
    persistence.calls.started('c2');
    expect([...storage.items.keys()]).toEqual([]);
    expect(persistence.active).toBe(false);
  });

  it('uses the key it is given, and the calls go under key:calls', () => {
    const storage = fakeStorage();
    const persistence = createSessionPersistence({ storage, key: 'app:chat' });
    persistence.saveResume(RESUME);
    persistence.calls.started('c1');
    expect([...storage.items.keys()].sort()).toEqual(['app:chat', 'app:chat:calls']);
  });
});

describe('createSessionPersistence: reading back what a page before kept', () => {
  it.each([
    ['not JSON', '{"version":1,'],
    ['another version', JSON.stringify({ version: 2, resume: RESUME })],
    ['no session id', JSON.stringify({ version: 1, resume: { ...RESUME, sessionId: '' } })],
    ['no token', JSON.stringify({ version: 1, resume: { ...RESUME, token: 7 } })],
    ['a lastSeq that is no count', JSON.stringify({ version: 1, resume: { ...RESUME, lastSeq: -1 } })],
    ['an array', '[]'],
  ])('ignores a saved entry that is %s, and says so', (_what, text) => {
    const { onError, errors } = reported();
    const persistence = createSessionPersistence({ storage: fakeStorage([[KEY, text]]), onError });
    expect(persistence.restored).toBeUndefined();
    expect(errors).toEqual([{ reason: expect.stringMatching(/^the saved session under toolgate:session .*: it is ignored$/), code: 'invalid-saved-session' }]);
  });

  it('takes nothing but the checked fields: a __proto__ key in a saved entry reaches no prototype', () => {
    const text = '{"version":1,"resume":{"sessionId":"s","token":"t","lastSeq":1,"__proto__":{"polluted":true}},"__proto__":{"polluted":true}}';
    const calls = '{"version":1,"calls":[["__proto__",{"state":"running"}],["c1",{"state":"answered","result":{"ok":true,"output":{"__proto__":{"polluted":true}}}}]]}';
    const persistence = createSessionPersistence({ storage: fakeStorage([[KEY, text], [`${KEY}:calls`, calls]]) });
    expect(persistence.restored).toEqual({ sessionId: 's', token: 't', lastSeq: 1 });
    expect(Object.getPrototypeOf(persistence.restored)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(persistence.calls.recall('__proto__')).toEqual({ state: 'running' });
    const recalled = persistence.calls.recall('c1');
    expect(recalled?.state === 'answered' && recalled.result?.ok === true && Object.isFrozen(recalled.result.output)).toBe(true);
  });

  it('leaves out a saved call that is not well formed, and a result with an unknown code', () => {
    const calls = JSON.stringify({
      version: 1,
      calls: [['c1', { state: 'done' }], [7, { state: 'running' }], ['c2', { state: 'answered', result: { ok: false, code: 'OOPS' } }], ['c3', { state: 'answered', result: { ok: false, code: 'TIMEOUT', message: 'late' } }]],
    });
    const persistence = createSessionPersistence({ storage: fakeStorage([[KEY, JSON.stringify({ version: 1, resume: RESUME })], [`${KEY}:calls`, calls]]) });
    expect(persistence.calls.recall('c1')).toBeUndefined();
    expect(persistence.calls.recall('c2')).toEqual({ state: 'answered' });
    expect(persistence.calls.recall('c3')).toEqual({ state: 'answered', result: { ok: false, code: 'TIMEOUT', message: 'late' } });
  });

  it('reads no calls without a session to resume: they belong to the session they were saved with', () => {
    const calls = JSON.stringify({ version: 1, calls: [['c1', { state: 'running' }]] });
    const persistence = createSessionPersistence({ storage: fakeStorage([[`${KEY}:calls`, calls]]) });
    expect(persistence.calls.recall('c1')).toBeUndefined();
  });
});

describe('createSessionPersistence: a storage that fails', () => {
  it('goes on when every call throws: onError once (storage-failed), nothing restored, nothing saved', () => {
    const storage = fakeStorage([[KEY, JSON.stringify({ version: 1, resume: RESUME })]]);
    storage.broken = true;
    const { onError, errors } = reported();
    const persistence = createSessionPersistence({ storage, onError });
    expect(persistence.restored).toBeUndefined();
    persistence.saveResume(RESUME);
    persistence.calls.started('c1');
    persistence.calls.answered('c1', { ok: true, output: null });
    expect(persistence.active).toBe(false);
    expect(errors).toEqual([
      {
        reason: expect.stringMatching(/^the session could not be kept in storage \(reading toolgate:session: SecurityError: The operation is insecure\.\): it is no longer kept, and a reload will start a new session$/),
        code: 'storage-failed',
      },
    ]);
  });

  it('removes the entry already kept when the storage is full, so that a reload starts a new session, and says so once', () => {
    const storage = fakeStorage();
    const { onError, errors } = reported();
    const persistence = createSessionPersistence({ storage, onError });
    persistence.saveResume(RESUME);
    expect(storage.items.has(KEY)).toBe(true);
    storage.quota = storage.items.get(KEY)!.length + KEY.length + 10;
    persistence.calls.started('c1');
    persistence.calls.answered('c1', { ok: true, output: 'a result' });
    expect([...storage.items.keys()]).toEqual([]);
    expect(errors.map((e) => e.code)).toEqual(['storage-failed']);
    expect(errors[0]!.reason).toMatch(/saving toolgate:session:calls: QuotaExceededError/);
    expect(createSessionPersistence({ storage: storage.copy() }).restored).toBeUndefined();
  });

  it('still answers what this page recorded after the storage failed (the page keeps its own memory)', () => {
    const storage = fakeStorage();
    const persistence = createSessionPersistence({ storage });
    persistence.saveResume(RESUME);
    storage.quota = 0;
    persistence.calls.started('c1');
    expect(persistence.active).toBe(false);
    expect(persistence.calls.recall('c1')).toEqual({ state: 'running' });
  });

  it('refuses to record a start it could not keep while the entry naming the session could not be removed (a reload could resume it)', () => {
    const storage = fakeStorage();
    const { onError, errors } = reported();
    const persistence = createSessionPersistence({ storage, onError });
    persistence.saveResume(RESUME);
    storage.broken = true;
    expect(() => persistence.calls.started('c1')).toThrow(/the start of c1 could not be kept, and the saved session could not be removed from storage/);
    expect(() => persistence.calls.started('c2')).toThrow(/the start of c2 could not be kept/);
    expect(persistence.active).toBe(false);
    expect(errors.map((e) => e.code)).toEqual(['storage-failed']);
  });

  it('says there is nowhere to keep it when there is no sessionStorage (Node), and keeps nothing', () => {
    vi.stubGlobal('sessionStorage', undefined);
    try {
      const { onError, errors } = reported();
      const persistence = createSessionPersistence({ onError });
      persistence.saveResume(RESUME);
      expect(persistence.active).toBe(false);
      expect(errors).toEqual([{ reason: expect.stringMatching(/^no storage to keep the session in/), code: 'storage-failed' }]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('keeps it in sessionStorage by default', () => {
    sessionStorage.clear();
    const persistence = createSessionPersistence();
    persistence.saveResume(RESUME);
    expect(JSON.parse(sessionStorage.getItem(KEY)!)).toEqual({ version: 1, page: persistence.page, resume: RESUME });
    persistence.clear();
    expect(sessionStorage.getItem(KEY)).toBeNull();
  });

  it('survives an onError that throws', () => {
    const storage = fakeStorage();
    storage.broken = true;
    const persistence = createSessionPersistence({
      storage,
      onError: () => {
        throw new Error('reporter down');
      },
    });
    expect(() => persistence.saveResume(RESUME)).not.toThrow();
  });
});
