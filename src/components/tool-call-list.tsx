import { forwardRef, useId, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import type { ToolStreamStore, ToolStreamStoreState } from '../core/store';
import { useLabels } from '../hooks/labels';
import type { ToolgateClock } from '../hooks/use-now';
import { useToolgateStore } from '../hooks/context';
import type { ToolRenderers } from '../hooks/tool-renderers';
import { useToolCalls } from '../hooks/use-tool-call';
import type { ArgumentsSchema } from './arguments-preview';
import { cx } from './cx';
import { ToolCallView } from './tool-call-view';
import { ToolStatusAnnouncer } from './tool-status-announcer';
import { callOf } from '../core/reducer';

/**
 * Props of {@link ToolCallList}.
 *
 * @example
 * <ToolCallList schemas={{ search: searchSchema }} throttleMs={2000} renderCall={(id, name) => name === 'chart' ? <ChartCall callId={id} /> : undefined} />
 */
export interface ToolCallListProps extends Omit<ComponentPropsWithoutRef<'section'>, 'children'> {
  /** Default: the provider's store. */
  store?: ToolStreamStore;
  /** JSON Schemas of the tools' arguments, by tool name. */
  schemas?: Readonly<Record<string, ArgumentsSchema>>;
  /** Render a call your own way (default: its tool's renderer, else `<ToolCallCard>`). */
  renderCall?: (callId: string, name: string) => ReactNode;
  /** Each tool's own view, by tool name, before the provider's; other tools get `<ToolCallCard>`. See `defineToolRenderer`. */
  renderers?: ToolRenderers;
  /** Include a `<ToolStatusAnnouncer>` (default true; render only one per session). */
  announce?: boolean;
  /** How often the announcer may speak (ms). */
  throttleMs?: number;
  clock?: ToolgateClock;
}

// [callId, turnId, name] per call, flat, so shallow equality ignores argument fragments.
const selectIndex = (s: ToolStreamStoreState) =>
  s.order.flatMap((id) => {
    const call = callOf(s, id);
    return [id, call?.turnId ?? '', call?.name ?? ''];
  });
const selectClosed = (s: ToolStreamStoreState) => s.closed;
// A key per store: a new session's calls never take over the views (and their state) of the old one's.
const storeKeys = new WeakMap<object, number>();
let stores = 0;
function keyOf(store: object): number {
  let key = storeKeys.get(store);
  if (key === undefined) storeKeys.set(store, (key = ++stores));
  return key;
}

/**
 * The session's calls in the order they began, grouped by turn, each as a `<ToolCallCard>`;
 * says when there are none yet and when the session has closed. Re-renders only when a call
 * is added, not while calls stream.
 *
 * @example
 * <ToolgateProvider session={session}>
 *   <ToolCallList schemas={{ search: searchTool.parameters }} />
 * </ToolgateProvider>
 */
export const ToolCallList = forwardRef<HTMLElement, ToolCallListProps>(function ToolCallList(
  { store, schemas, renderCall, renderers, announce = true, throttleMs, clock, className, ...rest },
  ref,
) {
  const labels = useLabels();
  const storeKey = keyOf(useToolgateStore(store));
  const index = useToolCalls(selectIndex, undefined, store);
  const closed = useToolCalls(selectClosed, Object.is, store);
  const baseId = useId();
  const turns = new Map<string, [string, string][]>();
  for (let i = 0; i < index.length; i += 3) {
    const [id, turn, name] = index.slice(i, i + 3) as [string, string, string];
    turns.set(turn, [...(turns.get(turn) ?? []), [id, name]]);
  }
  return (
    <section
      aria-label={labels.calls}
      {...rest}
      ref={ref}
      className={cx('toolgate-list', className)}
      data-state={closed ? 'closed' : turns.size ? 'open' : 'empty'}
    >
      {announce && <ToolStatusAnnouncer store={store} throttleMs={throttleMs} clock={clock} />}
      {closed || !turns.size ? (
        <p className="toolgate-list-empty">{closed ? labels.closed : labels.empty}</p>
      ) : (
        [...turns].map(([turn, calls], i) => (
          <div key={`${storeKey}:${turn}`} role="group" aria-labelledby={`${baseId}${i}`} className="toolgate-turn" data-turn={turn || undefined}>
            <div id={`${baseId}${i}`} className="toolgate-turn-title">
              {turn ? labels.turn(i + 1, turn) : labels.noTurn}
            </div>
            <ol className="toolgate-turn-calls">
              {calls.map(([id, name]) => (
                <li key={id}>
                  {renderCall ? (
                    renderCall(id, name)
                  ) : (
                    <ToolCallView callId={id} store={store} clock={clock} renderers={renderers} schema={schemas && Object.hasOwn(schemas, name) ? schemas[name] : undefined} />
                  )}
                </li>
              ))}
            </ol>
          </div>
        ))
      )}
    </section>
  );
});
