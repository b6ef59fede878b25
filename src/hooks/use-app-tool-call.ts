import { useCallback, useSyncExternalStore } from 'react';
import type { AppCallState, AppToolHost } from '../core/app-tools/app-tool-host';
import type { ToolResult } from '../core/wire';
import { useToolgateContext } from '../provider/context';

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
 * its result (with the output the server's `settled` does not carry), which the host remembers
 * for its latest answers, so the card of an older call still shows its output after the tool ran
 * again. Joined by call id; both `undefined` for a server tool, another page's call, or outside a
 * provider. Re-renders only when this call changes.
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
  const subscribe = useCallback((listener: () => void) => (source ? source.subscribe(listener) : () => {}), [source]);
  const call = useSyncExternalStore(
    source ? subscribe : noSubscription,
    source ? () => (Object.hasOwn(source.getState().calls, callId) ? source.getState().calls[callId] : undefined) : nothing,
    nothing,
  );
  const result = useSyncExternalStore(source ? subscribe : noSubscription, source ? () => source.resultOf(callId) : nothing, nothing);
  return { call, result };
}
