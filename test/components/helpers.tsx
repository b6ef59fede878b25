import { StrictMode, type ReactNode } from 'react';
import { act, render } from '@testing-library/react';
import { ToolgateProvider, createToolStreamStore, type ToolStreamStore } from 'toolgate';
import { createManualClock, type ManualClock } from 'toolgate/testing';

/** A store whose calls are stamped by a manual clock, so durations are exact. */
export function timedStore(start = Date.UTC(2025, 0, 1, 9)): { store: ToolStreamStore; clock: ManualClock; send: (...events: unknown[]) => void; wait: (ms: number) => Promise<void> } {
  const clock = createManualClock({ start });
  const store = createToolStreamStore({ now: clock.now });
  return {
    store,
    clock,
    send: (...events) => act(() => events.forEach((event) => store.getState().dispatch(event))),
    wait: (ms) => act(() => clock.advance(ms)),
  };
}

/** Render inside <StrictMode> and a provider for `store`. */
export function renderWith(store: ToolStreamStore, ui: ReactNode) {
  const wrap = (node: ReactNode) => (
    <StrictMode>
      <ToolgateProvider store={store}>{node}</ToolgateProvider>
    </StrictMode>
  );
  const result = render(wrap(ui));
  return { ...result, rerender: (node: ReactNode) => result.rerender(wrap(node)) };
}
