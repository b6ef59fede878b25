/**
 * The open calls and the one slot (docs/protocol.md, "App tools"): calls run one at a time,
 * in arrival order, and a call starts only after the previous one has its result. An aborted
 * call already has its result, so the next may start while the aborted run winds down; a run
 * that was not aborted is never overlapped.
 *
 * `settle` is the one place a call gets its result: it records it in the ledger (which resolves
 * the call's promise), stops its time limit, frees the slot and starts the next call. Every other
 * path (a step of the run, the time limit, an interrupt, the server, close) ends in it, and a
 * second result for the same call changes nothing.
 */

import type { JsonValue } from '../json/json-value';
import type { ToolResult } from '../wire';
import type { AnswerLedger } from './answer-ledger';
import type { Deadline } from './deadline';
import type { ToolRegistry } from './declarations';
import type { AppCallState, AppCallStatus } from './types';

/** One open call. Mutable inside the host; the UI sees its frozen `view`. */
export interface CallRecord {
  readonly callId: string;
  readonly turnId: string;
  readonly epoch: number;
  readonly name: string;
  /** The frozen copy taken when the call arrived; the caller's object is never read again. */
  readonly received: JsonValue;
  /** What runs and is shown: `received`, then the validator's frozen output. */
  args: JsonValue;
  readonly controller: AbortController;
  status: AppCallStatus;
  progress: unknown;
  /** Its one result, once it has it. */
  result: ToolResult | undefined;
  /** The time limit, from the moment the call holds the slot. */
  deadline: Deadline | undefined;
  /** The frozen state of this call, built on first read after a change. */
  view: AppCallState | undefined;
}

/** What the queue tells the host's state. */
export interface QueueChanges {
  /** This call changed (and so did its tool). */
  call(record: CallRecord): void;
}

/** The open calls of one host. */
export interface CallQueue {
  /** Open calls in arrival order; the one holding the slot, if any, is the first. */
  readonly open: ReadonlyMap<string, CallRecord>;
  /** The call holding the slot. */
  readonly active: CallRecord | null;
  /** How many open calls a tool has (so a tool's state is built without a scan). */
  openCount(name: string): number;
  /** Take a new call in; it starts when the slot is free. */
  enqueue(record: CallRecord): void;
  setStatus(record: CallRecord, status: AppCallStatus): void;
  /** Give a call its one result. False when it already had one. */
  settle(record: CallRecord, result: ToolResult): boolean;
  /** Settle, then abort the run's signal with `reason`: the run winds down on its own. */
  abort(record: CallRecord, result: ToolResult, reason: unknown): boolean;
  /** Stop starting calls (on close). */
  stop(): void;
}

/** What the queue needs of the host. */
export interface CallQueueOptions {
  ledger: AnswerLedger;
  registry: ToolRegistry;
  changes: QueueChanges;
  /** Start a call that now holds the slot. Runs it after a microtask (never re-entrantly). */
  start(record: CallRecord): void;
}

/**
 * The queue of one host.
 *
 * @example
 * const queue = createCallQueue({ ledger, registry, changes, start: (record) => runner.execute(record) });
 */
export function createCallQueue(options: CallQueueOptions): CallQueue {
  const { ledger, registry, changes, start } = options;
  const open = new Map<string, CallRecord>();
  const openByName = new Map<string, number>();
  let active: CallRecord | null = null;
  let stopped = false;

  /**
   * Give the slot to the next call when it is free. The call starts after a microtask, so this
   * never runs user code re-entrantly and 1,000 quick answers in a row do not grow the stack.
   */
  function pump(): void {
    if (active !== null || stopped) return;
    const next = open.values().next();
    if (next.done) return;
    active = next.value;
    setStatus(next.value, 'validating');
    start(next.value);
  }

  function setStatus(record: CallRecord, status: AppCallStatus): void {
    record.status = status;
    changes.call(record);
  }

  function settle(record: CallRecord, result: ToolResult): boolean {
    if (record.result) return false;
    record.result = result;
    record.deadline?.stop();
    open.delete(record.callId);
    const left = (openByName.get(record.name) ?? 1) - 1;
    if (left > 0) openByName.set(record.name, left);
    else openByName.delete(record.name);
    const registration = registry.get(record.name);
    if (registration) registration.lastResult = Object.freeze({ callId: record.callId, result });
    // Free the slot and record the answer before listeners hear of it: one reading the state (or
    // the call's result) while notified must not see the settled call still running.
    const held = active === record;
    if (held) active = null;
    ledger.answer(record.callId, result);
    changes.call(record);
    if (held) pump();
    return true;
  }

  return {
    open,
    get active() {
      return active;
    },
    openCount: (name) => openByName.get(name) ?? 0,
    enqueue(record) {
      open.set(record.callId, record);
      openByName.set(record.name, (openByName.get(record.name) ?? 0) + 1);
      changes.call(record);
      pump();
    },
    setStatus,
    settle,
    abort(record, result, reason) {
      if (!settle(record, result)) return false;
      // Abort after settling, so a listener on the signal already sees the call answered.
      record.controller.abort(reason);
      return true;
    },
    stop() {
      stopped = true;
      active = null;
    },
  };
}
