/**
 * The app-tool host's saved calls (docs/protocol.md, "Sessions that survive a reload"): the host records each
 * call whose run began and the answer it got, where they outlive the page. The page that resumes
 * the session after a reload is a new host reading what the old one recorded: a call that was
 * running is answered FAILED ("outcome unknown: the page reloaded while it ran") and never run
 * again; one that had its answer gets that answer; one that never began runs normally.
 */
import { describe, expect, it, vi } from 'vitest';
import { createAppToolHost, type AppToolCallRequest, type AppToolHostOptions, type ErrorReporter } from 'toolgate/core';
import { RELOADED_WHILE_RUNNING, createSessionPersistence, type SavedCall, type SavedCalls } from 'toolgate/client';
import { createManualClock } from 'toolgate/testing';
import { fakeStorage, type FakeStorage } from '../fixtures/fake-storage';

const RESUME = { sessionId: 'sess_1', token: 'secret', lastSeq: 0 };

function request(callId: string, name = 'send', args: unknown = {}): AppToolCallRequest {
  return { callId, turnId: 't1', epoch: 0, name, arguments: args };
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A page: a host on the session kept in `storage` (as the provider makes it), and what its tool did. */
function page(storage: FakeStorage, options: AppToolHostOptions = {}) {
  const errors: { reason: string; code: string }[] = [];
  const onError: ErrorReporter = (reason, _detail, code) => errors.push({ reason, code });
  const persistence = createSessionPersistence({ storage, onError });
  persistence.saveResume(RESUME);
  const host = createAppToolHost({ clock: createManualClock(), savedCalls: persistence.calls, onError, ...options });
  const runs: string[] = [];
  const release = deferred();
  host.register({
    name: 'send',
    async run(_args, { callId }) {
      runs.push(callId);
      await release.promise;
      return { sent: callId };
    },
  });
  return { host, persistence, runs, release, errors };
}

describe('saved calls: a page that reloads never runs a call twice', () => {
  it('answers FAILED, outcome unknown, a call that was running when the page went away, and never runs it again', async () => {
    const storage = fakeStorage();
    const before = page(storage);
    void before.host.call(request('c1'));
    await settle();
    expect(before.runs).toEqual(['c1']);

    const after = page(storage.copy());
    const answer = await after.host.call(request('c1'));
    expect(answer).toEqual({ ok: false, code: 'FAILED', message: 'outcome unknown: the page reloaded while it ran' });
    expect(RELOADED_WHILE_RUNNING).toBe('outcome unknown: the page reloaded while it ran');
    expect(after.runs).toEqual([]);
    // The same answer again after one more reload: still never run.
    const again = page(storage.copy());
    await expect(again.host.call(request('c1'))).resolves.toEqual(answer);
    expect(again.runs).toEqual([]);
  });

  it('answers a call that had its answer before the reload with that same answer, without running it', async () => {
    const storage = fakeStorage();
    const before = page(storage);
    const first = before.host.call(request('c1'));
    await settle();
    before.release.resolve();
    expect(await first).toEqual({ ok: true, output: { sent: 'c1' } });

    const after = page(storage.copy());
    await expect(after.host.call(request('c1'))).resolves.toEqual({ ok: true, output: { sent: 'c1' } });
    expect(after.runs).toEqual([]);
    // The card of that call still finds its output after the reload.
    expect(after.host.resultOf('c1')).toEqual({ ok: true, output: { sent: 'c1' } });
  });

  it('runs normally a call that never began before the reload (it waited in the queue)', async () => {
    const storage = fakeStorage();
    const before = page(storage);
    void before.host.call(request('c1'));
    void before.host.call(request('c2'));
    await settle();
    expect(before.runs).toEqual(['c1']);

    const after = page(storage.copy());
    after.release.resolve();
    await expect(after.host.call(request('c2'))).resolves.toEqual({ ok: true, output: { sent: 'c2' } });
    expect(after.runs).toEqual(['c2']);
  });

  it('runs normally a call that waited for approval when the page went away: approving is not running', async () => {
    const storage = fakeStorage();
    const before = page(storage, { requestApproval: () => new Promise(() => {}) });
    before.host.register({ name: 'confirmed', confirm: true, run: () => 'ran' });
    void before.host.call(request('c1', 'confirmed'));
    await settle();
    expect(before.host.getState().calls['c1']?.status).toBe('awaiting-approval');

    const after = page(storage.copy(), { requestApproval: async () => ({ approved: true }) });
    after.host.register({ name: 'confirmed', confirm: true, run: () => 'ran' });
    await expect(after.host.call(request('c1', 'confirmed'))).resolves.toEqual({ ok: true, output: 'ran' });
  });

  it('records nothing for a call answered without running (refused arguments): a later page may run its resend', async () => {
    const storage = fakeStorage();
    const before = page(storage);
    before.host.register({ name: 'strict', parameters: { type: 'object', required: ['x'] }, run: () => 'ran' });
    await expect(before.host.call(request('c1', 'strict', {}))).resolves.toMatchObject({ ok: false, code: 'INVALID' });
    expect(createSessionPersistence({ storage: storage.copy() }).calls.recall('c1')).toBeUndefined();
  });

  it('records the start before run is called, and the answer once it is given', async () => {
    const seen: string[] = [];
    const memory = new Map<string, SavedCall>();
    const savedCalls: SavedCalls = {
      recall: (callId) => memory.get(callId),
      started: (callId) => {
        seen.push(`started ${callId}`);
        memory.set(callId, { state: 'running' });
      },
      answered: (callId, result) => {
        seen.push(`answered ${callId} ${result.ok}`);
        memory.set(callId, { state: 'answered', result });
      },
    };
    const host = createAppToolHost({ clock: createManualClock(), savedCalls });
    host.register({ name: 'send', run: () => void seen.push('run') });
    await host.call(request('c1'));
    expect(seen).toEqual(['started c1', 'run', 'answered c1 true']);
  });

  it('does not run a call whose start could not be recorded by saved calls of the app’s own: FAILED, with the reason through onError', async () => {
    const onError = vi.fn();
    const run = vi.fn();
    const host = createAppToolHost({
      clock: createManualClock(),
      onError,
      savedCalls: {
        recall: () => undefined,
        started: () => {
          throw new Error('disk full');
        },
        answered: () => {},
      },
    });
    host.register({ name: 'send', run });
    const answer = await host.call(request('c1'));
    expect(answer).toMatchObject({ ok: false, code: 'FAILED', message: expect.stringMatching(/was not run: recording that it started failed \(disk full\)/) });
    expect(run).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledWith(expect.stringMatching(/the saved calls threw while recording the start of c1: .*disk full/), expect.any(Error), 'saved-calls-threw');
  });

  it('runs the call when the storage fails, because the session is then no longer kept (a reload starts a new one)', async () => {
    const storage = fakeStorage();
    const before = page(storage);
    storage.quota = 0;
    before.release.resolve();
    await expect(before.host.call(request('c1'))).resolves.toEqual({ ok: true, output: { sent: 'c1' } });
    expect(before.runs).toEqual(['c1']);
    expect(before.errors.map((e) => e.code)).toEqual(['storage-failed']);
    expect([...storage.items.keys()]).toEqual([]);
    expect(createSessionPersistence({ storage: storage.copy() }).restored).toBeUndefined();
  });

  it('does not run a call whose start could not be kept when the saved session could not be removed either: FAILED, and nothing ran', async () => {
    const storage = fakeStorage();
    const before = page(storage);
    storage.quota = 0;
    storage.removeItem = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    before.release.resolve();
    const answer = await before.host.call(request('c1'));
    expect(answer).toMatchObject({ ok: false, code: 'FAILED', message: expect.stringMatching(/was not run: recording that it started failed/) });
    expect(before.runs).toEqual([]);
    // The entry that stayed still resumes the session: a page that does finds c1 never ran, and runs it once.
    const after = page(storage.copy());
    expect(after.persistence.restored).toEqual(RESUME);
    after.release.resolve();
    await expect(after.host.call(request('c1'))).resolves.toEqual({ ok: true, output: { sent: 'c1' } });
    expect(after.runs).toEqual(['c1']);
  });

  it('answers a resend in the same page from its own memory, as before (the saved calls are for the next page)', async () => {
    const storage = fakeStorage();
    const one = page(storage);
    const first = one.host.call(request('c1'));
    const second = one.host.call(request('c1'));
    await settle();
    one.release.resolve();
    expect(await second).toEqual(await first);
    expect(one.runs).toEqual(['c1']);
  });
});
