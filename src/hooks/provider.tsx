/**
 * `<ToolgateProvider>`: makes a session's store, app-tool host and confirmation queue once per
 * session, and wires them to it. The context it fills and the hooks that read it live in
 * `context.tsx`, which imports none of the modules this one does.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { createAppToolHost, type AppToolHost, type AppToolHostOptions } from '../core/app-tool-host';
import { bindAppToolHost } from '../core/bind-session';
import { connectApprovalGate, createAppToolApprovalHandler } from '../core/confirmation-bridges';
import { createConfirmationController } from '../core/confirmation-controller';
import type { ConfirmationController } from '../core/confirmation-types';
import { describeThrown, type ErrorReporter } from '../core/external-store';
import type { PreviewMode } from '../core/legacy-preview';
import type { ToolRoom } from '../core/room';
import type { ToolSession } from '../core/session';
import { keepGrants } from '../core/session-persistence';
import { createToolStreamStore, type ToolStreamStore, type ToolStreamStoreOptions } from '../core/store';
import { TOOL_STREAM_CAPABILITY } from '../core/wire';
import { ToolgateContext, type ToolgateContextValue } from './context';
import { ToolRenderersContext, type ToolRenderers } from './tool-renderers';

/**
 * Props of {@link ToolgateProvider}.
 *
 * @example
 * const props: ToolgateProviderProps = { session, room, coalesce: false, hostOptions: { timeoutMs: 10_000 } };
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
  /**
   * How the store the provider makes tells its readers of changes: `'frame'` (the default) at
   * most once per animation frame, so a burst of argument fragments costs one render per frame;
   * `false` at once, on every event. `storeOptions.coalesce`, when given, wins.
   */
  coalesce?: ToolStreamStoreOptions['coalesce'];
  /** Options of the store the provider makes. */
  storeOptions?: ToolStreamStoreOptions;
  /** Options of the host the provider makes (`timeoutMs`, …). */
  hostOptions?: AppToolHostOptions;
  /**
   * Told of what was refused or went wrong, as `(reason, detail, code)`: malformed events and
   * approval requests, unknown calls, a frame naming the page's own events, failed sends,
   * listeners and callbacks that threw. `code` says why (the tool-call store's codes: `malformed`,
   * `unknown-call`, `local-only`, …; `malformed-approval-request`; `listener-threw`).
   */
  onError?: ErrorReporter;
  /** Each tool's own view, by tool name, for every `<ToolCallList>` below (see `defineToolRenderer`). */
  renderers?: ToolRenderers;
  /**
   * The JSON Schemas of the session's server tools, by name: where the server lets a person edit
   * a request's arguments, the editor is a form of the schema's fields, and edits are checked
   * against it (the server checks them too).
   */
  schemas?: Readonly<Record<string, Record<string, unknown>>>;
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
  const schemas = useLatest(props.schemas);
  const own = usePerSession(props, report);
  const value = useStableValue({
    store: props.store ?? own.store,
    session,
    host: props.host ?? own.host,
    confirmations: props.confirmations ?? own.confirmations,
  });
  useSessionWiring(value, report, schemas);
  return (
    <ToolgateContext.Provider value={value}>
      <ToolRenderersContext.Provider value={props.renderers}>{props.children}</ToolRenderersContext.Provider>
    </ToolgateContext.Provider>
  );
}

interface Owned {
  session: ToolSession | undefined;
  store: ToolStreamStore;
  host: AppToolHost;
  confirmations: ConfirmationController;
}

/** The latest `onError`, read when something is reported (a new inline function re-creates nothing). */
type Report = { current: ErrorReporter | undefined };

const reportThrough =
  (report: Report): ErrorReporter =>
  (reason, detail, code) =>
    report.current?.(reason, detail, code);

/** What the provider makes itself, once per session object (kept across re-renders and StrictMode). */
function usePerSession(props: ToolgateProviderProps, report: Report): Owned {
  const make = (): Owned => {
    const confirmations =
      props.confirmations ??
      createConfirmationController({ onError: reportThrough(report), ...(props.room === undefined ? {} : { room: props.room }) });
    return {
      session: props.session,
      store:
        props.store ??
        createToolStreamStore({
          previewMode: previewModeOf(props.session),
          onError: reportThrough(report),
          coalesce: props.coalesce ?? 'frame',
          ...props.storeOptions,
        }),
      host:
        props.host ??
        createAppToolHost({
          onError: reportThrough(report),
          // A session kept across a reload: the calls the page ran are recorded beside it, so the
          // page that resumes it never runs one twice.
          ...(props.session?.persistence === undefined ? {} : { savedCalls: props.session.persistence.calls }),
          ...props.hostOptions,
        }),
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

function useSessionWiring(value: ToolgateContextValue, report: Report, schemas: { current: ToolgateProviderProps['schemas'] }): void {
  const { session, store, host, confirmations } = value;
  useEffect(() => {
    // `calls: store`: each card shows where its call stands with its approval.
    const restoreApprovals = host.setApprovalHandler(createAppToolApprovalHandler(confirmations, { calls: store }));
    if (session === undefined) return restoreApprovals;
    const onError = reportThrough(report);
    // A session kept across a reload keeps its standing grants too: given back before the session
    // connects (its replay and the requests sent again meet them), saved on every change.
    const stopGrants = session.persistence === undefined ? () => {} : keepGrants(session.persistence, confirmations.grants);
    const stopEvents = session.subscribe((event) => store.getState().dispatch(event));
    const unbind = bindAppToolHost(session, host, {
      // The binding reports a thrown value (a failed send, a call it cannot answer): described here.
      onError: (error: unknown) => onError(describeThrown(error), error, 'session-binding'),
      lastSeq: () => store.getState().lastSeq,
    });
    // `calls: store`: an approval whose call ended here (the turn was interrupted, the server settled it) is withdrawn.
    const schemaOf = (toolName: string) => {
      const map = schemas.current;
      return map !== undefined && Object.hasOwn(map, toolName) ? map[toolName] : undefined;
    };
    const stopGate = connectApprovalGate(session, confirmations, { onError, calls: store, schemaOf });
    return () => {
      stopGate();
      unbind();
      stopEvents();
      stopGrants();
      restoreApprovals();
    };
  }, [session, store, host, confirmations, report, schemas]);
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
