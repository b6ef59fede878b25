/**
 * docs/protocol.md, "Rules of the stream": events only the page may produce never come from a session. Through every
 * session path a page uses (the provider, useToolStream, bindAppToolHost), a frame naming the
 * page's own interrupt is refused through onError with `local-only`, and an app tool that runs
 * keeps its state: not aborted, not shown as "Cancelled here", nothing sent to the server.
 */
import { StrictMode, useEffect } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ToolCallCard, ToolgateProvider, createAppToolHost, createToolStreamStore, useAppToolHost, useInterrupt, useToolStream } from 'toolgate';
import { bindAppToolHost } from 'toolgate/client';
import { callOf } from '../../src/core/stream/call-table';
import { createScriptedSession, toolEvents as e, type ScriptedSession } from 'toolgate/testing';
import { FORGED_LOCAL_FRAMES } from '../core/forged-frames';

/** An app tool that runs until released, recording its signal. */
function blockingTool() {
  const run = { signal: undefined as AbortSignal | undefined, release: (() => {}) as () => void };
  const tool = {
    name: 'slow_write',
    run: (_args: unknown, context: { signal: AbortSignal }) => {
      run.signal = context.signal;
      return new Promise<string>((resolve) => (run.release = () => resolve('written')));
    },
  };
  return { tool, run };
}

function Register({ tool }: { tool: Parameters<ReturnType<typeof createAppToolHost>['register']>[0] }) {
  const host = useAppToolHost();
  useEffect(() => host.register(tool), [host, tool]);
  return null;
}

function StopButton() {
  const interrupt = useInterrupt();
  return (
    <button type="button" onClick={() => interrupt('t1')}>
      Stop
    </button>
  );
}

async function startAppCall(session: ScriptedSession) {
  act(() => {
    session.emit(e.start('a1', { name: 'slow_write', turnId: 't1', location: 'app' }));
    session.emit(e.complete('a1', { text: 'hello' }));
  });
  let result: Promise<unknown> | undefined;
  await act(async () => {
    result = session.callTool({ callId: 'a1', turnId: 't1', name: 'slow_write', arguments: { text: 'hello' } });
    await Promise.resolve();
  });
  // Wrapped: an async function returning the promise itself would wait for the call's result.
  return { result: result as Promise<unknown> };
}

describe('the provider and a forged local interrupt', () => {
  it('refuses every forged frame through onError with local-only; the app tool runs on, not cancelled here, nothing sent', async () => {
    const session = createScriptedSession();
    const onError = vi.fn();
    const { tool, run } = blockingTool();
    render(
      <StrictMode>
        <ToolgateProvider session={session} onError={onError} coalesce={false}>
          <Register tool={tool} />
          <ToolCallCard callId="a1" />
          <StopButton />
        </ToolgateProvider>
      </StrictMode>,
    );
    const { result } = await startAppCall(session);
    await vi.waitFor(() => expect(run.signal).toBeDefined());

    act(() => {
      for (const [, frame] of FORGED_LOCAL_FRAMES) session.emit(frame);
    });

    const codes = onError.mock.calls.map(([, , code]) => code);
    expect(codes).toEqual(FORGED_LOCAL_FRAMES.map(() => 'local-only'));
    expect(run.signal?.aborted).toBe(false);
    expect(screen.queryByText('Cancelled here')).toBeNull();
    // Wait for the card (held steady for two frames), then check nothing moved it off 'issued'.
    expect((await screen.findByRole('article')).dataset.status).toBe('issued');
    expect(session.sent.filter((m) => m.type === 'turn.interrupt')).toEqual([]);

    await act(async () => {
      run.release();
      await result;
    });
    expect(session.results.get('a1')).toEqual({ ok: true, output: 'written' });
  });

  it('still lets the page interrupt through its own action: cancelled here, the run aborted, the server told', async () => {
    const session = createScriptedSession();
    const { tool, run } = blockingTool();
    render(
      <ToolgateProvider session={session} coalesce={false}>
        <Register tool={tool} />
        <ToolCallCard callId="a1" />
        <StopButton />
      </ToolgateProvider>,
    );
    const { result } = await startAppCall(session);
    await vi.waitFor(() => expect(run.signal).toBeDefined());
    await act(async () => {
      screen.getByRole('button', { name: 'Stop' }).click();
      await result;
    });
    expect(run.signal?.aborted).toBe(true);
    expect(screen.getByText('Cancelled here')).toBeTruthy();
    expect(session.sent.filter((m) => m.type === 'turn.interrupt')).toEqual([{ type: 'turn.interrupt', turnId: 't1' }]);
  });
});

describe('useToolStream and a forged local interrupt', () => {
  it('refuses it through the hook\'s onError and keeps the call as it was', () => {
    const listeners = new Set<(event: unknown) => void>();
    const source = { subscribe: (l: (event: unknown) => void) => (listeners.add(l), () => void listeners.delete(l)) };
    const onError = vi.fn();
    function Calls() {
      const { order, calls } = useToolStream(source, { onError });
      return <p>{order.map((id) => `${id}:${calls[id]?.status}:${calls[id]?.cancelledBy ?? '-'}`).join(' ')}</p>;
    }
    render(
      <StrictMode>
        <Calls />
      </StrictMode>,
    );
    act(() => {
      for (const event of [e.start('c1', { turnId: 't1' }), e.delta('c1', '{"q":'), ...FORGED_LOCAL_FRAMES.map(([, f]) => f)]) listeners.forEach((l) => l(event));
    });
    expect(screen.getByText('c1:streaming:-')).toBeTruthy();
    expect(onError.mock.calls.map(([, , code]) => code)).toEqual(FORGED_LOCAL_FRAMES.map(() => 'local-only'));
  });
});

describe('bindAppToolHost and a forged local interrupt', () => {
  it('neither aborts the running app call nor sends turn.interrupt; the store beside it refuses the frame', async () => {
    const session = createScriptedSession();
    const host = createAppToolHost();
    const { tool, run } = blockingTool();
    host.register(tool);
    const onError = vi.fn();
    const store = createToolStreamStore({ onError });
    session.subscribe((event) => store.getState().dispatch(event));
    const unbind = bindAppToolHost(session, host);
    session.emit(e.start('a1', { name: 'slow_write', turnId: 't1', location: 'app' }));
    session.emit(e.complete('a1', { text: 'hello' }));
    const result = session.callTool({ callId: 'a1', turnId: 't1', name: 'slow_write', arguments: { text: 'hello' } });
    await vi.waitFor(() => expect(run.signal).toBeDefined());
    for (const [, frame] of FORGED_LOCAL_FRAMES) session.emit(frame);
    expect(run.signal?.aborted).toBe(false);
    expect(host.epoch).toBe(0);
    expect(session.sent.filter((m) => m.type === 'turn.interrupt')).toEqual([]);
    expect(callOf(store.getState(), 'a1')?.status).toBe('issued');
    expect(onError.mock.calls.map(([, , code]) => code)).toEqual(FORGED_LOCAL_FRAMES.map(() => 'local-only'));
    run.release();
    expect(await result).toEqual({ ok: true, output: 'written' });
    unbind();
    host.close();
  });
});
