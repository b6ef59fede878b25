import { useCallback } from 'react';
import { shallow } from 'zustand/shallow';
import { callOf } from '../core/stream/reducer';
import type { ToolStreamStore, ToolStreamStoreState } from '../core/stream/store';
import type { ToolCall } from '../core/stream/tool-call';
import { useToolgateStore } from '../provider/context';
import { useStoreSelector } from './use-store-selector';

/**
 * One call, by id. Re-renders only when that call changes (a new object for it), not when
 * other calls stream.
 *
 * @example
 * function Status({ callId }) {
 *   const call = useToolCall(callId);
 *   return <span>{call?.status}</span>;
 * }
 */
export function useToolCall(callId: string, store?: ToolStreamStore): ToolCall | undefined {
  // One selector per call id: a new one on each render would make React re-check the store
  // subscription after every commit of every card.
  const select = useCallback((state: ToolStreamStoreState) => callOf(state, callId), [callId]);
  return useStoreSelector(useToolgateStore(store), select);
}

/**
 * Any slice of the state; `equality` is shallow by default, so a selector that builds an
 * array or object each time does not loop and re-renders only when its content changes.
 *
 * @example
 * const running = useToolCalls((s) => s.order.filter((id) => s.calls[id]?.status === 'issued'));
 */
export function useToolCalls<T>(
  selector: (state: ToolStreamStoreState) => T,
  equality: (a: T, b: T) => boolean = shallow,
  store?: ToolStreamStore,
): T {
  return useStoreSelector(useToolgateStore(store), selector, equality);
}
