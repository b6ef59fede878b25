/**
 * The parts the client loads on first use (docs/architecture.md, "What loads when"): the app-tool
 * host's runtime on the first call, the confirmation flow on the first request. Until then each
 * answers what needs no runtime itself; what arrives while it loads waits in arrival order and is
 * handed over in that order, each answered once; a load that fails answers what waited, once.
 * The loader is a real `import()` held back by a gate the test opens.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ConfirmationOutcome, ToolResult } from 'toolgate/core';
import type { AppToolInterrupt } from '../../src/core/app-tools/types';
import { assembleAppToolHost, type HostRuntime, type HostShell } from '../../src/core/app-tools/host-shell';
import { createDeferredAppToolHost } from '../../src/core/app-tools/deferred-app-tool-host';
import { createDeferredConfirmationController } from '../../src/core/approval/deferred-confirmation-controller';
import type { ConfirmationControllerOptions, ConfirmationController } from '../../src/core/approval/confirmation-controller-types';
import type { ConfirmationShell } from '../../src/core/approval/confirmation-shell';

/** A loader of `load()` that waits until `open()` (or fails with `fail()`), counting its calls. */
function heldLoader<T>(load: () => Promise<T>) {
  let release!: () => void;
  let refuse!: (error: unknown) => void;
  let gate = new Promise<void>((resolve, reject) => {
    release = resolve;
    refuse = reject;
  });
  const loader = vi.fn(() => gate.then(load));
  return {
    loader,
    open: () => release(),
    fail: (error: unknown) => refuse(error),
    /** A fresh gate for the next load (after a failure). */
    reset: () => {
      gate = new Promise<void>((resolve, reject) => {
        release = resolve;
        refuse = reject;
      });
    },
  };
}

const runtimeLoader = () => import('../../src/core/app-tools/host-runtime').then((m) => m.runAppToolHost as (shell: HostShell) => HostRuntime);
const flowLoader = () =>
  import('../../src/core/approval/confirmation-controller').then(
    (m) => m.runConfirmationController as (options: ConfirmationControllerOptions, shell: ConfirmationShell) => ConfirmationController,
  );

const call = (callId: string, name = 'echo', turnId = 't1') => ({ callId, turnId, epoch: 0, name, arguments: { text: callId } });

describe('the app-tool host the client makes', () => {
  it('registers, declares and shows its tools at once, and loads nothing until a call arrives', () => {
    const held = heldLoader(runtimeLoader);
    const host = assembleAppToolHost({}, held.loader, false);
    const unregister = host.register({ name: 'echo', description: 'says it back', parameters: { type: 'object' }, run: (args) => args });
    expect(host.declarations()).toEqual([{ name: 'echo', description: 'says it back', parameters: { type: 'object' } }]);
    expect(host.getState().tools.echo).toMatchObject({ name: 'echo', status: 'idle', queued: 0, current: null });
    expect(host.getState().declarations).toBe(host.declarations());
    // A bad tool is refused at once, as by createAppToolHost.
    expect(() => host.register({ name: '', run: () => null })).toThrow(/non-empty string/);
    expect(host.resultOf('nothing')).toBeUndefined();
    expect(host.abortCall('nothing')).toBe(false);
    unregister();
    host.close();
    expect(host.closed).toBe(true);
    expect(held.loader).not.toHaveBeenCalled();
  });

  it('raises the epoch floor and tells its listeners at once on an interrupt with no call open, without loading', () => {
    const held = heldLoader(runtimeLoader);
    const host = assembleAppToolHost({ epoch: 3 }, held.loader, false);
    const told: AppToolInterrupt[] = [];
    host.onInterrupt((event) => told.push(event));
    host.interrupt('t9');
    expect(told).toEqual([{ turnId: 't9', turnIds: ['t9'], epoch: 3 }]);
    host.interrupt();
    expect(host.epoch).toBe(3);
    expect(() => host.interrupt('')).toThrow(TypeError);
    expect(held.loader).not.toHaveBeenCalled();
  });

  it('hands the calls that arrive while it loads to the runtime in arrival order, each answered once', async () => {
    const held = heldLoader(runtimeLoader);
    const host = assembleAppToolHost({}, held.loader, false);
    const ran: string[] = [];
    host.register({ name: 'echo', run: (args) => (ran.push((args as { text: string }).text), args) });
    const answers = ['c1', 'c2', 'c3'].map((id) => host.call(call(id)));
    // A repeat of a call id while loading: the runtime's ledger gives it the same answer, never a second run.
    const repeat = host.call(call('c2'));
    expect(held.loader).toHaveBeenCalledTimes(1);
    expect(host.getState().queue).toEqual([]);
    held.open();
    await expect(Promise.all(answers)).resolves.toEqual([
      { ok: true, output: { text: 'c1' } },
      { ok: true, output: { text: 'c2' } },
      { ok: true, output: { text: 'c3' } },
    ]);
    await expect(repeat).resolves.toEqual({ ok: true, output: { text: 'c2' } });
    expect(ran).toEqual(['c1', 'c2', 'c3']);
    expect(host.resultOf('c3')).toEqual({ ok: true, output: { text: 'c3' } });
    // Loaded: the next call goes straight to the runtime.
    await expect(host.call(call('c4'))).resolves.toEqual({ ok: true, output: { text: 'c4' } });
    expect(held.loader).toHaveBeenCalledTimes(1);
  });

  it('aborts a call that waits for the runtime once, after it is taken in, and says it did', async () => {
    const held = heldLoader(runtimeLoader);
    const host = assembleAppToolHost({}, held.loader, false);
    const run = vi.fn(() => 'ran');
    host.register({ name: 'echo', run });
    const answer = host.call(call('c1'));
    expect(host.abortCall('c1', { ok: false, code: 'INTERRUPTED', message: 'the server cancelled this call' })).toBe(true);
    expect(host.abortCall('c1')).toBe(false);
    held.open();
    await expect(answer).resolves.toEqual({ ok: false, code: 'INTERRUPTED', message: 'the server cancelled this call' });
    expect(run).not.toHaveBeenCalled();
  });

  it('interrupts and closes in order with the calls waiting: the calls are answered INTERRUPTED, none runs', async () => {
    const held = heldLoader(runtimeLoader);
    const host = assembleAppToolHost({}, held.loader, false);
    const run = vi.fn(() => 'ran');
    host.register({ name: 'echo', run });
    const told: AppToolInterrupt[] = [];
    host.onInterrupt((event) => told.push(event));
    const first = host.call(call('c1', 'echo', 't1'));
    host.interrupt('t1');
    const second = host.call(call('c2', 'echo', 't2'));
    host.close();
    expect(host.closed).toBe(true);
    expect(told).toEqual([]);
    held.open();
    await expect(first).resolves.toMatchObject({ ok: false, code: 'INTERRUPTED' });
    await expect(second).resolves.toMatchObject({ ok: false, code: 'INTERRUPTED' });
    expect(told).toEqual([{ turnId: 't1', turnIds: ['t1'], epoch: 1 }]);
    expect(run).not.toHaveBeenCalled();
    expect(host.getState()).toMatchObject({ closed: true, queue: [], calls: {} });
  });

  it('answers FAILED once to each call that waited when the runtime cannot load, says so, and tries again on the next call', async () => {
    const held = heldLoader(runtimeLoader);
    const onError = vi.fn();
    const host = assembleAppToolHost({ onError }, held.loader, false);
    host.register({ name: 'echo', run: (args) => args });
    const answers = [host.call(call('c1')), host.call(call('c2'))];
    held.fail(new Error('chunk failed to download'));
    const results: ToolResult[] = await Promise.all(answers);
    expect(results.map((r) => r.ok || r.code)).toEqual(['FAILED', 'FAILED']);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[2]).toBe('host-load-failed');
    held.reset();
    const next = host.call(call('c3'));
    held.open();
    await expect(next).resolves.toEqual({ ok: true, output: { text: 'c3' } });
    expect(held.loader).toHaveBeenCalledTimes(2);
  });

  it('is what the client makes: a real import() on the first call', async () => {
    const host = createDeferredAppToolHost();
    host.register({ name: 'echo', run: (args) => args });
    await expect(host.call(call('c1'))).resolves.toEqual({ ok: true, output: { text: 'c1' } });
  });
});

describe('the confirmation controller the client makes', () => {
  const ask = (toolName: string) => ({ toolName, arguments: { to: 'ada' }, onApprove: () => 'sent' });

  it('reads as one with nothing waiting, keeps grants and records at once, and loads nothing until a request', () => {
    const held = heldLoader(flowLoader);
    const approvals = createDeferredConfirmationController({}, held.loader);
    expect(approvals.getState()).toBe(approvals.getInitialState());
    expect(approvals.getState()).toMatchObject({ status: 'idle', current: null, waiting: 0 });
    expect(approvals.approve()).toBe(false);
    expect(approvals.deny('no')).toBe(false);
    expect(approvals.show({ requestId: 'x' })).toBe(false);
    expect([...approvals.approveAll([{ requestId: 'x', fingerprint: 'f' }])]).toEqual([]);
    expect(approvals.approveAll([]).refused).toEqual([]);
    expect(approvals.denyAll([{ requestId: 'x', fingerprint: 'f' }])).toEqual([]);
    expect(approvals.previewRule({ tool: 'send_mail', decision: 'allow' } as never)).toEqual([]);
    expect(approvals.withdrawAll('closed')).toBe(0);
    approvals.grants.allow('send_mail');
    expect(approvals.grants.find('send_mail')).toBeDefined();
    expect(approvals.noteAnswer('c1', { status: 'denied', toolName: 'send_mail', reason: 'the server said no' })).toBe(true);
    expect(approvals.records.getState()).toBeDefined();
    expect(held.loader).not.toHaveBeenCalled();
  });

  it('takes the requests that arrive while it loads in arrival order, each once', async () => {
    const held = heldLoader(flowLoader);
    const approvals = createDeferredConfirmationController({}, held.loader);
    const first = approvals.request(ask('first'));
    const second = approvals.request(ask('second'));
    expect(approvals.getState().status).toBe('idle');
    held.open();
    await vi.waitFor(() => expect(approvals.getState().current?.status).toBe('reviewing'));
    expect(approvals.getState().current?.toolName).toBe('first');
    expect(approvals.getState().queue.map((view) => view.toolName)).toEqual(['second']);
    expect(approvals.deny('not now')).toBe(true);
    await expect(first).resolves.toMatchObject({ status: 'denied', reason: 'not now' });
    await vi.waitFor(() => expect(approvals.getState().current).toMatchObject({ toolName: 'second', status: 'reviewing' }));
    expect(approvals.approve()).toBe(true);
    await expect(second).resolves.toMatchObject({ status: 'done' });
    expect(held.loader).toHaveBeenCalledTimes(1);
  });

  it('withdraws the requests that wait for the flow after they are taken in, and counts them', async () => {
    const held = heldLoader(flowLoader);
    const approvals = createDeferredConfirmationController({}, held.loader);
    const outcomes = [approvals.request(ask('a')), approvals.request(ask('b'))];
    expect(approvals.withdrawAll('the client closed')).toBe(2);
    held.open();
    for (const outcome of outcomes) await expect(outcome).rejects.toMatchObject({ name: 'AbortError', message: 'the client closed' });
    expect(approvals.getState()).toMatchObject({ status: 'idle', current: null, waiting: 0 });
  });

  it('refuses once each request that waited when the flow cannot load, says so, and tries again on the next request', async () => {
    const held = heldLoader(flowLoader);
    const onError = vi.fn();
    const approvals = createDeferredConfirmationController({ onError }, held.loader);
    const outcomes = [approvals.request(ask('a')), approvals.request(ask('b'))];
    held.fail(new Error('chunk failed to download'));
    const ended: ConfirmationOutcome[] = await Promise.all(outcomes);
    expect(ended.map((o) => o.status)).toEqual(['refused', 'refused']);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[2]).toBe('approvals-load-failed');
    held.reset();
    const next = approvals.request(ask('c'));
    held.open();
    await vi.waitFor(() => expect(approvals.getState().current).toMatchObject({ toolName: 'c', status: 'reviewing' }));
    approvals.approve();
    await expect(next).resolves.toMatchObject({ status: 'done' });
  });

  it('is what the client makes: a real import() on the first request', async () => {
    const approvals = createDeferredConfirmationController();
    // A request the flow refuses by throwing rejects with that error instead (the check runs once the flow is there).
    await expect(approvals.request({ toolName: 'send_mail', arguments: {} })).rejects.toThrow(/no room/);
    const outcome = approvals.request(ask('send_mail'));
    await vi.waitFor(() => expect(approvals.getState().current?.status).toBe('reviewing'));
    approvals.approve();
    await expect(outcome).resolves.toMatchObject({ status: 'done' });
  });
});
