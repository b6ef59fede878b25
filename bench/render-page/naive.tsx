import { parse } from 'partial-json';
import { Profiler, useEffect, useState } from 'react';
import { ArgumentsPreview } from 'toolgate';
import type { RenderCounter } from './counter';

/**
 * The baseline: what many apps write. The calls live in an array in React state, each event
 * replaces the array (and the one call it touched), the whole list re-renders, and each item
 * reparses its argument text with partial-json to show a preview. The preview is the kit's own
 * `<ArgumentsPreview>`, so both lists build the same DOM and the comparison is of the state
 * and rendering architecture, not of one tree against a `<pre>`.
 */
export interface NaiveCall {
  callId: string;
  name: string;
  status: string;
  text: string;
}

type NaiveEvent = { phase?: string; callId?: string; name?: string; delta?: string; ok?: boolean };

export function naiveApply(calls: NaiveCall[], event: NaiveEvent): NaiveCall[] {
  const { phase, callId } = event;
  if (phase === 'start') return [...calls, { callId: callId ?? '', name: event.name ?? '', status: 'pending', text: '' }];
  return calls.map((call) => {
    if (call.callId !== callId) return call;
    if (phase === 'arguments-delta') return { ...call, status: 'streaming', text: call.text + (event.delta ?? '') };
    if (phase === 'arguments-complete') return { ...call, status: 'issued' };
    if (phase === 'settled') return { ...call, status: event.ok ? 'settled' : 'failed' };
    return call;
  });
}

function NaiveItem({ call, seen }: { call: NaiveCall; seen: Map<string, NaiveCall> }) {
  seen.set(call.callId, call);
  let value: unknown;
  try {
    value = call.text ? parse(call.text) : undefined;
  } catch {
    value = undefined;
  }
  return (
    <article className="naive-card" data-call-id={call.callId} data-status={call.status}>
      <header>
        <strong>{call.name}</strong> <span>{call.status}</span>
      </header>
      <ArgumentsPreview value={value} />
    </article>
  );
}

export function NaiveList({
  subscribe,
  counter,
  seen,
  onApplied,
}: {
  subscribe: (listener: (event: unknown) => void) => () => void;
  counter: RenderCounter;
  seen: Map<string, NaiveCall>;
  onApplied: (event: unknown) => void;
}) {
  const [calls, setCalls] = useState<NaiveCall[]>([]);
  useEffect(
    () =>
      subscribe((event) =>
        setCalls((previous) => {
          onApplied(event);
          return naiveApply(previous, event as NaiveEvent);
        }),
      ),
    [subscribe, onApplied],
  );
  return (
    <Profiler id="naive" onRender={counter.onRootRender}>
      <ol className="naive-list">
        {calls.map((call) => (
          <li key={call.callId}>
            <Profiler id={call.callId} onRender={counter.onItemRender}>
              <NaiveItem call={call} seen={seen} />
            </Profiler>
          </li>
        ))}
      </ol>
    </Profiler>
  );
}
