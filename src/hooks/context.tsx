import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { createAppToolHost, type AppToolHost, type AppToolHostOptions } from '../core/app-tool-host';
import { bindAppToolHost } from '../core/bind-session';
import { connectApprovalGate, createAppToolApprovalHandler } from '../core/confirmation-bridges';
import { createConfirmationController, type ConfirmationController } from '../core/confirmation-machine';
import type { PreviewMode } from '../core/legacy-preview';
import type { ToolRoom } from '../core/room';
import type { ToolSession } from '../core/session';
import { createToolStreamStore, type ToolStreamStore, type ToolStreamStoreOptions } from '../core/store';
import { TOOL_STREAM_CAPABILITY } from '../core/wire';
import { ToolRenderersContext, type ToolRenderers } from './tool-renderers';
import { watchAppToolResults } from './use-app-tool-call';

/**
 * What `<ToolgateProvider>` shares with the hooks and components below it.
 *
 * @example
 * const { store, host, confirmations }: ToolgateContextValue = useToolgateContext()!;
 */
export interface ToolgateContextValue {
  store: ToolStreamStore;
  session: ToolSession | undefined;
  /** Runs this page's app tools (one per session: a closed host stays closed). */
  host: AppToolHost;
  /** The approvals waiting for a person: app tools with `confirm`, the server's gate, room writes. */
  confirmations: ConfirmationController;
}

const ToolgateContext = createContext<ToolgateContextValue | null>(null);

/**
 * Props of {@link ToolgateProvider}.
 *
 * @example
 * const props: ToolgateProviderProps = { session, room, storeOptions: { coalesce: 'frame' }, hostOptions: { timeoutMs: 10_000 } };
 * <ToolgateProvider {...props}><ToolCallList /></ToolgateProvider>
 */
export interface ToolgateProviderProps {
  /** The session whose events fill the store and whose calls run the app tools. A new session object starts afresh. */
  session?: ToolSession;
  /** A store created outside React (`createToolStreamStore`); otherwise one is made per session. */
  store?: ToolStreamStore;
  /** An app-tool host created outside React; otherwise one is made per session. */
  host?: AppToolHost;
  /** A confirmation controller created outside React; otherwise one is made per session. */
  confirmations?: ConfirmationController;
  /** The room the confirmation flow confirms and invokes in (for the controller the provider makes). */
  room?: ToolRoom;
  /** Options of the store the provider makes. */
  storeOptions?: ToolStreamStoreOptions;
  /** Options of the host the provider makes (`timeoutMs`, …). */
  hostOptions?: AppToolHostOptions;
  /**
   * Told of events and messages that were refused: malformed, unknown call, a frame naming the
   * page's own events, failed sends. `code` says why, where the part that refused gives one (the
   * tool-call store's codes: `malformed`, `unknown-call`, `local-only`, …).
   */
  onError?: (reason: string, detail?: unknown, code?: string) => void;
  /** Each tool's own view, by tool name, for every `<ToolCallList>` below (see `defineToolRenderer`). */
  renderers?: ToolRenderers;
  children?: ReactNode;
}

/**
 * Puts a session's store, app-tool host and confirmation queue in context, and wires them to the
 * session: events into the store, app-tool calls through the host's epoch gate, the server's
 * approval requests into the confirmation queue. Everything is created once per session, never
 * per render; a new session object gets new ones, so nothing of a closed session leaks.
 *
 * @example
 * <ToolgateProvider session={session} room={room}>
 *   <ToolCallList />
 *   <ConfirmToolDialog />
 * </ToolgateProvider>
 */
export function ToolgateProvider(props: ToolgateProviderProps) {
  const { session, onError } = props;
  const report = useLatest(onError);
  const own = usePerSession(props, report);
  const value = useStableValue({
    store: props.store ?? own.store,
    session,
    host: props.host ?? own.host,
    confirmations: props.confirmations ?? own.confirmations,
  });
  useSessionWiring(value, report);
  return (
    <ToolgateContext.Provider value={value}>
      <ToolRenderersContext.Provider value={props.renderers}>{props.children}</ToolRenderersContext.Provider>
    </ToolgateContext.Provider>
  );
}

/**
 * The provider's value, or `null` outside a provider.
 *
 * @example
 * const inside = useToolgateContext() !== null; // render a hint when used outside a provider
 */
export function useToolgateContext(): ToolgateContextValue | null {
  return useContext(ToolgateContext);
}

/**
 * The store of the nearest provider (or `explicit`); a clear error when there is neither.
 *
 * @example
 * const store = useToolgateStore();
 * const stop = () => store.getState().interrupt();
 */
export function useToolgateStore(explicit?: ToolStreamStore): ToolStreamStore {
  const context = useContext(ToolgateContext);
  const store = explicit ?? context?.store;
  if (store === undefined) throw missing('store', 'createToolStreamStore()');
  return store;
}

/**
 * The app-tool host of the nearest provider (or `explicit`).
 *
 * @example
 * const host = useAppToolHost();
 * const busy = useStoreSelector(host, (s) => s.queue.length > 0);
 */
export function useAppToolHost(explicit?: AppToolHost): AppToolHost {
  const context = useContext(ToolgateContext);
  const host = explicit ?? context?.host;
  if (host === undefined) throw missing('app-tool host', 'createAppToolHost()');
  return host;
}

/**
 * The confirmation controller of the nearest provider (or `explicit`).
 *
 * @example
 * const confirmations = useConfirmationController();
 * confirmations.request({ toolName: 'delete_file', arguments: { path } });
 */
export function useConfirmationController(explicit?: ConfirmationController): ConfirmationController {
  const context = useContext(ToolgateContext);
  const controller = explicit ?? context?.confirmations;
  if (controller === undefined) throw missing('confirmation controller', 'createConfirmationController()');
  return controller;
}

/**
 * Interrupt a turn (every open call without one): its calls are cancelled in the store and its
 * app-tool runs aborted here and now, and the server is told (`turn.interrupt`), without waiting
 * for it.
 *
 * @example
 * const interrupt = useInterrupt();
 * <button onClick={() => interrupt(turnId)}>Stop</button>
 */
export function useInterrupt(): (turnId?: string) => void {
  const context = useContext(ToolgateContext);
  if (context === null) throw missing('provider', '<ToolgateProvider>');
  const { store, host } = context;
  return useCallback(
    (turnId?: string) => {
      store.getState().interrupt(turnId);
      host.interrupt(turnId);
    },
    [store, host],
  );
}

function missing(what: string, create: string): Error {
  return new Error(`toolgate: no ${what} here. Render this inside <ToolgateProvider>, or pass one created with ${create}.`);
}

interface Owned {
  session: ToolSession | undefined;
  store: ToolStreamStore;
  host: AppToolHost;
  confirmations: ConfirmationController;
}

/** What the provider makes itself, once per session object (kept across re-renders and StrictMode). */
type Report = { current: ToolgateProviderProps['onError'] };

function usePerSession(props: ToolgateProviderProps, report: Report): Owned {
  const make = (): Owned => {
    const confirmations = props.confirmations ?? createConfirmationController(props.room === undefined ? {} : { room: props.room });
    return {
      session: props.session,
      store:
        props.store ??
        createToolStreamStore({
          previewMode: previewModeOf(props.session),
          onError: (reason, event, code) => report.current?.(reason, event, code),
          ...props.storeOptions,
        }),
      host: props.host ?? createAppToolHost(props.hostOptions),
      confirmations,
    };
  };
  const [owned, setOwned] = useState(make);
  if (owned.session !== props.session) {
    // A new session starts afresh (a closed store and host stay closed): derive during render.
    const next = make();
    setOwned(next);
    return next;
  }
  return owned;
}

/** `preview` when the session says it lacks tool-stream-v1; `auto` otherwise. */
function previewModeOf(session: ToolSession | undefined): PreviewMode {
  const capabilities = session?.capabilities;
  return capabilities !== undefined && !capabilities.includes(TOOL_STREAM_CAPABILITY) ? 'preview' : 'auto';
}

function useSessionWiring(value: ToolgateContextValue, report: Report): void {
  const { session, store, host, confirmations } = value;
  useEffect(() => {
    // Before any call can arrive: cards show the output of every call this page ran, not just each tool's latest.
    watchAppToolResults(host);
    const restoreApprovals = host.setApprovalHandler(createAppToolApprovalHandler(confirmations));
    if (session === undefined) return restoreApprovals;
    const onError = (error: unknown) => report.current?.(error instanceof Error ? error.message : String(error), error);
    const stopEvents = session.subscribe((event) => store.getState().dispatch(event));
    const unbind = bindAppToolHost(session, host, { onError, lastSeq: () => store.getState().lastSeq });
    // `calls: store`: an approval whose call ended here (the turn was interrupted, the server settled it) is withdrawn.
    const stopGate = connectApprovalGate(session, confirmations, { onError: (reason, event) => report.current?.(reason, event), calls: store });
    return () => {
      stopGate();
      unbind();
      stopEvents();
      restoreApprovals();
    };
  }, [session, store, host, confirmations, report]);
}

function useLatest<T>(value: T): { current: T } {
  const [ref] = useState(() => ({ current: value }));
  ref.current = value;
  return ref;
}

function useStableValue(next: ToolgateContextValue): ToolgateContextValue {
  const [value, setValue] = useState(next);
  if (value.store !== next.store || value.session !== next.session || value.host !== next.host || value.confirmations !== next.confirmations) {
    setValue(next);
    return next;
  }
  return value;
}
