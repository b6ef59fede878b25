/**
 * The app-tool host: runs the tools that live in the page when the session asks for them.
 *
 * Every rule here comes from seed 000 ("App tools", "Results", "Running one at a time",
 * "Cancellation and atomicity") and DESIGN.md ("App tools", "The session"):
 * - one run at a time, in arrival order; a call starts only after the previous one has its result;
 * - an aborted call already has its result, so the next may start while it winds down, but a run
 *   that was not aborted is never overlapped;
 * - exactly one result per call; a result that arrives after its call was aborted is dropped;
 * - interrupting a turn aborts its running and queued calls at once and raises the epoch floor:
 *   a call from an older epoch never runs.
 *
 * No React here (DESIGN "Layers"): the hook in `src/hooks` reads this through `subscribe`/`getState`.
 */

import { abortReason, describeFailure, failure, readString, snapshotJsonSafely } from './app-tools/answers';
import { describeThrown } from './external-store';
import { snapshotJson, type JsonValue } from './json-value';
import { checkJsonSchema } from './json-schema-check';
import { jsonSchemaFromValidator } from './json-schema-from-validator';
import { isStandardSchema, validateStandard, type StandardSchemaV1 } from './standard-schema';
import { isToolError } from './tool-error';
import type { AppToolCallMessage, ToolDeclaration, ToolResult } from './wire';

/* -------------------------------------------------------------------- types */

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
 * A tool's state for UI: `running` while one of its calls holds the one-at-a-time slot.
 *
 * @example
 * const status: AppToolStatus = host.getState().tools['set_title']?.status ?? 'idle';
 */
export type AppToolStatus = 'idle' | 'queued' | 'running';

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
}

/**
 * The person's answer to an app tool's `confirm`: approved, or denied with a reason.
 *
 * @example
 * const answer: AppToolApproval = { approved: false, reason: 'not now' };
 */
export interface AppToolApproval {
  approved: boolean;
  reason?: string;
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
 * const host = createAppToolHost({ timeoutMs: 10_000, onError: (error) => console.warn(error) } satisfies AppToolHostOptions);
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
  /** Called when a listener throws. Default `console.error`. */
  onError?: (error: unknown) => void;
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
  subscribe(listener: () => void): () => void;
  getState(): AppToolHostState;
  /** The state before anything happened: the server snapshot for `useSyncExternalStore`. */
  getInitialState(): AppToolHostState;
  onInterrupt(listener: (interrupt: AppToolInterrupt) => void): () => void;
}

/* ---------------------------------------------------------------- constants */

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

/* --------------------------------------------------------------- internals */

interface Registration {
  token: object;
  tool: AppTool<unknown>;
  declaration: ToolDeclaration;
  pendingRemoval: boolean;
  lastResult: AppToolState['lastResult'];
  view: AppToolState | undefined;
}

interface CallRecord {
  readonly callId: string;
  readonly turnId: string;
  readonly epoch: number;
  readonly name: string;
  /** The frozen copy taken when the call arrived; the caller's object is never read again. */
  readonly received: JsonValue;
  /** What runs and is shown: `received`, then the validator's frozen output. */
  args: JsonValue;
  readonly controller: AbortController;
  readonly resolve: (result: ToolResult) => void;
  status: AppCallStatus;
  progress: unknown;
  result: ToolResult | undefined;
  view: AppCallState | undefined;
  // the time limit, paused while waiting for approval
  limitMs: number;
  remaining: number;
  startedAt: number;
  timer: unknown;
  timerSet: boolean;
  /** Open `waitForPerson` waits: the clock stops at the first and starts again after the last. */
  personWaits: number;
}

/**
 * A mutable deep copy of a frozen snapshot, for a validator: some change their input in place
 * (ArkType's morphs throw on a frozen one), and none may touch the snapshot. `__proto__` keys
 * stay own keys (JSON.parse defines them as data).
 */
function thaw(value: JsonValue): unknown {
  return typeof value === 'object' && value !== null ? JSON.parse(JSON.stringify(value)) : value;
}

/**
 * The starting floor must be a safe integer like every epoch. The floor itself may then reach
 * 2^53 (`Number.MAX_SAFE_INTEGER + 1`, exact) after an interrupt at the largest epoch: every
 * epoch a call can carry is below it, and it is never added to, so nothing rounds.
 */
function checkEpoch(value: unknown): void {
  if (value !== undefined && !isEpoch(value)) {
    throw new TypeError(`epoch must be a safe integer (the starting floor), not ${describeEpoch(value)}`);
  }
}

/** Epochs are safe integers (DESIGN "The session": the server stamps each call with its epoch). */
function isEpoch(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

function describeEpoch(value: unknown): string {
  if (value === undefined) return 'none';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return value === null ? 'null' : `a ${typeof value}`;
}

function checkTimeout(value: unknown, what: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
    throw new TypeError(`${what} must be a positive number of ms (or Infinity), not ${String(value)}`);
  }
}

/* -------------------------------------------------------------------- host */

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
  const hostTimeout = options.timeoutMs ?? DEFAULT_APP_TOOL_TIMEOUT_MS;
  const clock = options.clock ?? defaultClock;
  const defer = options.defer ?? defaultDefer;
  const remember = Math.max(0, options.rememberResults ?? 1000);
  const reportError = options.onError ?? ((error: unknown) => console.error(error));
  let approvalHandler = options.requestApproval;

  const registry = new Map<string, Registration>();
  /** Open calls in arrival order. The one holding the slot, if any, is always the first. */
  const open = new Map<string, CallRecord>();
  /** How many open calls each tool name has, so a tool's state is built without a scan. */
  const openByName = new Map<string, number>();
  let active: CallRecord | null = null;
  checkEpoch(options.epoch);
  let floor = options.epoch ?? 0;
  let closed = false;
  let highestEpoch = floor - 1;
  const turnEpochs = new Map<string, number>();
  /** Interrupted turns (the latest 100): a late call of such a turn never runs, whatever its epoch. */
  const interruptedTurns = new Set<string>();
  /** Call id -> its one result's promise: a duplicate gets the same answer and never runs twice. */
  const known = new Map<string, Promise<ToolResult>>();
  const answered: string[] = [];
  let answeredHead = 0;
  /** Ids whose result was let go: a very late repeat still never runs twice (one string per call). */
  const forgotten = new Set<string>();

  const listeners = new Set<() => void>();
  const interruptListeners = new Set<(interrupt: AppToolInterrupt) => void>();
  let batchDepth = 0;
  let changed = false;
  let snapshot: AppToolHostState | undefined;
  let declarations: readonly ToolDeclaration[] = Object.freeze([]);

  const initialState: AppToolHostState = Object.freeze({
    epoch: floor,
    closed: false,
    tools: Object.freeze({}),
    calls: Object.freeze({}),
    queue: Object.freeze([]),
    declarations,
  });

  /* --------------------------------------------------------- notification */

  function touch(): void {
    snapshot = undefined;
    changed = true;
    if (batchDepth === 0) flush();
  }

  function batch(fn: () => void): void {
    batchDepth++;
    try {
      fn();
    } finally {
      batchDepth--;
      if (batchDepth === 0 && changed) flush();
    }
  }

  function flush(): void {
    changed = false;
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        // A broken listener must not break the queue or starve the other listeners.
        reportError(error);
      }
    }
  }

  function touchCall(record: CallRecord): void {
    record.view = undefined;
    touchTool(record.name);
  }

  function touchTool(name: string): void {
    const registration = registry.get(name);
    if (registration) registration.view = undefined;
    touch();
  }

  /* --------------------------------------------------------------- views */

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

  function toolView(registration: Registration): AppToolState {
    if (registration.view) return registration.view;
    const name = registration.declaration.name;
    const current = active !== null && active.name === name ? callView(active) : null;
    const queued = (openByName.get(name) ?? 0) - (current ? 1 : 0);
    registration.view = Object.freeze({
      name,
      status: current ? 'running' : queued > 0 ? 'queued' : 'idle',
      queued,
      current,
      lastResult: registration.lastResult,
    });
    return registration.view;
  }

  function getState(): AppToolHostState {
    if (snapshot) return snapshot;
    const tools: Record<string, AppToolState> = {};
    for (const [name, registration] of registry) {
      // defineProperty: a tool named `__proto__` must stay an own key.
      Object.defineProperty(tools, name, { value: toolView(registration), enumerable: true });
    }
    const calls: Record<string, AppCallState> = {};
    for (const [callId, record] of open) {
      Object.defineProperty(calls, callId, { value: callView(record), enumerable: true });
    }
    snapshot = Object.freeze({
      epoch: floor,
      closed,
      tools: Object.freeze(tools),
      calls: Object.freeze(calls),
      queue: Object.freeze([...open.keys()]),
      declarations,
    });
    return snapshot;
  }

  function refreshDeclarations(): void {
    const next: ToolDeclaration[] = [];
    for (const registration of registry.values()) next.push(registration.declaration);
    const same =
      next.length === declarations.length &&
      next.every((d, i) => {
        const prev = declarations[i];
        return prev !== undefined && declarationKeyOf(prev) === declarationKeyOf(d);
      });
    // Keep the same array when nothing a server sees changed, so a StrictMode remount announces nothing.
    if (!same) declarations = Object.freeze(next);
  }

  /* ------------------------------------------------------------- registry */

  const declarationKeys = new WeakMap<ToolDeclaration, string>();
  function declarationKeyOf(declaration: ToolDeclaration): string {
    return declarationKeys.get(declaration) ?? JSON.stringify(declaration);
  }

  function register<Args>(tool: AppTool<Args>): () => void {
    if (typeof tool !== 'object' || tool === null) throw new TypeError('register(tool): tool must be an object');
    const { name } = tool;
    if (typeof name !== 'string' || name === '') throw new TypeError('register(tool): tool.name must be a non-empty string');
    if (typeof tool.run !== 'function') throw new TypeError(`app tool "${name}": run must be a function`);
    if (tool.validate !== undefined && !isStandardSchema(tool.validate)) {
      throw new TypeError(`app tool "${name}": validate must be a Standard Schema validator (zod, valibot, ArkType, …)`);
    }
    if (tool.confirm !== undefined && typeof tool.confirm !== 'boolean' && typeof tool.confirm !== 'function') {
      throw new TypeError(`app tool "${name}": confirm must be a boolean or a function of the arguments`);
    }
    checkTimeout(tool.timeoutMs, `app tool "${name}": timeoutMs`);

    // The declaration goes over the wire, so its schema must be JSON (checked now, not at hello).
    const declaration: ToolDeclaration = { name };
    if (tool.description !== undefined) {
      if (typeof tool.description !== 'string') throw new TypeError(`app tool "${name}": description must be a string`);
      declaration.description = tool.description;
    }
    if (tool.parameters !== undefined) {
      const parameters = snapshotJson(tool.parameters);
      if (!parameters.ok || typeof parameters.value !== 'object' || parameters.value === null || Array.isArray(parameters.value)) {
        throw new TypeError(
          `app tool "${name}": parameters must be a JSON Schema object${parameters.ok ? '' : ` (${parameters.reason.replace(/^arguments/, 'parameters')})`}`,
        );
      }
      declaration.parameters = parameters.value as Record<string, unknown>;
    } else if (tool.validate !== undefined) {
      // Without parameters, the model still learns the arguments where the validator's library can say them.
      const derived = jsonSchemaFromValidator(tool.validate);
      if (derived?.ok) declaration.parameters = derived.schema;
      else if (derived) reportError(new TypeError(`app tool "${name}" is declared without parameters: ${derived.reason}. Give it parameters (a JSON Schema).`));
    }
    Object.freeze(declaration);
    declarationKeys.set(declaration, JSON.stringify(declaration));

    const existing = registry.get(name);
    if (existing && !existing.pendingRemoval) {
      throw new Error(
        `An app tool named "${name}" is already registered. Tool names must be unique: unregister the other one first or choose another name.`,
      );
    }
    const token = {};
    if (existing) {
      // A remount within the tick (StrictMode): take over the registration and keep its state.
      existing.token = token;
      existing.tool = tool as AppTool<unknown>;
      existing.declaration = declaration;
      existing.pendingRemoval = false;
      existing.view = undefined;
    } else {
      registry.set(name, {
        token,
        tool: tool as AppTool<unknown>,
        declaration,
        pendingRemoval: false,
        lastResult: null,
        view: undefined,
      });
    }
    refreshDeclarations();
    touch();

    let unregistered = false;
    return () => {
      if (unregistered) return;
      unregistered = true;
      const registration = registry.get(name);
      if (!registration || registration.token !== token) return;
      // DESIGN "The session": deferred one tick so a StrictMode remount does not drop a tool a call is about to reach.
      registration.pendingRemoval = true;
      defer(() => {
        const current = registry.get(name);
        if (!current || current.token !== token || !current.pendingRemoval) return;
        registry.delete(name);
        refreshDeclarations();
        touch();
      });
    };
  }

  /* ---------------------------------------------------------------- calls */

  function rememberAnswer(callId: string): void {
    if (!known.has(callId)) return;
    answered.push(callId);
    while (answered.length - answeredHead > remember) {
      const oldest = answered[answeredHead++];
      if (oldest !== undefined && known.delete(oldest)) forgotten.add(oldest);
    }
    if (answeredHead > 1024 && answeredHead * 2 > answered.length) {
      answered.splice(0, answeredHead);
      answeredHead = 0;
    }
  }

  function answerAtOnce(callId: string | undefined, result: ToolResult): Promise<ToolResult> {
    const promise = Promise.resolve(result);
    if (callId !== undefined) {
      known.set(callId, promise);
      rememberAnswer(callId);
    }
    return promise;
  }

  /** The fields of a call request, each read once (a getter may answer differently on a second read). */
  function readRequest(request: AppToolCallRequest): { callId: unknown; turnId: unknown; epoch: unknown; name: unknown; args: unknown } {
    const { callId, turnId, epoch, name, arguments: args } = request;
    return { callId, turnId, epoch, name, args };
  }

  function call(request: AppToolCallRequest): Promise<ToolResult> {
    if (typeof request !== 'object' || request === null) {
      return Promise.resolve(failure('INVALID', 'the call must be an object'));
    }
    let fields: ReturnType<typeof readRequest>;
    try {
      fields = readRequest(request);
    } catch (error) {
      return Promise.resolve(failure('INVALID', `the call could not be read: ${describeThrown(error)}`));
    }
    const { callId, turnId, epoch, name } = fields;
    if (typeof callId !== 'string' || callId === '') {
      return Promise.resolve(failure('INVALID', 'the call has no callId (a non-empty string)'));
    }
    if (closed) return Promise.resolve(failure('INTERRUPTED', 'the app-tool host is closed'));

    // seed: exactly one result per call. A repeat (a resend after a lost response) gets the
    // same answer instead of a second run or a contradicting FAILED.
    const seen = known.get(callId);
    if (seen) return seen;
    if (forgotten.has(callId)) {
      return Promise.resolve(failure('FAILED', `duplicate call ${callId}: it was answered long ago and is not run again`));
    }

    // The epoch gate (DESIGN "The session", seed 000 "Cancelled by: the client's epoch gate"):
    // a call of a dead turn is refused as such before anything else about it is looked at, so a
    // stale call with bad arguments answers INTERRUPTED, not INVALID. Only a call that gives no
    // usable epoch or turn cannot be gated, and is checked below.
    if (isEpoch(epoch) && epoch < floor) {
      return answerAtOnce(
        callId,
        failure('INTERRUPTED', `the call's epoch ${epoch} is below the gate's floor ${floor}: its turn was interrupted`),
      );
    }
    if (typeof turnId === 'string' && interruptedTurns.has(turnId)) {
      return answerAtOnce(callId, failure('INTERRUPTED', `turn ${turnId} was interrupted`));
    }

    if (typeof turnId !== 'string' || turnId === '') {
      return answerAtOnce(callId, failure('INVALID', 'the call has no turnId (a non-empty string)'));
    }
    // The gate compares epochs exactly, so it takes only safe integers: beyond 2^53 two epochs
    // can be the same number, and an interrupt could not raise the floor past the one it ends.
    // Such a call is malformed (INVALID), not interrupted: nothing says its turn was.
    if (!isEpoch(epoch)) {
      return answerAtOnce(callId, failure('INVALID', `the call's epoch must be a safe integer, got ${describeEpoch(epoch)}`));
    }
    if (typeof name !== 'string' || name === '') {
      return answerAtOnce(callId, failure('INVALID', 'the call has no tool name (a non-empty string)'));
    }
    const { args } = fields;
    const got = kindOfArguments(args);
    if (got !== 'an object') return answerAtOnce(callId, failure('INVALID', `arguments must be a JSON object, got ${got}`));
    // The one read of the caller's object: from here on the call holds its own frozen copy, so
    // what the caller changes later reaches neither the state, nor the person, nor `run`.
    const received = snapshotJsonSafely(args, 'arguments');
    if (!received.ok) return answerAtOnce(callId, failure('INVALID', received.reason));

    if (epoch > highestEpoch) highestEpoch = epoch;
    const turnEpoch = Math.max(turnEpochs.get(turnId) ?? epoch, epoch);
    turnEpochs.delete(turnId); // re-insert: the map stays in order of last use
    turnEpochs.set(turnId, turnEpoch);
    if (turnEpochs.size > 1000) {
      // Only recent turns get interrupted; an old one falls back to the newest epoch seen.
      const oldest = turnEpochs.keys().next().value;
      if (oldest !== undefined) turnEpochs.delete(oldest);
    }

    let resolve!: (result: ToolResult) => void;
    const promise = new Promise<ToolResult>((r) => {
      resolve = r;
    });
    const record: CallRecord = {
      callId,
      turnId,
      epoch,
      name,
      received: received.value,
      args: received.value,
      controller: new AbortController(),
      resolve,
      status: 'queued',
      progress: undefined,
      result: undefined,
      view: undefined,
      limitMs: Infinity,
      remaining: Infinity,
      startedAt: 0,
      timer: undefined,
      timerSet: false,
      personWaits: 0,
    };
    known.set(callId, promise);
    open.set(callId, record);
    openByName.set(name, (openByName.get(name) ?? 0) + 1);
    touchCall(record);
    pump();
    return promise;
  }

  /**
   * Give the slot to the next call when it is free. `execute` starts after a microtask, so this
   * never runs user code re-entrantly and 1,000 quick answers in a row do not grow the stack.
   */
  function pump(): void {
    if (active !== null || closed) return;
    const next = open.values().next();
    if (next.done) return;
    active = next.value;
    setStatus(next.value, 'validating');
    execute(next.value);
  }

  function setStatus(record: CallRecord, status: AppCallStatus): void {
    record.status = status;
    touchCall(record);
  }

  /**
   * Run one call to its one result. Each step settles what it can name itself; anything that
   * still escapes (a value no step foresaw) is answered here, at once, as FAILED: a call never
   * waits for its time limit because reading a thrown value threw, and nothing is left unhandled.
   */
  function execute(record: CallRecord): void {
    runCall(record).catch((error: unknown) => {
      settle(record, failure('FAILED', `"${record.name}" could not be run to a result: ${describeThrown(error)}`));
    });
  }

  async function runCall(record: CallRecord): Promise<void> {
    // Start outside `call()` and outside another call's settle: user code never runs re-entrantly.
    await undefined;
    if (record.result) return;
    if (record.epoch < floor) {
      settle(record, failure('INTERRUPTED', `the call's epoch ${record.epoch} is below the gate's floor ${floor}`));
      return;
    }
    const registration = registry.get(record.name);
    if (!registration) {
      settle(record, failure('FAILED', `no app tool named "${record.name}" is registered in this page`));
      return;
    }
    // Hold this registration's tool: an unregister while the call runs does not change what runs.
    const tool = registration.tool;
    startClock(record, tool.timeoutMs ?? hostTimeout);

    const args = await checkArguments(record, tool);
    if (args === undefined || record.result) return;
    // From here `args` is the one object the state shows, the person reviews and `run` receives.
    record.args = args;
    touchCall(record);
    if (!(await approve(record, tool, args))) return;

    setStatus(record, 'running');
    let output: unknown;
    try {
      output = await tool.run(args, contextOf(record, tool));
    } catch (error) {
      if (record.result) return; // seed: a result after abort is dropped
      settle(record, thrownResult(tool.name, error));
      return;
    }
    if (record.result) return; // seed: a result after abort is dropped
    // seed: a tool that returns nothing answers with output: null.
    const json = snapshotJsonSafely(output === undefined ? null : output, 'output');
    if (!json.ok) {
      settle(record, failure('FAILED', `the output of "${tool.name}" cannot be sent as JSON: ${json.reason}`));
      return;
    }
    settle(record, Object.freeze({ ok: true as const, output: json.value }));
  }

  /**
   * DESIGN "App tools": arguments that break the JSON Schema or the validator answer INVALID and
   * never run. Returns what runs (the validator's frozen output, else the arrival snapshot), or
   * `undefined` once the call is settled.
   */
  async function checkArguments(record: CallRecord, tool: AppTool<unknown>): Promise<JsonValue | undefined> {
    // The JSON Schema is what the model was told, so it judges the arguments the model sent.
    if (tool.parameters !== undefined) {
      const checked = checkJsonSchema(tool.parameters, record.received);
      if (!checked.ok) {
        settle(record, failure('INVALID', checked.message));
        return undefined;
      }
    }
    if (!tool.validate) return record.received;
    const input = thaw(record.received);
    let validated;
    try {
      validated = await validateStandard(tool.validate, input);
    } catch (error) {
      settle(record, failure('FAILED', `the validator of "${tool.name}" threw: ${describeFailure(error)}`));
      return undefined;
    }
    if (record.result) return undefined;
    if (!validated.ok) {
      settle(record, failure('INVALID', validated.message));
      return undefined;
    }
    // What the person reviews and `run` receives must be the same plain value: a validator whose
    // output JSON cannot carry (a Date, a Map, a function) is a bug in the tool, not bad input.
    const output = snapshotJsonSafely(validated.value, 'arguments');
    if (!output.ok) {
      settle(
        record,
        failure('FAILED', `the validator of "${tool.name}" gave a value that is not JSON (${output.reason}); what runs must be what can be shown`),
      );
      return undefined;
    }
    return output.value;
  }

  /** Ask the person when the tool says so. True when the call may run; otherwise it is settled. */
  async function approve(record: CallRecord, tool: AppTool<unknown>, args: JsonValue): Promise<boolean> {
    let needsApproval: boolean;
    try {
      needsApproval = typeof tool.confirm === 'function' ? tool.confirm(args) === true : tool.confirm === true;
    } catch (error) {
      settle(record, failure('FAILED', `confirm of "${tool.name}" threw: ${describeFailure(error)}`));
      return false;
    }
    if (!needsApproval) return true;
    // DESIGN "App tools": time spent waiting for approval does not count against the limit.
    pauseClock(record);
    setStatus(record, 'awaiting-approval');
    const handler = approvalHandler;
    if (!handler) {
      settle(record, failure('REJECTED', `"${tool.name}" needs the user's approval and nothing in this page can ask for it`));
      return false;
    }
    let answer: { approved: boolean; reason: string };
    try {
      answer = readApproval(
        await handler(
          Object.freeze({
            callId: record.callId,
            turnId: record.turnId,
            epoch: record.epoch,
            toolName: record.name,
            arguments: args,
            signal: record.controller.signal,
          }),
        ),
      );
    } catch (error) {
      settle(record, failure('FAILED', `asking for approval failed: ${describeFailure(error)}`));
      return false;
    }
    // Withdrawn while waiting (interrupt, close): the call already has INTERRUPTED.
    if (record.result) return false;
    if (!answer.approved) {
      settle(record, failure('REJECTED', answer.reason === '' ? 'declined by the user' : `declined by the user: ${answer.reason}`));
      return false;
    }
    resumeClock(record);
    return true;
  }

  function contextOf(record: CallRecord, tool: AppTool<unknown>): AppToolContext {
    return Object.freeze({
      signal: record.controller.signal,
      callId: record.callId,
      turnId: record.turnId,
      epoch: record.epoch,
      emit: (progress: unknown) => {
        if (record.result) return; // late progress of an aborted run is dropped like its result
        record.progress = progress;
        touchCall(record);
      },
      waitForPerson: async <T>(answer: PromiseLike<T>): Promise<T> => {
        if (tool.waitsForPerson !== true) return answer;
        if (record.personWaits++ === 0) pauseClock(record);
        try {
          return await answer;
        } finally {
          if (--record.personWaits === 0) resumeClock(record);
        }
      },
    });
  }

  /* ---------------------------------------------------------------- clock */

  function startClock(record: CallRecord, limitMs: number): void {
    record.limitMs = limitMs;
    record.remaining = limitMs;
    resumeClock(record);
  }

  function resumeClock(record: CallRecord): void {
    if (record.timerSet || !Number.isFinite(record.remaining) || record.result) return;
    record.startedAt = clock.now();
    record.timerSet = true;
    record.timer = clock.setTimeout(() => {
      record.timerSet = false;
      abortRecord(
        record,
        failure('TIMEOUT', `no result within ${record.limitMs} ms`),
        abortReason(`timed out after ${record.limitMs} ms`, 'TimeoutError'),
      );
    }, record.remaining);
  }

  function pauseClock(record: CallRecord): void {
    if (!record.timerSet) return;
    clock.clearTimeout(record.timer);
    record.timerSet = false;
    record.remaining = Math.max(0, record.remaining - (clock.now() - record.startedAt));
  }

  /* --------------------------------------------------------------- settle */

  /** Give a call its one result. Returns false when it already had one. */
  function settle(record: CallRecord, result: ToolResult): boolean {
    if (record.result) return false;
    record.result = result;
    if (record.timerSet) {
      clock.clearTimeout(record.timer);
      record.timerSet = false;
    }
    open.delete(record.callId);
    const left = (openByName.get(record.name) ?? 1) - 1;
    if (left > 0) openByName.set(record.name, left);
    else openByName.delete(record.name);
    const registration = registry.get(record.name);
    if (registration) {
      registration.lastResult = Object.freeze({ callId: record.callId, result });
    }
    // Free the slot before listeners hear of it: one reading `getState()` while notified must
    // not build (and cache) a view where the settled call still runs.
    const held = active === record;
    if (held) active = null;
    touchCall(record);
    rememberAnswer(record.callId);
    record.resolve(result);
    if (held) pump();
    return true;
  }

  /** Settle and abort: the run (if any) winds down on its own; the next call may start now. */
  function abortRecord(record: CallRecord, result: ToolResult, reason: unknown): boolean {
    if (!settle(record, result)) return false;
    // Abort after settling, so a listener on the signal already sees the call answered.
    record.controller.abort(reason);
    return true;
  }

  /* ------------------------------------------------------------ interrupt */

  function interrupt(turnId?: string): void {
    if (turnId !== undefined && (typeof turnId !== 'string' || turnId === '')) {
      throw new TypeError('interrupt(turnId): turnId must be a non-empty string');
    }
    const aborted = new Set<string>();
    batch(() => {
      // Raise the floor past the interrupted turn's epoch (or the newest seen, when the turn
      // has not reached the page yet or every turn is interrupted).
      const turnEpoch = turnId === undefined ? highestEpoch : (turnEpochs.get(turnId) ?? highestEpoch);
      if (turnEpoch + 1 > floor) floor = turnEpoch + 1;
      if (turnId !== undefined) {
        interruptedTurns.add(turnId);
        if (interruptedTurns.size > 100) {
          const oldest = interruptedTurns.values().next().value;
          if (oldest !== undefined) interruptedTurns.delete(oldest);
        }
      }
      for (const [turn, epoch] of turnEpochs) if (epoch < floor) turnEpochs.delete(turn);

      // At once, without waiting for anyone (DESIGN "App tools"). Every open call below the new
      // floor goes too: it could never run anyway.
      for (const record of [...open.values()]) {
        if (turnId === undefined || record.turnId === turnId || record.epoch < floor) {
          const message = record.turnId === turnId || turnId === undefined ? `turn ${record.turnId} was interrupted` : `the call's epoch ${record.epoch} is below the gate's floor ${floor}`;
          if (abortRecord(record, failure('INTERRUPTED', message), abortReason(message, 'AbortError'))) aborted.add(record.turnId);
        }
      }
      touch();
    });
    const event: AppToolInterrupt = Object.freeze({
      turnId,
      turnIds: Object.freeze(turnId === undefined ? [...aborted] : [turnId, ...[...aborted].filter((t) => t !== turnId)]),
      epoch: floor,
    });
    for (const listener of [...interruptListeners]) {
      try {
        listener(event);
      } catch (error) {
        reportError(error);
      }
    }
  }

  function abortCall(callId: string, result?: ToolResult & { ok: false }): boolean {
    const record = open.get(callId);
    if (!record) return false;
    const answer = result ? failure(result.code, result.message ?? `call ${callId} was aborted`) : failure('INTERRUPTED', `call ${callId} was cancelled`);
    let done = false;
    batch(() => {
      done = abortRecord(record, answer, abortReason(answer.message ?? 'aborted', 'AbortError'));
    });
    return done;
  }

  function close(): void {
    if (closed) return;
    batch(() => {
      closed = true;
      // DESIGN "App tools": on `closed`, every open call is aborted and all app-tool state is cleared.
      for (const record of [...open.values()]) {
        abortRecord(record, failure('INTERRUPTED', 'the session closed'), abortReason('the session closed', 'AbortError'));
      }
      active = null;
      for (const registration of registry.values()) {
        registration.lastResult = null;
        registration.view = undefined;
      }
      known.clear();
      forgotten.clear();
      answered.length = 0;
      answeredHead = 0;
      turnEpochs.clear();
      interruptedTurns.clear();
      touch();
    });
  }

  return {
    register,
    call,
    interrupt,
    abortCall,
    close,
    get epoch() {
      return floor;
    },
    get closed() {
      return closed;
    },
    declarations: () => declarations,
    setApprovalHandler(handler) {
      const previous = approvalHandler;
      approvalHandler = handler;
      return () => {
        if (approvalHandler === handler) approvalHandler = previous;
      };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getState,
    getInitialState: () => initialState,
    onInterrupt(listener) {
      interruptListeners.add(listener);
      return () => {
        interruptListeners.delete(listener);
      };
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

/** What the arguments are, for the message that refuses them; never throws (a revoked Proxy is no array). */
function kindOfArguments(args: unknown): string {
  if (args === null) return 'null';
  if (typeof args !== 'object') return typeof args;
  try {
    return Array.isArray(args) ? 'an array' : 'an object';
  } catch {
    return 'a revoked Proxy';
  }
}

/**
 * The person's answer, each field read once and never trusted: anything but `approved: true` is a
 * no. Throws only when the answer cannot be read at all (a Proxy whose traps throw).
 */
function readApproval(answer: unknown): { approved: boolean; reason: string } {
  if (typeof answer !== 'object' || answer === null) return { approved: false, reason: '' };
  const { approved } = answer as { approved?: unknown };
  return { approved: approved === true, reason: approved === true ? '' : (readString(() => (answer as { reason?: unknown }).reason) ?? '') };
}

/** A value `run` threw: its own code for a `ToolError`, else FAILED; described without ever throwing. */
function thrownResult(toolName: string, error: unknown): ToolResult & { ok: false } {
  if (isToolError(error)) {
    const code = readString(() => error.code);
    if (code === 'INVALID' || code === 'REJECTED') return failure(code, readString(() => error.message) ?? '');
  }
  return failure('FAILED', `"${toolName}" threw: ${describeFailure(error)}`);
}
