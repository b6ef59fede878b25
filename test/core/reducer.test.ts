import { describe, expect, it } from 'vitest';
import { type ToolCall, type ToolStreamState } from 'toolgate/core';
import { explainToolEvent, initialToolStreamState, reduceLocalToolEvent, reduceToolEvent, type LocalToolEvent } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';
import { callEvents, toolEvents as e } from 'toolgate/testing';

/** Reduce events in order, stamping times 1, 2, 3… */
function run(events: unknown[], state: ToolStreamState = initialToolStreamState()): ToolStreamState {
  return events.reduce<ToolStreamState>((s, event, i) => reduceToolEvent(s, event, { now: i + 1 }), state);
}
const call = (state: ToolStreamState, id = 'c1') => state.calls[id] as ToolCall;

describe('reduceToolEvent: the lifecycle of a call (docs/protocol.md, "Rules of the stream")', () => {
  it('starts a call as pending, with its name, turn, location, risk and start time', () => {
    const s = run([e.start('c1', { name: 'search', turnId: 't1', location: 'server', risk: 'high' })]);
    expect(call(s)).toMatchObject({
      callId: 'c1', name: 'search', turnId: 't1', status: 'pending', location: 'server', risk: 'high',
      source: 'stream', argumentsText: '', startedAt: 1,
    });
    expect(call(s).partialArguments).toBeUndefined();
    expect(s.order).toEqual(['c1']);
  });

  it('streams argument fragments into argumentsText and a live preview', () => {
    const s = run([e.start('c1'), e.delta('c1', '{"city": "Par'), e.delta('c1', 'is", "days": [1')]);
    expect(call(s).status).toBe('streaming');
    expect(call(s).argumentsText).toBe('{"city": "Paris", "days": [1');
    expect(call(s).partialArguments).toEqual({ city: 'Paris', days: [] });
    expect(call(s).writingPath).toEqual(['days', 0]);
  });

  it('issues the call with the final arguments on arguments-complete', () => {
    const s = run([e.start('c1'), e.delta('c1', '{"a":1}'), e.complete('c1', { a: 1 })]);
    expect(call(s)).toMatchObject({ status: 'issued', arguments: { a: 1 }, issuedAt: 3 });
    expect(call(s).partialArguments).toEqual({ a: 1 });
    expect(Object.isFrozen(call(s).arguments)).toBe(true);
  });

  it('goes straight from start to arguments-complete when the model does not stream arguments', () => {
    const s = run([e.start('c1'), e.complete('c1', { q: 'x' })]);
    expect(call(s)).toMatchObject({ status: 'issued', arguments: { q: 'x' }, argumentsText: '' });
  });

  it('accepts final arguments given as JSON text', () => {
    const s = run([e.start('c1'), e.complete('c1', '{"q": "x"}')]);
    expect(call(s).arguments).toEqual({ q: 'x' });
  });

  it('keeps the latest progress, as data it does not interpret', () => {
    const s = run([e.start('c1'), e.complete('c1', {}), e.progress('c1', { done: 1, total: 4 }), e.progress('c1', '<b>half</b>')]);
    expect(call(s).progress).toBe('<b>half</b>');
    expect(call(s).status).toBe('issued');
  });

  it('settles with ok and code, and no output (the server sends none)', () => {
    const s = run([e.start('c1'), e.complete('c1', {}), e.settled('c1', false, 'TIMEOUT')]);
    expect(call(s)).toMatchObject({ status: 'settled', ok: false, code: 'TIMEOUT', endedAt: 3 });
    expect(call(s).output).toBeUndefined();
  });

  it('fails a call whose model stopped before completing the arguments, keeping the last preview', () => {
    const s = run([e.start('c1'), e.delta('c1', '{"path": "/tmp/a'), e.failed('c1', 'max_tokens')]);
    expect(call(s)).toMatchObject({ status: 'failed', message: 'max_tokens', endedAt: 3 });
    expect(call(s).partialArguments).toEqual({ path: '/tmp/a' });
  });

  it('cancels a call from the server at any open phase', () => {
    for (const before of [[], [e.delta('c1', '{')], [e.complete('c1', {})]]) {
      const s = run([e.start('c1'), ...before, e.cancelled('c1')]);
      expect(call(s)).toMatchObject({ status: 'cancelled', cancelledBy: 'server' });
    }
  });

  it('ends every call with exactly one terminal phase, and keeps it', () => {
    const terminals = [e.settled('c1', true), e.cancelled('c1'), e.failed('c1', 'x')];
    for (const first of terminals) {
      const prefix = first.phase === 'failed' ? [e.start('c1')] : [e.start('c1'), e.complete('c1', {})];
      const ended = run([...prefix, first]);
      for (const later of [...terminals, e.progress('c1', 1), e.delta('c1', 'x'), e.complete('c1', {})]) {
        expect(reduceToolEvent(ended, later)).toBe(ended);
        expect(explainToolEvent(ended, later)).toMatchObject({ outcome: 'rejected', issue: 'after-terminal' });
      }
    }
  });

  it('runs nothing: streams are for display only (no function of the state is called)', () => {
    let ran = false;
    const trap = { toJSON: () => { ran = true; return {}; } };
    const s = run([e.start('c1', { name: 'delete_everything' }), e.complete('c1', { trap }), e.settled('c1')]);
    // The reducer refuses the non-JSON value without calling into it, and nothing ran.
    expect(ran).toBe(false);
    expect(call(s).status).toBe('settled');
    expect(call(s).argumentsError).toMatch(/toJSON is a function/);
  });

  it('keeps several calls of a turn in the order they started', () => {
    const s = run([e.start('b'), e.start('a'), e.delta('a', '{}'), e.start('c')]);
    expect(s.order).toEqual(['b', 'a', 'c']);
  });
});

describe('reduceToolEvent: out of order, unknown and repeated events change nothing', () => {
  const started = run([e.start('c1'), e.delta('c1', '{"a":')]);

  it.each([
    ['a delta for an unknown call', e.delta('nope', 'x'), 'unknown-call'],
    ['progress before the arguments are complete', e.progress('c1', 1), 'out-of-order'],
    ['settled before the arguments are complete', e.settled('c1'), 'out-of-order'],
    ['a second start for the same call', e.start('c1'), 'duplicate-start'],
  ] as const)('rejects %s', (_name, event, issue) => {
    expect(reduceToolEvent(started, event)).toBe(started);
    expect(explainToolEvent(started, event)).toMatchObject({ outcome: 'rejected', issue });
  });

  it('rejects failed after arguments-complete: the model had already finished them', () => {
    const issued = run([e.start('c1'), e.complete('c1', {})]);
    expect(reduceToolEvent(issued, e.failed('c1', 'x'))).toBe(issued);
  });

  it('drops an event whose seq is at or below the last seen (a repeat after a resume)', () => {
    const s = run([e.start('c1', { seq: 1 }), e.delta('c1', '{"a"', { seq: 2 })]);
    const repeat = e.delta('c1', '{"a"', { seq: 2 });
    expect(reduceToolEvent(s, repeat)).toBe(s);
    expect(explainToolEvent(s, repeat)).toMatchObject({ issue: 'repeated-seq', reason: expect.stringContaining('repeats seq 2') });
    expect(reduceToolEvent(s, e.delta('c1', ':1', { seq: 1 }))).toBe(s);
    expect(call(reduceToolEvent(s, e.delta('c1', ':1', { seq: 3 }))).argumentsText).toBe('{"a":1');
  });

  it('ignores events of other types, silently', () => {
    const s = run([e.start('c1')]);
    expect(reduceToolEvent(s, { type: 'message.delta', text: 'hi' })).toBe(s);
    expect(explainToolEvent(s, { type: 'message.delta' })).toEqual({ outcome: 'ignored', reason: "'message.delta' is not a tool event" });
  });

  describe('malformed events', () => {
    const cases: [string, unknown, RegExp][] = [
      ['not an object', 'tool.stream', /must be an object, got a string/],
      ['null', null, /must be an object, got null/],
      ['an array', [1], /must be an object, got an array/],
      ['a type that is not a string', { type: 7 }, /string type, got number/],
      ['an unknown phase', { type: 'tool.stream', phase: 'exploded', callId: 'c1' }, /unknown phase 'exploded'/],
      ['a missing callId', { type: 'tool.stream', phase: 'cancelled' }, /callId must be a non-empty string, got nothing/],
      ['a non-string delta', { type: 'tool.stream', phase: 'arguments-delta', callId: 'c1', delta: 42 }, /delta must be a string, got number/],
      ['a start without a name', { type: 'tool.stream', phase: 'start', callId: 'c9', turnId: 't' }, /name must be a non-empty string/],
      ['an unknown risk', { type: 'tool.stream', phase: 'start', callId: 'c9', turnId: 't', name: 'x', risk: 'extreme' }, /risk must be/],
      ['settled without ok', { type: 'tool.stream', phase: 'settled', callId: 'c1' }, /ok must be a boolean/],
      ['failed without a message', { type: 'tool.stream', phase: 'failed', callId: 'c1' }, /message must be a string/],
      ['complete without arguments', { type: 'tool.stream', phase: 'arguments-complete', callId: 'c1' }, /arguments are missing/],
      ['a seq that is not a number', { ...e.cancelled('c1'), seq: '3' }, /seq must be a finite number/],
      ['a preview without a callId', { type: 'tool.preview', arguments: '{' }, /callId must be a non-empty string/],
    ];
    it.each(cases)('rejects %s with a clear reason and changes nothing', (_name, event, reason) => {
      expect(reduceToolEvent(started, event)).toBe(started);
      const verdict = explainToolEvent(started, event);
      expect(verdict).toMatchObject({ outcome: 'rejected', issue: 'malformed' });
      expect((verdict as { reason: string }).reason).toMatch(reason);
    });
  });

  it('records argument text that can never become JSON, keeping the last good preview', () => {
    const s = run([e.start('c1'), e.delta('c1', '{"a": 1}'), e.delta('c1', '}')]);
    expect(call(s).status).toBe('streaming');
    expect(call(s).argumentsText).toBe('{"a": 1}}');
    expect(call(s).argumentsError).toMatch(/unexpected '}' at 8 after the end of the JSON value/);
    expect(call(s).partialArguments).toEqual({ a: 1 });
  });

  it('records final arguments that are not JSON, without crashing', () => {
    const s = run([e.start('c1'), e.complete('c1', '{"a": ')]);
    expect(call(s).status).toBe('issued');
    expect(call(s).arguments).toBeUndefined();
    expect(call(s).argumentsError).toMatch(/final arguments are not valid JSON/);
  });

  it('keeps __proto__ keys of arguments as data and never touches a prototype', () => {
    const text = '{"__proto__": {"isAdmin": true}}';
    const s = run([e.start('__proto__'), e.delta('__proto__', text), e.complete('__proto__', JSON.parse(text))]);
    const c = s.calls['__proto__'] as ToolCall;
    expect(c.status).toBe('issued');
    expect(Object.keys(c.arguments as object)).toEqual(['__proto__']);
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    expect(callOf(s, 'constructor')).toBeUndefined();
    expect(callOf(s, '__proto__')).toBe(c);
  });
});

describe('interrupt: the client cancels every open call of the turn at once', () => {
  // The page's own interrupt: a local event, through the reducer's local path (the store's interrupt()).
  const interrupt = (turnId?: string): LocalToolEvent => (turnId === undefined ? { type: 'interrupt' } : { type: 'interrupt', turnId });
  const busy = run([
    e.start('a', { turnId: 't1' }),
    e.delta('a', '{"q": "ca'),
    e.start('b', { turnId: 't1' }),
    e.complete('b', {}),
    e.start('c', { turnId: 't1' }),
    e.complete('c', {}),
    e.settled('c'),
    e.start('d', { turnId: 't2' }),
  ]);

  it('marks every open call of that turn cancelled, locally, without waiting for the server', () => {
    const s = reduceLocalToolEvent(busy, interrupt('t1'), { now: 99 });
    expect(call(s, 'a')).toMatchObject({ status: 'cancelled', cancelledBy: 'local', endedAt: 99 });
    expect(call(s, 'a').partialArguments).toEqual({ q: 'ca' });
    expect(call(s, 'b').status).toBe('cancelled');
    expect(call(s, 'c').status).toBe('settled');
    expect(call(s, 'd').status).toBe('pending');
  });

  it("changes nothing with the server's later events for those calls, and its cancel is a silent echo", () => {
    const s = reduceLocalToolEvent(busy, interrupt('t1'));
    expect(reduceToolEvent(s, e.delta('a', 't"}'))).toBe(s);
    expect(reduceToolEvent(s, e.cancelled('a'))).toBe(s);
    expect(explainToolEvent(s, e.cancelled('a')).outcome).toBe('ignored');
  });

  it('keeps a settled that arrives after the local cancel as lateOutcome, shown, never hidden', () => {
    const s = run([e.settled('b', true)], reduceLocalToolEvent(busy, interrupt('t1')));
    expect(call(s, 'b')).toMatchObject({ status: 'cancelled', lateOutcome: { ok: true } });
    expect(reduceToolEvent(s, e.settled('b', false))).toBe(s);
  });

  it('changes nothing when the turn has no open call', () => {
    expect(reduceLocalToolEvent(busy, interrupt('t9'))).toBe(busy);
  });

  it('cancels every open call when no turn is given', () => {
    const s = reduceLocalToolEvent(busy, interrupt());
    expect(['a', 'b', 'd'].map((id) => call(s, id).status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  });
});

describe('closed: final session close', () => {
  it('drops every call and marks the session closed', () => {
    const s = run([e.start('a'), e.delta('a', '{'), e.start('b'), e.closed()]);
    expect(s.calls).toEqual({});
    expect(s.order).toEqual([]);
    expect(s.closed).toBe(true);
  });

  it('is final: later events change nothing and are reported', () => {
    const s = run([e.start('a'), e.closed()]);
    for (const later of [e.start('x'), e.delta('a', '{'), e.preview('p', '{')]) {
      expect(reduceToolEvent(s, later)).toBe(s);
      expect(explainToolEvent(s, later)).toMatchObject({ issue: 'session-closed' });
    }
    expect(reduceToolEvent(s, e.closed())).toBe(s);
  });
});

describe('legacy tool.preview events', () => {
  it('builds a call from previews when the server speaks only tool.preview', () => {
    const s = run([e.preview('p1', '{"q": "c', { name: 'search', turnId: 't1' }), e.preview('p1', '{"q": "cats"')]);
    expect(call(s, 'p1')).toMatchObject({ source: 'preview', status: 'streaming', name: 'search', turnId: 't1' });
    expect(call(s, 'p1').partialArguments).toEqual({ q: 'cats' });
  });

  it('shows a preview call issued once its text is complete JSON', () => {
    const s = run([e.preview('p1', '{"q": "c'), e.preview('p1', '{"q": "cats"}')]);
    expect(call(s, 'p1')).toMatchObject({ status: 'issued', arguments: { q: 'cats' } });
  });

  it('resets the parser when the text does not extend the previous text', () => {
    const s = run([e.preview('p1', '{"q": "dogs'), e.preview('p1', '{"q": "ca')]);
    expect(call(s, 'p1').partialArguments).toEqual({ q: 'ca' });
    expect(call(s, 'p1').argumentsText).toBe('{"q": "ca');
  });

  it('accepts an already-parsed value', () => {
    const s = run([e.preview('p1', { q: 'cats' })]);
    expect(call(s, 'p1')).toMatchObject({ status: 'issued', arguments: { q: 'cats' } });
  });

  it('never shows a call twice: tool.stream replaces a call built from previews, in its place', () => {
    const s = run([
      e.preview('x', '{"n": 0}'),
      e.preview('c1', '{"q": "c'),
      e.start('c1', { name: 'search' }),
      e.preview('c1', '{"q": "cats"}'),
      e.delta('c1', '{"q": "cats"}'),
    ]);
    expect(s.order).toEqual(['x', 'c1']);
    expect(call(s)).toMatchObject({ source: 'stream', status: 'streaming', argumentsText: '{"q": "cats"}' });
  });

  it('ignores previews silently once the session speaks tool.stream (auto mode)', () => {
    const s = run([e.start('c1'), e.preview('p2', '{"a": 1}')]);
    expect(s.calls.p2).toBeUndefined();
    expect(explainToolEvent(s, e.preview('p2', '{}'))).toMatchObject({ outcome: 'ignored' });
  });

  it("ignores previews in 'stream' mode and tool.stream in 'preview' mode", () => {
    const streamOnly = initialToolStreamState({ previewMode: 'stream' });
    expect(reduceToolEvent(streamOnly, e.preview('p', '{}'))).toBe(streamOnly);
    const previewOnly = initialToolStreamState({ previewMode: 'preview' });
    expect(reduceToolEvent(previewOnly, e.start('c1'))).toBe(previewOnly);
    expect(explainToolEvent(previewOnly, e.start('c1'))).toMatchObject({ issue: 'wrong-mode' });
  });

  it('ends preview calls only by an interrupt (all without a turn) or closed', () => {
    const s = run([e.preview('p1', '{"q": 1}'), e.preview('p2', '{"q": 2', { turnId: 't2' })]);
    const interrupted = reduceLocalToolEvent(s, { type: 'interrupt', turnId: 't1' });
    expect(call(interrupted, 'p1').status).toBe('cancelled');
    expect(call(interrupted, 'p2').status).toBe('streaming');
    expect(reduceToolEvent(interrupted, e.preview('p1', '{"q": 1}'))).toBe(interrupted);
  });

  it('lets a stream event for a call seen only in previews count as unknown', () => {
    const s = run([e.preview('p1', '{')]);
    expect(explainToolEvent(s, e.delta('p1', '}'))).toMatchObject({ issue: 'unknown-call' });
  });
});

describe('purity: older states never change', () => {
  it('leaves every earlier state exactly as it was handed out', () => {
    const events = [...callEvents('c1', { arguments: { text: 'hello world', n: [1, 2, 3] }, chunk: 3 }), e.start('c2'), e.closed()];
    const states: ToolStreamState[] = [initialToolStreamState()];
    const seen: string[] = [];
    for (const event of events) {
      const prev = states[states.length - 1] as ToolStreamState;
      seen.push(JSON.stringify({ ...prev, calls: Object.values(prev.calls).map((c) => ({ ...c, preview: c.partialArguments })) }));
      states.push(reduceToolEvent(prev, event));
    }
    states.slice(0, -1).forEach((s, i) => {
      expect(JSON.stringify({ ...s, calls: Object.values(s.calls).map((c) => ({ ...c, preview: c.partialArguments })) })).toBe(seen[i]);
    });
  });

  it('reduces an older state again to the same result (the parser is rebuilt from argumentsText)', () => {
    const a = run([e.start('c1'), e.delta('c1', '{"s": "ab')]);
    const b1 = reduceToolEvent(a, e.delta('c1', 'cd"'));
    const b2 = reduceToolEvent(a, e.delta('c1', 'XY"'));
    expect(call(b1).partialArguments).toEqual({ s: 'abcd' });
    expect(call(b2).partialArguments).toEqual({ s: 'abXY' });
    expect(call(a).partialArguments).toEqual({ s: 'ab' });
    const c = reduceToolEvent(b1, e.delta('c1', ', "t": "z"}'));
    expect(call(c).partialArguments).toEqual({ s: 'abcd', t: 'z' });
  });

  it('gives a call object the same preview every time it is read', () => {
    const s = run([e.start('c1'), e.delta('c1', '{"s": [1, "a')]);
    expect(call(s).partialArguments).toBe(call(s).partialArguments);
    expect(Object.isFrozen(call(s).partialArguments)).toBe(true);
  });

  it('keeps both branches right when an older state is reduced again with another new call', () => {
    const a = run([e.start('c1')]);
    const b1 = reduceToolEvent(a, e.start('c2'));
    const b2 = reduceToolEvent(a, e.start('c3'));
    const b3 = reduceToolEvent(b1, e.start('c4'));
    expect(Object.keys(a.calls)).toEqual(['c1']);
    expect(Object.keys(b1.calls)).toEqual(['c1', 'c2']);
    expect(Object.keys(b2.calls)).toEqual(['c1', 'c3']);
    expect(Object.keys(b3.calls)).toEqual(['c1', 'c2', 'c4']);
    expect([callOf(b2, 'c2'), callOf(b1, 'c3'), callOf(a, 'c2')]).toEqual([undefined, undefined, undefined]);
    expect(b2.order).toEqual(['c1', 'c3']);
  });

  it('gives the same frozen calls record on every read of a state, and puts it in the JSON form', () => {
    const s = run([e.start('c1', { name: 'search' }), e.start('__proto__')]);
    expect(s.calls).toBe(s.calls);
    expect(Object.isFrozen(s.calls)).toBe(true);
    expect(Object.keys(s.calls)).toEqual(['c1', '__proto__']);
    const json = JSON.parse(JSON.stringify(s)) as { calls: Record<string, { name: string }>; order: string[] };
    expect(json.order).toEqual(['c1', '__proto__']);
    expect(json.calls.c1?.name).toBe('search');
  });

  it('keeps unchanged calls identical between states, so views of other calls can skip work', () => {
    const s1 = run([e.start('a'), e.start('b'), e.delta('a', '{')]);
    const s2 = reduceToolEvent(s1, e.delta('b', '{'));
    expect(s2.calls.a).toBe(s1.calls.a);
    expect(s2.calls.b).not.toBe(s1.calls.b);
  });
});
