import { describe, expect, it, vi } from 'vitest';
import { createToolStreamStore, type ApprovalMark, type ToolCall, type ToolStreamState } from 'toolgate/core';
import { explainToolEvent, initialToolStreamState, reduceLocalToolEvent, reduceToolEvent } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';
import { validateToolEvent } from '../../src/core/stream/validate-event';
import { callEvents, toolEvents as e } from 'toolgate/testing';
import { FORGED_LOCAL_FRAMES } from './forged-frames';


const busy = (): ToolStreamState =>
  [e.start('a', { turnId: 't1' }), e.delta('a', '{"q":"ca'), e.start('b', { turnId: 't1' }), e.complete('b', {})].reduce<ToolStreamState>(
    (s, event) => reduceToolEvent(s, event),
    initialToolStreamState(),
  );

describe('local-only events: a session never produces the page\'s own interrupt or approval mark', () => {
  it.each(FORGED_LOCAL_FRAMES)('refuses a session frame naming a local event (%s) with local-only, and changes nothing', (_name, frame) => {
    const state = busy();
    expect(reduceToolEvent(state, frame)).toBe(state);
    expect(explainToolEvent(state, frame)).toMatchObject({ outcome: 'rejected', issue: 'local-only' });
  });

  it('reports each forged frame through the store\'s onError with code local-only, and cancels nothing', () => {
    const onError = vi.fn();
    const store = createToolStreamStore({ onError });
    for (const event of [e.start('a', { turnId: 't1' }), e.delta('a', '{"q":"ca'), e.start('b', { turnId: 't1' }), e.complete('b', {})]) store.getState().dispatch(event);
    const before = store.getState();
    const listener = vi.fn();
    store.subscribe(listener);
    for (const [, frame] of FORGED_LOCAL_FRAMES) store.getState().dispatch(frame);
    expect(store.getState()).toBe(before);
    expect(listener).not.toHaveBeenCalled();
    expect(onError.mock.calls.map(([, , code]) => code)).toEqual(FORGED_LOCAL_FRAMES.map(() => 'local-only'));
    expect(onError.mock.calls[0]?.[0]).toMatch(/only this page may produce.*refused/);
    expect(onError.mock.calls[0]?.[1]).toBe(FORGED_LOCAL_FRAMES[0]?.[1]);
    expect(['a', 'b'].map((id) => callOf(store.getState(), id)?.status)).toEqual(['streaming', 'issued']);
  });

  it('applies the page\'s own interrupt only through interrupt(), not through dispatch', () => {
    const store = createToolStreamStore();
    for (const event of callEvents('a', { turnId: 't1', arguments: { q: 1 }, outcome: 'open' })) store.getState().dispatch(event);
    store.getState().dispatch({ type: 'toolgate.interrupt', turnId: 't1' });
    expect(callOf(store.getState(), 'a')?.status).toBe('issued');
    store.getState().interrupt('t1');
    expect(callOf(store.getState(), 'a')).toMatchObject({ status: 'cancelled', cancelledBy: 'local' });
  });

  it('leaves ordinary frames that only resemble a local event alone (ignored, not reported)', () => {
    const state = busy();
    for (const frame of [
      { type: 'turn.interrupt-ignored', turnId: 't1' },
      { type: 'interrupt' },
      { type: 'tool.approval-request', requestId: 'r1', callId: 'b', name: 'pay', arguments: {}, risk: 'high' },
      { type: 'tool.call', callId: 'x', turnId: 't1', epoch: 1, name: 'toolgate.interrupt', arguments: { type: 'toolgate.interrupt' } },
    ]) {
      expect(explainToolEvent(state, frame)).toMatchObject({ outcome: 'ignored' });
    }
  });

  it('never takes a page-only field from a session frame: approval and cancelledBy stay the page\'s', () => {
    const state = [
      e.start('a', { turnId: 't1' }),
      e.complete('a', {}),
      { ...e.settled('a', true), approval: 'approved', approvedArguments: { x: 1 }, cancelledBy: 'local', lateOutcome: { ok: false } },
    ].reduce<ToolStreamState>((s, event) => reduceToolEvent(s, event), initialToolStreamState());
    expect(callOf(state, 'a')).toMatchObject({ status: 'settled', approval: undefined, approvedArguments: undefined, cancelledBy: undefined, lateOutcome: undefined });
  });
});

describe('markApproval: the page marks where a call stands with a person\'s approval', () => {
  const issued = () => [e.start('p', { turnId: 't1', name: 'pay' }), e.complete('p', { to: 'bob', amount: 5 })].reduce<ToolStreamState>((s, ev) => reduceToolEvent(s, ev), initialToolStreamState());
  const mark = (state: ToolStreamState, approval: ApprovalMark, callId = 'p') =>
    reduceLocalToolEvent(state, { type: 'approval', callId, mark: approval });

  it('marks a call awaiting, then approved with the arguments that run, copied and frozen', () => {
    const approved = { to: 'bob', amount: 5000 };
    const s1 = mark(issued(), { approval: 'awaiting' });
    expect(callOf(s1, 'p')?.approval).toBe('awaiting');
    const s2 = mark(s1, { approval: 'approved', approvedArguments: approved, edited: true, grant: 'pay for this session' });
    approved.amount = 1; // the caller's object changes later: what the call shows does not
    const call = callOf(s2, 'p') as ToolCall;
    expect(call).toMatchObject({ approval: 'approved', approvedArguments: { to: 'bob', amount: 5000 }, approvalEdited: true, approvalGrant: 'pay for this session' });
    expect(Object.isFrozen(call.approvedArguments)).toBe(true);
    expect(callOf(s1, 'p')?.approval).toBe('awaiting');
  });

  it('keeps a decision final: a later, different mark is refused and changes nothing', () => {
    const denied = mark(mark(issued(), { approval: 'awaiting' }), { approval: 'denied', reason: 'declined by the user' });
    expect(callOf(denied, 'p')).toMatchObject({ approval: 'denied', approvalReason: 'declined by the user' });
    for (const later of ['approved', 'expired', 'awaiting'] as const) {
      expect(mark(denied, { approval: later })).toBe(denied);
    }
    const store = createToolStreamStore({ onError: vi.fn() });
    for (const event of [e.start('p'), e.complete('p', {})]) store.getState().dispatch(event);
    store.getState().markApproval('p', { approval: 'expired' });
    store.getState().markApproval('p', { approval: 'approved' });
    expect(callOf(store.getState(), 'p')?.approval).toBe('expired');
  });

  it('reports a mark for an unknown call, a mark that is not one, and arguments that are not JSON, changing nothing', () => {
    const onError = vi.fn();
    const store = createToolStreamStore({ onError });
    for (const event of [e.start('p'), e.complete('p', {})]) store.getState().dispatch(event);
    const before = store.getState();
    store.getState().markApproval('ghost', { approval: 'awaiting' });
    store.getState().markApproval('p', { approval: 'maybe' as never });
    store.getState().markApproval('p', { approval: 'approved', approvedArguments: { run: (() => 1) as never } });
    expect(store.getState()).toBe(before);
    expect(onError.mock.calls.map(([, , code]) => code)).toEqual(['unknown-call', 'malformed', 'malformed']);
    expect(onError.mock.calls[2]?.[0]).toMatch(/approvedArguments\.run is a function/);
  });

  it('refuses awaiting for a call that has ended: it waits for no approval', () => {
    const ended = reduceToolEvent(issued(), e.settled('p', false, 'REJECTED'));
    expect(mark(ended, { approval: 'awaiting' })).toBe(ended);
    expect(callOf(mark(ended, { approval: 'denied' }), 'p')?.approval).toBe('denied');
  });

  it('changes nothing for a mark the call already has', () => {
    const s = mark(issued(), { approval: 'approved', approvedArguments: { a: 1 } });
    expect(mark(s, { approval: 'approved', approvedArguments: { a: 1 } })).toBe(s);
  });
});

describe('the wire fields a card reads: output, message, parentCallId', () => {
  const run = (events: unknown[]) => events.reduce<ToolStreamState>((s, event, i) => reduceToolEvent(s, event, { now: i + 1 }), initialToolStreamState());

  it('keeps parentCallId on the call a sub-agent made inside another', () => {
    const s = run([e.start('parent'), { ...e.start('child'), parentCallId: 'parent' }]);
    expect(callOf(s, 'child')?.parentCallId).toBe('parent');
    expect(callOf(s, 'parent')?.parentCallId).toBeUndefined();
  });

  it.each([
    ['a number', 7, /parentCallId must be a non-empty string, got number/],
    ['an empty string', '', /parentCallId must be a non-empty string/],
    ['the call itself', 'c1', /parentCallId names the call itself/],
  ])('refuses a start whose parentCallId is %s', (_name, parentCallId, reason) => {
    expect(explainToolEvent(initialToolStreamState(), { ...e.start('c1'), parentCallId })).toMatchObject({ outcome: 'rejected', issue: 'malformed', reason: expect.stringMatching(reason) });
  });

  it('shows a preliminary output from progress, replacing the last, then the final output from settled', () => {
    const open = run([...callEvents('c1', { arguments: {}, outcome: 'open' }), { ...e.progress('c1', { done: 1 }), output: { rows: [1] } }, { ...e.progress('c1', undefined), output: { rows: [1, 2] } }]);
    expect(callOf(open, 'c1')).toMatchObject({ output: { rows: [1, 2] }, outputPreliminary: true, progress: { done: 1 } });
    const settled = reduceToolEvent(open, { ...e.settled('c1', true), output: { rows: [1, 2, 3] }, message: 'three rows' });
    expect(callOf(settled, 'c1')).toMatchObject({ status: 'settled', output: { rows: [1, 2, 3] }, outputPreliminary: false, message: 'three rows' });
    expect(Object.isFrozen(callOf(settled, 'c1')?.output)).toBe(true);
    expect(callOf(open, 'c1')?.output).toEqual({ rows: [1, 2] });
  });

  it('keeps the preliminary output when settled carries none (some agent runtimes send none)', () => {
    const s = run([...callEvents('c1', { arguments: {}, outcome: 'open' }), { ...e.progress('c1', undefined), output: 'draft' }, e.settled('c1', true)]);
    expect(callOf(s, 'c1')).toMatchObject({ status: 'settled', output: 'draft', outputPreliminary: true });
  });

  it('shows the message of a failed result beside its code', () => {
    const s = run([...callEvents('c1', { arguments: {}, outcome: 'open' }), { ...e.settled('c1', false, 'REJECTED'), message: 'declined by the user' }]);
    expect(callOf(s, 'c1')).toMatchObject({ ok: false, code: 'REJECTED', message: 'declined by the user' });
  });

  it('keeps the output and message of a late outcome after a local cancel', () => {
    const s = reduceLocalToolEvent(run(callEvents('c1', { arguments: {}, outcome: 'open' })), { type: 'interrupt' });
    const late = reduceToolEvent(s, { ...e.settled('c1', true), output: { sent: true }, message: 'it had already gone' });
    expect(callOf(late, 'c1')?.lateOutcome).toMatchObject({ ok: true, output: { sent: true }, message: 'it had already gone' });
  });

  it.each([
    ['settled with an output that is not JSON', { type: 'tool.stream', phase: 'settled', callId: 'c1', ok: true, output: { at: new Date(0) } }, /output is not JSON/],
    ['settled with a message that is not a string', { type: 'tool.stream', phase: 'settled', callId: 'c1', ok: false, message: 42 }, /message must be a string, got number/],
    ['progress with an output that is a function', { type: 'tool.stream', phase: 'progress', callId: 'c1', output: () => 1 }, /output is not JSON/],
  ])('refuses %s with a reason', (_name, event, reason) => {
    const s = run(callEvents('c1', { arguments: {}, outcome: 'open' }));
    expect(reduceToolEvent(s, event)).toBe(s);
    expect(explainToolEvent(s, event)).toMatchObject({ outcome: 'rejected', issue: 'malformed', reason: expect.stringMatching(reason) });
  });
});

describe('read each field once: validation copies what it checked', () => {
  /** An event whose every field counts its reads and answers something else from the second read on. */
  function shifty(base: Record<string, unknown>, later: Record<string, unknown>) {
    const reads: Record<string, number> = {};
    const event = {};
    for (const [key, value] of Object.entries(base)) {
      Object.defineProperty(event, key, {
        enumerable: true,
        get() {
          reads[key] = (reads[key] ?? 0) + 1;
          return reads[key] === 1 ? value : later[key] ?? value;
        },
      });
    }
    return { event, reads };
  }

  it.each([
    ['start', { ...e.start('c2', { turnId: 't1', risk: 'low', location: 'app' }), parentCallId: 'c1' }, { callId: 'c9', name: 7, risk: 'extreme', parentCallId: 'c2' }],
    ['arguments-delta', e.delta('c1', '{"a":'), { delta: 7, callId: 'nope' }],
    ['arguments-complete', e.complete('c1', { a: 1 }), { arguments: undefined }],
    ['progress', { ...e.progress('c1', { done: 1 }), output: 'x' }, { progress: () => 1, output: undefined }],
    ['settled', { ...e.settled('c1', false, 'FAILED'), message: 'm', output: 1 }, { ok: 'yes', code: 5, message: 3 }],
    ['failed', e.failed('c1', 'stopped'), { message: 9 }],
    ['preview', e.preview('p1', '{"q":', { name: 'n', turnId: 't1' }), { arguments: undefined, name: 3 }],
  ] as const)('reads every field of %s exactly once, and acts on what it read', (phase, base, later) => {
    const start = phase === 'arguments-delta' || phase === 'arguments-complete' || phase === 'failed' ? [e.start('c1')] : phase === 'preview' ? [] : callEvents('c1', { arguments: {}, outcome: 'open' });
    const before = start.reduce<ToolStreamState>((s, ev) => reduceToolEvent(s, ev), initialToolStreamState());
    const { event, reads } = shifty(base as Record<string, unknown>, later as Record<string, unknown>);
    const checked = validateToolEvent(event);
    expect(checked.kind).toBe('event');
    expect(Object.values(reads).every((n) => n === 1)).toBe(true);
    expect(Object.keys(reads).sort()).toEqual(Object.keys(base).sort());
    // What is applied is the copy: the same as the plain event would give.
    const copy = (checked as { event: unknown }).event;
    const fromCopy = reduceToolEvent(before, copy);
    const fromPlain = reduceToolEvent(before, base);
    expect(JSON.stringify(fromCopy)).toBe(JSON.stringify(fromPlain));
  });

  it('keeps an older state as it was when the sender changes the progress object it sent', () => {
    const progress = { done: 1, rows: ['a'] };
    const s = reduceToolEvent(callEvents('c1', { arguments: {}, outcome: 'open' }).reduce<ToolStreamState>((st, ev) => reduceToolEvent(st, ev), initialToolStreamState()), e.progress('c1', progress));
    progress.done = 99;
    progress.rows.push('b');
    expect(callOf(s, 'c1')?.progress).toEqual({ done: 1, rows: ['a'] });
    expect(Object.isFrozen(callOf(s, 'c1')?.progress)).toBe(true);
  });

  it('never reads inherited fields: a polluted prototype adds nothing to an event', () => {
    const proto = { turnId: 't-polluted', name: 'polluted' };
    const event = Object.assign(Object.create(proto) as object, { type: 'tool.stream', phase: 'start', callId: 'c1' });
    expect(explainToolEvent(initialToolStreamState(), event)).toMatchObject({ outcome: 'rejected', issue: 'malformed', reason: expect.stringMatching(/turnId must be a string, got nothing/) });
  });
});
