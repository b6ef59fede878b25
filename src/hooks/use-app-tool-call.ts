import { useCallback, useSyncExternalStore } from 'react';
import type { AppCallState, AppToolHost, AppToolHostState } from '../core/app-tool-host';
import type { ToolResult } from '../core/wire';
import { useToolgateContext } from './context';

/** Results of a host's calls by call id: the host keeps only each tool's latest. */
interface Recorder {
  readonly results: Map<string, ToolResult>;
  state: AppToolHostState | undefined;
}

const recorders = new WeakMap<AppToolHost, Recorder>();
/** How many results a host's recorder keeps (the oldest go first). */
const KEEP = 500;

function sync(host: AppToolHost, recorder: Recorder): void {
  const state = host.getState();
  if (state === recorder.state) return;
  recorder.state = state;
  // DESIGN "App tools": on `closed` all app-tool state is cleared.
  if (state.closed) return recorder.results.clear();
  for (const tool of Object.values(state.tools)) {
    const last = tool.lastResult;
    if (last && recorder.results.get(last.callId) !== last.result) {
      recorder.results.delete(last.callId);
      recorder.results.set(last.callId, last.result);
    }
  }
  for (const oldest of recorder.results.keys()) {
    if (recorder.results.size <= KEEP) break;
    recorder.results.delete(oldest);
  }
}

/**
 * Start keeping the result of every call `host` answers, by call id, so the card of an older call
 * still shows its output after the tool ran again. `<ToolgateProvider>` starts it for its host
 * before wiring the session; idempotent. Reading through {@link useAppToolCall} starts it too.
 *
 * @example
 * const host = createAppToolHost();
 * watchAppToolResults(host);
 */
export function watchAppToolResults(host: AppToolHost): void {
  if (recorders.has(host)) return;
  const recorder: Recorder = { results: new Map(), state: undefined };
  recorders.set(host, recorder);
  sync(host, recorder);
  // For the host's life (it is one per session): results between two renders are not lost.
  host.subscribe(() => sync(host, recorder));
}

/**
 * This page's side of an app-tool call: the open call in the host (`validating`,
 * `awaiting-approval`, `running`, with `progress` from `ctx.emit`) and, once answered, its result.
 *
 * @example
 * const { call, result }: AppToolCallView = useAppToolCall('c7');
 */
export interface AppToolCallView {
  readonly call: AppCallState | undefined;
  readonly result: ToolResult | undefined;
}

const noSubscription = () => () => {};
const nothing = () => undefined;

/**
 * The app-tool side of the call `callId` when this page runs it: its live state in the host and
 * its result (with the output the server's `settled` does not carry). Joined by call id; both
 * `undefined` for a server tool, another page's call, or outside a provider. Re-renders only when
 * this call changes.
 *
 * @example
 * function Output({ callId }: { callId: string }) {
 *   const { result } = useAppToolCall(callId);
 *   return result?.ok ? <pre>{JSON.stringify(result.output)}</pre> : null;
 * }
 */
export function useAppToolCall(callId: string, host?: AppToolHost): AppToolCallView {
  const context = useToolgateContext();
  const source = host ?? context?.host;
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!source) return () => {};
      watchAppToolResults(source);
      return source.subscribe(listener);
    },
    [source],
  );
  const call = useSyncExternalStore(
    source ? subscribe : noSubscription,
    source ? () => (Object.hasOwn(source.getState().calls, callId) ? source.getState().calls[callId] : undefined) : nothing,
    nothing,
  );
  const result = useSyncExternalStore(
    source ? subscribe : noSubscription,
    () => {
      const recorder = source && recorders.get(source);
      if (!recorder || !source) return undefined;
      sync(source, recorder);
      return recorder.results.get(callId);
    },
    nothing,
  );
  return { call, result };
}
