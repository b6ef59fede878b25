/**
 * What runs is what was shown: an app tool's `run` receives exactly the frozen snapshot the
 * person reviewed (the validator's output), never the caller's live object; without a
 * confirmation, a frozen copy taken when the call arrived (or the validator's frozen output).
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import * as v from 'valibot';
import { type } from 'arktype';
import { createAppToolHost, type AppToolCallRequest, type AppToolHost, type JsonValue, type StandardSchemaV1 } from 'toolgate/core';
import { type AppToolApprovalHandler, type AppToolApprovalRequest } from 'toolgate/client';
import { createManualClock } from 'toolgate/testing';

type AppToolApproval = Awaited<ReturnType<AppToolApprovalHandler>>;

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

let n = 0;
const call = (name: string, args: unknown, extra: Partial<AppToolCallRequest> = {}): AppToolCallRequest => ({
  callId: `a${++n}`,
  turnId: 't',
  epoch: 0,
  name,
  arguments: args,
  ...extra,
});

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

/** A host whose approvals wait until the test answers them, keeping each request it was asked. */
function reviewingHost() {
  const asked: AppToolApprovalRequest[] = [];
  const answers: Array<(answer: AppToolApproval) => void> = [];
  const host = createAppToolHost({
    clock: createManualClock(),
    requestApproval: (request) =>
      new Promise<AppToolApproval>((resolve) => {
        asked.push(request);
        answers.push(resolve);
      }),
  });
  const approve = (i = asked.length - 1) => answers[i]?.({ approved: true });
  return { host, asked, approve };
}

/** The arguments a registered tool's run received, in order. */
function recordingRun() {
  const received: unknown[] = [];
  const run = vi.fn((args: unknown) => {
    received.push(args);
    return args as JsonValue;
  });
  return { run, received };
}

const stateArguments = (host: AppToolHost, callId: string) => host.getState().calls[callId]?.arguments;

describe('an approved app-tool call runs exactly what the person reviewed', () => {
  it('runs the reviewed {to:"bob",amount:5} even when the caller changes its object during the review', async () => {
    const { host, asked, approve } = reviewingHost();
    const { run, received } = recordingRun();
    host.register({ name: 'pay', confirm: true, run });
    const args = { to: 'bob', amount: 5 };
    const pending = host.call(call('pay', args, { callId: 'pay-1' }));
    await settle();
    expect(asked[0]?.arguments).toEqual({ to: 'bob', amount: 5 });

    // The caller changes its own object while the person looks at the dialog.
    args.to = 'mallory';
    args.amount = 5_000_000;
    approve();
    await expect(pending).resolves.toEqual({ ok: true, output: { to: 'bob', amount: 5 } });
    expect(run).toHaveBeenCalledOnce();
    expect(received[0]).toEqual({ to: 'bob', amount: 5 });
    expect(received[0]).toBe(asked[0]?.arguments);
    expect(isDeepFrozen(received[0])).toBe(true);
  });

  it("shows the zod validator's output (transform, coerce, default) for review, and runs that very object", async () => {
    const { host, asked, approve } = reviewingHost();
    const { run, received } = recordingRun();
    host.register({
      name: 'transfer',
      validate: z.object({
        to: z
          .string()
          .transform((s) => s.trim().toUpperCase()),
        amount: z.coerce.number(),
        currency: z.string().default('USD'),
      }),
      confirm: true,
      run,
    });
    const pending = host.call(call('transfer', { to: '  bob', amount: '5e3' }, { callId: 'zod-1' }));
    await settle();
    const reviewed = asked[0]?.arguments;
    expect(reviewed).toEqual({ to: 'BOB', amount: 5000, currency: 'USD' });
    expect(isDeepFrozen(reviewed)).toBe(true);
    // The state shows what will run, the same object the person reviews.
    expect(host.getState().calls['zod-1']?.status).toBe('awaiting-approval');
    expect(stateArguments(host, 'zod-1')).toBe(reviewed);

    approve();
    await expect(pending).resolves.toEqual({ ok: true, output: { to: 'BOB', amount: 5000, currency: 'USD' } });
    expect(received[0]).toBe(reviewed);
  });

  it("shows valibot's output for review and runs that very object", async () => {
    const { host, asked, approve } = reviewingHost();
    const { run, received } = recordingRun();
    host.register({
      name: 'vb',
      validate: v.object({
        to: v.pipe(v.string(), v.trim(), v.toUpperCase()),
        amount: v.pipe(v.string(), v.transform(Number)),
        currency: v.optional(v.string(), 'USD'),
      }),
      confirm: true,
      run,
    });
    const pending = host.call(call('vb', { to: '  bob ', amount: '5e3' }));
    await settle();
    expect(asked[0]?.arguments).toEqual({ to: 'BOB', amount: 5000, currency: 'USD' });
    approve();
    await pending;
    expect(received[0]).toBe(asked[0]?.arguments);
    expect(isDeepFrozen(received[0])).toBe(true);
  });

  it("shows ArkType's output (morphs, nested, and defaults) for review and runs that very object", async () => {
    const { host, asked, approve } = reviewingHost();
    const { run, received } = recordingRun();
    host.register({
      name: 'ark',
      validate: type({ to: { name: 'string.trim' }, amount: 'string.numeric.parse', currency: 'string = "USD"' }),
      confirm: true,
      run,
    });
    const pending = host.call(call('ark', { to: { name: '  bob ' }, amount: '5000' }));
    await settle();
    expect(asked[0]?.arguments).toEqual({ to: { name: 'bob' }, amount: 5000, currency: 'USD' });
    approve();
    await expect(pending).resolves.toMatchObject({ ok: true });
    expect(received[0]).toBe(asked[0]?.arguments);
    expect(isDeepFrozen(received[0])).toBe(true);
  });

  it("shows an async validator's output for review and runs that very object", async () => {
    const { host, asked, approve } = reviewingHost();
    const { run, received } = recordingRun();
    host.register({
      name: 'slow',
      validate: z.object({ slug: z.string().refine(async (s) => s !== 'taken') }).transform(async ({ slug }) => ({ slug: slug.toLowerCase() })),
      confirm: true,
      run,
    });
    const pending = host.call(call('slow', { slug: 'Home' }));
    await settle();
    expect(asked[0]?.arguments).toEqual({ slug: 'home' });
    approve();
    await pending;
    expect(received[0]).toBe(asked[0]?.arguments);
  });

  it('asks confirm with the same frozen object the person reviews and run receives', async () => {
    const { host, asked, approve } = reviewingHost();
    const { run, received } = recordingRun();
    const seenByConfirm: unknown[] = [];
    host.register<{ amount: number }>({
      name: 'maybe',
      validate: z.object({ amount: z.coerce.number() }),
      confirm: (args) => {
        seenByConfirm.push(args);
        return args.amount > 100;
      },
      run,
    });
    const pending = host.call(call('maybe', { amount: '500' }));
    await settle();
    approve();
    await pending;
    expect(seenByConfirm[0]).toBe(asked[0]?.arguments);
    expect(received[0]).toBe(asked[0]?.arguments);
  });
});

describe('an app-tool call without confirmation runs a frozen copy taken when it arrived', () => {
  it('runs the arguments as they were when the call arrived, not as the caller changed them while it waited its turn', async () => {
    const host = createAppToolHost({ clock: createManualClock() });
    const gate = deferred<string>();
    host.register({ name: 'first', run: () => gate.promise });
    const { run, received } = recordingRun();
    host.register({ name: 'pay', run });
    void host.call(call('first', {}));
    const args = { to: 'bob', amount: 5, tags: ['a'] };
    const pending = host.call(call('pay', args, { callId: 'queued-pay' }));
    const shown = stateArguments(host, 'queued-pay');
    args.to = 'mallory';
    args.tags.push('b');
    gate.resolve('done');
    await expect(pending).resolves.toEqual({ ok: true, output: { to: 'bob', amount: 5, tags: ['a'] } });
    expect(received[0]).toBe(shown);
    expect(isDeepFrozen(received[0])).toBe(true);
  });

  it("runs the validator's frozen output, and the state shows that same object while it runs", async () => {
    const host = createAppToolHost({ clock: createManualClock() });
    const finish = deferred<string>();
    let got: unknown;
    host.register({
      name: 'note',
      validate: z.object({ text: z.string().trim(), pinned: z.boolean().default(false) }),
      run: (args) => {
        got = args;
        return finish.promise;
      },
    });
    const pending = host.call(call('note', { text: '  hi ' }, { callId: 'note-1' }));
    await settle();
    expect(got).toEqual({ text: 'hi', pinned: false });
    expect(isDeepFrozen(got)).toBe(true);
    expect(host.getState().calls['note-1']?.status).toBe('running');
    expect(stateArguments(host, 'note-1')).toBe(got);
    finish.resolve('ok');
    await pending;
  });

  it('reads each argument of the caller once: a getter that answers differently later changes nothing', async () => {
    const host = createAppToolHost({ clock: createManualClock() });
    const { run, received } = recordingRun();
    host.register({ name: 'g', run });
    let reads = 0;
    const args = {
      get to() {
        reads += 1;
        return reads === 1 ? 'bob' : 'mallory';
      },
    };
    const pending = host.call(call('g', args, { callId: 'getter-1' }));
    expect(stateArguments(host, 'getter-1')).toEqual({ to: 'bob' });
    await pending;
    expect(received[0]).toEqual({ to: 'bob' });
    expect(reads).toBe(1);
  });

  it('gives the validator its own copy, so one that changes its input cannot change what the state showed', async () => {
    const host = createAppToolHost({ clock: createManualClock() });
    const changesItsInput: StandardSchemaV1<unknown, { n: number }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) => {
          const input = value as { n: number };
          input.n += 1; // in place, as some validators do
          return { value: { n: input.n } };
        },
      },
    };
    const { run, received } = recordingRun();
    host.register({ name: 'inc', validate: changesItsInput, run });
    const pending = host.call(call('inc', { n: 1 }, { callId: 'inc-1' }));
    const arrived = stateArguments(host, 'inc-1');
    await expect(pending).resolves.toEqual({ ok: true, output: { n: 2 } });
    expect(arrived).toEqual({ n: 1 });
    expect(received[0]).toEqual({ n: 2 });
  });

  it('judges the JSON Schema on the arguments the model sent, before the validator transforms them', async () => {
    const host = createAppToolHost({ clock: createManualClock() });
    const { run } = recordingRun();
    host.register({
      name: 'amount',
      parameters: { type: 'object', required: ['amount'], properties: { amount: { type: 'string' } } },
      validate: z.object({ amount: z.coerce.number() }),
      run,
    });
    await expect(host.call(call('amount', { amount: '42' }))).resolves.toEqual({ ok: true, output: { amount: 42 } });
    await expect(host.call(call('amount', { amount: 42 }))).resolves.toMatchObject({ ok: false, code: 'INVALID' });
  });
});

describe('a validator whose output is not JSON', () => {
  it.each([
    ['a Date (zod coerce.date)', z.object({ when: z.coerce.date() }), { when: '2025-01-01' }, 'arguments.when is a Date'],
    ['a function', z.object({ n: z.number() }).transform(({ n }) => ({ n, then: () => n })), { n: 1 }, 'arguments.then is a function'],
    ['undefined', z.object({ n: z.number() }).transform(({ n }) => ({ n, note: undefined })), { n: 1 }, 'arguments.note is undefined'],
    ['a Map', z.object({ n: z.number() }).transform(({ n }) => new Map([['n', n]])), { n: 1 }, 'arguments is a Map'],
  ])('answers FAILED for %s, never asks the person and never runs: what runs must be what can be shown', async (_what, validate, args, reason) => {
    const { host, asked } = reviewingHost();
    const run = vi.fn();
    // parameters by hand: a Date has no JSON Schema to derive, and that is not what this test is about.
    host.register({ name: 'odd', parameters: { type: 'object' }, validate: validate as StandardSchemaV1<unknown, Record<string, unknown>>, confirm: true, run });
    const result = await host.call(call('odd', args));
    expect(result).toMatchObject({ ok: false, code: 'FAILED' });
    const message = result.ok ? '' : (result.message ?? '');
    expect(message).toContain('the validator of "odd" gave a value that is not JSON');
    expect(message).toContain(reason);
    expect(asked).toHaveLength(0);
    expect(run).not.toHaveBeenCalled();
  });

  it('answers FAILED the same way without a confirmation: the state could not show what would run', async () => {
    const host = createAppToolHost({ clock: createManualClock() });
    const run = vi.fn();
    host.register({ name: 'when', parameters: { type: 'object' }, validate: z.object({ when: z.coerce.date() }), run });
    await expect(host.call(call('when', { when: '2025-01-01' }))).resolves.toMatchObject({ ok: false, code: 'FAILED' });
    expect(run).not.toHaveBeenCalled();
  });
});
