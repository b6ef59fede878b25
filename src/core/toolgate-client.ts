/**
 * `createToolgate()`: the one object a page makes for one agent session, outside React. It owns
 * the tool-call store, the app-tool host and the approvals, and it is the only place they are
 * wired to each other and to a session: `<ToolgateProvider>` and both bridges go through it.
 * See docs/architecture.md "The client".
 *
 * (Named `toolgate-client.ts`, not `client.ts`: `src/client/` is the reference server's
 * WebSocket client, another thing.)
 */
import type { AppToolHost, AppToolHostOptions } from './app-tools/app-tool-host';
import { createDeferredAppToolHost } from './app-tools/deferred-app-tool-host';
import { mirrorApprovalRecords } from './approval/approval-mirror';
import { bindAppToolHost } from './app-tools/bind-session';
import { connectApprovalGate, createAppToolApprovalHandler } from './approval/confirmation-bridges';
import { createDeferredConfirmationController } from './approval/deferred-confirmation-controller';
import type { ApprovalPolicy, ConfirmationController, ConfirmationControllerOptions } from './approval/confirmation-controller-types';
import { feederOf } from './audit/audit-feed-key';
import type { AuditLog } from './audit/audit-log';
import { describeThrown, reportListenerError, type ErrorReporter } from './external-store';
import type { ToolSession } from './session/tool-session';
import { keepGrants, type SessionPersistence } from './session/session-persistence';
import { createToolStreamStore, type ToolStreamStore, type ToolStreamStoreOptions, type ToolStreamTapEntry } from './stream/store';
import type { AppToolCallMessage, ClientMessage } from './wire';

/**
 * Options of {@link createToolgate}. Each part is made by the client unless one made elsewhere is
 * given (then the client wires it all the same).
 *
 * @example
 * const options: ToolgateOptions = { storeOptions: { coalesce: 'frame' }, hostOptions: { timeoutMs: 10_000 }, onError: (reason, detail, code) => console.warn(code, reason) };
 */
export interface ToolgateOptions {
  /** A tool-call store made elsewhere (`createToolStreamStore`); otherwise one is made with `storeOptions`. */
  calls?: ToolStreamStore;
  /** Options of the store the client makes (`coalesce`, `previewMode`, …). */
  storeOptions?: ToolStreamStoreOptions;
  /** An app-tool host made elsewhere; otherwise one is made with `hostOptions`. */
  host?: AppToolHost;
  /** Options of the host the client makes (`timeoutMs`, …). */
  hostOptions?: AppToolHostOptions;
  /** A confirmation controller made elsewhere; otherwise one is made with `approvalOptions`. */
  approvals?: ConfirmationController;
  /** Options of the controller the client makes (`room`, `clock`, `grants`, …). */
  approvalOptions?: ConfirmationControllerOptions;
  /**
   * Policy rules that answer approval requests before a person sees them (`createApprovalPolicy`
   * from `toolgate/policy`), for the controller the client makes. A function from that entry, not
   * rules alone: `toolgate/core` never loads the shell parser itself (docs/architecture.md, "Policies").
   */
  policy?: ApprovalPolicy;
  /**
   * Where the session is kept across a reload: the host the client makes records the calls it
   * runs there (a call that was running when the page went away is never run again), and each
   * connected session keeps its standing grants there. Default: the connected session's own
   * `persistence` for the grants.
   */
  persistence?: SessionPersistence;
  /**
   * The audit log the client appends to, for every call that involved a decision: `requested`,
   * `decided` (kind, by whom, the rule, the reason), `ran` (what ran) and `settled` (its result
   * code and output). `client.approvals` is then the audited controller (docs/architecture.md "The client").
   * A log made by `createAuditLog` (one made otherwise is told to `onError` as `audit-refused`).
   */
  audit?: AuditLog;
  /** The JSON Schema of a server tool's arguments, by name: an editable request's editor is then a form of its fields. */
  schemaOf?: (toolName: string) => Record<string, unknown> | undefined;
  /**
   * Told of what was refused or went wrong, as `(reason, detail, code)`, by every part the client
   * makes and by the session wiring (`session-binding`, `malformed-approval-request`, …).
   */
  onError?: ErrorReporter;
}

/**
 * What {@link createToolgate} returns: the parts, and the one place they meet a session.
 *
 * @example
 * const client: ToolgateClient = createToolgate();
 * const disconnect = client.connect(session);
 * client.calls.getState().order; // the calls the session has shown
 */
export interface ToolgateClient {
  /** The tool-call store: what every card and list reads. */
  readonly calls: ToolStreamStore;
  /** Runs the page's app tools (`useAppTool` registers there). */
  readonly host: AppToolHost;
  /**
   * The approvals a person answers: the confirmation queue, with its standing grants at
   * `approvals.grants` and one approval record per call at `approvals.records` (read it with
   * `selectApprovalRecord`, or `useCallApproval(callId).record` in React).
   */
  readonly approvals: ConfirmationController;
  /** The audit log given as `options.audit`, which every decided call is recorded in; `undefined` without one. */
  readonly audit: AuditLog | undefined;
  /**
   * Wire a session: its events into the store, its app-tool calls through the host's epoch gate
   * (results, `hello`, `tools.update` and interrupts back), its approval requests into the queue
   * and their answers back, once each. Returns the function that disconnects (what is queued
   * stays to be answered; the parts stay usable, so a StrictMode remount connects again).
   */
  connect(session: ToolSession): () => void;
  /**
   * Attach what the client wires into parts made elsewhere (a given host asks the client's
   * approvals) until the returned function is called; `connect` does it for its own duration.
   * `<ToolgateProvider>` mounts its client while it is mounted, as TanStack Query's provider does.
   */
  mount(): () => void;
  /** Disconnect every session, withdraw the approvals still waiting and close the host: the client is done. */
  close(): void;
  /**
   * Hear of everything that passes through the client, in order: each event the store takes (a
   * session's or the page's own, with the reducer's verdict and the state after it), each
   * app-tool call a connected session asks for, each message the page sends back, and each
   * error the client reports. For tools that watch a session (`toolgate/devtools`): with no
   * listener the client does no work for it. Returns the function that removes the listener.
   */
  onEvent(listener: ToolgateEventListener): () => void;
}

/**
 * What a {@link ToolgateClient.onEvent} listener hears: an event the store took (`session` or
 * `page`, see {@link ToolStreamTapEntry}), an app-tool call a session asked for (`tool-call`), a
 * message the page sent to a session (`answer`: results, approvals, interrupts, `hello`), or an
 * error the client reported (`error`). `at` is the store's clock.
 *
 * @example
 * client.onEvent((entry) => { if (entry.source === 'answer') console.log('sent', entry.message); });
 */
export type ToolgateEvent =
  | ToolStreamTapEntry
  | { readonly source: 'tool-call'; readonly message: AppToolCallMessage; readonly at: number }
  | { readonly source: 'answer'; readonly message: ClientMessage; readonly at: number }
  | { readonly source: 'error'; readonly reason: string; readonly detail: unknown; readonly code: string; readonly at: number };

/**
 * A listener of {@link ToolgateClient.onEvent}.
 *
 * @example
 * const listener: ToolgateEventListener = (entry) => log.push(entry);
 */
export type ToolgateEventListener = (entry: ToolgateEvent) => void;

/**
 * Make the store, host and approvals for one agent session and wire them to each other: an app
 * tool with `confirm` asks the client's approvals, and each call's card shows where its approval
 * stands. Make it once, outside React (as TanStack Query's `QueryClient`), and give it to
 * `<ToolgateProvider client>` or a bridge's `client` option.
 *
 * @example
 * const client = createToolgate({ storeOptions: { coalesce: 'frame' } });
 * const disconnect = client.connect(session);
 * // <ToolgateProvider client={client}><ToolCallList /><ConfirmToolDialog /></ToolgateProvider>
 * disconnect();
 * client.close();
 */
export function createToolgate(options: ToolgateOptions = {}): ToolgateClient {
  const now = options.storeOptions?.now ?? Date.now;
  // Listeners of `onEvent` (the devtools): each path below checks the set's size first, so a
  // client nobody watches does no work for them.
  const listeners = new Set<ToolgateEventListener>();
  const tell = (entry: ToolgateEvent): void => {
    for (const listener of listeners) {
      try {
        listener(entry);
      } catch (error) {
        reportListenerError(error, options.onError, 'a listener of client.onEvent');
      }
    }
  };
  // The store's refusals reach the listeners with the event itself (its verdict), not twice.
  const storeReport: ErrorReporter = (reason, detail, code) => options.onError?.(reason, detail, code);
  const report: ErrorReporter = (reason, detail, code) => {
    storeReport(reason, detail, code);
    if (listeners.size > 0) tell({ source: 'error', reason, detail, code, at: now() });
  };
  const calls = options.calls ?? createToolStreamStore({ onError: storeReport, ...options.storeOptions });
  const controller =
    options.approvals ??
    // The flow loads on the first request: a page that is never asked to approve never loads it.
    createDeferredConfirmationController({ onError: report, ...(options.policy === undefined ? {} : { policy: options.policy }), ...options.approvalOptions });
  // Every request goes through the client's approvals, so that is where the audit log is fed.
  const feeder = options.audit === undefined ? undefined : feederOf(options.audit);
  if (options.audit !== undefined && feeder === undefined) report('the audit log was not made by createAuditLog: nothing is recorded in it', options.audit, 'audit-refused');
  const feed = feeder?.(controller, { calls, onError: report });
  const approvals = feed?.approvals ?? controller;
  // Each call shows its approval record: the approvals write it, and this is the one mirror of it
  // into the call store (docs/architecture.md, "The approval record").
  mirrorApprovalRecords(controller.records, calls);
  // `calls`: an approval is bound to the call's tool as the store holds it when approved.
  const approvalHandler = createAppToolApprovalHandler(approvals, { calls });
  const host =
    options.host ??
    // The part that runs calls loads on the first call: a page with no app tool never loads it.
    createDeferredAppToolHost({
      onError: report,
      requestApproval: approvalHandler,
      ...(options.persistence === undefined ? {} : { savedCalls: options.persistence.calls }),
      ...options.hostOptions,
    });
  // A host made elsewhere is told of the approvals only while the client is mounted: making a
  // client changes nothing outside it (React may make one during a render and drop it).
  let mounts = 0;
  let restoreApprovals = (): void => {};
  const mount = (): (() => void) => {
    if (options.host !== undefined && mounts++ === 0) restoreApprovals = host.setApprovalHandler(approvalHandler);
    let mounted = true;
    return () => {
      if (!mounted) return;
      mounted = false;
      if (options.host !== undefined && --mounts === 0) restoreApprovals();
    };
  };
  const connections = new Set<() => void>();

  const connect = (session: ToolSession): (() => void) => {
    // A session kept across a reload keeps its standing grants too: given back before the session's
    // replay and the requests sent again meet them, saved on every change.
    const persistence = options.persistence ?? session.persistence;
    const unmount = mount();
    const stopGrants = persistence === undefined ? () => {} : keepGrants(persistence, approvals.grants);
    const stopEvents = session.subscribe((event) => calls.getState().dispatch(event));
    const watched = watchSession(session, {
      call: (message) => listeners.size > 0 && tell({ source: 'tool-call', message, at: now() }),
      send: (message) => listeners.size > 0 && tell({ source: 'answer', message, at: now() }),
    });
    const unbind = bindAppToolHost(watched, host, {
      // The binding reports a thrown value (a failed send, a call it cannot answer): described here.
      onError: (error: unknown) => report(describeThrown(error), error, 'session-binding'),
      lastSeq: () => calls.getState().lastSeq,
    });
    // `calls`: an approval whose call ended here (the turn was interrupted, the server settled it) is withdrawn.
    const stopGate = connectApprovalGate(watched, approvals, {
      onError: report,
      calls,
      ...(options.schemaOf === undefined ? {} : { schemaOf: options.schemaOf }),
    });
    let connected = true;
    const disconnect = (): void => {
      if (!connected) return;
      connected = false;
      connections.delete(disconnect);
      stopGate();
      unbind();
      stopEvents();
      stopGrants();
      unmount();
    };
    connections.add(disconnect);
    return disconnect;
  };

  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    for (const disconnect of [...connections]) disconnect();
    approvals.withdrawAll('the client closed');
    host.close();
    // After the withdrawals: a call still running then ends with no `settled` record (it never ended here).
    feed?.stop();
  };

  let untap = (): void => {};
  const onEvent = (listener: ToolgateEventListener): (() => void) => {
    if (listeners.size === 0) untap = calls.tap(tell);
    listeners.add(listener);
    let listening = true;
    return () => {
      if (!listening) return;
      listening = false;
      listeners.delete(listener);
      if (listeners.size === 0) untap();
    };
  };

  return { calls, host, approvals, audit: options.audit, mount, connect, close, onEvent };
}

/**
 * The session as the client's wiring sees it: the same session, whose app-tool calls and sends
 * are also told to `watch`. Methods are bound to the session itself (a class with private fields
 * keeps working).
 */
function watchSession(session: ToolSession, watch: { call(message: AppToolCallMessage): unknown; send(message: ClientMessage): unknown }): ToolSession {
  const send = (message: ClientMessage): void => {
    session.send(message);
    watch.send(message);
  };
  const onToolCall = (handler: (call: AppToolCallMessage) => void): (() => void) =>
    session.onToolCall((message) => {
      watch.call(message);
      handler(message);
    });
  return new Proxy(session, {
    get(target, key) {
      if (key === 'send') return send;
      if (key === 'onToolCall') return onToolCall;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
