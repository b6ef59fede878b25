/// <reference types="vite/client" />
/**
 * Shared pieces of the stories: stores built from timed event lists, live replays, and the
 * argument sets the stories show. Not a story file itself (the globs match *.stories.tsx only).
 */
import { useEffect, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { ToolgateProvider, createToolStreamStore, type ToolStreamStore, type ToolStreamStoreOptions } from 'toolgate';
import { expect, waitFor } from 'storybook/test';
import { ReplayPause, createScriptedSession, replayEvents, type ScriptStep, type ScriptedSession } from 'toolgate/testing';

/**
 * Stories replay at the `speed` a person picks; under test (vitest sets MODE to 'test') they run
 * instantly and play functions wait on what is shown, never on time.
 */
export const storySpeed = (speed: number): number => (import.meta.env.MODE === 'test' ? Infinity : speed);

/**
 * A store filled from events and pauses, stamped by a virtual clock that ends at the real now:
 * durations are exactly the pauses, and calls still open keep running on the real clock.
 */
export function storeFrom(items: readonly unknown[], options: ToolStreamStoreOptions = {}): ToolStreamStore {
  const total = items.reduce<number>((sum, item) => sum + (item instanceof ReplayPause ? item.ms : 0), 0);
  let virtual: number | undefined = Date.now() - total;
  const store = createToolStreamStore({ ...options, now: () => virtual ?? Date.now() });
  for (const item of items) {
    if (item instanceof ReplayPause) (virtual as number) += item.ms;
    else if (typeof item === 'function') (item as (store: ToolStreamStore) => void)(store);
    else store.getState().dispatch(item);
  }
  virtual = undefined;
  return store;
}

/** An item of `storeFrom`: the user interrupts `turnId` at that point (a local event, as a button would send). */
export const interrupt = (turnId: string) => (store: ToolStreamStore) => store.getState().interrupt(turnId);

/** Provide a store built once from `items`; `children` may take the store (an Interrupt button needs it). */
export function Fixed({ items, options, children }: { items: readonly unknown[]; options?: ToolStreamStoreOptions; children: ReactNode | ((store: ToolStreamStore) => ReactNode) }) {
  const [store] = useState(() => storeFrom(items, options));
  // A still picture of one state, built before the page shows it: drawn as it is at once, not
  // held as a new call would be (steady is for calls that arrive while the page is open).
  return (
    <ToolgateProvider store={store} steady={false}>
      <Frame>{typeof children === 'function' ? children(store) : children}</Frame>
    </ToolgateProvider>
  );
}

/** Replay `items` live into a fresh store (frame-coalesced, as an app would use it for fast streams). */
export function Live({
  items,
  speed,
  batch,
  children,
}: {
  items: () => Iterable<unknown>;
  speed: number;
  /** Events sent between two breaths of the page (see `replayEvents`). */
  batch?: number;
  children: ReactNode | ((store: ToolStreamStore) => ReactNode);
}) {
  const [store] = useState(() => createToolStreamStore({ coalesce: 'frame' }));
  // Whether every event has been sent: a play function waits on this state (see `untilReplayed`),
  // never on a time in which the replay usually ends.
  const [replayed, setReplayed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    setReplayed(false);
    void replayEvents(store, items(), { speed: storySpeed(speed), signal: controller.signal, ...(batch && { batch }) }).then(() => {
      if (!controller.signal.aborted) setReplayed(true);
    });
    return () => controller.abort();
  }, [store, items, speed, batch]);
  return (
    <ToolgateProvider store={store}>
      <Frame replay={replayed ? 'done' : 'playing'}>{typeof children === 'function' ? children(store) : children}</Frame>
    </ToolgateProvider>
  );
}

/**
 * Wait until a `Live` replay has sent its last event. The store tells the page once per frame, so
 * what that last event changed is shown a frame later: wait on it with `waitFor`.
 */
export async function untilReplayed(canvasElement: HTMLElement): Promise<void> {
  await waitFor(() => expect(canvasElement.querySelector('[data-replay]')).toHaveAttribute('data-replay', 'done'));
}

const frame: CSSProperties = {
  display: 'grid',
  gap: '1rem',
  maxWidth: '48rem',
  padding: '1rem',
  background: 'var(--toolgate-bg)',
  color: 'var(--toolgate-fg)',
  fontFamily: 'var(--toolgate-font)',
};

/** The kit's background and text colour around a story, so the dark theme reads as dark. */
export function Frame({ children, wide, replay }: { children: ReactNode; wide?: boolean; replay?: 'playing' | 'done' }) {
  return (
    <div style={wide ? { ...frame, maxWidth: 'none' } : frame} data-replay={replay}>
      {children}
    </div>
  );
}

/**
 * Play a scripted session (toolgate/testing) into a provider, live, at the story's speed: the
 * same session object users drive in their own tests.
 */
export function Scripted({
  script,
  speed,
  capabilities,
  children,
}: {
  script: () => readonly ScriptStep[];
  speed: number;
  capabilities?: readonly string[];
  children: ReactNode | ((session: ScriptedSession) => ReactNode);
}) {
  const session = useMemo(
    () => createScriptedSession({ script: script(), speed: storySpeed(speed), ...(capabilities && { capabilities }) }),
    [script, speed, capabilities],
  );
  useEffect(() => {
    void session.play();
    return () => session.stop();
  }, [session]);
  return (
    <ToolgateProvider session={session}>
      <Frame>{typeof children === 'function' ? children(session) : children}</Frame>
    </ToolgateProvider>
  );
}
