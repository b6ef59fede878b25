import { describe, expect, it, vi } from 'vitest';
import { createAppToolHost, ToolError, type AppToolCallRequest, type AppToolContext, type AppToolHostOptions, type ToolResult } from 'toolgate/core';
import { type AppToolApprovalRequest } from 'toolgate/client';
import { createManualClock } from 'toolgate/testing';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Let the host's promise chains settle (one real macrotask). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

let nextId = 0;
function request(name: string, args: unknown = {}, extra: Partial<AppToolCallRequest> = {}): AppToolCallRequest {
  nextId += 1;
  return { callId: `c${nextId}`, turnId: 't1', epoch: 0, name, arguments: args, ...extra };
}

function makeHost(options: AppToolHostOptions = {}) {
  const clock = createManualClock();
  const host = createAppToolHost({ clock, ...options });
  return { host, clock };
}

describe('an app-tool call that succeeds', () => {
  it('answers { ok: true, output } with what run returns', async () => {
    const { host } = makeHost();
    host.register({ name: 'add', run: ({ a, b }) => (a as number) + (b as number) });
    await expect(host.call(request('add', { a: 2, b: 3 }))).resolves.toEqual({ ok: true, output: 5 });
  });

  it('answers output: null when run returns nothing', async () => {
    const { host } = makeHost();
    host.register({ name: 'noop', run: () => undefined });
    await expect(host.call(request('noop'))).resolves.toEqual({ ok: true, output: null });
  });

  it('waits for an async run and answers with what it resolves to', async () => {
    const { host } = makeHost();
    host.register({ name: 'later', run: async () => ({ done: true }) });
    await expect(host.call(request('later'))).resolves.toEqual({ ok: true, output: { done: true } });
  });

  it('passes run the arguments and a context with signal, callId, turnId, epoch and emit', async () => {
    const { host } = makeHost();
    let seen: { args: unknown; ctx: AppToolContext } | undefined;
    host.register({
      name: 'look',
      run: (args, ctx) => {
        seen = { args, ctx };
      },
    });
    await host.call({ callId: 'call-9', turnId: 'turn-4', epoch: 7, name: 'look', arguments: { x: 1 } });
    expect(seen?.args).toEqual({ x: 1 });
    expect(seen?.ctx).toMatchObject({ callId: 'call-9', turnId: 'turn-4', epoch: 7 });
    expect(seen?.ctx.signal).toBeInstanceOf(AbortSignal);
    expect(seen?.ctx.signal.aborted).toBe(false);
    expect(typeof seen?.ctx.emit).toBe('function');
  });
});

describe('the result codes of an app-tool call', () => {
  it('answers INVALID without running when the arguments miss a property the JSON Schema requires', async () => {
    const { host } = makeHost();
    const run = vi.fn();
    host.register({ name: 'title', parameters: { type: 'object', required: ['title'] }, run });
    const result = await host.call(request('title', {}));
    expect(result).toEqual({ ok: false, code: 'INVALID', message: 'arguments: missing required property "title"' });
    expect(run).not.toHaveBeenCalled();
  });

  it('answers INVALID without running when a nested argument has the wrong type', async () => {
    const { host } = makeHost();
    const run = vi.fn();
    host.register({
      name: 'tag',
      parameters: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
      run,
    });
    const result = await host.call(request('tag', { tags: ['a', 2] }));
    expect(result).toEqual({ ok: false, code: 'INVALID', message: 'arguments.tags[1]: expected string, got integer' });
    expect(run).not.toHaveBeenCalled();
  });

  it('answers INVALID with the message when run throws ToolError INVALID', async () => {
    const { host } = makeHost();
    host.register({
      name: 'strict',
      run: () => {
        throw new ToolError('INVALID', 'no block b7');
      },
    });
    await expect(host.call(request('strict'))).resolves.toEqual({ ok: false, code: 'INVALID', message: 'no block b7' });
  });

  it('answers REJECTED with the message when run throws ToolError REJECTED', async () => {
    const { host } = makeHost();
    host.register({
      name: 'locked',
      run: async () => {
        throw new ToolError('REJECTED', 'the block is locked');
      },
    });
    await expect(host.call(request('locked'))).resolves.toEqual({ ok: false, code: 'REJECTED', message: 'the block is locked' });
  });

  it('answers FAILED with the error message when run throws anything else', async () => {
    const { host } = makeHost();
    host.register({
      name: 'broken',
      run: () => {
        throw new Error('disk full');
      },
    });
    await expect(host.call(request('broken'))).resolves.toEqual({ ok: false, code: 'FAILED', message: '"broken" threw: disk full' });
  });

  it('answers FAILED when run rejects with a value that is not an Error', async () => {
    const { host } = makeHost();
    host.register({ name: 'odd', run: () => Promise.reject('nope') });
    await expect(host.call(request('odd'))).resolves.toEqual({ ok: false, code: 'FAILED', message: '"odd" threw: nope' });
  });

  it('answers FAILED for a call to a tool that no one registered, and still runs the call after it', async () => {
    const { host } = makeHost();
    host.register({ name: 'known', run: () => 'ran' });
    const unknown = host.call(request('ghost'));
    const next = host.call(request('known'));
    await expect(unknown).resolves.toEqual({ ok: false, code: 'FAILED', message: 'no app tool named "ghost" is registered in this page' });
    await expect(next).resolves.toEqual({ ok: true, output: 'ran' });
  });

  it.each([
    ['a function', { f: () => 1 }, 'output.f is a function'],
    ['a cycle', (() => { const o: Record<string, unknown> = {}; o.self = o; return o; })(), 'output.self refers back to itself'],
    ['a non-finite number', { n: Number.NaN }, 'output.n is NaN'],
    ['a class instance', { when: new Date(0) }, 'output.when is a Date'],
    ['a bigint', 10n, 'output is a bigint'],
  ])('answers FAILED with the reason when run returns %s, which cannot be sent as JSON', async (_what, output, reason) => {
    const { host } = makeHost();
    host.register({ name: 'bad', run: () => output });
    const result = await host.call(request('bad'));
    expect(result).toMatchObject({ ok: false, code: 'FAILED' });
    expect(result.ok ? '' : result.message).toContain('cannot be sent as JSON');
    expect(result.ok ? '' : result.message).toContain(reason);
  });

  it('answers TIMEOUT once the host limit passes, and aborts the run with a TimeoutError', async () => {
    const { host, clock } = makeHost({ timeoutMs: 1000 });
    let signal: AbortSignal | undefined;
    host.register({
      name: 'slow',
      run: (_args, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    const pending = host.call(request('slow'));
    await clock.advance(999);
    expect(signal?.aborted).toBe(false);
    await clock.advance(1);
    await expect(pending).resolves.toEqual({ ok: false, code: 'TIMEOUT', message: 'no result within 1000 ms' });
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as DOMException).name).toBe('TimeoutError');
  });

  it("uses a tool's own timeoutMs rather than the host's", async () => {
    const { host, clock } = makeHost({ timeoutMs: 10_000 });
    host.register({ name: 'quick', timeoutMs: 50, run: () => new Promise(() => {}) });
    const pending = host.call(request('quick'));
    await clock.advance(50);
    await expect(pending).resolves.toMatchObject({ ok: false, code: 'TIMEOUT' });
  });

  it('never times out a tool whose limit is Infinity', async () => {
    const { host, clock } = makeHost({ timeoutMs: Infinity });
    const gate = deferred<string>();
    host.register({ name: 'patient', run: () => gate.promise });
    const pending = host.call(request('patient'));
    await clock.advance(1e9);
    expect(clock.pending).toBe(0);
    gate.resolve('finally');
    await expect(pending).resolves.toEqual({ ok: true, output: 'finally' });
  });

  it("answers INTERRUPTED when the call's turn is interrupted while it runs, and aborts its signal", async () => {
    const { host } = makeHost();
    let signal: AbortSignal | undefined;
    host.register({
      name: 'long',
      run: (_a, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    const pending = host.call(request('long', {}, { turnId: 'turn-a' }));
    await settle();
    host.interrupt('turn-a');
    await expect(pending).resolves.toEqual({ ok: false, code: 'INTERRUPTED', message: 'turn turn-a was interrupted' });
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as DOMException).name).toBe('AbortError');
  });

  it.each([
    ['null', null, 'got null'],
    ['an array', [1, 2], 'got an array'],
    ['a string', '{"a":1}', 'got string'],
    ['a number', 4, 'got number'],
    ['missing', undefined, 'got undefined'],
  ])('answers INVALID at once for arguments that are %s, without delaying the call before it', async (_what, args, got) => {
    const { host } = makeHost();
    const gate = deferred<string>();
    host.register({ name: 'first', run: () => gate.promise });
    host.register({ name: 'second', run: vi.fn() });
    const first = host.call(request('first'));
    const bad = await host.call(request('second', {}, { arguments: args }));
    expect(bad).toEqual({ ok: false, code: 'INVALID', message: `arguments must be a JSON object, ${got}` });
    gate.resolve('one');
    await expect(first).resolves.toEqual({ ok: true, output: 'one' });
  });

  it('answers INVALID for arguments that hold something JSON cannot carry', async () => {
    const { host } = makeHost();
    host.register({ name: 't', run: vi.fn() });
    await expect(host.call(request('t', { n: Infinity }))).resolves.toEqual({
      ok: false,
      code: 'INVALID',
      message: 'arguments.n is Infinity, which JSON cannot carry',
    });
  });

  it('answers INVALID for a call without a callId, turnId, epoch or name', async () => {
    const { host } = makeHost();
    const bad = [
      { turnId: 't', epoch: 0, name: 'x', arguments: {} },
      { callId: 'a', epoch: 0, name: 'x', arguments: {} },
      { callId: 'b', turnId: 't', name: 'x', arguments: {} },
      { callId: 'c', turnId: 't', epoch: 0, arguments: {} },
    ] as unknown as AppToolCallRequest[];
    for (const call of bad) await expect(host.call(call)).resolves.toMatchObject({ ok: false, code: 'INVALID' });
  });
});

describe('running app tools one at a time', () => {
  it('runs calls one at a time in arrival order, each after the previous one has its result', async () => {
    const { host } = makeHost();
    const log: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred<void>>>();
    host.register({
      name: 'step',
      run: async ({ id }) => {
        log.push(`start ${String(id)}`);
        const gate = deferred();
        gates.set(String(id), gate);
        await gate.promise;
        log.push(`end ${String(id)}`);
      },
    });
    const calls = ['a', 'b', 'c'].map((id) => host.call(request('step', { id })));
    await settle();
    expect(log).toEqual(['start a']);
    gates.get('a')?.resolve();
    await settle();
    expect(log).toEqual(['start a', 'end a', 'start b']);
    gates.get('b')?.resolve();
    await settle();
    gates.get('c')?.resolve();
    await Promise.all(calls);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('starts the next call as soon as an interrupted run has its result, while that run winds down', async () => {
    const { host } = makeHost();
    const windDown = deferred();
    const started: string[] = [];
    host.register({
      name: 'stubborn',
      run: async (_a, ctx) => {
        started.push(ctx.callId);
        if (ctx.turnId === 'old') await windDown.promise; // ignores its signal
        return ctx.callId;
      },
    });
    const first = host.call(request('stubborn', {}, { callId: 'x1', turnId: 'old', epoch: 1 }));
    const second = host.call(request('stubborn', {}, { callId: 'x2', turnId: 'new', epoch: 2 }));
    await settle();
    host.interrupt('old');
    await expect(first).resolves.toMatchObject({ code: 'INTERRUPTED' });
    await expect(second).resolves.toEqual({ ok: true, output: 'x2' });
    expect(started).toEqual(['x1', 'x2']);
    windDown.resolve();
  });

  it('drops a result that arrives after its call was aborted', async () => {
    const { host } = makeHost();
    const gate = deferred<string>();
    const progress = vi.fn();
    host.register({ name: 'late', run: () => gate.promise });
    const pending = host.call(request('late', {}, { callId: 'late-1', turnId: 'tl' }));
    await settle();
    host.interrupt('tl');
    const unsubscribe = host.subscribe(progress);
    gate.resolve('too late');
    await settle();
    await expect(pending).resolves.toMatchObject({ ok: false, code: 'INTERRUPTED' });
    expect(host.getState().tools.late?.lastResult).toEqual({
      callId: 'late-1',
      result: { ok: false, code: 'INTERRUPTED', message: 'turn tl was interrupted' },
    });
    expect(progress).not.toHaveBeenCalled();
    unsubscribe();
  });

  it('drops progress that an aborted run emits afterwards', async () => {
    const { host } = makeHost();
    let ctx: AppToolContext | undefined;
    host.register({
      name: 'p',
      run: (_a, c) => {
        ctx = c;
        return new Promise(() => {});
      },
    });
    void host.call(request('p', {}, { turnId: 'tp' }));
    await settle();
    ctx?.emit({ step: 1 });
    expect(host.getState().tools.p?.current?.progress).toEqual({ step: 1 });
    host.interrupt('tp');
    const listener = vi.fn();
    host.subscribe(listener);
    ctx?.emit({ step: 2 });
    expect(listener).not.toHaveBeenCalled();
    expect(host.getState().calls).toEqual({});
  });

  it('lets the queue go on after a tool that ignores its signal times out', async () => {
    const { host, clock } = makeHost({ timeoutMs: 100 });
    const runs: string[] = [];
    host.register({
      name: 'deaf',
      run: async (_a, ctx) => {
        runs.push(ctx.callId);
        await new Promise<void>((resolve) => clock.setTimeout(resolve, 1000)); // never looks at ctx.signal
        return 'finished anyway';
      },
    });
    host.register({ name: 'next', run: (_a, ctx) => ctx.callId });
    const deaf = host.call(request('deaf', {}, { callId: 'd1' }));
    const next = host.call(request('next', {}, { callId: 'n1' }));
    await clock.advance(100);
    await expect(deaf).resolves.toMatchObject({ ok: false, code: 'TIMEOUT' });
    await expect(next).resolves.toEqual({ ok: true, output: 'n1' });
    await clock.advance(1000); // the deaf run ends; its output goes nowhere
    await expect(deaf).resolves.toMatchObject({ ok: false, code: 'TIMEOUT' });
    expect(runs).toEqual(['d1']);
    expect(host.getState().tools.deaf?.lastResult?.result).toMatchObject({ code: 'TIMEOUT' });
  });

  it('never runs a queued call that was interrupted before its turn came', async () => {
    const { host } = makeHost();
    const gate = deferred();
    const run = vi.fn();
    host.register({ name: 'hold', run: () => gate.promise });
    host.register({ name: 'queued', run });
    void host.call(request('hold', {}, { turnId: 'keep', epoch: 3 }));
    const queued = host.call(request('queued', {}, { turnId: 'drop', epoch: 3 }));
    await settle();
    host.interrupt('drop');
    await expect(queued).resolves.toMatchObject({ ok: false, code: 'INTERRUPTED' });
    gate.resolve();
    await settle();
    expect(run).not.toHaveBeenCalled();
  });
});

describe('interrupts and the epoch gate', () => {
  it("aborts the turn's running and queued calls at once, without waiting for the run", async () => {
    const { host } = makeHost();
    host.register({ name: 'w', run: () => new Promise(() => {}) });
    const calls = [host.call(request('w', {}, { turnId: 'T' })), host.call(request('w', {}, { turnId: 'T' }))];
    await settle();
    host.interrupt('T');
    const results = await Promise.all(calls);
    expect(results.map((r) => (r.ok ? 'ok' : r.code))).toEqual(['INTERRUPTED', 'INTERRUPTED']);
    expect(host.getState().queue).toEqual([]);
  });

  it("raises the epoch floor past the interrupted turn's epoch, and answers INTERRUPTED to an older call without running it", async () => {
    const { host } = makeHost();
    const run = vi.fn(() => 'ran');
    host.register({ name: 'e', run });
    await host.call(request('e', {}, { turnId: 'turn-5', epoch: 5 }));
    expect(host.epoch).toBe(0);
    host.interrupt('turn-5');
    expect(host.epoch).toBe(6);
    const stale = await host.call(request('e', {}, { turnId: 'turn-x', epoch: 5 }));
    expect(stale).toEqual({
      ok: false,
      code: 'INTERRUPTED',
      message: "the call's epoch 5 is below the gate's floor 6: its turn was interrupted",
    });
    await expect(host.call(request('e', {}, { turnId: 'turn-6', epoch: 6 }))).resolves.toEqual({ ok: true, output: 'ran' });
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('refuses a later call of an interrupted turn even when its epoch is not below the floor', async () => {
    const { host } = makeHost();
    const run = vi.fn();
    host.register({ name: 'e', run });
    host.interrupt('turn-9');
    await expect(host.call(request('e', {}, { turnId: 'turn-9', epoch: 100 }))).resolves.toMatchObject({
      ok: false,
      code: 'INTERRUPTED',
    });
    expect(run).not.toHaveBeenCalled();
  });

  it('refuses a call of a dead turn as INTERRUPTED before looking at anything else, even its bad arguments', async () => {
    const { host } = makeHost();
    const run = vi.fn(() => 'ran');
    host.register({ name: 'e', parameters: { type: 'object', required: ['title'] }, run });
    host.register({ name: 'w', run: () => new Promise(() => {}) });
    void host.call(request('w', {}, { turnId: 'turn-3', epoch: 3 }));
    await settle();
    host.interrupt('turn-3');
    expect(host.epoch).toBe(4);
    const stale = "the call's epoch 3 is below the gate's floor 4: its turn was interrupted";
    // From an older epoch: whatever else is wrong with the call, its turn is dead.
    const fromOldEpoch: unknown[] = [
      { callId: 's1', turnId: 'turn-x', epoch: 3, name: 'e', arguments: 'not an object' },
      { callId: 's2', turnId: 'turn-x', epoch: 3, name: 'e', arguments: [1, 2] },
      { callId: 's3', turnId: 'turn-x', epoch: 3, name: 'e', arguments: { bad: () => 1 } },
      { callId: 's4', turnId: 'turn-x', epoch: 3, name: '', arguments: {} },
      { callId: 's5', epoch: 3, name: 'e', arguments: {} },
      { callId: 's6', turnId: 'turn-x', epoch: 3, name: 'e', arguments: {} }, // misses the required title
    ];
    for (const call of fromOldEpoch) {
      await expect(host.call(call as AppToolCallRequest)).resolves.toEqual({ ok: false, code: 'INTERRUPTED', message: stale });
    }
    // Of the interrupted turn, at a current epoch: refused as that turn's call, not as bad input.
    await expect(host.call({ callId: 's7', turnId: 'turn-3', epoch: 9, name: 'e', arguments: null as never })).resolves.toEqual({
      ok: false,
      code: 'INTERRUPTED',
      message: 'turn turn-3 was interrupted',
    });
    expect(run).not.toHaveBeenCalled();
    // A live call with the same bad arguments is still INVALID.
    await expect(host.call({ callId: 'l1', turnId: 'turn-4', epoch: 4, name: 'e', arguments: 'not an object' as never })).resolves.toMatchObject({
      ok: false,
      code: 'INVALID',
    });
    await expect(host.call({ callId: 'l2', turnId: 'turn-4', epoch: 4, name: 'e', arguments: {} })).resolves.toMatchObject({
      ok: false,
      code: 'INVALID',
    });
  });

  it('aborts every open call when interrupted without a turn, and raises the floor past the newest epoch seen', async () => {
    const { host } = makeHost();
    host.register({ name: 'w', run: () => new Promise(() => {}) });
    const a = host.call(request('w', {}, { turnId: 'A', epoch: 1 }));
    const b = host.call(request('w', {}, { turnId: 'B', epoch: 2 }));
    await settle();
    host.interrupt();
    await expect(a).resolves.toMatchObject({ code: 'INTERRUPTED' });
    await expect(b).resolves.toMatchObject({ code: 'INTERRUPTED' });
    expect(host.epoch).toBe(3);
  });

  it('starts with the floor given as the epoch option', async () => {
    const { host } = makeHost({ epoch: 10 });
    host.register({ name: 'e', run: () => 1 });
    expect(host.epoch).toBe(10);
    await expect(host.call(request('e', {}, { epoch: 9 }))).resolves.toMatchObject({ code: 'INTERRUPTED' });
    await expect(host.call(request('e', {}, { epoch: 10 }))).resolves.toEqual({ ok: true, output: 1 });
  });

  it('tells onInterrupt listeners the turn and the floor', async () => {
    const { host } = makeHost();
    const listener = vi.fn();
    host.onInterrupt(listener);
    host.register({ name: 'w', run: () => new Promise(() => {}) });
    void host.call(request('w', {}, { turnId: 'A', epoch: 4 }));
    await settle();
    host.interrupt('A');
    expect(listener).toHaveBeenCalledWith({ turnId: 'A', turnIds: ['A'], epoch: 5 });
    host.interrupt();
    expect(listener).toHaveBeenLastCalledWith({ turnId: undefined, turnIds: [], epoch: 5 });
  });

  it('aborts one open call with the result given (a server settled or cancelled it)', async () => {
    const { host } = makeHost();
    let signal: AbortSignal | undefined;
    host.register({
      name: 'w',
      run: (_a, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    const pending = host.call(request('w', {}, { callId: 'srv' }));
    await settle();
    expect(host.abortCall('srv', { ok: false, code: 'TIMEOUT', message: 'server limit' })).toBe(true);
    await expect(pending).resolves.toEqual({ ok: false, code: 'TIMEOUT', message: 'server limit' });
    expect(signal?.aborted).toBe(true);
    expect(host.abortCall('srv')).toBe(false);
  });
});

describe('exactly one result per call', () => {
  it('answers a repeated callId with the same result and runs the tool once', async () => {
    const { host } = makeHost();
    const run = vi.fn(() => 'once');
    host.register({ name: 'idem', run });
    const first = host.call(request('idem', {}, { callId: 'dup' }));
    const again = host.call(request('idem', {}, { callId: 'dup' }));
    expect(again).toBe(first);
    await expect(first).resolves.toEqual({ ok: true, output: 'once' });
    await expect(host.call(request('idem', {}, { callId: 'dup' }))).resolves.toEqual({ ok: true, output: 'once' });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('answers FAILED to a repeat whose result it no longer holds, and still does not run it again', async () => {
    const { host } = makeHost({ rememberResults: 1 });
    const run = vi.fn();
    host.register({ name: 'idem', run });
    await host.call(request('idem', {}, { callId: 'old' }));
    await host.call(request('idem', {}, { callId: 'newer' }));
    await expect(host.call(request('idem', {}, { callId: 'old' }))).resolves.toEqual({
      ok: false,
      code: 'FAILED',
      message: 'duplicate call old: it was answered long ago and is not run again',
    });
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('keeps the first result when a run finishes after its time limit passed', async () => {
    const { host, clock } = makeHost({ timeoutMs: 10 });
    const gate = deferred<string>();
    host.register({ name: 'x', run: () => gate.promise });
    const pending = host.call(request('x'));
    await clock.advance(10);
    gate.resolve('late');
    await settle();
    await expect(pending).resolves.toMatchObject({ ok: false, code: 'TIMEOUT' });
  });
});

describe('registering app tools', () => {
  it('throws a clear error at register time when the name is taken', () => {
    const { host } = makeHost();
    host.register({ name: 'dup', run: () => 1 });
    expect(() => host.register({ name: 'dup', run: () => 2 })).toThrowError(
      'An app tool named "dup" is already registered. Tool names must be unique: unregister the other one first or choose another name.',
    );
  });

  it('keeps a tool through a StrictMode-like unregister and register in the same tick', async () => {
    const { host } = makeHost();
    const unregister = host.register({ name: 'strict', run: () => 'first' });
    const pending = host.call(request('strict'));
    unregister();
    host.register({ name: 'strict', run: () => 'second' });
    await expect(pending).resolves.toEqual({ ok: true, output: 'second' });
    await settle();
    expect(host.declarations().map((d) => d.name)).toEqual(['strict']);
  });

  it('keeps the last result of a tool through a StrictMode-like remount', async () => {
    const { host } = makeHost();
    const unregister = host.register({ name: 'keep', run: () => 'r' });
    await host.call(request('keep', {}, { callId: 'k1' }));
    unregister();
    host.register({ name: 'keep', run: () => 'r' });
    await settle();
    expect(host.getState().tools.keep?.lastResult).toEqual({ callId: 'k1', result: { ok: true, output: 'r' } });
  });

  it('removes a tool one tick after its unregister, and a later call finds no tool', async () => {
    const ticks: Array<() => void> = [];
    const { host } = makeHost({ defer: (task) => ticks.push(task) });
    const unregister = host.register({ name: 'gone', run: () => 1 });
    unregister();
    expect(host.declarations().map((d) => d.name)).toEqual(['gone']);
    ticks.splice(0).forEach((task) => task());
    expect(host.declarations()).toEqual([]);
    await expect(host.call(request('gone'))).resolves.toMatchObject({ ok: false, code: 'FAILED' });
  });

  it('lets a call that arrives between an unregister and its tick still reach the tool', async () => {
    const ticks: Array<() => void> = [];
    const { host } = makeHost({ defer: (task) => ticks.push(task) });
    const unregister = host.register({ name: 'brief', run: () => 'reached' });
    unregister();
    const pending = host.call(request('brief'));
    await settle();
    ticks.splice(0).forEach((task) => task());
    await expect(pending).resolves.toEqual({ ok: true, output: 'reached' });
  });

  it('does nothing when an old unregister runs again after the tool was registered anew', async () => {
    const { host } = makeHost();
    const unregister = host.register({ name: 'again', run: () => 1 });
    unregister();
    host.register({ name: 'again', run: () => 2 });
    unregister();
    await settle();
    expect(host.declarations().map((d) => d.name)).toEqual(['again']);
  });

  it('lets a running call finish with the tool it started with after the tool is unregistered', async () => {
    const { host } = makeHost();
    const gate = deferred<string>();
    const unregister = host.register({ name: 'leaving', run: () => gate.promise });
    const pending = host.call(request('leaving'));
    await settle();
    unregister();
    await settle();
    gate.resolve('done');
    await expect(pending).resolves.toEqual({ ok: true, output: 'done' });
  });

  const badTools: Array<[string, unknown, string]> = [
    ['no name', { run: () => 1 }, 'tool.name must be a non-empty string'],
    ['no run', { name: 'x' }, 'app tool "x": run must be a function'],
    ['a validate that is not a Standard Schema', { name: 'x', validate: {}, run: () => 1 }, 'validate must be a Standard Schema validator'],
    ['a bad timeoutMs', { name: 'x', timeoutMs: 0, run: () => 1 }, 'timeoutMs must be a positive number'],
    ['parameters that are not JSON', { name: 'x', parameters: { f: () => 1 }, run: () => 1 }, 'parameters.f is a function'],
  ];
  it.each(badTools)('refuses a tool with %s, saying why', (_what, tool, message) => {
    const { host } = makeHost();
    expect(() => host.register(tool as never)).toThrowError(message);
  });

  it('declares name, description and parameters of every tool in registration order', () => {
    const { host } = makeHost();
    host.register({ name: 'b', description: 'B tool', run: () => 1 });
    host.register({ name: 'a', parameters: { type: 'object' }, run: () => 1 });
    expect(host.declarations()).toEqual([
      { name: 'b', description: 'B tool' },
      { name: 'a', parameters: { type: 'object' } },
    ]);
  });

  it('keeps the same declarations array when a remount declares the same thing', async () => {
    const { host } = makeHost();
    const unregister = host.register({ name: 'same', description: 'd', run: () => 1 });
    const before = host.declarations();
    unregister();
    host.register({ name: 'same', description: 'd', run: () => 2 });
    await settle();
    expect(host.declarations()).toBe(before);
  });
});

describe('approval before a run', () => {
  it('asks with a frozen snapshot of the arguments, then runs once approved', async () => {
    const requests: AppToolApprovalRequest[] = [];
    const { host } = makeHost({
      requestApproval: async (req) => {
        requests.push(req);
        return { approved: true };
      },
    });
    const run = vi.fn(() => 'deleted');
    host.register({ name: 'delete', confirm: true, run });
    const args = { id: 'doc-1' };
    await expect(host.call(request('delete', args, { callId: 'del', turnId: 'td', epoch: 2 }))).resolves.toEqual({
      ok: true,
      output: 'deleted',
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ callId: 'del', turnId: 'td', epoch: 2, toolName: 'delete', arguments: { id: 'doc-1' } });
    expect(Object.isFrozen(requests[0]?.arguments)).toBe(true);
    expect(requests[0]?.arguments).not.toBe(args);
    expect(run).toHaveBeenCalledOnce();
  });

  it('answers REJECTED with the reason when the user declines, without running', async () => {
    const { host } = makeHost({ requestApproval: async () => ({ approved: false, reason: 'not now' }) });
    const run = vi.fn();
    host.register({ name: 'send', confirm: true, run });
    await expect(host.call(request('send'))).resolves.toEqual({ ok: false, code: 'REJECTED', message: 'declined by the user: not now' });
    expect(run).not.toHaveBeenCalled();
  });

  it('asks only when confirm, a function of the validated arguments, says so', async () => {
    const ask = vi.fn(async () => ({ approved: true }));
    const { host } = makeHost({ requestApproval: ask });
    host.register<{ amount: number }>({ name: 'pay', confirm: ({ amount }) => amount > 100, run: ({ amount }) => amount });
    await host.call(request('pay', { amount: 5 }));
    expect(ask).not.toHaveBeenCalled();
    await host.call(request('pay', { amount: 500 }));
    expect(ask).toHaveBeenCalledOnce();
  });

  it('answers REJECTED when a tool needs approval and nothing can ask for it', async () => {
    const { host } = makeHost();
    host.register({ name: 'guarded', confirm: true, run: vi.fn() });
    await expect(host.call(request('guarded'))).resolves.toMatchObject({ ok: false, code: 'REJECTED' });
  });

  it('uses a handler plugged in later, and restores the previous one when it is removed', async () => {
    const { host } = makeHost();
    host.register({ name: 'g', confirm: true, run: () => 'ok' });
    const restore = host.setApprovalHandler(async () => ({ approved: true }));
    await expect(host.call(request('g'))).resolves.toEqual({ ok: true, output: 'ok' });
    restore();
    await expect(host.call(request('g'))).resolves.toMatchObject({ code: 'REJECTED' });
  });

  it('does not count time spent waiting for approval against the time limit', async () => {
    const answer = deferred<{ approved: boolean }>();
    const { host, clock } = makeHost({ timeoutMs: 100, requestApproval: () => answer.promise });
    const finish = deferred<string>();
    host.register({ name: 'slowly', confirm: true, run: () => finish.promise });
    const pending = host.call(request('slowly'));
    await clock.advance(10_000); // the user takes their time
    expect(host.getState().queue).toHaveLength(1);
    answer.resolve({ approved: true });
    await clock.advance(99);
    finish.resolve('made it');
    await expect(pending).resolves.toEqual({ ok: true, output: 'made it' });
  });

  it('counts time before and after the approval wait together', async () => {
    const answer = deferred<{ approved: boolean }>();
    const slept = deferred();
    const { host, clock } = makeHost({ timeoutMs: 100, requestApproval: () => answer.promise });
    host.register({
      name: 'split',
      validate: {
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: async (value) => {
            await slept.promise;
            return { value };
          },
        },
      },
      confirm: true,
      run: () => new Promise(() => {}),
    });
    const pending = host.call(request('split'));
    await clock.advance(60); // 60 ms validating
    slept.resolve();
    await clock.advance(5_000); // waiting for approval: not counted
    answer.resolve({ approved: true });
    await clock.advance(39);
    expect(host.getState().queue).toHaveLength(1);
    await clock.advance(1);
    await expect(pending).resolves.toMatchObject({ ok: false, code: 'TIMEOUT' });
  });

  it('withdraws a pending approval on interrupt: its signal aborts and the call answers INTERRUPTED', async () => {
    const answer = deferred<{ approved: boolean }>();
    let asked: AppToolApprovalRequest | undefined;
    const { host } = makeHost({
      requestApproval: (req) => {
        asked = req;
        return answer.promise;
      },
    });
    const run = vi.fn();
    host.register({ name: 'risky', confirm: true, run });
    const pending = host.call(request('risky', {}, { turnId: 'tr' }));
    await settle();
    expect(host.getState().tools.risky?.current?.status).toBe('awaiting-approval');
    host.interrupt('tr');
    expect(asked?.signal.aborted).toBe(true);
    await expect(pending).resolves.toMatchObject({ ok: false, code: 'INTERRUPTED' });
    answer.resolve({ approved: true }); // too late
    await settle();
    expect(run).not.toHaveBeenCalled();
  });

  it('answers FAILED when asking for approval fails', async () => {
    const { host } = makeHost({ requestApproval: () => Promise.reject(new Error('dialog crashed')) });
    host.register({ name: 'x', confirm: true, run: vi.fn() });
    await expect(host.call(request('x'))).resolves.toEqual({
      ok: false,
      code: 'FAILED',
      message: 'asking for approval failed: dialog crashed',
    });
  });
});

describe('waiting for a person inside a run', () => {
  it('does not count a person\'s wait against the limit when the tool says waitsForPerson', async () => {
    const answer = deferred<string>();
    const { host, clock } = makeHost({ timeoutMs: 100 });
    host.register({ name: 'ask', waitsForPerson: true, run: (_args, ctx) => ctx.waitForPerson(answer.promise) });
    const pending = host.call(request('ask'));
    await clock.advance(10_000); // the person takes their time
    expect(host.getState().queue).toHaveLength(1);
    answer.resolve('blue');
    await expect(pending).resolves.toEqual({ ok: true, output: 'blue' });
  });

  it('counts the time before and after the wait together', async () => {
    const before = deferred();
    const answer = deferred<string>();
    const { host, clock } = makeHost({ timeoutMs: 100 });
    host.register({
      name: 'ask',
      waitsForPerson: true,
      run: async (_args, ctx) => {
        await before.promise;
        await ctx.waitForPerson(answer.promise);
        return new Promise(() => {});
      },
    });
    const pending = host.call(request('ask'));
    await clock.advance(60); // 60 ms before the form shows
    before.resolve();
    await clock.advance(5_000); // the person answers: not counted
    answer.resolve('x');
    await clock.advance(39);
    expect(host.getState().queue).toHaveLength(1);
    await clock.advance(1);
    await expect(pending).resolves.toMatchObject({ ok: false, code: 'TIMEOUT' });
  });

  it('keeps the clock running through the wait when the tool does not say so', async () => {
    let signal: AbortSignal | undefined;
    const { host, clock } = makeHost({ timeoutMs: 100 });
    host.register({ name: 'ask', run: (_args, ctx) => ((signal = ctx.signal), ctx.waitForPerson(new Promise(() => {}))) });
    const pending = host.call(request('ask'));
    await clock.advance(100);
    await expect(pending).resolves.toMatchObject({ ok: false, code: 'TIMEOUT' });
    expect(signal?.aborted).toBe(true);
  });

  it('answers INTERRUPTED once when the turn is interrupted during the wait, and drops the late answer', async () => {
    const answer = deferred<string>();
    let signal: AbortSignal | undefined;
    const { host } = makeHost();
    host.register({ name: 'ask', waitsForPerson: true, run: (_args, ctx) => ((signal = ctx.signal), ctx.waitForPerson(answer.promise)) });
    const pending = host.call(request('ask', {}, { turnId: 'tw' }));
    await settle();
    host.interrupt('tw');
    expect(signal?.aborted).toBe(true);
    answer.resolve('too late');
    await expect(pending).resolves.toMatchObject({ ok: false, code: 'INTERRUPTED' });
    expect(host.getState().tools.ask?.lastResult?.result).toMatchObject({ code: 'INTERRUPTED' });
  });
});

describe('closing the host', () => {
  it('aborts every open call with INTERRUPTED, clears call state and last results, and refuses later calls', async () => {
    const { host } = makeHost();
    const signals: AbortSignal[] = [];
    host.register({
      name: 'w',
      run: (_a, ctx) => {
        signals.push(ctx.signal);
        return new Promise(() => {});
      },
    });
    host.register({ name: 'quick', run: () => 1 });
    await host.call(request('quick'));
    const running = host.call(request('w'));
    const queued = host.call(request('w'));
    await settle();
    host.close();
    await expect(running).resolves.toEqual({ ok: false, code: 'INTERRUPTED', message: 'the session closed' });
    await expect(queued).resolves.toEqual({ ok: false, code: 'INTERRUPTED', message: 'the session closed' });
    expect(signals.map((s) => s.aborted)).toEqual([true]);
    const state = host.getState();
    expect(state.closed).toBe(true);
    expect(state.calls).toEqual({});
    expect(state.queue).toEqual([]);
    expect(state.tools.quick).toMatchObject({ status: 'idle', lastResult: null, current: null });
    await expect(host.call(request('quick'))).resolves.toEqual({
      ok: false,
      code: 'INTERRUPTED',
      message: 'the app-tool host is closed',
    });
  });
});

describe('the host state for UI', () => {
  it('shows each tool idle, queued or running with the current call, its arguments and progress, and the last result', async () => {
    const { host } = makeHost();
    const gate = deferred<string>();
    let ctx: AppToolContext | undefined;
    host.register({
      name: 'edit',
      run: (_a, c) => {
        ctx = c;
        return gate.promise;
      },
    });
    host.register({ name: 'other', run: () => 'o' });
    expect(host.getState().tools.edit).toEqual({ name: 'edit', status: 'idle', queued: 0, current: null, lastResult: null });
    void host.call(request('edit', { block: 1 }, { callId: 'e1' }));
    const second = host.call(request('other', {}, { callId: 'o1' }));
    await settle();
    ctx?.emit({ percent: 50 });
    let state = host.getState();
    expect(state.tools.edit).toMatchObject({ status: 'running', queued: 0 });
    expect(state.tools.edit?.current).toMatchObject({ callId: 'e1', arguments: { block: 1 }, status: 'running', progress: { percent: 50 } });
    expect(state.tools.other).toMatchObject({ status: 'queued', queued: 1, current: null });
    expect(state.queue).toEqual(['e1', 'o1']);
    expect(state.calls.o1?.status).toBe('queued');
    gate.resolve('edited');
    await second;
    state = host.getState();
    expect(state.tools.edit).toMatchObject({ status: 'idle', current: null, lastResult: { callId: 'e1', result: { ok: true, output: 'edited' } } });
    expect(state.tools.other).toMatchObject({ status: 'idle', lastResult: { callId: 'o1', result: { ok: true, output: 'o' } } });
  });

  it('hands out snapshots that never change and reuses the objects of tools that did not change', async () => {
    const { host } = makeHost();
    host.register({ name: 'a', run: () => 1 });
    host.register({ name: 'b', run: () => 2 });
    const before = host.getState();
    expect(host.getState()).toBe(before);
    await host.call(request('a'));
    const after = host.getState();
    expect(after).not.toBe(before);
    expect(before.tools.a?.lastResult).toBeNull();
    expect(after.tools.b).toBe(before.tools.b);
    expect(Object.isFrozen(after)).toBe(true);
    expect(Object.isFrozen(after.tools.a)).toBe(true);
  });

  it('gives the initial state as a separate, unchanging snapshot', async () => {
    const { host } = makeHost();
    const initial = host.getInitialState();
    host.register({ name: 'a', run: () => 1 });
    await host.call(request('a'));
    expect(host.getInitialState()).toBe(initial);
    expect(initial.tools).toEqual({});
  });

  it('keeps a tool named __proto__ as an own key of the state', () => {
    const { host } = makeHost();
    host.register({ name: '__proto__', run: () => 1 });
    const tools = host.getState().tools;
    expect(Object.keys(tools)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
  });

  it('reports a listener that throws and keeps running calls', async () => {
    const onError = vi.fn();
    const { host } = makeHost({ onError });
    host.subscribe(() => {
      throw new Error('bad listener');
    });
    host.register({ name: 'a', run: () => 1 });
    await expect(host.call(request('a'))).resolves.toEqual({ ok: true, output: 1 });
    expect(onError).toHaveBeenCalledWith('a listener threw: Error: bad listener', new Error('bad listener'), 'listener-threw');
  });

  it('notifies once for an interrupt that aborts many calls', async () => {
    const { host } = makeHost();
    host.register({ name: 'w', run: () => new Promise(() => {}) });
    const calls: Array<Promise<ToolResult>> = [];
    for (let i = 0; i < 20; i++) calls.push(host.call(request('w', {}, { turnId: 'many' })));
    await settle();
    const listener = vi.fn();
    host.subscribe(listener);
    host.interrupt('many');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(await Promise.all(calls)).toHaveLength(20);
  });
});
