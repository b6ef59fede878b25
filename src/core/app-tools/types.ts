/**
 * The app-tool host's public types: tools, calls, the state the UI reads, approvals, options and
 * the host itself. `src/core/app-tools/app-tool-host.ts` re-exports them; the modules beside this one
 * implement them.
 */

import type { ErrorReporter } from '../external-store';
import type { JsonValue } from '../json/json-value';
import type { StandardSchemaV1 } from '../json/standard-schema';
import type { AppToolCallMessage, ToolDeclaration, ToolResult } from '../wire';
import type { SavedCalls } from './answer-ledger';

/**
 * What a run receives besides its arguments. Check `signal` after every await and right before
 * committing: cancellation is cooperative, and an effect already committed cannot be undone; group effects by `turnId` and use `callId`
 * as an idempotency key.
 *
 * @example
 * run: async ({ id }, ctx: AppToolContext) => {
 *   const draft = await load(id, { signal: ctx.signal });
 *   if (ctx.signal.aborted) return;
 *   return save(draft, { idempotencyKey: ctx.callId });
 * }
 */
export interface AppToolContext {
  /** Aborts when the call is interrupted, times out, is cancelled by the server, or the host closes. */
  readonly signal: AbortSignal;
  readonly callId: string;
  readonly turnId: string;
  readonly epoch: number;
  /** Report application progress for the UI. Ignored once the call has its result. */
  emit(progress: unknown): void;
  /**
   * Wait for a person's answer (a form, a choice): resolves or rejects as `answer` does. Its time
   * counts against the limit unless the tool says `waitsForPerson: true`; then the clock stops
   * until `answer` settles, as it does while waiting for approval.
   */
  waitForPerson<T>(answer: PromiseLike<T>): Promise<T>;
}

/**
 * An app tool: declared to the model (`name`, `description`, `parameters`) and run in the page.
 *
 * @example
 * const insertText: AppTool<{ blockId: string; text: string }> = {
 *   name: 'insert_text',
 *   description: 'Insert text into a block of the document',
 *   parameters: { type: 'object', required: ['blockId', 'text'], properties: { blockId: { type: 'string' }, text: { type: 'string' } } },
 *   async run({ blockId, text }, { signal, callId, turnId }) {
 *     const block = await loadBlock(blockId);
 *     if (signal.aborted) return; // interrupted while loading: change nothing
 *     return editor.apply({ blockId, text, operationId: callId, group: turnId });
 *   },
 * };
 */
export interface AppTool<Args = Record<string, unknown>> {
  /** Unique among the host's tools. */
  name: string;
  description?: string;
  /**
   * What the model is told the arguments are: a plain JSON Schema, sent in `hello` and
   * `tools.update`. Each call's arguments are checked against its `type`, `required`,
   * `properties`, `items` and `enum` (a call that fails answers `INVALID` without running).
   * Leave it out when `validate` can say it: zod 4.2+ and ArkType schemas, and valibot schemas
   * wrapped by `toStandardJsonSchema` of `@valibot/to-json-schema`, give their JSON Schema
   * (the Standard JSON Schema interface), and that is declared instead.
   */
  parameters?: Record<string, unknown>;
  /**
   * Checks each call's arguments with a Standard Schema validator (zod, valibot, ArkType; sync or
   * async) before `run`: arguments it refuses answer `INVALID` with its messages. It gets its own
   * copy of the arguments; its output (defaults filled in, strings coerced, values transformed) is
   * what the person reviews and exactly what `run` receives, as a deep-frozen JSON snapshot. An
   * output that is not JSON (a `Date`, a function, `undefined`) answers `FAILED`: what runs must be
   * what can be shown. Typed: `run`'s arguments are its output type.
   */
  validate?: StandardSchemaV1<unknown, Args>;
  /** This tool's time limit in ms (time spent waiting for approval does not count); `Infinity` for none. */
  timeoutMs?: number;
  /** Time spent in `ctx.waitForPerson` does not count against `timeoutMs` (a person answers at their pace). Default false. */
  waitsForPerson?: boolean;
  /** Ask the user before running: always (`true`) or when the function says so for these (validated) arguments. */
  confirm?: boolean | ((args: Args) => boolean);
  /**
   * With `confirm`: the person may edit the arguments before approving. The edit is checked by
   * this tool's JSON Schema and `validate` (whose output is what is approved), gets its own
   * fingerprint, and is exactly what `run` receives; the host checks it again before it runs.
   */
  editable?: boolean;
  /**
   * The JSON Schema of what `run` returns, where the tool declares one: with `confirm`, a person who
   * answers in the tool's place ("Respond instead") fills a form of it instead of JSON text.
   */
  outputSchema?: Record<string, unknown>;
  /**
   * Run the tool. `args` is a deep-frozen JSON snapshot: the validator's output when there is a
   * `validate`, else a copy of the arguments taken when the call arrived (the caller's object is
   * never read again); with `confirm`, the very object the person approved. Its return value
   * (JSON; `undefined` becomes `null`) is the call's output.
   */
  run(args: Args, ctx: AppToolContext): unknown;
}

/**
 * A call the session asks the host to run (the `tool.call` message without its `type`).
 *
 * @example
 * const request: AppToolCallRequest = { callId: 'c1', turnId: 't1', epoch: 1, name: 'set_title', arguments: { title: 'Hi' } };
 * const result = await host.call(request);
 */
export type AppToolCallRequest = Pick<AppToolCallMessage, 'callId' | 'turnId' | 'epoch' | 'name' | 'arguments'>;

/**
 * Where an open call is: waiting its turn, holding the slot while its arguments are checked,
 * waiting for the user's approval, or running.
 *
 * @example
 * const status: AppCallStatus = 'awaiting-approval';
 */
export type AppCallStatus = 'queued' | 'validating' | 'awaiting-approval' | 'running';

/**
 * A tool's state for UI: `awaiting-approval` while the call holding the one-at-a-time slot waits
 * for a person (never `running` then: nothing runs until they approve), `running` while it is
 * checked or runs, `queued` while calls wait their turn.
 *
 * @example
 * const status: AppToolStatus = host.getState().tools['set_title']?.status ?? 'idle';
 */
export type AppToolStatus = 'idle' | 'queued' | 'awaiting-approval' | 'running';

/**
 * One open call, as the UI sees it. Frozen; a new object whenever it changes.
 *
 * @example
 * const call: AppCallState | undefined = host.getState().calls['c1'];
 * if (call?.status === 'awaiting-approval') showWaitingForYou();
 */
export interface AppCallState {
  readonly callId: string;
  readonly turnId: string;
  readonly epoch: number;
  readonly name: string;
  /**
   * What the call runs with, as a frozen JSON snapshot: the arguments as they arrived while the
   * call waits and is checked, then the validator's output (the object the person reviews and
   * `run` receives). Without a `validate`, the arrival snapshot throughout.
   */
  readonly arguments: JsonValue;
  readonly status: AppCallStatus;
  /** The latest value the run passed to `ctx.emit`, or `undefined`. */
  readonly progress: unknown;
}

/**
 * One registered tool, as the UI sees it. Frozen; a new object only when this tool changed.
 *
 * @example
 * const tool: AppToolState | undefined = host.getState().tools['set_title'];
 * const label = tool?.status === 'running' ? 'Working…' : 'Idle';
 */
export interface AppToolState {
  readonly name: string;
  readonly status: AppToolStatus;
  /** Calls of this tool waiting for their turn. */
  readonly queued: number;
  /** The call of this tool that holds the slot (validating, awaiting approval or running). */
  readonly current: AppCallState | null;
  /** The result of this tool's latest finished call. */
  readonly lastResult: { readonly callId: string; readonly result: ToolResult } | null;
}

/**
 * The host's state for UI; hand it to `useSyncExternalStore`. Never changes once handed out.
 *
 * @example
 * const state: AppToolHostState = host.getState();
 * const busy = state.queue.length > 0;
 */
export interface AppToolHostState {
  /** The epoch floor: calls from a lower epoch never run. */
  readonly epoch: number;
  readonly closed: boolean;
  /** Registered tools by name. */
  readonly tools: Readonly<Record<string, AppToolState>>;
  /** Open calls (queued or holding the slot) by call id. */
  readonly calls: Readonly<Record<string, AppCallState>>;
  /** Open call ids in arrival order; the first holds the slot when a call is running. */
  readonly queue: readonly string[];
  /** What `hello` and `tools.update` declare. */
  readonly declarations: readonly ToolDeclaration[];
}

/**
 * What the confirmation flow is asked when a tool has `confirm`.
 *
 * @example
 * const ask = async (request: AppToolApprovalRequest) => ({ approved: await dialog.ask(request.toolName, request.arguments, request.signal) });
 */
export interface AppToolApprovalRequest {
  readonly callId: string;
  readonly turnId: string;
  readonly epoch: number;
  readonly toolName: string;
  /**
   * What will run if approved: the validator's output (else the arguments as they arrived), a
   * deep-frozen JSON snapshot. Approved, `run` receives this very object.
   */
  readonly arguments: JsonValue;
  /** Aborts when the request is withdrawn (interrupt, close, server cancel): take the dialog down. */
  readonly signal: AbortSignal;
  /**
   * Set for a tool with `editable`: the person may edit the arguments; `schema` is the tool's JSON
   * Schema and `validate` its own check, whose `value` is what would run.
   */
  readonly editable?: AppToolEditing;
  /**
   * The tool as it is registered now: its name, description and declared JSON Schema. With its
   * descriptor it makes the tool's definition fingerprint, to which standing grants bind.
   */
  readonly definition?: { readonly name: string; readonly description?: string; readonly parameters?: Record<string, unknown> };
  /** The tool's output schema, where it declares one: a person's answer in its place is a form of it. */
  readonly outputSchema?: Record<string, unknown>;
}

/**
 * How the arguments of an editable app tool are checked while a person edits them (structurally
 * the confirmation flow's `ConfirmationEditing`).
 *
 * @example
 * const editing: AppToolEditing | undefined = request.editable;
 * const checked = await editing?.validate?.({ title: 'New' });
 */
export interface AppToolEditing {
  readonly schema?: Record<string, unknown>;
  readonly validate?: (draft: JsonValue) => Promise<AppToolEditCheck>;
}

/**
 * What the check of an edit found: the value that would run, or issues at their paths.
 *
 * @example
 * const check: AppToolEditCheck = { ok: false, issues: [{ path: ['title'], message: 'Required' }] };
 */
export type AppToolEditCheck =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly issues: readonly { readonly path: readonly (string | number)[]; readonly message: string }[] };

/**
 * The person's answer to an app tool's `confirm`: approved, or denied with a reason.
 *
 * @example
 * const answer: AppToolApproval = { approved: false, reason: 'not now' };
 */
export interface AppToolApproval {
  approved: boolean;
  reason?: string;
  /** The person's edit of the arguments (only for an `editable` tool): what runs instead, once checked again. */
  arguments?: JsonValue;
}

/**
 * Asks the user; resolves with their answer.
 *
 * @example
 * const requestApproval: AppToolApprovalHandler = async ({ toolName }) => ({ approved: window.confirm(`Run ${toolName}?`) });
 * const host = createAppToolHost({ requestApproval });
 */
export type AppToolApprovalHandler = (request: AppToolApprovalRequest) => Promise<AppToolApproval>;

/**
 * The clock behind time limits. Inject one in tests (see `createManualClock` in `toolgate/testing`).
 *
 * @example
 * const clock: AppToolClock = createManualClock(); // from toolgate/testing
 * const host = createAppToolHost({ clock, timeoutMs: 1_000 });
 */
export interface AppToolClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Told when `interrupt` ran: the turn asked for, and every turn whose open calls it aborted.
 *
 * @example
 * host.onInterrupt(({ turnIds, epoch }: AppToolInterrupt) => console.info('aborted', turnIds, 'floor', epoch));
 */
export interface AppToolInterrupt {
  readonly turnId: string | undefined;
  readonly turnIds: readonly string[];
  /** The epoch floor after the interrupt. */
  readonly epoch: number;
}

/**
 * Options of {@link createAppToolHost}.
 *
 * @example
 * const host = createAppToolHost({ timeoutMs: 10_000, onError: (reason, detail, code) => console.warn(code, reason, detail) } satisfies AppToolHostOptions);
 */
export interface AppToolHostOptions {
  /** The time limit of every tool without its own `timeoutMs`, in ms. Default 30 000; `Infinity` for none. */
  timeoutMs?: number;
  /** The starting epoch floor. Default 0. */
  epoch?: number;
  /** Time source for limits. Default: `performance.now` and the global timers. */
  clock?: AppToolClock;
  /**
   * What "one tick later" means for a deferred unregister. Default `queueMicrotask`: React's
   * StrictMode unmounts and remounts effects synchronously within one commit, so a microtask
   * already spans it, and a tool that really went away stops being reachable as soon as possible
   * (a `setTimeout(0)` window would let a call reach an unmounted component's closure).
   */
  defer?: (task: () => void) => void;
  /** Asks the user when a tool has `confirm`. Also settable later with `setApprovalHandler`. */
  requestApproval?: AppToolApprovalHandler;
  /** How many answered call ids keep their result for duplicates. Default 1000. */
  rememberResults?: number;
  /**
   * Where the calls the host runs are recorded so that they outlive the page: a page that resumes
   * its session after a reload answers a call that was running when the page went away `FAILED`
   * ("outcome unknown: the page reloaded while it ran") and never runs it again, answers one that
   * had its answer with that answer, and runs one that never began. A saved session's
   * `persistence.calls` (`<ToolgateProvider>` passes it for a session that has one). Default none.
   */
  savedCalls?: SavedCalls;
  /**
   * Told, in the kit's one shape `(reason, detail, code)`, of what goes wrong outside a call's own
   * result: a listener that throws (`listener-threw`), a tool whose JSON Schema cannot be derived
   * from its validator (`parameters-not-derived`). Default `console.error`.
   */
  onError?: ErrorReporter;
}

/**
 * The host. See {@link createAppToolHost}.
 *
 * @example
 * const host: AppToolHost = createAppToolHost();
 * const stop = host.subscribe(() => render(host.getState().tools));
 * host.interrupt('turn-3'); // aborts turn-3's calls now; older epochs never run
 */
export interface AppToolHost {
  /** Add a tool. Throws at once if its name is taken. Returns its unregister function (deferred one tick). */
  register<Args = Record<string, unknown>>(tool: AppTool<Args>): () => void;
  /** Run a call (queued behind the open ones). Resolves with its one result; never rejects. */
  call(request: AppToolCallRequest): Promise<ToolResult>;
  /** Abort a turn's running and queued calls (every open call without `turnId`) and raise the epoch floor. */
  interrupt(turnId?: string): void;
  /** Abort one open call with `result` (default INTERRUPTED); the server settled or cancelled it. */
  abortCall(callId: string, result?: ToolResult & { ok: false }): boolean;
  /** Abort every open call (INTERRUPTED), clear call state, and refuse calls from now on. Final. */
  close(): void;
  /** The epoch floor. */
  readonly epoch: number;
  readonly closed: boolean;
  /** `name`, `description`, `parameters` of every registered tool, in registration order. */
  declarations(): readonly ToolDeclaration[];
  /** Set (or clear) the approval handler; returns a function that restores the previous one. */
  setApprovalHandler(handler: AppToolApprovalHandler | undefined): () => void;
  /**
   * Be told of every change, with the new state and the one before (a zustand vanilla store's
   * `subscribe`). A listener that throws is reported through `onError` and stops nothing.
   */
  subscribe(listener: (state: AppToolHostState, previous: AppToolHostState) => void): () => void;
  getState(): AppToolHostState;
  /** The state before anything happened: the server snapshot for `useSyncExternalStore`. */
  getInitialState(): AppToolHostState;
  onInterrupt(listener: (interrupt: AppToolInterrupt) => void): () => void;
  /**
   * The result the host gave `callId` (also one answered at once, never run), while it remembers
   * it: the latest `rememberResults` answers, all forgotten on `close()`. A card reads an older
   * call's output here after its tool ran again.
   */
  resultOf(callId: string): ToolResult | undefined;
}
