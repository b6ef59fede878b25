/**
 * The provider's context and the hooks that read it. A leaf: it imports nothing else of the
 * hooks, so every hook can read the provider without an import cycle through the provider's own
 * wiring (`provider.tsx`).
 */
import { createContext, useCallback, useContext } from 'react';
import type { AppToolHost } from '../core/app-tools/app-tool-host';
import type { ConfirmationController } from '../core/approval/confirmation-controller-types';
import type { ToolSession } from '../core/session/tool-session';
import type { ToolStreamStore } from '../core/stream/store';

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

/**
 * The context `<ToolgateProvider>` fills. Read it through {@link useToolgateContext} and the hooks
 * below; provide it only through `<ToolgateProvider>`, which wires its parts to the session.
 *
 * @example
 * const value = useContext(ToolgateContext); // what useToolgateContext() returns
 */
export const ToolgateContext = createContext<ToolgateContextValue | null>(null);

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
