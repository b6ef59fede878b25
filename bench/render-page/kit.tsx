import { memo, Profiler, useMemo } from 'react';
import { ToolCallCard, ToolCallList, systemClock, type ToolgateClock, type ToolStreamStore } from 'toolgate';
import type { RenderCounter } from './counter';

/**
 * One call of the kit's list, as `renderCall` gives it: the kit's own `<ToolCallCard>` inside a
 * `<Profiler>`. The card's elapsed-time clock is the real one, only told to the counter, so a
 * render for a new elapsed time is not mistaken for a render of an unchanged call.
 */
const KitItem = memo(function KitItem({ callId, store, counter }: { callId: string; store: ToolStreamStore; counter: RenderCounter }) {
  const clock = useMemo<ToolgateClock>(
    () => ({
      ...systemClock,
      now: () => {
        counter.tick(callId);
        return systemClock.now();
      },
    }),
    [callId, counter],
  );
  return (
    <Profiler id={callId} onRender={counter.onItemRender}>
      <ToolCallCard callId={callId} store={store} clock={clock} data-call-id={callId} />
    </Profiler>
  );
});

/** The kit as an app uses it: `<ToolCallList>` over a store that coalesces notifications per frame (windowed past `windowAfter` rows). */
export function KitList({ store, counter, windowAfter }: { store: ToolStreamStore; counter: RenderCounter; windowAfter?: number | undefined }) {
  return (
    <Profiler id="toolgate" onRender={counter.onRootRender}>
      <ToolCallList store={store} {...(windowAfter !== undefined && { windowAfter })} renderCall={(id) => <KitItem callId={id} store={store} counter={counter} />} />
    </Profiler>
  );
}
