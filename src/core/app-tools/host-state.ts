/**
 * The host's state for UI, on the kit's one store core (`createExternalStore`): one listener
 * policy (a listener that throws is reported through `onError` and stops neither the others nor
 * the host) and snapshots that never change once handed out.
 *
 * The snapshot is built on first read after a change and cached: each call's and each tool's
 * frozen view is reused until that call or tool changes, so a reader pays for what changed, and a
 * host nobody watches builds nothing. Changes made together (an interrupt that aborts many calls)
 * notify once.
 */

import { createExternalStore, type ErrorReporter } from '../external-store';
import { defineOwn } from '../json/json-value';
import type { CallQueue, CallRecord } from './call-queue';
import type { Registration, ToolRegistry } from './declarations';
import type { AppCallState, AppToolHostState, AppToolState } from './types';

/** What the state is built from. */
export interface HostStateSources {
  readonly registry: ToolRegistry;
  readonly queue: Pick<CallQueue, 'open' | 'active' | 'openCount'>;
  floor(): number;
  closed(): boolean;
}

/** The host's state: reading, subscribing, and marking changes. */
export interface HostState {
  getState(): AppToolHostState;
  getInitialState(): AppToolHostState;
  subscribe(listener: (state: AppToolHostState, previous: AppToolHostState) => void): () => void;
  /** Something changed: the next read builds a new snapshot, and listeners hear of it (after the batch). */
  touch(): void;
  /** A call changed (and so did its tool). */
  touchCall(record: CallRecord): void;
  /** A tool changed. */
  touchTool(name: string): void;
  /** Run `fn`; listeners hear once, at its end, of everything it changed. */
  batch(fn: () => void): void;
  /** Drop every tool's cached view (on close: their last results go). */
  forgetTools(): void;
}


function callView(record: CallRecord): AppCallState {
  record.view ??= Object.freeze({
    callId: record.callId,
    turnId: record.turnId,
    epoch: record.epoch,
    name: record.name,
    arguments: record.args,
    status: record.status,
    progress: record.progress,
  });
  return record.view;
}

function toolView(registration: Registration, queue: HostStateSources['queue']): AppToolState {
  if (registration.view) return registration.view;
  const name = registration.declaration.name;
  const active = queue.active;
  const current = active !== null && active.name === name ? callView(active) : null;
  const queued = queue.openCount(name) - (current ? 1 : 0);
  registration.view = Object.freeze({
    name,
    // A call that waits for a person is not running: nothing runs until they approve.
    status: current ? (current.status === 'awaiting-approval' ? 'awaiting-approval' : 'running') : queued > 0 ? 'queued' : 'idle',
    queued,
    current,
    lastResult: registration.lastResult,
  });
  return registration.view;
}

function buildState(sources: HostStateSources): AppToolHostState {
  const tools: Record<string, AppToolState> = {};
  for (const registration of sources.registry.values()) {
    // defineOwn: a tool named `__proto__` must stay an own key.
    defineOwn(tools, registration.declaration.name, toolView(registration, sources.queue));
  }
  const calls: Record<string, AppCallState> = {};
  for (const [callId, record] of sources.queue.open) defineOwn(calls, callId, callView(record));
  return Object.freeze({
    epoch: sources.floor(),
    closed: sources.closed(),
    tools: Object.freeze(tools),
    calls: Object.freeze(calls),
    queue: Object.freeze([...sources.queue.open.keys()]),
    declarations: sources.registry.declarations(),
  });
}

/**
 * The state of one host, read from the sources `sourcesOf` gives (made after this, so read late).
 *
 * @example
 * const state = createHostState(gate.floor, () => sources, onError);
 */
export function createHostState(initialEpoch: number, sourcesOf: () => HostStateSources, onError: ErrorReporter | undefined): HostState {
  const initial: AppToolHostState = Object.freeze({
    epoch: initialEpoch,
    closed: false,
    tools: Object.freeze({}),
    calls: Object.freeze({}),
    queue: Object.freeze([]),
    declarations: Object.freeze([]),
  });
  // The store holds the snapshot last published to listeners; `getState` may be one change ahead
  // of it inside a batch, or when nobody listens (nothing is built for nobody).
  const store = createExternalStore<AppToolHostState>(initial, { onError });
  let snapshot: AppToolHostState | undefined = initial;
  let listening = 0;
  let batchDepth = 0;
  let changed = false;

  function getState(): AppToolHostState {
    snapshot ??= buildState(sourcesOf());
    return snapshot;
  }

  function publish(): void {
    changed = false;
    if (listening > 0) store.setState(getState(), true);
  }

  function touch(): void {
    snapshot = undefined;
    changed = true;
    if (batchDepth === 0) publish();
  }

  function touchTool(name: string): void {
    const registration = sourcesOf().registry.get(name);
    if (registration) registration.view = undefined;
    touch();
  }

  return {
    getState,
    getInitialState: () => initial,
    subscribe(listener) {
      // Nobody listened, so the store may hold an old snapshot: bring it up to date silently.
      if (listening === 0 && store.getState() !== getState()) store.setState(getState(), true);
      listening += 1;
      const unsubscribe = store.subscribe(listener);
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        listening -= 1;
        unsubscribe();
      };
    },
    touch,
    touchCall(record) {
      record.view = undefined;
      touchTool(record.name);
    },
    touchTool,
    batch(fn) {
      batchDepth++;
      try {
        fn();
      } finally {
        batchDepth--;
        if (batchDepth === 0 && changed) publish();
      }
    },
    forgetTools() {
      for (const registration of sourcesOf().registry.values()) {
        registration.lastResult = null;
        registration.view = undefined;
      }
    },
  };
}
