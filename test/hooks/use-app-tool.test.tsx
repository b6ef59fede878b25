import { Component, StrictMode, useState, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ToolgateProvider,
  createAppToolHost,
  useAppTool,
  useAppToolCall,
  useAppToolHost,
  useAppTools,
  useConfirmationController,
  useInterrupt,
  type AppTool,
  type AppToolHost,
  type AppToolState,
  type AppToolView,
  type ConfirmationController,
  type ToolResult,
  type ToolSession,
} from 'toolgate';
import { createScriptedSession, type ScriptedSession } from 'toolgate/testing';
import { hostile, hostileOutputs, watchUnhandledRejections } from '../fixtures/hostile-values';

/* ------------------------------------------------------------------ helpers */

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Holds what the components saw, for assertions outside React. */
interface Seen {
  view?: AppToolView;
  views: Record<string, AppToolView>;
  renders: Record<string, number>;
  host?: AppToolHost;
  interrupt?: (turnId?: string) => void;
  confirmations?: ConfirmationController;
  tools?: readonly AppToolState[];
}
const seen = (): Seen => ({ views: {}, renders: {} });

function Tool<Args>({ tool, into }: { tool: AppTool<Args>; into: Seen }) {
  const view = useAppTool(tool);
  into.view = view;
  into.views[tool.name] = view;
  into.renders[tool.name] = (into.renders[tool.name] ?? 0) + 1;
  return (
    <p data-testid={tool.name}>
      {view.status} {view.callId ?? '-'} {view.queued}
    </p>
  );
}

function Capture({ into }: { into: Seen }) {
  into.host = useAppToolHost();
  into.interrupt = useInterrupt();
  into.confirmations = useConfirmationController();
  into.tools = useAppTools();
  return null;
}

function App({ session, host, children }: { session: ToolSession; host?: AppToolHost; children?: ReactNode }) {
  return (
    <StrictMode>
      <ToolgateProvider session={session} {...(host ? { host } : {})}>
        {children}
      </ToolgateProvider>
    </StrictMode>
  );
}

const echo: AppTool = { name: 'echo', description: 'Echo the arguments', run: (args) => args };

const sentOf = (session: ScriptedSession, type: string) => session.sent.filter((m) => m.type === type);

/** Let the host's microtasks (deferred unregister, the next call's start) and React settle. */
const flush = () => act(async () => {});

/* -------------------------------------------------------------- registration */

describe('useAppTool registration under StrictMode', () => {
  it('registers once: hello declares the tool once, nothing else is announced, and a call made before mount reaches it', async () => {
    const session = createScriptedSession();
    // Sent before anything handles calls: the session holds it until the provider binds.
    const result = session.callTool({ callId: 'a1', name: 'echo', arguments: { x: 1 } });
    const into = seen();
    render(
      <App session={session}>
        <Tool tool={echo} into={into} />
        <Capture into={into} />
      </App>,
    );
    await expect(act(() => result)).resolves.toEqual({ ok: true, output: { x: 1 } });
    const hellos = sentOf(session, 'hello');
    expect(hellos).toHaveLength(1);
    expect(hellos[0]).toMatchObject({ tools: [{ name: 'echo', description: 'Echo the arguments' }] });
    await flush();
    expect(sentOf(session, 'tools.update')).toEqual([]);
    expect(into.host?.declarations()).toEqual([{ name: 'echo', description: 'Echo the arguments' }]);
  });

  it('keeps the one registration across a remount, so a call right after it is not lost', async () => {
    const session = createScriptedSession();
    const host = createAppToolHost();
    const register = vi.spyOn(host, 'register');
    const into = seen();
    const { rerender } = render(
      <App session={session} host={host}>
        <Tool key="first" tool={echo} into={into} />
      </App>,
    );
    await flush();
    const registrations = register.mock.calls.length;
    let result: Promise<unknown> | undefined;
    await act(async () => {
      // A new key unmounts and mounts in one commit; the call comes before the deferred unregister runs.
      rerender(
        <App session={session} host={host}>
          <Tool key="second" tool={echo} into={into} />
        </App>,
      );
      result = session.callTool({ callId: 'a2', name: 'echo', arguments: { y: 2 } });
    });
    await expect(result).resolves.toEqual({ ok: true, output: { y: 2 } });
    await flush();
    expect(register.mock.calls.length).toBeGreaterThan(registrations);
    expect(host.declarations()).toHaveLength(1);
    expect(sentOf(session, 'tools.update')).toEqual([]);
    expect(sentOf(session, 'hello')).toHaveLength(1);
  });

  it('announces a tool mounted after hello with exactly one tools.update', async () => {
    const session = createScriptedSession();
    const into = seen();
    const { rerender } = render(<App session={session} />);
    expect(sentOf(session, 'hello')).toMatchObject([{ tools: [] }]);
    rerender(
      <App session={session}>
        <Tool tool={echo} into={into} />
      </App>,
    );
    await flush();
    expect(sentOf(session, 'tools.update')).toEqual([
      { type: 'tools.update', tools: [{ name: 'echo', description: 'Echo the arguments' }] },
    ]);
  });

  it('unregisters on unmount: tools.update says so and a later call answers FAILED', async () => {
    const session = createScriptedSession();
    const into = seen();
    const { rerender } = render(
      <App session={session}>
        <Tool tool={echo} into={into} />
      </App>,
    );
    rerender(<App session={session} />);
    await flush();
    expect(sentOf(session, 'tools.update')).toEqual([{ type: 'tools.update', tools: [] }]);
    const result = await act(() => session.callTool({ callId: 'late', name: 'echo', arguments: {} }));
    expect(result).toMatchObject({ ok: false, code: 'FAILED', message: expect.stringContaining('no app tool named "echo"') });
  });

  it('registers with an explicit host, without a provider', async () => {
    const host = createAppToolHost();
    const into: { view?: AppToolView } = {};
    function Standalone() {
      into.view = useAppTool({ name: 'double', run: ({ n }) => Number(n) * 2 }, { host });
      return null;
    }
    render(
      <StrictMode>
        <Standalone />
      </StrictMode>,
    );
    expect(into.view?.registered).toBe(true);
    await expect(act(() => host.call({ callId: 'd1', turnId: 't1', epoch: 0, name: 'double', arguments: { n: 21 } }))).resolves.toEqual({
      ok: true,
      output: 42,
    });
    expect(into.view?.lastResult).toEqual({ callId: 'd1', result: { ok: true, output: 42 } });
  });
});

/* ------------------------------------------------------------ latest closure */

describe('useAppTool runs the latest closures', () => {
  function Suffix({ suffix, into, parameters }: { suffix: string; into: Seen; parameters?: Record<string, unknown> }) {
    useAppTool({
      name: 'label',
      description: 'Label a value',
      parameters: parameters ?? { type: 'object', properties: { value: { type: 'string' } } },
      validate: z.object({ value: z.string() }).transform(({ value }) => ({ value: `${value}${suffix}` })),
      confirm: () => suffix === '!',
      run: ({ value }) => `${value}${suffix}`,
    });
    into.renders['label'] = (into.renders['label'] ?? 0) + 1;
    return null;
  }

  it('uses the run, validate and confirm of the latest render without re-registering', async () => {
    const session = createScriptedSession();
    const host = createAppToolHost();
    const register = vi.spyOn(host, 'register');
    const into = seen();
    const { rerender } = render(
      <App session={session} host={host}>
        <Suffix suffix="-a" into={into} />
      </App>,
    );
    await flush();
    const registrations = register.mock.calls.length;
    await expect(act(() => session.callTool({ callId: 'l1', name: 'label', arguments: { value: 'x' } }))).resolves.toEqual({
      ok: true,
      output: 'x-a-a',
    });

    rerender(
      <App session={session} host={host}>
        <Suffix suffix="-b" into={into} />
      </App>,
    );
    await expect(act(() => session.callTool({ callId: 'l2', name: 'label', arguments: { value: 'x' } }))).resolves.toEqual({
      ok: true,
      output: 'x-b-b',
    });

    // The latest confirm asks now: with no approval given, the controller holds the call.
    rerender(
      <App session={session} host={host}>
        <Suffix suffix="!" into={into} />
        <Capture into={into} />
      </App>,
    );
    const asked = session.callTool({ callId: 'l3', name: 'label', arguments: { value: 'x' } });
    await waitFor(() => expect(into.confirmations?.getState().current?.callId).toBe('l3'));
    act(() => void into.confirmations?.deny('not now'));
    await expect(asked).resolves.toMatchObject({ ok: false, code: 'REJECTED' });

    await flush();
    expect(register.mock.calls.length).toBe(registrations);
    expect(sentOf(session, 'tools.update')).toEqual([]);
  });

  it('re-registers when the parameters change, not when an equal inline schema is rebuilt', async () => {
    const session = createScriptedSession();
    const host = createAppToolHost();
    const register = vi.spyOn(host, 'register');
    const into = seen();
    const schema = () => ({ type: 'object', properties: { value: { type: 'string' } } });
    const { rerender } = render(
      <App session={session} host={host}>
        <Suffix suffix="-a" into={into} parameters={schema()} />
      </App>,
    );
    await flush();
    const registrations = register.mock.calls.length;
    rerender(
      <App session={session} host={host}>
        <Suffix suffix="-a" into={into} parameters={schema()} />
      </App>,
    );
    await flush();
    expect(register.mock.calls.length).toBe(registrations);

    const wider = { type: 'object', properties: { value: { type: 'string', maxLength: 10 } } };
    rerender(
      <App session={session} host={host}>
        <Suffix suffix="-a" into={into} parameters={wider} />
      </App>,
    );
    await flush();
    expect(register.mock.calls.length).toBeGreaterThan(registrations);
    expect(sentOf(session, 'tools.update')).toEqual([
      { type: 'tools.update', tools: [{ name: 'label', description: 'Label a value', parameters: wider }] },
    ]);
    expect(host.declarations()).toHaveLength(1);
  });
});

/* ------------------------------------------------------------------- state */

describe('useAppTool state for UI', () => {
  it('goes idle → queued → running → idle, with the current call and the last result', async () => {
    const session = createScriptedSession();
    const into = seen();
    const gates: Record<string, ReturnType<typeof deferred<void>>> = { o1: deferred(), w1: deferred(), w2: deferred() };
    const blocking = (name: string): AppTool => ({
      name,
      run: async (args, { callId }) => {
        await gates[callId]?.promise;
        return { done: callId, ...args };
      },
    });
    const other = blocking('other');
    const work = blocking('work');
    render(
      <App session={session}>
        <Tool tool={other} into={into} />
        <Tool tool={work} into={into} />
      </App>,
    );
    expect(into.views['work']).toMatchObject({ status: 'idle', queued: 0, current: null, callId: null, lastResult: null, registered: true });

    const o1 = session.callTool({ callId: 'o1', turnId: 't1', name: 'other', arguments: {} });
    const w1 = session.callTool({ callId: 'w1', turnId: 't1', name: 'work', arguments: { n: 1 } });
    const w2 = session.callTool({ callId: 'w2', turnId: 't1', name: 'work', arguments: { n: 2 } });
    await waitFor(() => expect(screen.getByTestId('work')).toHaveTextContent('queued - 2'));
    expect(into.views['other']).toMatchObject({ status: 'running', callId: 'o1', turnId: 't1' });

    await act(async () => gates['o1']?.resolve());
    await expect(o1).resolves.toEqual({ ok: true, output: { done: 'o1' } });
    await waitFor(() => expect(screen.getByTestId('work')).toHaveTextContent('running w1 1'));
    expect(into.views['work']).toMatchObject({ callId: 'w1', arguments: { n: 1 }, progress: undefined, awaitingApproval: false });
    expect(into.views['work']?.current?.status).toBe('running');
    expect(into.views['other']).toMatchObject({ status: 'idle', lastResult: { callId: 'o1', result: { ok: true, output: { done: 'o1' } } } });

    await act(async () => {
      gates['w1']?.resolve();
      gates['w2']?.resolve();
    });
    await Promise.all([w1, w2]);
    await waitFor(() => expect(screen.getByTestId('work')).toHaveTextContent('idle - 0'));
    expect(into.views['work']?.lastResult).toEqual({ callId: 'w2', result: { ok: true, output: { done: 'w2', n: 2 } } });
  });

  it('shows the progress a run reports with ctx.emit', async () => {
    const session = createScriptedSession();
    const into = seen();
    const gate = deferred();
    const importer: AppTool = {
      name: 'import_contacts',
      run: async (_args, { emit }) => {
        emit({ done: 1, total: 3 });
        await gate.promise;
        emit({ done: 3, total: 3 });
        return 3;
      },
    };
    render(
      <App session={session}>
        <Tool tool={importer} into={into} />
      </App>,
    );
    const result = session.callTool({ callId: 'i1', name: 'import_contacts', arguments: {} });
    await waitFor(() => expect(into.view?.progress).toEqual({ done: 1, total: 3 }));
    await act(async () => gate.resolve());
    await expect(result).resolves.toEqual({ ok: true, output: 3 });
    // The call is over: its progress goes with it, the result stays.
    await waitFor(() => expect(into.view).toMatchObject({ status: 'idle', progress: undefined, lastResult: { callId: 'i1' } }));
  });

  it("re-renders a tool's component only when that tool's state changes", async () => {
    const session = createScriptedSession();
    const into = seen();
    render(
      <App session={session}>
        <Tool tool={echo} into={into} />
        <Tool tool={{ name: 'quiet', run: () => null }} into={into} />
      </App>,
    );
    await flush();
    const quiet = into.renders['quiet'];
    const echoes = into.renders['echo'] ?? 0;
    for (let i = 0; i < 5; i++) {
      await act(() => session.callTool({ callId: `e${i}`, name: 'echo', arguments: { i } }));
    }
    expect(into.renders['echo']).toBeGreaterThan(echoes);
    expect(into.renders['quiet']).toBe(quiet);
  });

  it('lists every tool and its state with useAppTools', async () => {
    const session = createScriptedSession();
    const into = seen();
    render(
      <App session={session}>
        <Tool tool={{ name: '2nd', run: () => null }} into={into} />
        <Tool tool={echo} into={into} />
        <Capture into={into} />
      </App>,
    );
    await flush();
    expect(into.tools?.map((t) => [t.name, t.status])).toEqual([
      ['2nd', 'idle'],
      ['echo', 'idle'],
    ]);
    await act(() => session.callTool({ callId: 'e1', name: 'echo', arguments: {} }));
    expect(into.tools?.find((t) => t.name === 'echo')?.lastResult).toEqual({ callId: 'e1', result: { ok: true, output: {} } });
  });
});

/* ---------------------------------------------------------- closed, sessions */

describe('useAppTool and the session', () => {
  it('resets everything when the session closes', async () => {
    const session = createScriptedSession();
    const into = seen();
    let aborted = false;
    const hang: AppTool = {
      name: 'hang',
      run: (_args, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => ((aborted = true), resolve(null)))),
    };
    render(
      <App session={session}>
        <Tool tool={hang} into={into} />
        <Tool tool={echo} into={into} />
      </App>,
    );
    await act(() => session.callTool({ callId: 'e1', name: 'echo', arguments: {} }));
    expect(into.views['echo']?.lastResult).not.toBeNull();
    const open = session.callTool({ callId: 'h1', name: 'hang', arguments: {} });
    await waitFor(() => expect(into.views['hang']?.status).toBe('running'));

    act(() => session.close());
    expect(aborted).toBe(true);
    expect(into.views['echo']).toMatchObject({ status: 'idle', lastResult: null, closed: true });
    expect(into.views['hang']).toMatchObject({ status: 'idle', current: null, callId: null, lastResult: null, closed: true });
    // The page's answer to the open call is INTERRUPTED (sent before the socket would go).
    await expect(open).resolves.toMatchObject({ ok: false, code: 'INTERRUPTED' });
  });

  it('registers on the new host when the provider gets a new session', async () => {
    const first = createScriptedSession();
    const into = seen();
    const { rerender } = render(
      <App session={first}>
        <Tool tool={echo} into={into} />
        <Capture into={into} />
      </App>,
    );
    await act(() => first.callTool({ callId: 'e1', name: 'echo', arguments: {} }));
    const firstHost = into.host;
    act(() => first.close());
    expect(into.view?.closed).toBe(true);

    const second = createScriptedSession();
    rerender(
      <App session={second}>
        <Tool tool={echo} into={into} />
        <Capture into={into} />
      </App>,
    );
    await flush();
    expect(into.host).not.toBe(firstHost);
    expect(into.view).toMatchObject({ registered: true, closed: false, status: 'idle', lastResult: null });
    expect(sentOf(second, 'hello')).toMatchObject([{ tools: [{ name: 'echo' }] }]);
    await expect(act(() => second.callTool({ callId: 'e2', name: 'echo', arguments: { again: true } }))).resolves.toEqual({
      ok: true,
      output: { again: true },
    });
    expect(into.view?.lastResult?.callId).toBe('e2');
  });

  it('answers INTERRUPTED once for a tool that ignores its signal, and starts the next call while the old run winds down', async () => {
    const session = createScriptedSession();
    const into = seen();
    const stubborn = deferred();
    let committed: string[] = [];
    const careless: AppTool = {
      name: 'careless',
      run: async (_args, { callId }) => {
        if (callId === 'c1') await stubborn.promise; // ignores its signal
        committed = [...committed, callId];
        return callId;
      },
    };
    render(
      <App session={session}>
        <Tool tool={careless} into={into} />
        <Capture into={into} />
      </App>,
    );
    const c1 = session.callTool({ callId: 'c1', turnId: 't1', name: 'careless', arguments: {} });
    await waitFor(() => expect(into.view?.callId).toBe('c1'));
    act(() => into.interrupt?.('t1'));
    await expect(c1).resolves.toMatchObject({ ok: false, code: 'INTERRUPTED' });
    expect(session.sent).toContainEqual({ type: 'turn.interrupt', turnId: 't1' });

    // The server's next turn comes with the raised epoch; it runs though c1 has not returned.
    const c2 = session.callTool({ callId: 'c2', turnId: 't2', name: 'careless', arguments: {} });
    await expect(act(() => c2)).resolves.toEqual({ ok: true, output: 'c2' });
    await act(async () => stubborn.resolve());
    await flush();
    // c1's own late answer is dropped: one result per call.
    expect(sentOf(session, 'tool.result').filter((m) => m.type === 'tool.result' && m.callId === 'c1')).toHaveLength(1);
    expect(session.results.get('c1')).toMatchObject({ code: 'INTERRUPTED' });
    expect(into.view).toMatchObject({ status: 'idle', lastResult: { callId: 'c2' } });
  });
});

/* ----------------------------------------------------------------- confirm */

describe('useAppTool with confirm', () => {
  function setup(confirm: AppTool['confirm']) {
    const session = createScriptedSession();
    const into = seen();
    const ran: unknown[] = [];
    const transfer: AppTool = {
      name: 'transfer',
      confirm,
      run: (args) => {
        ran.push(args);
        return 'sent';
      },
    };
    render(
      <App session={session}>
        <Tool tool={transfer} into={into} />
        <Capture into={into} />
      </App>,
    );
    const ask = (callId: string, args: Record<string, unknown> = { amount: 500 }, turnId = 't1') =>
      session.callTool({ callId, turnId, name: 'transfer', arguments: args });
    const reviewing = (callId: string) =>
      waitFor(() => {
        expect(into.confirmations?.getState().current).toMatchObject({ callId, status: 'reviewing', toolName: 'transfer' });
        expect(into.view).toMatchObject({ awaitingApproval: true, callId });
      });
    return { session, into, ran, ask, reviewing };
  }

  it('runs once the user approves', async () => {
    const { into, ran, ask, reviewing } = setup(true);
    const result = ask('p1');
    await reviewing('p1');
    expect(ran).toEqual([]);
    act(() => void into.confirmations?.approve());
    await expect(result).resolves.toEqual({ ok: true, output: 'sent' });
    expect(ran).toEqual([{ amount: 500 }]);
    expect(into.confirmations?.getState().current).toBeNull();
  });

  it('answers REJECTED and never runs when the user denies', async () => {
    const { into, ran, ask, reviewing } = setup(true);
    const result = ask('p1');
    await reviewing('p1');
    act(() => void into.confirmations?.deny('too much'));
    await expect(result).resolves.toEqual({ ok: false, code: 'REJECTED', message: 'declined by the user: too much' });
    expect(ran).toEqual([]);
    await waitFor(() => expect(into.view).toMatchObject({ status: 'idle', lastResult: { callId: 'p1', result: { code: 'REJECTED' } } }));
  });

  it('withdraws the request and answers INTERRUPTED when the turn is interrupted while it waits', async () => {
    const { into, ran, ask, reviewing } = setup(true);
    const result = ask('p1');
    await reviewing('p1');
    act(() => into.interrupt?.('t1'));
    await expect(result).resolves.toMatchObject({ ok: false, code: 'INTERRUPTED' });
    await waitFor(() => expect(into.confirmations?.getState()).toMatchObject({ current: null, waiting: 0 }));
    // An approval that comes too late approves nothing.
    act(() => void into.confirmations?.approve());
    await flush();
    expect(ran).toEqual([]);
  });

  it('asks only when confirm says so for these arguments', async () => {
    const { into, ran, ask, reviewing } = setup((args) => Number(args['amount']) > 100);
    await expect(act(() => ask('small', { amount: 5 }))).resolves.toEqual({ ok: true, output: 'sent' });
    expect(into.confirmations?.getState().current).toBeNull();
    const big = ask('big', { amount: 5000 });
    await reviewing('big');
    act(() => void into.confirmations?.approve());
    await expect(big).resolves.toEqual({ ok: true, output: 'sent' });
    expect(ran).toEqual([{ amount: 5 }, { amount: 5000 }]);
  });
});

/* -------------------------------------------------------- a component's life */

describe('a tool owned by a component', () => {
  it('reads component state in its run: the latest value, as rendered', async () => {
    const session = createScriptedSession();
    const into: { set?: (n: number) => void } = {};
    function Counter() {
      const [count, setCount] = useState(0);
      into.set = setCount;
      useAppTool({ name: 'read_count', run: () => count });
      return <p>{count}</p>;
    }
    render(
      <App session={session}>
        <Counter />
      </App>,
    );
    await expect(act(() => session.callTool({ callId: 'r1', name: 'read_count', arguments: {} }))).resolves.toEqual({ ok: true, output: 0 });
    act(() => into.set?.(7));
    await expect(act(() => session.callTool({ callId: 'r2', name: 'read_count', arguments: {} }))).resolves.toEqual({ ok: true, output: 7 });
  });
});

/* ---------------------------------------------------- names, errors, server */

describe('useAppTool names', () => {
  it('moves the registration when the name changes, and announces only the new name', async () => {
    const session = createScriptedSession();
    const into = seen();
    const { rerender } = render(
      <App session={session}>
        <Tool tool={{ name: 'old_name', run: () => 'old' }} into={into} />
      </App>,
    );
    rerender(
      <App session={session}>
        <Tool tool={{ name: 'new_name', run: () => 'new' }} into={into} />
      </App>,
    );
    await flush();
    expect(sentOf(session, 'tools.update').at(-1)).toEqual({ type: 'tools.update', tools: [{ name: 'new_name' }] });
    expect(into.view).toMatchObject({ name: 'new_name', registered: true });
    await expect(act(() => session.callTool({ callId: 'n1', name: 'new_name', arguments: {} }))).resolves.toEqual({ ok: true, output: 'new' });
    await expect(act(() => session.callTool({ callId: 'n2', name: 'old_name', arguments: {} }))).resolves.toMatchObject({ code: 'FAILED' });
  });

  it('fails clearly when two mounted components register the same name', () => {
    class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
      override state = { error: null as Error | null };
      static getDerivedStateFromError(error: Error) {
        return { error };
      }
      override render() {
        return this.state.error ? <p role="alert">{this.state.error.message}</p> : this.props.children;
      }
    }
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const into = seen();
    render(
      <App session={createScriptedSession()}>
        <Boundary>
          <Tool tool={echo} into={into} />
          <Tool tool={{ name: 'echo', run: () => null }} into={into} />
        </Boundary>
      </App>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('An app tool named "echo" is already registered');
    quiet.mockRestore();
  });
});

describe('useAppTool on the server', () => {
  it('renders the idle state without registering anything', () => {
    const host = createAppToolHost();
    function Status() {
      const view = useAppTool({ name: 'echo', run: (args) => args }, { host });
      return <p>{`${view.name}:${view.status}:${String(view.registered)}`}</p>;
    }
    expect(renderToString(<Status />)).toContain('echo:idle:false');
    expect(host.declarations()).toEqual([]);
  });
});

/* ------------------------------------------------ what the hook relies on */

describe('the host state the hook reads', () => {
  it('never shows a settled call as running to a listener that reads the state while notified', async () => {
    const host = createAppToolHost();
    host.register({ name: 'a', run: () => 'a' });
    host.register({ name: 'b', run: () => 'b' });
    const statuses: string[] = [];
    host.subscribe(() => {
      const { a, b } = host.getState().tools;
      statuses.push(`${a?.status}/${a?.queued} ${b?.status}/${b?.queued}`);
    });
    await Promise.all([
      host.call({ callId: 'a1', turnId: 't1', epoch: 0, name: 'a', arguments: {} }),
      host.call({ callId: 'b1', turnId: 't1', epoch: 0, name: 'b', arguments: {} }),
    ]);
    expect(host.getState().tools['a']).toMatchObject({ status: 'idle', queued: 0 });
    expect(host.getState().tools['b']).toMatchObject({ status: 'idle', queued: 0 });
    expect(statuses.every((s) => !s.includes('-1'))).toBe(true);
    expect(statuses.at(-1)).toBe('idle/0 idle/0');
  });
});

/* ------------------------------------------------- one answer for every call */

describe('useAppTool answers every call at once, whatever its run throws or returns', () => {
  const unhandled = watchUnhandledRejections();

  /** The result if the call has one after a few rounds of React and the host, else 'no answer'. */
  async function answerAtOnce(pending: Promise<ToolResult>): Promise<ToolResult | 'no answer'> {
    let result: ToolResult | 'no answer' = 'no answer';
    void pending.then((r) => {
      result = r;
    });
    for (let i = 0; i < 3; i++) await flush();
    return result;
  }

  async function runHostile(run: AppTool['run']) {
    const session = createScriptedSession();
    // No time limit: a call that missed its answer would wait forever.
    const host = createAppToolHost({ timeoutMs: Infinity });
    const into = seen();
    render(
      <App session={session} host={host}>
        <Tool tool={{ name: 'hostile', run }} into={into} />
        <Tool tool={echo} into={into} />
      </App>,
    );
    await flush();
    const first = session.callTool({ callId: 'x1', turnId: 't1', name: 'hostile', arguments: {} });
    const next = session.callTool({ callId: 'x2', turnId: 't1', name: 'echo', arguments: { a: 1 } });
    const result = await answerAtOnce(first);
    expect(await answerAtOnce(next)).toEqual({ ok: true, output: { a: 1 } });
    await waitFor(() => expect(into.views['hostile']).toMatchObject({ status: 'idle', lastResult: { callId: 'x1', result: { code: 'FAILED' } } }));
    expect(sentOf(session, 'tool.result').filter((m) => m.type === 'tool.result' && m.callId === 'x1')).toHaveLength(1);
    expect(unhandled).toEqual([]);
    return result;
  }

  for (const [what, make] of Object.entries(hostile)) {
    it(`answers FAILED at once when the run throws ${what}, leaves nothing unhandled, and the next call runs`, async () => {
      const result = await runHostile(() => {
        throw make();
      });
      expect(result).toMatchObject({ ok: false, code: 'FAILED', message: expect.stringMatching(/^"hostile" threw: /) });
    });
  }

  for (const [what, make] of Object.entries(hostileOutputs)) {
    it(`answers FAILED at once when the run resolves to ${what}, leaves nothing unhandled, and the next call runs`, async () => {
      const result = await runHostile(async () => make());
      expect(result).toMatchObject({ ok: false, code: 'FAILED' });
    });
  }
});

/* -------------------------------------------------------------- one call */

describe('useAppToolCall', () => {
  it("shows an older call's result after its tool ran again, read from the host itself", async () => {
    const session = createScriptedSession();
    const into = seen();
    const results: Record<string, unknown> = {};
    function Result({ callId }: { callId: string }) {
      const { result } = useAppToolCall(callId);
      results[callId] = result;
      return <p data-testid={`result-${callId}`}>{result?.ok ? JSON.stringify(result.output) : 'none'}</p>;
    }
    render(
      <App session={session}>
        <Tool tool={echo} into={into} />
        <Capture into={into} />
        <Result callId="c1" />
        <Result callId="c2" />
      </App>,
    );
    await expect(act(() => session.callTool({ callId: 'c1', turnId: 't1', name: 'echo', arguments: { n: 1 } }))).resolves.toMatchObject({ ok: true });
    await expect(act(() => session.callTool({ callId: 'c2', turnId: 't1', name: 'echo', arguments: { n: 2 } }))).resolves.toMatchObject({ ok: true });
    await flush();
    expect(screen.getByTestId('result-c1')).toHaveTextContent('{"n":1}');
    expect(screen.getByTestId('result-c2')).toHaveTextContent('{"n":2}');
    expect(results['c1']).toBe(into.host?.resultOf('c1'));
  });
});

describe('the host the provider makes', () => {
  it("reports a listener of the host that throws through the provider's onError, in the one shape, and keeps running calls", async () => {
    const session = createScriptedSession();
    const into = seen();
    const errors: Array<[string, unknown, string]> = [];
    render(
      <StrictMode>
        <ToolgateProvider session={session} onError={(reason, detail, code) => errors.push([reason, detail, code])}>
          <Tool tool={echo} into={into} />
          <Capture into={into} />
        </ToolgateProvider>
      </StrictMode>,
    );
    await flush();
    into.host?.subscribe(() => {
      throw new Error('broken listener');
    });
    await expect(act(() => session.callTool({ callId: 'c1', turnId: 't1', name: 'echo', arguments: { a: 1 } }))).resolves.toEqual({ ok: true, output: { a: 1 } });
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toEqual(['a listener threw: Error: broken listener', new Error('broken listener'), 'listener-threw']);
  });
});
