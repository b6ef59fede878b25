/**
 * What an app-tool host is before any call reaches it: its registered tools and their
 * declarations, its epoch gate, its state and its listeners. A page that registers tools and
 * sends `hello` needs only these; the parts that run calls (the queue, the runner, the answer
 * ledger, in `./host-runtime`) join the same shell when the first call, interrupt of a call or
 * abort arrives, so the client can load them by `import()` then (docs/architecture.md, "What loads when").
 * Both `createAppToolHost` (at once) and the client's deferred host are this shell with a runtime.
 */

import { describeThrown, reportListenerError, type ErrorReporter } from '../external-store';
import type { ToolResult } from '../wire';
import type { SavedCalls } from './answer-ledger';
import type { CallRecord } from './call-queue';
import { checkTimeout, createToolRegistry, type ToolRegistry } from './declarations';
import { createEpochGate, type EpochGate } from './epoch-gate';
import { createHostState, type HostState, type HostStateSources } from './host-state';
import type { AppTool, AppToolApprovalHandler, AppToolCallRequest, AppToolHost, AppToolHostOptions, AppToolInterrupt } from './types';

/** The parts of a host that exist from its creation; the runtime reads and changes them. */
export interface HostShell {
  readonly options: AppToolHostOptions;
  readonly report: ErrorReporter;
  readonly gate: EpochGate;
  readonly registry: ToolRegistry;
  readonly state: HostState;
  /** What the state is built from: the queue is an empty one until the runtime puts its own. */
  readonly sources: { queue: HostStateSources['queue'] };
  /** The saved calls, guarded: reading or recording one that throws is reported. */
  readonly saved: SavedCalls | undefined;
  approvalHandler: AppToolApprovalHandler | undefined;
  closed: boolean;
  /** Tell the interrupt listeners, each guarded. */
  tellInterrupt(event: AppToolInterrupt): void;
}

/** The parts that run calls: made from a shell by `runAppToolHost` (./host-runtime). */
export interface HostRuntime {
  call(request: AppToolCallRequest): Promise<ToolResult>;
  interrupt(turnId: string | undefined): void;
  abortCall(callId: string, result?: ToolResult & { ok: false }): boolean;
  close(): void;
  resultOf(callId: string): ToolResult | undefined;
}

const defaultDefer = (task: () => void): void => queueMicrotask(task);

const EMPTY_QUEUE: HostStateSources['queue'] = { open: new Map<string, CallRecord>(), active: null, openCount: () => 0 };

/** Check the options and make the parts a host has before it runs anything. Throws on bad options. */
export function createHostShell(options: AppToolHostOptions, interruptListeners: Set<(interrupt: AppToolInterrupt) => void>): HostShell {
  checkTimeout(options.timeoutMs, 'timeoutMs');
  const report: ErrorReporter = options.onError ?? ((reason, detail) => console.error(reason, detail));
  const gate = createEpochGate(options.epoch);
  const sources = { queue: EMPTY_QUEUE };
  const shell: HostShell = {
    options,
    report,
    gate,
    registry: createToolRegistry({ defer: options.defer ?? defaultDefer, report, changed: (name) => shell.state.touchTool(name) }),
    state: createHostState(
      gate.floor,
      () => ({ registry: shell.registry, queue: sources.queue, floor: () => gate.floor, closed: () => shell.closed }),
      options.onError,
    ),
    sources,
    saved: guardSavedCalls(options.savedCalls, report),
    approvalHandler: options.requestApproval,
    closed: false,
    tellInterrupt(event) {
      for (const listener of [...interruptListeners]) {
        try {
          listener(event);
        } catch (error) {
          reportListenerError(error, options.onError, 'an interrupt listener');
        }
      }
    },
  };
  return shell;
}

/**
 * The host a page holds, over a shell and its runtime. `runtime` is either the runtime itself
 * (`createAppToolHost`) or a loader: then the first call, abort, interrupt with calls waiting or
 * close with calls waiting loads it, and what arrives meanwhile waits in arrival order and is
 * handed to it in that order once it is there (each call answered once, by the runtime).
 * Until then the host answers what needs no runtime itself: registering, declarations, the
 * state, an interrupt or close with nothing waiting.
 */
export function assembleAppToolHost(options: AppToolHostOptions, runtime: ((shell: HostShell) => HostRuntime) | (() => Promise<(shell: HostShell) => HostRuntime>), eager: boolean): AppToolHost {
  const interruptListeners = new Set<(interrupt: AppToolInterrupt) => void>();
  const shell = createHostShell(options, interruptListeners);
  let running: HostRuntime | undefined = eager ? (runtime as (shell: HostShell) => HostRuntime)(shell) : undefined;
  // What arrived before the runtime, in order; `calls` are the ids of the calls among them.
  const waiting: ((run: HostRuntime) => void)[] = [];
  const waitingCalls = new Set<string>();
  let loading = false;
  let closeWaiting = false;

  const load = (): void => {
    if (loading) return;
    loading = true;
    (runtime as () => Promise<(shell: HostShell) => HostRuntime>)().then(
      (make) => {
        running = make(shell);
        waitingCalls.clear();
        for (const task of waiting.splice(0)) task(running);
      },
      (error: unknown) => {
        // The runtime could not be loaded (a chunk that failed to download): each waiting call is
        // answered FAILED once, and the next call tries again.
        loading = false;
        report(`the app-tool host could not load the part that runs calls: ${describeThrown(error)}`, error, 'host-load-failed');
        waitingCalls.clear();
        const failed: ToolResult = { ok: false, code: 'FAILED', message: 'the app-tool host could not load the part that runs calls' };
        for (const task of waiting.splice(0)) task(failedRuntime(failed));
        if (closeWaiting) closeNow();
      },
    );
  };
  const report = shell.report;
  const later = (task: (run: HostRuntime) => void): void => {
    waiting.push(task);
    load();
  };

  // Close with no runtime and nothing waiting: what the runtime's close does, with no call open.
  const closeNow = (): void => {
    if (shell.closed) return;
    shell.state.batch(() => {
      shell.closed = true;
      shell.state.forgetTools();
      shell.gate.clear();
      shell.state.touch();
    });
  };

  return {
    register: <Args>(tool: AppTool<Args>) => shell.registry.register(tool as AppTool<unknown>),
    call(request) {
      if (running) return running.call(request);
      const callId: unknown = (request as { callId?: unknown } | null)?.callId;
      if (typeof callId === 'string') waitingCalls.add(callId);
      return new Promise<ToolResult>((resolve) => later((run) => void run.call(request).then(resolve)));
    },
    interrupt(turnId) {
      if (turnId !== undefined && (typeof turnId !== 'string' || turnId === '')) {
        throw new TypeError('interrupt(turnId): turnId must be a non-empty string');
      }
      if (running || waiting.length > 0) {
        if (running) running.interrupt(turnId);
        else later((run) => run.interrupt(turnId));
        return;
      }
      // No call is open: raising the floor is all there is to do (the runtime does the same).
      shell.state.batch(() => {
        shell.gate.interrupt(turnId);
        shell.state.touch();
      });
      shell.tellInterrupt(Object.freeze({ turnId, turnIds: Object.freeze(turnId === undefined ? [] : [turnId]), epoch: shell.gate.floor }));
    },
    abortCall(callId, result) {
      if (running) return running.abortCall(callId, result);
      if (!waitingCalls.delete(callId)) return false;
      // The call waits just before this in order: the runtime takes it in, then aborts it.
      later((run) => void run.abortCall(callId, result));
      return true;
    },
    close() {
      if (running) return running.close();
      if (waiting.length === 0) return closeNow();
      if (closeWaiting) return;
      closeWaiting = true;
      later((run) => run.close());
    },
    get epoch() {
      return shell.gate.floor;
    },
    get closed() {
      return shell.closed || closeWaiting;
    },
    declarations: () => shell.registry.declarations(),
    setApprovalHandler(handler) {
      const previous = shell.approvalHandler;
      shell.approvalHandler = handler;
      return () => {
        if (shell.approvalHandler === handler) shell.approvalHandler = previous;
      };
    },
    subscribe: shell.state.subscribe,
    getState: shell.state.getState,
    getInitialState: shell.state.getInitialState,
    onInterrupt(listener) {
      interruptListeners.add(listener);
      return () => {
        interruptListeners.delete(listener);
      };
    },
    resultOf(callId) {
      if (running) return running.resultOf(callId);
      // No call has been answered here yet; a call answered before a reload may be in the saved calls.
      const record = shell.saved?.recall(callId);
      return record?.state === 'answered' ? record.result : undefined;
    },
  };
}

/** What answers the calls that waited for a runtime that failed to load. */
function failedRuntime(failed: ToolResult): HostRuntime {
  return {
    call: () => Promise.resolve(failed),
    interrupt: () => {},
    abortCall: () => false,
    close: () => {},
    resultOf: () => undefined,
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
