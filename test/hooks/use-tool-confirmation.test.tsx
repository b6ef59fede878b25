import { StrictMode, useState } from 'react';
import { renderToString } from 'react-dom/server';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  ToolgateProvider,
  createConfirmationController,
  createToolStreamStore,
  useInterrupt,
  useToolConfirmation,
  useToolConfirmationRequest,
  type ConfirmationController,
  type ConfirmationOutcome,
  type UseToolConfirmationResult,
} from 'toolgate';
import { createScriptedRoom, createScriptedSession, toolEvents as e } from 'toolgate/testing';


/** Resolves once the controller shows a request with `status`. */
const shown = (controller: ConfirmationController, status = 'reviewing') =>
  waitFor(() => expect(controller.getState().current?.status).toBe(status));

describe('useToolConfirmation', () => {
  it('reads the controller: nothing shown, then the shown request, how many wait, and the last outcome', async () => {
    const controller = createConfirmationController({ room: createScriptedRoom() });
    const { result } = renderHook(() => useToolConfirmation(controller), { reactStrictMode: true });
    expect(result.current).toMatchObject({ status: 'idle', current: null, waiting: 0, queue: [], last: null });
    let first!: Promise<ConfirmationOutcome>;
    act(() => {
      first = result.current.request({ toolName: 'one', arguments: { n: 1 } });
      void result.current.request({ toolName: 'two', arguments: { n: 2 } });
    });
    await waitFor(() => expect(result.current.status).toBe('reviewing'));
    expect(result.current.current?.toolName).toBe('one');
    expect(result.current.current?.fingerprint?.short).toMatch(/^[0-9a-f]{4} /);
    expect(result.current.waiting).toBe(1);
    expect(result.current.queue.map((view) => view.toolName)).toEqual(['two']);
    act(() => {
      expect(result.current.approve()).toBe(true);
    });
    await expect(first).resolves.toMatchObject({ status: 'done' });
    await waitFor(() => expect(result.current.current?.toolName).toBe('two'));
    expect(result.current.last).toMatchObject({ toolName: 'one', outcome: { status: 'done' } });
  });

  it("reads the provider's controller by default", async () => {
    const room = createScriptedRoom();
    const { result } = renderHook(() => useToolConfirmation(), {
      wrapper: ({ children }) => (
        <StrictMode>
          <ToolgateProvider room={room}>{children}</ToolgateProvider>
        </StrictMode>
      ),
    });
    act(() => void result.current.request({ toolName: 'deploy', arguments: { v: 2 } }));
    await waitFor(() => expect(result.current.status).toBe('reviewing'));
    act(() => void result.current.approve());
    await waitFor(() => expect(room.effects).toHaveLength(1));
  });

  it('binds its actions to the request shown when it rendered: a late "yes" never approves the next one', async () => {
    const room = createScriptedRoom();
    const controller = createConfirmationController({ room });
    const { result } = renderHook(() => useToolConfirmation(controller), { reactStrictMode: true });
    act(() => {
      void controller.request({ toolName: 'first', arguments: {} });
      void controller.request({ toolName: 'second', arguments: {} });
    });
    await waitFor(() => expect(result.current.status).toBe('reviewing'));
    const heardForFirst = result.current.approve;
    act(() => void controller.deny('changed my mind'));
    await waitFor(() => expect(result.current.current?.toolName).toBe('second'));
    await shown(controller);
    // The "yes" meant for the first request arrives now.
    expect(heardForFirst()).toBe(false);
    expect(controller.getState().current?.status).toBe('reviewing');
    expect(room.calls).toEqual([]);
    // The fresh binding approves the second one.
    act(() => void result.current.approve());
    await waitFor(() => expect(room.effects.map((effect) => effect.toolName)).toEqual(['second']));
  });

  it('targets nothing while nothing is shown', () => {
    const controller = createConfirmationController({ room: createScriptedRoom() });
    const { result } = renderHook(() => useToolConfirmation(controller));
    const { approve, deny, check, retry, dismiss } = result.current;
    act(() => void controller.request({ toolName: 'later', arguments: {} }));
    expect([approve(), deny(), check(), retry(), dismiss()]).toEqual([false, false, false, false, false]);
    expect(controller.getState().current?.toolName).toBe('later');
  });

  it('takes a spoken approve() or deny(reason) from outside any dialog', async () => {
    const room = createScriptedRoom();
    const controller = createConfirmationController({ room });
    const { result } = renderHook(() => useToolConfirmation(controller), { reactStrictMode: true });
    let outcome!: Promise<ConfirmationOutcome>;
    act(() => {
      outcome = controller.request({ toolName: 'send_email', arguments: { to: 'ada' } });
    });
    await waitFor(() => expect(result.current.status).toBe('reviewing'));
    act(() => void result.current.deny('not now'));
    await expect(outcome).resolves.toEqual({ status: 'denied', reason: 'not now' });
    expect(room.calls).toEqual([]);
  });

  it('ignores a click event passed as the reason (onClick={deny})', async () => {
    const controller = createConfirmationController({ room: createScriptedRoom() });
    function Deny() {
      const { deny, current } = useToolConfirmation(controller);
      return current ? (
        <button type="button" onClick={deny as unknown as () => void}>
          Deny
        </button>
      ) : null;
    }
    render(
      <StrictMode>
        <Deny />
      </StrictMode>,
    );
    let outcome!: Promise<ConfirmationOutcome>;
    act(() => {
      outcome = controller.request({ toolName: 'x', arguments: {} });
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Deny' }));
    await expect(outcome).resolves.toEqual({ status: 'denied' });
  });

  it('is enough to build a dialog of your own', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom({ faults: [{ kind: 'lose-response' }] });
    const checkOutcome = vi.fn(() => ({ status: 'done' as const, output: 'found in the ledger' }));
    const controller = createConfirmationController({ room, checkOutcome });
    function MyConfirm() {
      const { current, waiting, approve, deny, check, dismiss } = useToolConfirmation(controller);
      if (!current) return <p>Nothing to confirm</p>;
      return (
        <section aria-label={current.title} data-status={current.status}>
          <pre>{JSON.stringify(current.arguments)}</pre>
          <code>{current.fingerprint?.short}</code>
          {current.outcome && <p role="alert">{'reason' in current.outcome ? current.outcome.reason : current.outcome.status}</p>}
          <button type="button" disabled={!current.can.deny} onClick={() => deny()}>
            No
          </button>
          <button type="button" disabled={!current.can.approve} onClick={approve}>
            Yes
          </button>
          <button type="button" disabled={!current.can.check} onClick={check}>
            Check
          </button>
          <button type="button" disabled={!current.can.dismiss} onClick={dismiss}>
            Close
          </button>
          {waiting > 0 && <p>{waiting} more</p>}
        </section>
      );
    }
    render(
      <StrictMode>
        <MyConfirm />
      </StrictMode>,
    );
    let outcome!: Promise<ConfirmationOutcome>;
    act(() => {
      outcome = controller.request({ toolName: 'pay', arguments: { amount: 3 } });
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Yes' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('may or may not have taken effect'));
    expect(screen.getByRole('region', { name: 'pay' })).toHaveAttribute('data-status', 'uncertain');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await expect(outcome).resolves.toMatchObject({ status: 'done', output: 'found in the ledger' });
    await waitFor(() => expect(screen.getByText('Nothing to confirm')).toBeInTheDocument());
    expect(room.effects).toHaveLength(1);
  });

  it('renders the initial state on the server', () => {
    const controller = createConfirmationController({ room: createScriptedRoom() });
    void controller.request({ toolName: 'x', arguments: {} }).catch(() => {});
    function Status() {
      return <p>{useToolConfirmation(controller).status}</p>;
    }
    expect(renderToString(<Status />)).toBe('<p>idle</p>');
    controller.withdrawAll();
  });
});

describe('useToolConfirmationRequest', () => {
  it('requests once per opening: StrictMode\'s second effect run withdraws the first, and closing withdraws it', async () => {
    const controller = createConfirmationController({ room: createScriptedRoom() });
    const requests = vi.spyOn(controller, 'request');
    const onResult = vi.fn();
    const { result, rerender } = renderHook(
      ({ open, args }: { open: boolean; args: unknown }) => useToolConfirmationRequest({ open, toolName: 'transfer', arguments: args, controller, onResult }),
      { reactStrictMode: true, initialProps: { open: true, args: { a: 1 } } },
    );
    await waitFor(() => expect(result.current.status).toBe('reviewing'));
    // StrictMode ran the effect twice: the first request was withdrawn, one is left.
    expect(requests).toHaveBeenCalledTimes(2);
    expect(controller.getState().waiting).toBe(0);
    // A new arguments object on a re-render changes nothing.
    rerender({ open: true, args: { a: 2 } });
    expect(requests).toHaveBeenCalledTimes(2);
    expect(result.current.view?.arguments).toEqual({ a: 1 });
    rerender({ open: false, args: { a: 2 } });
    await waitFor(() => expect(controller.getState().current).toBeNull());
    expect(onResult).not.toHaveBeenCalled();
    // Opening again is a new request, with the arguments of that moment.
    rerender({ open: true, args: { a: 3 } });
    await waitFor(() => expect(result.current.status).toBe('reviewing'));
    expect(requests).toHaveBeenCalledTimes(3);
    expect(result.current.view?.arguments).toEqual({ a: 3 });
  });

  it('keeps the request readable after it ended, with its outcome', async () => {
    const room = createScriptedRoom();
    const { result } = renderHook(() => useToolConfirmationRequest({ open: true, toolName: 'transfer', arguments: { a: 1 }, room }), { reactStrictMode: true });
    await waitFor(() => expect(result.current.status).toBe('reviewing'));
    act(() => void result.current.approve());
    await waitFor(() => expect(result.current.status).toBe('done'));
    expect(result.current.outcome).toMatchObject({ status: 'done' });
    expect(result.current.view?.arguments).toEqual({ a: 1 });
    expect(result.current.controller.getState().current).toBeNull();
  });

  it('says how many requests are ahead of it in a shared controller', async () => {
    const controller = createConfirmationController({ room: createScriptedRoom() });
    act(() => void controller.request({ toolName: 'earlier', arguments: {} }));
    const { result } = renderHook(() => useToolConfirmationRequest({ open: true, toolName: 'mine', arguments: {}, controller }), { reactStrictMode: true });
    await waitFor(() => expect(result.current.view?.toolName).toBe('mine'));
    expect(result.current.ahead).toBe(1);
    expect(result.current.status).toBe('idle');
    act(() => void controller.deny());
    await waitFor(() => expect(result.current.status).toBe('reviewing'));
    expect(result.current.ahead).toBe(0);
  });
});

describe("the server's approval gate, when the call ends first", () => {
  function Harness({ session, into }: { session: ReturnType<typeof createScriptedSession>; into: { current?: UseToolConfirmationResult; interrupt?: (turnId?: string) => void } }) {
    function Probe() {
      into.current = useToolConfirmation();
      into.interrupt = useInterrupt();
      return null;
    }
    const [store] = useState(() => createToolStreamStore());
    return (
      <ToolgateProvider session={session} store={store}>
        <Probe />
      </ToolgateProvider>
    );
  }
  const request = { type: 'tool.approval-request', requestId: 'r1', callId: 'c1', name: 'deploy', arguments: { v: 2 }, risk: 'high' } as const;

  it('withdraws a pending approval, unanswered, when its turn is interrupted here', async () => {
    const session = createScriptedSession();
    const into: { current?: UseToolConfirmationResult; interrupt?: (turnId?: string) => void } = {};
    render(
      <StrictMode>
        <Harness session={session} into={into} />
      </StrictMode>,
    );
    act(() => {
      session.emit(e.start('c1', { name: 'deploy', turnId: 't1', location: 'server', risk: 'high' }));
      session.emit(e.complete('c1', { v: 2 }));
      session.emit(request);
    });
    await waitFor(() => expect(into.current?.status).toBe('reviewing'));
    act(() => into.interrupt?.('t1'));
    await waitFor(() => expect(into.current?.current).toBeNull());
    expect(session.sent.filter((m) => m.type === 'tool.approval')).toEqual([]);
  });

  it('withdraws it when the server ends the call', async () => {
    const session = createScriptedSession();
    const into: { current?: UseToolConfirmationResult } = {};
    render(<Harness session={session} into={into} />);
    act(() => {
      session.emit(e.start('c1', { name: 'deploy', turnId: 't1', location: 'server', risk: 'high' }));
      session.emit(e.complete('c1', { v: 2 }));
      session.emit(request);
    });
    await waitFor(() => expect(into.current?.status).toBe('reviewing'));
    act(() => session.emit(e.cancelled('c1')));
    await waitFor(() => expect(into.current?.current).toBeNull());
    expect(session.sent.filter((m) => m.type === 'tool.approval')).toEqual([]);
  });

  it('never shows a request whose call had already ended', async () => {
    const session = createScriptedSession();
    const into: { current?: UseToolConfirmationResult } = {};
    render(<Harness session={session} into={into} />);
    act(() => {
      session.emit(e.start('c1', { name: 'deploy', turnId: 't1', location: 'server', risk: 'high' }));
      session.emit(e.complete('c1', { v: 2 }));
      session.emit(e.settled('c1', false, 'INTERRUPTED'));
      session.emit(request);
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(into.current?.current).toBeNull();
    expect(into.current?.last).toBeNull();
  });

  it('keeps a request whose call is still open, or unknown to the store', async () => {
    const session = createScriptedSession();
    const into: { current?: UseToolConfirmationResult } = {};
    render(<Harness session={session} into={into} />);
    act(() => {
      session.emit(e.start('c1', { name: 'deploy', turnId: 't1', location: 'server', risk: 'high' }));
      session.emit(e.complete('c1', { v: 2 }));
      session.emit(e.start('c9', { name: 'other', turnId: 't1', location: 'server' }));
      session.emit({ ...request, callId: 'unknown-call' });
    });
    await waitFor(() => expect(into.current?.status).toBe('reviewing'));
    act(() => session.emit(e.cancelled('c9')));
    await waitFor(() => expect(into.current?.status).toBe('reviewing'));
    act(() => void into.current?.approve());
    const answer = await session.waitForMessage('tool.approval');
    expect(answer).toMatchObject({ requestId: 'r1', approved: true });
  });
});
