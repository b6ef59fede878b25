import { StrictMode } from 'react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToolgateProvider, createToolStreamStore, useInterrupt, useToolCalls, type ToolgateProviderProps } from 'toolgate';
import { createScriptedSession, toolEvents as e } from 'toolgate/testing';

// jsdom has no requestAnimationFrame: a coalescing store falls back to a 16 ms timer, which fake timers drive.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup(props: Omit<ToolgateProviderProps, 'session' | 'children'> = {}) {
  const session = createScriptedSession();
  const renders = { count: 0 };
  let interrupt: (turnId?: string) => void = () => {};
  function Statuses() {
    renders.count++;
    interrupt = useInterrupt();
    const statuses = useToolCalls((s) => s.order.map((id) => `${id}:${s.calls[id]?.status}:${s.calls[id]?.argumentsText.length}`));
    return <p data-testid="statuses">{statuses.join(' ')}</p>;
  }
  render(
    <StrictMode>
      <ToolgateProvider session={session} {...props}>
        <Statuses />
      </ToolgateProvider>
    </StrictMode>,
  );
  const shown = () => screen.getByTestId('statuses').textContent;
  return { session, renders, shown, interrupt: (turnId?: string) => interrupt(turnId) };
}

/** Each event in a task of its own, as separate socket messages arrive. */
function emitApart(session: ReturnType<typeof createScriptedSession>, events: unknown[]) {
  for (const event of events) act(() => session.emit(event));
}

const burst = [e.start('c1', { name: 'write' }), ...'{"text":"hello"}'.split('').map((ch) => e.delta('c1', ch))];

describe('the provider coalesces store notifications to one per frame by default', () => {
  it('renders a burst of session events once, a frame later, and shows all of them', () => {
    const { session, renders, shown } = setup();
    const before = renders.count;
    emitApart(session, burst);
    expect(shown()).toBe('');
    expect(renders.count).toBe(before);
    act(() => vi.advanceTimersByTime(16));
    expect(shown()).toBe('c1:streaming:16');
    // StrictMode renders twice: one update, two calls of the component.
    expect(renders.count - before).toBe(2);
  });

  it('shows each event at once with coalesce={false}', () => {
    const { session, renders, shown } = setup({ coalesce: false });
    const before = renders.count;
    emitApart(session, burst.slice(0, 3));
    expect(shown()).toBe('c1:streaming:2');
    expect(renders.count - before).toBe(2 * 3);
  });

  it('lets storeOptions.coalesce win over the default', () => {
    const { session, shown } = setup({ storeOptions: { coalesce: false } });
    emitApart(session, burst.slice(0, 2));
    expect(shown()).toBe('c1:streaming:1');
  });

  it('shows a person’s interrupt at once, with the events still waiting for the frame', () => {
    const { session, shown, interrupt } = setup();
    emitApart(session, burst);
    expect(shown()).toBe('');
    act(() => interrupt());
    expect(shown()).toBe('c1:cancelled:16');
  });
});

describe('a coalescing store and the page’s own actions', () => {
  it('notifies at once for interrupt and markApproval, delivering what was pending with them', () => {
    const frames: (() => void)[] = [];
    const store = createToolStreamStore({ coalesce: 'frame', scheduleFrame: (flush) => frames.push(flush) });
    const seen: string[] = [];
    store.subscribe((state) => seen.push(state.order.map((id) => `${id}:${state.calls[id]?.status}:${state.calls[id]?.approval ?? '-'}`).join(' ')));
    const { dispatch, markApproval, interrupt } = store.getState();
    dispatch(e.start('c1', { turnId: 't1' }));
    dispatch(e.start('c2', { turnId: 't2' }));
    expect(seen).toEqual([]);
    markApproval('c1', { approval: 'awaiting' });
    expect(seen).toEqual(['c1:pending:awaiting c2:pending:-']);
    interrupt('t2');
    expect(seen).toEqual(['c1:pending:awaiting c2:pending:-', 'c1:pending:awaiting c2:cancelled:-']);
    // The frame scheduled by the first event finds nothing new to tell.
    for (const flush of frames.splice(0)) flush();
    expect(seen).toHaveLength(2);
  });
});
