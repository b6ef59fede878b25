import { describe, expect, it, vi } from 'vitest';
import { createAppToolHost, type ClientMessage, type ToolSession, type ToolSessionStatus } from 'toolgate/core';
import { bindAppToolHost, createHelloMessage } from 'toolgate/client';
import type { AppToolCallMessage } from '../../src/core/wire';
import { createScriptedSession, step } from 'toolgate/testing';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup(options: { status?: ToolSessionStatus } = {}) {
  const session = createScriptedSession(options);
  const host = createAppToolHost();
  return { session, host };
}

const ofType = <T extends ClientMessage['type']>(sent: readonly ClientMessage[], type: T) =>
  sent.filter((m): m is Extract<ClientMessage, { type: T }> => m.type === type);

describe('bindAppToolHost: declarations', () => {
  it('sends hello with the tool-stream-v1 capability and every registered tool when bound to an open session', () => {
    const { session, host } = setup();
    host.register({ name: 'set_title', description: 'Set the title', parameters: { type: 'object' }, run: () => null });
    bindAppToolHost(session, host);
    expect(session.sent).toEqual([
      {
        type: 'hello',
        capabilities: ['tool-stream-v1'],
        tools: [{ name: 'set_title', description: 'Set the title', parameters: { type: 'object' } }],
      },
    ]);
  });

  it('puts the last seen seq in hello for a resume', () => {
    const { session, host } = setup();
    bindAppToolHost(session, host, { lastSeq: () => 41 });
    expect(session.sent[0]).toMatchObject({ type: 'hello', lastSeq: 41 });
  });

  it('waits for the session to open before saying hello, and says it again after a reconnect', () => {
    const { session, host } = setup({ status: 'connecting' });
    bindAppToolHost(session, host);
    expect(session.sent).toEqual([]);
    session.setStatus('open');
    expect(ofType(session.sent, 'hello')).toHaveLength(1);
    session.setStatus('reconnecting');
    host.register({ name: 'late', run: () => null });
    expect(ofType(session.sent, 'tools.update')).toHaveLength(0); // the next hello carries it
    session.setStatus('open');
    const hellos = ofType(session.sent, 'hello');
    expect(hellos).toHaveLength(2);
    expect(hellos[1]?.tools).toEqual([{ name: 'late' }]);
  });

  it('announces a tool registered after hello with tools.update listing every tool', () => {
    const { session, host } = setup();
    host.register({ name: 'first', run: () => null });
    bindAppToolHost(session, host);
    host.register({ name: 'second', run: () => null });
    expect(session.sent[1]).toEqual({ type: 'tools.update', tools: [{ name: 'first' }, { name: 'second' }] });
  });

  it('announces an unregister once its tick has passed', async () => {
    const { session, host } = setup();
    const unregister = host.register({ name: 'gone', run: () => null });
    bindAppToolHost(session, host);
    unregister();
    expect(ofType(session.sent, 'tools.update')).toEqual([]);
    await settle();
    expect(ofType(session.sent, 'tools.update')).toEqual([{ type: 'tools.update', tools: [] }]);
  });

  it('announces nothing when a StrictMode-like remount declares the same tool again', async () => {
    const { session, host } = setup();
    const unregister = host.register({ name: 'steady', run: () => 1 });
    bindAppToolHost(session, host);
    unregister();
    host.register({ name: 'steady', run: () => 2 });
    await settle();
    expect(session.sent.map((m) => m.type)).toEqual(['hello']);
  });

  it('leaves hello to an adapter that asks for that, which builds it with createHelloMessage', () => {
    const { session, host } = setup();
    host.register({ name: 'a', run: () => null });
    bindAppToolHost(session, host, { hello: false });
    expect(session.sent).toEqual([]);
    expect(createHelloMessage(host, { lastSeq: 3, capabilities: [] })).toEqual({
      type: 'hello',
      capabilities: [],
      tools: [{ name: 'a' }],
      lastSeq: 3,
    });
    host.register({ name: 'b', run: () => null });
    expect(session.sent).toEqual([{ type: 'tools.update', tools: [{ name: 'a' }, { name: 'b' }] }]);
  });

  it('says hello at once to a session that cannot report status changes', () => {
    const sent: ClientMessage[] = [];
    const session: ToolSession = {
      subscribe: () => () => {},
      onToolCall: () => () => {},
      send: (m) => sent.push(m),
      status: 'connecting',
    };
    bindAppToolHost(session, createAppToolHost());
    expect(sent.map((m) => m.type)).toEqual(['hello']);
  });
});

describe('bindAppToolHost: calls and results', () => {
  it('runs a session tool.call through the host and sends tool.result with its callId, epoch and result', async () => {
    const { session, host } = setup();
    host.register({ name: 'add', run: ({ a, b }) => (a as number) + (b as number) });
    bindAppToolHost(session, host);
    const result = await session.callTool({ callId: 'c1', turnId: 't1', epoch: 4, name: 'add', arguments: { a: 1, b: 2 } });
    expect(result).toEqual({ ok: true, output: 3 });
    expect(ofType(session.sent, 'tool.result')).toEqual([
      { type: 'tool.result', callId: 'c1', epoch: 4, result: { ok: true, output: 3 } },
    ]);
  });

  it('answers a call for a tool the page does not host with FAILED', async () => {
    const { session, host } = setup();
    bindAppToolHost(session, host);
    await expect(session.callTool({ callId: 'c1', name: 'ghost' })).resolves.toEqual({
      ok: false,
      code: 'FAILED',
      message: 'no app tool named "ghost" is registered in this page',
    });
  });

  it('answers a repeated tool.call with the same result and runs the tool once', async () => {
    const { session, host } = setup();
    const run = vi.fn(() => 'once');
    host.register({ name: 'once', run });
    bindAppToolHost(session, host);
    await session.callTool({ callId: 'c1', name: 'once' });
    await session.callTool({ callId: 'c1', name: 'once' });
    expect(run).toHaveBeenCalledTimes(1);
    expect(ofType(session.sent, 'tool.result').map((m) => m.result)).toEqual([
      { ok: true, output: 'once' },
      { ok: true, output: 'once' },
    ]);
  });
});

describe('bindAppToolHost: interrupts and the epoch gate', () => {
  it('sends turn.interrupt when the page interrupts a turn, answers its open calls INTERRUPTED and refuses its stale calls', async () => {
    const { session, host } = setup();
    host.register({ name: 'wait', run: () => new Promise(() => {}) });
    host.register({ name: 'quick', run: () => 'ran' });
    bindAppToolHost(session, host);
    const open = session.callTool({ callId: 'c1', turnId: 't1', epoch: 0, name: 'wait' });
    await settle();
    host.interrupt('t1');
    expect(ofType(session.sent, 'turn.interrupt')).toEqual([{ type: 'turn.interrupt', turnId: 't1' }]);
    await expect(open).resolves.toMatchObject({ ok: false, code: 'INTERRUPTED' });
    expect(host.epoch).toBe(1);
    // a call stamped before the server heard the interrupt never runs
    await expect(session.callTool({ callId: 'c2', turnId: 't0', epoch: 0, name: 'quick' })).resolves.toMatchObject({
      ok: false,
      code: 'INTERRUPTED',
    });
    // the server's next turn carries the new epoch
    expect(session.epoch).toBe(1);
    await expect(session.callTool({ callId: 'c3', turnId: 't2', name: 'quick' })).resolves.toEqual({ ok: true, output: 'ran' });
  });

  it('aborts an app call whose run the server cancelled, and sends no result for it', async () => {
    const { session, host } = setup();
    let signal: AbortSignal | undefined;
    host.register({
      name: 'wait',
      run: (_a, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    bindAppToolHost(session, host);
    void session.callTool({ callId: 'c1', name: 'wait' });
    await settle();
    session.emit({ type: 'tool.stream', phase: 'cancelled', callId: 'c1' });
    expect(signal?.aborted).toBe(true);
    expect(host.getState().tools.wait?.lastResult?.result).toEqual({
      ok: false,
      code: 'INTERRUPTED',
      message: 'the server cancelled this call',
    });
    await settle();
    expect(ofType(session.sent, 'tool.result')).toEqual([]);
  });

  it('aborts an app call the server settled, keeping the code the server gave', async () => {
    const { session, host } = setup();
    host.register({ name: 'wait', run: () => new Promise(() => {}) });
    bindAppToolHost(session, host);
    void session.callTool({ callId: 'c1', name: 'wait' });
    await settle();
    session.emit({ type: 'tool.stream', phase: 'settled', callId: 'c1', ok: false, code: 'TIMEOUT' });
    expect(host.getState().tools.wait?.lastResult?.result).toMatchObject({ code: 'TIMEOUT' });
    await settle();
    expect(ofType(session.sent, 'tool.result')).toEqual([]);
  });

  it('changes nothing when the settled event comes after the page answered', async () => {
    const { session, host } = setup();
    host.register({ name: 'quick', run: () => 1 });
    bindAppToolHost(session, host);
    await session.callTool({ callId: 'c1', name: 'quick' });
    session.emit({ type: 'tool.stream', phase: 'settled', callId: 'c1', ok: true });
    expect(host.getState().tools.quick?.lastResult?.result).toEqual({ ok: true, output: 1 });
    expect(ofType(session.sent, 'tool.result')).toHaveLength(1);
  });
});

describe('bindAppToolHost: closing', () => {
  it('closes the host on the closed event: every open call aborted and the app-tool state cleared', async () => {
    const { session, host } = setup();
    let signal: AbortSignal | undefined;
    host.register({
      name: 'wait',
      run: (_a, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    host.register({ name: 'quick', run: () => 1 });
    bindAppToolHost(session, host);
    await session.callTool({ callId: 'q', name: 'quick' });
    const open = session.callTool({ callId: 'w', name: 'wait' });
    await settle();
    session.close();
    expect(signal?.aborted).toBe(true);
    await expect(open).resolves.toEqual({ ok: false, code: 'INTERRUPTED', message: 'the session closed' });
    expect(host.closed).toBe(true);
    expect(host.getState().calls).toEqual({});
    expect(host.getState().tools.quick?.lastResult).toBeNull();
  });

  it('closes the host when the session status becomes closed', () => {
    const { session, host } = setup();
    bindAppToolHost(session, host);
    session.setStatus('closed');
    expect(host.closed).toBe(true);
  });

  it('closes the host when bound to a session that is already closed, and says no hello', () => {
    const { session, host } = setup({ status: 'closed' });
    bindAppToolHost(session, host);
    expect(host.closed).toBe(true);
    expect(session.sent).toEqual([]);
  });

  it('lets go of every listener on unbind and sends nothing more', async () => {
    const { session, host } = setup();
    const gate: { resolve?: (v: string) => void } = {};
    host.register({ name: 'slow', run: () => new Promise<string>((r) => (gate.resolve = r)) });
    const unbind = bindAppToolHost(session, host);
    expect(session.listenerCount()).toEqual({ events: 1, toolCalls: 1, status: 1 });
    void session.callTool({ callId: 'c1', name: 'slow' });
    await settle();
    unbind();
    expect(session.listenerCount()).toEqual({ events: 0, toolCalls: 0, status: 0 });
    gate.resolve?.('done');
    host.register({ name: 'after', run: () => null });
    host.interrupt('t9');
    await settle();
    expect(session.sent.map((m) => m.type)).toEqual(['hello']);
  });

  it('reports a send that throws and keeps going', async () => {
    const { session, host } = setup();
    const onError = vi.fn();
    host.register({ name: 'quick', run: () => 1 });
    const failing: ToolSession = {
      ...session,
      subscribe: session.subscribe,
      onToolCall: session.onToolCall,
      onStatusChange: session.onStatusChange,
      status: 'open',
      send: () => {
        throw new Error('socket gone');
      },
    };
    bindAppToolHost(failing, host, { onError });
    expect(onError).toHaveBeenCalledWith(new Error('socket gone'));
    const call: AppToolCallMessage = { type: 'tool.call', callId: 'c', turnId: 't', epoch: 0, name: 'quick', arguments: {} };
    void session.play([step.call(call)]);
    await settle();
    await settle();
    expect(onError).toHaveBeenCalledTimes(2);
  });
});
