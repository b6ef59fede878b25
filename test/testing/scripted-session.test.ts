import { describe, expect, it, vi } from 'vitest';
import type { ClientMessage } from 'toolgate/core';
import type { AppToolCallMessage } from '../../src/core/wire';
import { createManualClock, createScriptedSession, step, toolEvents } from 'toolgate/testing';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A page that answers every call with its name, like a bound host would. */
function answerCalls(session: ReturnType<typeof createScriptedSession>) {
  return session.onToolCall((call: AppToolCallMessage) => {
    queueMicrotask(() =>
      session.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: { ok: true, output: call.name } }),
    );
  });
}

describe('createScriptedSession', () => {
  it('is a ToolSession that starts open and speaks tool-stream-v1', () => {
    const session = createScriptedSession();
    expect(session.status).toBe('open');
    expect(session.capabilities).toEqual(['tool-stream-v1']);
  });

  it('records every message the page sends, in order', () => {
    const session = createScriptedSession();
    const messages: ClientMessage[] = [
      { type: 'hello', capabilities: [], tools: [] },
      { type: 'turn.interrupt', turnId: 't1' },
    ];
    messages.forEach((m) => session.send(m));
    expect(session.sent).toEqual(messages);
  });

  it('emits an event to every subscriber at once, and not to one that unsubscribed', () => {
    const session = createScriptedSession();
    const a = vi.fn();
    const b = vi.fn();
    session.subscribe(a);
    const stopB = session.subscribe(b);
    stopB();
    session.emit({ type: 'closed' });
    expect(a).toHaveBeenCalledWith({ type: 'closed' });
    expect(b).not.toHaveBeenCalled();
    expect(session.emitted).toEqual([{ type: 'closed' }]);
  });

  it('gives an event to every subscriber before a failing one reaches the emitter', () => {
    const session = createScriptedSession();
    const after = vi.fn();
    session.subscribe(() => {
      throw new Error('listener broke');
    });
    session.subscribe(after);
    expect(() => session.emit({ type: 'x' })).toThrowError('listener broke');
    expect(after).toHaveBeenCalled();
  });

  it('resolves callTool with the first tool.result the page sends for that call', async () => {
    const session = createScriptedSession();
    answerCalls(session);
    await expect(session.callTool({ callId: 'c1', name: 'echo' })).resolves.toEqual({ ok: true, output: 'echo' });
    expect(session.results.get('c1')).toEqual({ ok: true, output: 'echo' });
  });

  it('holds a call made before anything handles calls until the first handler arrives', async () => {
    const session = createScriptedSession();
    const pending = session.callTool({ callId: 'early', name: 'first' });
    await settle();
    answerCalls(session);
    await expect(pending).resolves.toEqual({ ok: true, output: 'first' });
  });

  it("stamps a call with turn-1 and the server's epoch, which each turn.interrupt raises", () => {
    const session = createScriptedSession({ epoch: 2 });
    const seen: AppToolCallMessage[] = [];
    session.onToolCall((call) => seen.push(call));
    void session.callTool({ callId: 'a', name: 'x' });
    session.send({ type: 'turn.interrupt', turnId: 'turn-1' });
    void session.callTool({ callId: 'b', name: 'x', turnId: 'turn-2', arguments: { k: 1 } });
    expect(seen).toEqual([
      { type: 'tool.call', callId: 'a', turnId: 'turn-1', epoch: 2, name: 'x', arguments: {} },
      { type: 'tool.call', callId: 'b', turnId: 'turn-2', epoch: 3, name: 'x', arguments: { k: 1 } },
    ]);
  });

  it('plays a script in order, waiting for results on state rather than time', async () => {
    const session = createScriptedSession({
      script: [
        step.emit(toolEvents.start('c1', { name: 'echo', turnId: 't1', location: 'app' })),
        step.call({ callId: 'c1', turnId: 't1', name: 'echo' }),
        step.waitForResult('c1'),
        step.emit({ type: 'tool.stream', phase: 'settled', callId: 'c1', ok: true }),
      ],
    });
    const events: unknown[] = [];
    session.subscribe((e) => events.push(e));
    let answer: (() => void) | undefined;
    session.onToolCall((call) => {
      answer = () => session.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: { ok: true, output: 1 } });
    });
    const done = session.play();
    await settle();
    expect(session.playing).toBe(true);
    expect(events).toHaveLength(1); // waiting for the page's result
    answer?.();
    await done;
    expect(events).toHaveLength(2);
    expect(session.playing).toBe(false);
  });

  it('waits for an approval and for any message the script names', async () => {
    const session = createScriptedSession();
    const done = session.play([
      step.waitForApproval('r1'),
      step.waitForMessage((m) => m.type === 'turn.interrupt', 'an interrupt'),
      step.emit({ type: 'done' }),
    ]);
    const events: unknown[] = [];
    session.subscribe((e) => events.push(e));
    session.send({ type: 'tool.approval', requestId: 'r1', approved: true, fingerprint: 'f' });
    await settle();
    expect(events).toEqual([]);
    session.send({ type: 'turn.interrupt', turnId: 't' });
    await done;
    expect(events).toEqual([{ type: 'done' }]);
  });

  it('passes delays at once by default', async () => {
    const session = createScriptedSession();
    const timers = { setTimeout: vi.fn(), clearTimeout: vi.fn() };
    const paced = createScriptedSession({ timers });
    await session.play([step.delay(60_000), step.emit({ type: 'x' })]);
    await paced.play([step.delay(60_000)]);
    expect(session.emitted).toEqual([{ type: 'x' }]);
    expect(timers.setTimeout).not.toHaveBeenCalled();
  });

  it('divides delays by speed', async () => {
    const clock = createManualClock();
    const session = createScriptedSession({ speed: 2, timers: clock });
    const done = session.play([step.delay(100), step.emit({ type: 'x' })]);
    await clock.advance(49);
    expect(session.emitted).toEqual([]);
    await clock.advance(1);
    await done;
    expect(session.emitted).toEqual([{ type: 'x' }]);
  });

  it('refuses a speed that is not positive', () => {
    expect(() => createScriptedSession({ speed: 0 })).toThrowError('speed must be a positive number');
  });

  it('stops playing on stop(): a pending wait ends and no further step runs', async () => {
    const session = createScriptedSession();
    const done = session.play([step.waitForResult('never'), step.emit({ type: 'x' })]);
    await settle();
    session.stop();
    await done;
    expect(session.emitted).toEqual([]);
  });

  it('on close() emits closed, becomes closed, tells status listeners and ends the script', async () => {
    const session = createScriptedSession();
    const statuses: string[] = [];
    session.onStatusChange((s) => statuses.push(s));
    const done = session.play([step.waitForResult('never'), step.emit({ type: 'x' })]);
    await settle();
    session.close();
    await done;
    expect(session.emitted).toEqual([{ type: 'closed' }]);
    expect(session.status).toBe('closed');
    expect(statuses).toEqual(['closed']);
  });

  it('plays status changes, runs code and closes from a script', async () => {
    const session = createScriptedSession();
    const statuses: string[] = [];
    session.onStatusChange((s) => statuses.push(s));
    const ran = vi.fn();
    await session.play([step.status('reconnecting'), step.status('open'), step.run(ran), step.close()]);
    expect(statuses).toEqual(['reconnecting', 'open', 'closed']);
    expect(ran).toHaveBeenCalledWith(session);
  });

  it('rejects play() when a step throws', async () => {
    const session = createScriptedSession();
    await expect(
      session.play([
        step.run(() => {
          throw new Error('bad step');
        }),
      ]),
    ).rejects.toThrowError('bad step');
  });

  it('resolves waitFor as soon as the state holds, and rejects when its signal aborts', async () => {
    const session = createScriptedSession();
    const opened = session.waitFor((s) => s.sent.length === 2);
    session.send({ type: 'turn.interrupt', turnId: 'a' });
    let resolved = false;
    void opened.then(() => (resolved = true));
    await settle();
    expect(resolved).toBe(false);
    session.send({ type: 'turn.interrupt', turnId: 'b' });
    await opened;
    const controller = new AbortController();
    const never = session.waitFor(() => false, { signal: controller.signal });
    controller.abort(new Error('gave up'));
    await expect(never).rejects.toThrowError('gave up');
  });

  it('finds a message already sent, or the next one, with waitForMessage and waitForResult', async () => {
    const session = createScriptedSession();
    session.send({ type: 'hello', capabilities: ['tool-stream-v1'], tools: [] });
    await expect(session.waitForMessage('hello')).resolves.toMatchObject({ capabilities: ['tool-stream-v1'] });
    const interrupt = session.waitForMessage('turn.interrupt', (m) => m.turnId === 'b');
    session.send({ type: 'turn.interrupt', turnId: 'a' });
    session.send({ type: 'turn.interrupt', turnId: 'b' });
    await expect(interrupt).resolves.toEqual({ type: 'turn.interrupt', turnId: 'b' });
    const result = session.waitForResult('c9');
    session.send({ type: 'tool.result', callId: 'c9', epoch: 0, result: { ok: false, code: 'FAILED' } });
    await expect(result).resolves.toEqual({ ok: false, code: 'FAILED' });
  });

  it('lets onSend answer like a server would', async () => {
    const session = createScriptedSession({
      onSend: (message, s) => {
        if (message.type === 'hello') s.emit({ type: 'welcome' });
      },
    });
    session.send({ type: 'hello', capabilities: [], tools: [] });
    expect(session.emitted).toEqual([{ type: 'welcome' }]);
  });

  it('counts its listeners so a test can see that everything let go', () => {
    const session = createScriptedSession();
    const offs = [session.subscribe(() => {}), session.onToolCall(() => {}), session.onStatusChange(() => {})];
    expect(session.listenerCount()).toEqual({ events: 1, toolCalls: 1, status: 1 });
    offs.forEach((off) => off());
    expect(session.listenerCount()).toEqual({ events: 0, toolCalls: 0, status: 0 });
  });
});
