/**
 * `<ToolgateProvider>`: puts a client's store, app-tool host and confirmation queue in context,
 * and connects the client to the session it is given. The client is made with `createToolgate`
 * (docs/architecture.md "The client"): given as `client`, or made here, once per session, from
 * the older props. The context it fills and the hooks that read it live in `context.tsx`, which
 * imports none of the modules this one does.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { AppToolHost, AppToolHostOptions } from '../core/app-tools/app-tool-host';
import type { ConfirmationController } from '../core/approval/confirmation-controller-types';
import type { ErrorReporter } from '../core/external-store';
import type { PreviewMode } from '../core/stream/legacy-preview';
import type { ToolRoom } from '../core/session/room';
import type { ToolSession } from '../core/session/tool-session';
import type { ToolStreamStore, ToolStreamStoreOptions } from '../core/stream/store';
import { createToolgate, type ToolgateClient } from '../core/toolgate-client';
import { TOOL_STREAM_CAPABILITY } from '../core/wire';
import { ToolgateContext, type ToolgateContextValue } from './context';
import { ToolRenderersContext, type ToolRenderers } from './tool-renderers';
import { SteadyCallsContext } from '../hooks/use-steady-call';

/**
 * Props of {@link ToolgateProvider}.
 *
 * With `client`, the client's parts are used and the props that would make them (`store`, `host`,
 * `confirmations`, `room`, `coalesce`, `storeOptions`, `hostOptions`, `onError`, `schemas`) are
 * not read: give those to `createToolgate`. Without it, the provider makes a client from them,
 * once per session object, as `createToolgate` would.
 *
 * @example
 * const props: ToolgateProviderProps = { client: createToolgate(), session };
 * <ToolgateProvider {...props}><ToolCallList /></ToolgateProvider>
 */
export interface ToolgateProviderProps {
  /** The client (`createToolgate`) whose store, host and approvals the components below read. */
  client?: ToolgateClient;
  /**
   * The session whose events fill the store and whose calls run the app tools: the provider
   * connects the client to it while mounted. Without `client`, a new session object starts
   * afresh (a new client). With `client`, leave it out when the app connects the client itself.
   */
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
   * Hold the cards below steady: a call that starts and ends within a frame or two shows its end
   * only, never a running state on screen for a few milliseconds (a new running or streaming state
   * is shown after two frames; an ending at once). On by default; `steady={false}` shows every
   * state the moment it arrives. A card's own `steady` wins.
   */
  steady?: boolean;
  /**
   * The JSON Schemas of the session's server tools, by name: where the server lets a person edit
   * a request's arguments, the editor is a form of the schema's fields, and edits are checked
   * against it (the server checks them too).
   */
  schemas?: Readonly<Record<string, Record<string, unknown>>>;
  children?: ReactNode;
}

/**
 * Puts a client's store, app-tool host and confirmation queue in context, and connects the client
 * to the session: events into the store, app-tool calls through the host's epoch gate, the
 * server's approval requests into the confirmation queue. Without `client`, one is made from the
 * other props once per session, never per render; a new session object gets a new one, so
 * nothing of a closed session leaks.
 *
 * @example
 * const client = createToolgate({ approvalOptions: { room } });
 * <ToolgateProvider client={client} session={session}>
 *   <ToolCallList />
 *   <ConfirmToolDialog />
 * </ToolgateProvider>
 */
export function ToolgateProvider(props: ToolgateProviderProps) {
  const { session, onError } = props;
  const report = useLatest(onError);
  const schemas = useLatest(props.schemas);
  const client = useClient(props, report, schemas);
  const value = useStableValue({ store: client.calls, session, host: client.host, confirmations: client.approvals });
  useEffect(() => (session === undefined ? client.mount() : client.connect(session)), [client, session]);
  return (
    <ToolgateContext.Provider value={value}>
      <ToolRenderersContext.Provider value={props.renderers}>
        <SteadyCallsContext.Provider value={props.steady ?? true}>{props.children}</SteadyCallsContext.Provider>
      </ToolRenderersContext.Provider>
    </ToolgateContext.Provider>
  );
}

interface Owned {
  session: ToolSession | undefined;
  /** `undefined` while the provider is given its client. */
  client: ToolgateClient | undefined;
}

/** The latest `onError`, read when something is reported (a new inline function re-creates nothing). */
type Report = { current: ErrorReporter | undefined };

/**
 * The client given, or the one the provider makes from its older props, once per session object
 * (kept across re-renders and StrictMode); a provider given `client` makes none.
 */
function useClient(props: ToolgateProviderProps, report: Report, schemas: { current: ToolgateProviderProps['schemas'] }): ToolgateClient {
  const make = (): Owned => ({ session: props.session, client: props.client === undefined ? makeClient() : undefined });
  const makeClient = (): ToolgateClient => {
    const persistence = props.session?.persistence;
    return createToolgate({
      ...(props.store === undefined ? {} : { calls: props.store }),
      ...(props.host === undefined ? {} : { host: props.host }),
      ...(props.confirmations === undefined ? {} : { approvals: props.confirmations }),
      storeOptions: { previewMode: previewModeOf(props.session), coalesce: props.coalesce ?? 'frame', ...props.storeOptions },
      ...(props.hostOptions === undefined ? {} : { hostOptions: props.hostOptions }),
      ...(props.room === undefined ? {} : { approvalOptions: { room: props.room } }),
      // A session kept across a reload: the calls the page ran are recorded beside it, so the
      // page that resumes it never runs one twice, and its grants come back.
      ...(persistence === undefined ? {} : { persistence }),
      onError: (reason, detail, code) => report.current?.(reason, detail, code),
      schemaOf: (toolName) => {
        const map = schemas.current;
        return map !== undefined && Object.hasOwn(map, toolName) ? map[toolName] : undefined;
      },
    });
  };
  const [owned, setOwned] = useState(make);
  if (props.client !== undefined) {
    if (owned.client !== undefined) setOwned(make());
    return props.client;
  }
  if (owned.client === undefined || owned.session !== props.session) {
    // A new session starts afresh (a closed store and host stay closed): derive during render.
    const client = makeClient();
    setOwned({ session: props.session, client });
    return client;
  }
  return owned.client;
}

/** `preview` when the session says it lacks tool-stream-v1; `auto` otherwise. */
function previewModeOf(session: ToolSession | undefined): PreviewMode {
  const capabilities = session?.capabilities;
  return capabilities !== undefined && !capabilities.includes(TOOL_STREAM_CAPABILITY) ? 'preview' : 'auto';
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
