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
 * The host is a shell (./host-shell: the registered tools and their declarations, the epoch gate,
 * the state on the kit's store core) with its runtime (./host-runtime: the answer ledger, the queue
 * with its one `settle`, the runner of one call with its deadline); here both are made at once,
 * while the client's host loads the runtime on its first call (./deferred-app-tool-host). No React here
 * (docs/architecture.md, "Layers"): the hooks in `src/hooks` read it through `subscribe`/`getState`.
 */

import { assembleAppToolHost } from './host-shell';
import { runAppToolHost } from './host-runtime';
import type { AppTool, AppToolHost, AppToolHostOptions } from './types';

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

export { DEFAULT_APP_TOOL_TIMEOUT_MS } from './host-runtime';

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
  return assembleAppToolHost(options, runAppToolHost, true);
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
