import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { AppToolHost } from '../core/app-tool-host';
import type { ConfirmationController } from '../core/confirmation-machine';
import type { ToolSession } from '../core/session';
import { createToolStreamStore, type ToolStreamStore, type ToolStreamStoreOptions } from '../core/store';

/** What `<ToolgateProvider>` shares with the hooks and components below it. */
export interface ToolgateContextValue {
  store: ToolStreamStore;
  session: ToolSession | undefined;
  host: AppToolHost | undefined;
  confirmations: ConfirmationController | undefined;
}

const ToolgateContext = createContext<ToolgateContextValue | null>(null);

export interface ToolgateProviderProps {
  /** The session whose events fill the store. A new session object gets a new store. */
  session?: ToolSession;
  /** A store created outside React (`createToolStreamStore`); otherwise one is made per session. */
  store?: ToolStreamStore;
  /** The app-tool host that runs this page's tools. */
  host?: AppToolHost;
  /** The confirmation queue the dialog shows. */
  confirmations?: ConfirmationController;
  /** Options for the store the provider creates (ignored when `store` is given). */
  storeOptions?: ToolStreamStoreOptions;
  children?: ReactNode;
}

/**
 * Puts a session's store, app-tool host and confirmation queue in context. Stores are created
 * outside React or once here, never per render.
 *
 * @example
 * <ToolgateProvider session={session}>
 *   <ToolCallList />
 * </ToolgateProvider>
 */
export function ToolgateProvider({ session, store, host, confirmations, storeOptions, children }: ToolgateProviderProps) {
  const own = useSessionStore(session, store === undefined ? storeOptions : undefined);
  const value = useStableValue({ store: store ?? own, session, host, confirmations });
  useSessionEvents(session, value.store);
  return <ToolgateContext.Provider value={value}>{children}</ToolgateContext.Provider>;
}

/** The provider's value, or `null` outside a provider. */
export function useToolgateContext(): ToolgateContextValue | null {
  return useContext(ToolgateContext);
}

/** The store of the nearest provider (or `explicit`); a clear error when there is neither. */
export function useToolgateStore(explicit?: ToolStreamStore): ToolStreamStore {
  const context = useContext(ToolgateContext);
  const store = explicit ?? context?.store;
  if (store === undefined) {
    throw new Error('toolgate: no store here. Render this inside <ToolgateProvider>, or pass a store created with createToolStreamStore().');
  }
  return store;
}

/** One store per session object; the first is kept across re-renders and StrictMode. */
function useSessionStore(session: ToolSession | undefined, options: ToolStreamStoreOptions | undefined): ToolStreamStore {
  const [holder, setHolder] = useState(() => ({ session, store: createToolStreamStore(options) }));
  if (holder.session !== session) {
    // A new session is a new store (a closed store stays closed): derive it during render.
    const next = { session, store: createToolStreamStore(options) };
    setHolder(next);
    return next.store;
  }
  return holder.store;
}

function useSessionEvents(session: ToolSession | undefined, store: ToolStreamStore): void {
  useEffect(() => {
    if (session === undefined) return;
    return session.subscribe((event) => store.getState().dispatch(event));
  }, [session, store]);
}

function useStableValue(next: ToolgateContextValue): ToolgateContextValue {
  const [value, setValue] = useState(next);
  if (value.store !== next.store || value.session !== next.session || value.host !== next.host || value.confirmations !== next.confirmations) {
    setValue(next);
    return next;
  }
  return value;
}
