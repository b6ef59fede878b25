/**
 * A call's history: its state after each of its events, one step at a time (buttons, or the
 * arrow keys, Home and End on the stepper), with its approval and its audit records below.
 */
import { useMemo, type KeyboardEvent, type ReactNode } from 'react';
import type { ToolCall } from '../core';
import type { DevtoolsEntry } from './recorder';
import { styles } from './devtools-styles';

/** Props of {@link CallHistory}. */
export interface CallHistoryProps {
  readonly callId: string;
  /** The call's entries, in order (`callHistory(entries, callId)`). */
  readonly steps: readonly DevtoolsEntry[];
  /** The step shown, an index into `steps`. */
  readonly step: number;
  readonly onStep: (step: number) => void;
  /** The approval and audit views, under the state. */
  readonly children?: ReactNode;
}

/** A call's fields worth reading, as plain JSON (no parser caches, no prototype getters). */
export function callSnapshot(call: ToolCall | undefined): unknown {
  if (call === undefined) return undefined;
  const { callId, name, turnId, status, ok, code, message, approval, approvalReason, approvalGrant, approvalEdited, answeredBy, parentCallId, startedAt, endedAt } = call;
  return {
    callId,
    name,
    turnId,
    status,
    ...(ok === undefined ? {} : { ok }),
    ...(code === undefined ? {} : { code }),
    ...(message === undefined ? {} : { message }),
    ...(parentCallId === undefined ? {} : { parentCallId }),
    arguments: call.arguments ?? call.partialArguments,
    ...(call.output === undefined ? {} : { output: call.output }),
    ...(approval === undefined ? {} : { approval, approvalReason, approvalGrant, approvalEdited, approvedArguments: call.approvedArguments }),
    ...(answeredBy === undefined ? {} : { answeredBy }),
    startedAt,
    endedAt,
  };
}

const json = (value: unknown): string => {
  try {
    return JSON.stringify(value, null, 2) ?? 'undefined';
  } catch {
    return '(not JSON)';
  }
};

/**
 * The history of one call in `<ToolgateDevtools>`.
 *
 * @example
 * <CallHistory callId="c1" steps={callHistory(entries, 'c1')} step={2} onStep={setStep} />
 */
export function CallHistory({ callId, steps, step, onStep, children }: CallHistoryProps) {
  const last = steps.length - 1;
  const at = Math.min(Math.max(step, 0), Math.max(last, 0));
  const entry = steps[at];
  // An answer changes nothing in the store: it shows the state the call had when it was sent.
  const call = useMemo(() => {
    for (let i = at; i >= 0; i--) if (steps[i]?.call !== undefined) return steps[i]?.call;
    return undefined;
  }, [steps, at]);
  const onKeyDown = (event: KeyboardEvent) => {
    const to = { ArrowLeft: at - 1, ArrowUp: at - 1, ArrowRight: at + 1, ArrowDown: at + 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    onStep(Math.min(Math.max(to, 0), last));
  };
  return (
    <section aria-label={`History of call ${callId}`}>
      <h3 style={styles.h3}>Call {callId}</h3>
      {steps.length === 0 ? (
        <p style={styles.muted}>No events for this call.</p>
      ) : (
        <>
          <div
            role="group"
            tabIndex={0}
            aria-label={`Steps of call ${callId}: arrow keys move, Home and End go to the first and last`}
            style={styles.stepper}
            onKeyDown={onKeyDown}
          >
            <button type="button" style={styles.control} onClick={() => onStep(at - 1)} disabled={at <= 0}>
              Previous
            </button>
            <span aria-live="polite" data-step={at}>
              {`Step ${at + 1} of ${steps.length}: ${entry?.type ?? ''}`}
            </span>
            <button type="button" style={styles.control} onClick={() => onStep(at + 1)} disabled={at >= last}>
              Next
            </button>
          </div>
          {entry?.reason !== undefined && <p style={entry.verdict?.outcome === 'rejected' ? styles.refused : styles.muted}>{entry.reason}</p>}
          <pre style={styles.pre} aria-label="State after this step">
            {json(callSnapshot(call))}
          </pre>
          {entry?.source === 'answer' && (
            <pre style={styles.pre} aria-label="What the page sent">
              {json(entry.payload)}
            </pre>
          )}
        </>
      )}
      {children}
    </section>
  );
}
