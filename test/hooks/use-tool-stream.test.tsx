import { StrictMode, useState, type ReactNode } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  ToolgateProvider,
  createToolStreamStore,
  useToolCall,
  useToolCalls,
  useToolStream,
  type ToolEventSource,
  type ToolSession,
} from 'toolgate';
import { toolEvents as e } from 'toolgate/testing';

/** An event source that counts live subscriptions and can emit to them. */
function createSource() {
  const listeners = new Set<(event: unknown) => void>();
  const subscribe = vi.fn((listener: (event: unknown) => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  });
  return {
    subscribe,
    emit: (...events: unknown[]) => act(() => events.forEach((event) => listeners.forEach((l) => l(event)))),
    get live() {
      return listeners.size;
    },
  };
}

const strict = (ui: ReactNode) => render(<StrictMode>{ui}</StrictMode>);

function CallNames({ source, sessionKey }: { source: ToolEventSource; sessionKey?: string }) {
  const { order, calls, closed } = useToolStream({ subscribe: source.subscribe }, { key: sessionKey });
  return (
    <ul data-closed={closed}>
      {order.map((id) => (
        <li key={id}>
          {calls[id]?.name}:{calls[id]?.status}
        </li>
      ))}
    </ul>
  );
}

describe('useToolStream', () => {
  it('reduces the source events into state, once each, under StrictMode', () => {
    const source = createSource();
    strict(<CallNames source={source} />);
    expect(source.live).toBe(1);
    source.emit(e.start('c1', { name: 'search' }), e.delta('c1', '{'));
    expect(screen.getByRole('listitem').textContent).toBe('search:streaming');
  });

  it('does not resubscribe when a new source object arrives on each render', () => {
    const source = createSource();
    const { rerender } = strict(<CallNames source={source} />);
    const calls = source.subscribe.mock.calls.length;
    rerender(
      <StrictMode>
        <CallNames source={source} />
      </StrictMode>,
    );
    expect(source.subscribe.mock.calls.length).toBe(calls);
    expect(source.live).toBe(1);
  });

  it('starts a new store and subscription when the key names a new session', () => {
    const source = createSource();
    const { rerender, container } = strict(<CallNames source={source} sessionKey="s1" />);
    source.emit(e.start('c1'), e.closed());
    expect(container.querySelector('ul')?.dataset.closed).toBe('true');
    rerender(
      <StrictMode>
        <CallNames source={source} sessionKey="s2" />
      </StrictMode>,
    );
    expect(source.live).toBe(1);
    expect(container.querySelector('ul')?.dataset.closed).toBe('false');
    source.emit(e.start('c2', { name: 'fresh' }));
    expect(screen.getByRole('listitem').textContent).toBe('fresh:pending');
  });

  it('unsubscribes on unmount, leaving no listener behind', () => {
    const source = createSource();
    const { unmount } = strict(<CallNames source={source} />);
    unmount();
    expect(source.live).toBe(0);
  });

  it('reports rejected events through the latest onError without recreating the store', () => {
    const source = createSource();
    const seen: string[] = [];
    function View({ tag }: { tag: string }) {
      useToolStream(source, { onError: (reason) => seen.push(`${tag}: ${reason}`) });
      return null;
    }
    const { rerender } = strict(<View tag="first" />);
    rerender(
      <StrictMode>
        <View tag="second" />
      </StrictMode>,
    );
    source.emit(e.delta('ghost', 'x'));
    expect(seen).toEqual(["second: tool.stream arguments-delta for call 'ghost': no call 'ghost' has started"]);
  });
});

describe('selector hooks', () => {
  it('re-render a call view only when that call changes', () => {
    const store = createToolStreamStore();
    const renders: Record<string, number> = {};
    function Row({ id }: { id: string }) {
      const call = useToolCall(id);
      renders[id] = (renders[id] ?? 0) + 1;
      return <li>{call?.argumentsText}</li>;
    }
    render(
      <ToolgateProvider store={store}>
        <Row id="a" />
        <Row id="b" />
      </ToolgateProvider>,
    );
    act(() => {
      store.getState().dispatch(e.start('a'));
      store.getState().dispatch(e.start('b'));
    });
    const before = { ...renders };
    act(() => {
      for (const ch of '{"q": 1}') store.getState().dispatch(e.delta('a', ch));
    });
    expect(renders.b).toBe(before.b);
    expect((renders.a ?? 0) - (before.a ?? 0)).toBeGreaterThan(0);
  });

  it('let a selector build an array without looping, re-rendering only when its content changes', () => {
    const store = createToolStreamStore();
    let renders = 0;
    function Open() {
      const open = useToolCalls((s) => s.order.filter((id) => s.calls[id]?.status !== 'settled'));
      renders++;
      return <p>{open.join(',')}</p>;
    }
    render(
      <StrictMode>
        <ToolgateProvider store={store}>
          <Open />
        </ToolgateProvider>
      </StrictMode>,
    );
    act(() => store.getState().dispatch(e.start('a')));
    const after = renders;
    act(() => store.getState().dispatch(e.delta('a', '{')));
    expect(renders).toBe(after);
    expect(screen.getByText('a')).toBeInTheDocument();
  });

  it('say clearly when there is no provider and no store', () => {
    function Lost() {
      useToolCall('x');
      return null;
    }
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Lost />)).toThrow(/Render this inside <ToolgateProvider>/);
  });
});

describe('ToolgateProvider', () => {
  function fakeSession() {
    const source = createSource();
    const session: ToolSession = {
      subscribe: source.subscribe,
      onToolCall: () => () => {},
      send: () => {},
      status: 'open',
    };
    return { session, source };
  }

  it('fills its store from the session, and gives a new session a new store', () => {
    const first = fakeSession();
    const second = fakeSession();
    function Names() {
      const names = useToolCalls((s) => s.order.map((id) => s.calls[id]?.name));
      return <p>names:{names.join(',')}</p>;
    }
    function App() {
      const [session, setSession] = useState(first.session);
      return (
        <ToolgateProvider session={session} coalesce={false}>
          <button onClick={() => setSession(second.session)}>switch</button>
          <Names />
        </ToolgateProvider>
      );
    }
    strict(<App />);
    // The store, the app-tool binding and the approval gate each listen once.
    const listeners = first.source.live;
    expect(listeners).toBe(3);
    first.source.emit(e.start('c1', { name: 'old' }), e.closed());
    act(() => screen.getByRole('button').click());
    expect(first.source.live).toBe(0);
    expect(second.source.live).toBe(listeners);
    expect(screen.getByText('names:')).toBeInTheDocument();
    second.source.emit(e.start('c2', { name: 'new' }));
    expect(screen.getByText('names:new')).toBeInTheDocument();
  });
});
