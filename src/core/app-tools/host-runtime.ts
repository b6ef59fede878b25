/**
 * The parts of an app-tool host that run calls: the answer ledger, the queue with its one
 * `settle`, the runner of one call with its deadline, and the intake that admits a call through
 * the epoch gate. They join a host's shell (./host-shell) and share its registry, gate and state.
 * The client loads this module by `import()` when the first call arrives, so a page with no app
 * tool never does (docs/architecture.md, "What loads when").
 */

import type { ToolResult } from '../wire';
import { abortReason, failure } from './answer-wording';
import { createAnswerLedger } from './answer-ledger';
import { createCallQueue } from './call-queue';
import { receiveCall } from './call-request';
import type { HostRuntime, HostShell } from './host-shell';
import { createCallRunner } from './run-call';
import type { AppToolClock, AppToolInterrupt } from './types';

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

/** Make the runtime of `shell`: from now on its state shows the runtime's queue. */
export function runAppToolHost(shell: HostShell): HostRuntime {
  const { options, gate, registry, state } = shell;
  const ledger = createAnswerLedger(Math.max(0, options.rememberResults ?? 1000), shell.saved);
  const queue = createCallQueue({ ledger, registry, changes: { call: (record) => state.touchCall(record) }, start: (record) => runner.execute(record) });
  const runner = createCallRunner({
    queue,
    registry,
    gate,
    clock: options.clock ?? defaultClock,
    timeoutMs: options.timeoutMs ?? DEFAULT_APP_TOOL_TIMEOUT_MS,
    approvalHandler: () => shell.approvalHandler,
    touched: (record) => state.touchCall(record),
    recordStart: (record) => ledger.started(record.callId),
  });
  shell.sources.queue = queue;

  function interrupt(turnId: string | undefined): void {
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
    shell.tellInterrupt(event);
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
    if (shell.closed) return;
    state.batch(() => {
      shell.closed = true;
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
    call: (request) => receiveCall(request, { ledger, gate, queue, closed: () => shell.closed }),
    interrupt,
    abortCall,
    close,
    resultOf: (callId) => ledger.resultOf(callId),
  };
}
