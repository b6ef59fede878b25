/**
 * The app-tool host: runs the tools that live in the page when the session asks for them.
 *
 * Every rule here is written down in docs/protocol.md ("App tools", "The session"):
 * - one run at a time, in arrival order; a call starts only after the previous one has its result;
 * - an aborted call already has its result, so the next may start while it winds down, but a run
 *   that was not aborted is never overlapped;
 * - exactly one result per call, at once whatever user code throws; a result that arrives after
 *   its call was aborted is dropped;
 * - interrupting a turn aborts its running and queued calls at once and raises the epoch floor:
 *   a call from an older epoch never runs;
 * - what runs is what was shown: `run` receives the frozen snapshot the state shows and the
 *   person reviewed.
 *
 * This module assembles the host from its parts in `./app-tools/`: the epoch gate, the answer
 * ledger, the registered tools and their declarations, the queue with its one `settle`, the
 * runner of one call with its deadline, and the state on the kit's store core. No React here
 * (docs/architecture.md, "Layers"): the hooks in `src/hooks` read it through `subscribe`/`getState`.
 */

import { describeThrown, reportListenerError, type ErrorReporter } from '../external-store';
import type { ToolResult } from '../wire';
import { abortReason, failure } from './answer-wording';
import { createAnswerLedger, type SavedCalls } from './answer-ledger';
import { createCallQueue } from './call-queue';
import { receiveCall } from './call-request';
import { checkTimeout, createToolRegistry } from './declarations';
import { createEpochGate } from './epoch-gate';
import { createHostState } from './host-state';
import { createCallRunner } from './run-call';
import type { AppTool, AppToolApprovalHandler, AppToolClock, AppToolHost, AppToolHostOptions, AppToolInterrupt } from './types';

export type {
  AppCallState,
  AppCallStatus,
  AppTool,
  AppToolApproval,
  AppToolApprovalHandler,
  AppToolApprovalRequest,
  AppToolCallRequest,
  AppToolClock,
  AppToolContext,
  AppToolEditCheck,
  AppToolEditing,
  AppToolHost,
  AppToolHostOptions,
  AppToolHostState,
  AppToolInterrupt,
  AppToolState,
  AppToolStatus,
} from './types';
export { RELOADED_WHILE_RUNNING, type SavedCall, type SavedCalls } from './answer-ledger';

/**
 * The default client time limit for an app-tool call, in ms.
 *
 * @example
 * const host = createAppToolHost({ timeoutMs: 2 * DEFAULT_APP_TOOL_TIMEOUT_MS });
 */
export const DEFAULT_APP_TOOL_TIMEOUT_MS = 30_000;

const defaultClock: AppToolClock = {
  // Late-bound, so fake timers installed after the host was created still apply.
  now: () => (typeof performance !== 'undefined' ? performance.now() : Date.now()),
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

const defaultDefer = (task: () => void): void => queueMicrotask(task);

/**
 * Create the host that runs a page's app tools: one at a time, in arrival order, with exactly
 * one result per call, behind an epoch gate. Bind it to a session with `bindAppToolHost`.
 *
 * @example
 * const host = createAppToolHost({ timeoutMs: 10_000 });
 * const unregister = host.register({
 *   name: 'set_title',
 *   parameters: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
 *   run: ({ title }, { signal }) => { if (!signal.aborted) document.title = String(title); },
 * });
 * const result = await host.call({ callId: 'c1', turnId: 't1', epoch: 0, name: 'set_title', arguments: { title: 'Hi' } });
 * // { ok: true, output: null }
 */
export function createAppToolHost(options: AppToolHostOptions = {}): AppToolHost {
  checkTimeout(options.timeoutMs, 'timeoutMs');
  const report: ErrorReporter = options.onError ?? ((reason, detail) => console.error(reason, detail));
  let approvalHandler: AppToolApprovalHandler | undefined = options.requestApproval;
  let closed = false;
  const interruptListeners = new Set<(interrupt: AppToolInterrupt) => void>();

  const gate = createEpochGate(options.epoch);
  const ledger = createAnswerLedger(Math.max(0, options.rememberResults ?? 1000), guardSavedCalls(options.savedCalls, report));
  const state = createHostState(gate.floor, () => sources, options.onError);
  const registry = createToolRegistry({ defer: options.defer ?? defaultDefer, report, changed: (name) => state.touchTool(name) });
  const queue = createCallQueue({ ledger, registry, changes: { call: (record) => state.touchCall(record) }, start: (record) => runner.execute(record) });
  const runner = createCallRunner({
    queue,
    registry,
    gate,
    clock: options.clock ?? defaultClock,
    timeoutMs: options.timeoutMs ?? DEFAULT_APP_TOOL_TIMEOUT_MS,
    approvalHandler: () => approvalHandler,
    touched: (record) => state.touchCall(record),
    recordStart: (record) => ledger.started(record.callId),
  });
  const sources = { registry, queue, floor: () => gate.floor, closed: () => closed };

  function interrupt(turnId?: string): void {
    if (turnId !== undefined && (typeof turnId !== 'string' || turnId === '')) {
      throw new TypeError('interrupt(turnId): turnId must be a non-empty string');
    }
    const aborted = new Set<string>();
    state.batch(() => {
      gate.interrupt(turnId);
      // At once, without waiting for anyone (docs/protocol.md, "App tools").
      for (const record of [...queue.open.values()]) {
        const message = gate.abortReasonFor(record, turnId);
        if (message === undefined) continue;
        if (queue.abort(record, failure('INTERRUPTED', message), abortReason(message, 'AbortError'))) aborted.add(record.turnId);
      }
      state.touch();
    });
    const event: AppToolInterrupt = Object.freeze({
      turnId,
      turnIds: Object.freeze(turnId === undefined ? [...aborted] : [turnId, ...[...aborted].filter((t) => t !== turnId)]),
      epoch: gate.floor,
    });
    for (const listener of [...interruptListeners]) {
      try {
        listener(event);
      } catch (error) {
        reportListenerError(error, options.onError, 'an interrupt listener');
      }
    }
  }

  function abortCall(callId: string, result?: ToolResult & { ok: false }): boolean {
    const record = queue.open.get(callId);
    if (!record) return false;
    const answer = result ? failure(result.code, result.message ?? `call ${callId} was aborted`) : failure('INTERRUPTED', `call ${callId} was cancelled`);
    let done = false;
    state.batch(() => {
      done = queue.abort(record, answer, abortReason(answer.message ?? 'aborted', 'AbortError'));
    });
    return done;
  }

  function close(): void {
    if (closed) return;
    state.batch(() => {
      closed = true;
      queue.stop();
      // docs/protocol.md, "App tools": on `closed`, every open call is aborted and all app-tool state is cleared.
      for (const record of [...queue.open.values()]) {
        queue.abort(record, failure('INTERRUPTED', 'the session closed'), abortReason('the session closed', 'AbortError'));
      }
      state.forgetTools();
      ledger.clear();
      gate.clear();
      state.touch();
    });
  }

  return {
    register: <Args>(tool: AppTool<Args>) => registry.register(tool as AppTool<unknown>),
    call: (request) => receiveCall(request, { ledger, gate, queue, closed: () => closed }),
    interrupt,
    abortCall,
    close,
    get epoch() {
      return gate.floor;
    },
    get closed() {
      return closed;
    },
    declarations: () => registry.declarations(),
    setApprovalHandler(handler) {
      const previous = approvalHandler;
      approvalHandler = handler;
      return () => {
        if (approvalHandler === handler) approvalHandler = previous;
      };
    },
    subscribe: state.subscribe,
    getState: state.getState,
    getInitialState: state.getInitialState,
    onInterrupt(listener) {
      interruptListeners.add(listener);
      return () => {
        interruptListeners.delete(listener);
      };
    },
    resultOf: (callId) => ledger.resultOf(callId),
  };
}

/**
 * The saved calls as the ledger uses them: reading or recording an answer that throws is
 * reported and changes no call's answer; recording a start that throws stops that run (the
 * runner answers FAILED rather than run what a reloaded page might run again).
 */
function guardSavedCalls(saved: SavedCalls | undefined, report: ErrorReporter): SavedCalls | undefined {
  if (saved === undefined) return undefined;
  const told = (what: string, callId: string, error: unknown): void => {
    try {
      report(`the saved calls threw while ${what} ${callId}: ${describeThrown(error)}`, error, 'saved-calls-threw');
    } catch {
      // The reporter threw as well: nothing is left to tell.
    }
  };
  return {
    recall(callId) {
      try {
        return saved.recall(callId);
      } catch (error) {
        told('recalling', callId, error);
        return undefined;
      }
    },
    started(callId) {
      try {
        saved.started(callId);
      } catch (error) {
        told('recording the start of', callId, error);
        throw error;
      }
    },
    answered(callId, result) {
      try {
        saved.answered(callId, result);
      } catch (error) {
        told('recording the answer of', callId, error);
      }
    },
  };
}

/**
 * Identity helper that infers a tool's argument type from its `validate` schema (or its `run`).
 *
 * @example
 * const tool = defineAppTool({
 *   name: 'rename',
 *   validate: z.object({ title: z.string() }),
 *   run: ({ title }) => ({ renamed: title }), // title: string
 * });
 */
export function defineAppTool<Args = Record<string, unknown>>(tool: AppTool<Args>): AppTool<Args> {
  return tool;
}
