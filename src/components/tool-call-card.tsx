import { forwardRef, memo, useId, type ComponentPropsWithoutRef } from 'react';
import type { ToolStreamStore } from '../core/store';
import { callOutcome, formatDuration, outcomeText, useLabels } from '../hooks/labels';
import { useCallDuration } from '../hooks/use-call-duration';
import type { ToolgateClock } from '../hooks/use-now';
import { useToolCall } from '../hooks/use-tool-call';
import { ArgumentsPreview, type ArgumentsSchema } from './arguments-preview';
import { cx } from './cx';
import { ToolCallApproval, ToolCallInput, ToolCallOutput } from './tool-call-parts';
import { ToolProgress } from './tool-progress';
import { ToolStatusBadge } from './tool-status-badge';

/**
 * Props of {@link ToolCallCard}.
 *
 * @example
 * <ToolCallCard callId="c1" schema={searchTool.parameters} className="my-card" />
 */
export interface ToolCallCardProps extends Omit<ComponentPropsWithoutRef<'article'>, 'children'> {
  callId: string;
  /** Default: the provider's store. */
  store?: ToolStreamStore;
  /** The tool's JSON Schema, for field labels and pending required fields. */
  schema?: ArgumentsSchema | undefined;
  /** The clock for the running time of an open call (the store's, if it has its own). */
  clock?: ToolgateClock;
}

/**
 * One call: its name, status, live arguments, progress, result code, time taken, and how it
 * ended (cancelled by whom, a late outcome after a cancel, the model's reason for stopping);
 * for an app tool this page ran, its output; while it waits for a person, Approve and Deny
 * (`<ToolCallApproval>`) or the tool's own input (`<ToolCallInput>`).
 * Re-renders only when its own call changes. Renders nothing for an unknown call id.
 *
 * @example
 * <ToolCallCard callId="call-1" schema={tools.search.parameters} />
 */
export const ToolCallCard = memo(
  forwardRef<HTMLElement, ToolCallCardProps>(function ToolCallCard({ callId, store, schema, clock, className, ...rest }, ref) {
    const call = useToolCall(callId, store);
    const labels = useLabels();
    const { ms, final } = useCallDuration(call, clock && { clock });
    const nameId = useId();
    if (!call) return null;
    const { status, lateOutcome: late } = call;
    return (
      <article
        {...rest}
        ref={ref}
        aria-labelledby={nameId}
        className={cx('toolgate-card', className)}
        data-status={status}
        data-outcome={callOutcome(call)}
        data-source={call.source}
      >
        <header className="toolgate-card-header">
          <span id={nameId} className="toolgate-card-name">
            {call.name}
          </span>
          <ToolStatusBadge status={status} ok={call.ok} code={call.code} />
          {call.location && <span className="toolgate-chip">{labels.location[call.location]}</span>}
          {call.risk && (
            <span className="toolgate-chip" data-risk={call.risk}>
              {labels.risk[call.risk]}
            </span>
          )}
          {call.source === 'preview' && <span className="toolgate-chip">{labels.legacyPreview}</span>}
          {ms !== undefined && (
            <span className="toolgate-card-time">{(final ? labels.took : labels.elapsed)(formatDuration(ms, labels.locale))}</span>
          )}
        </header>
        <ArgumentsPreview
          value={call.partialArguments}
          path={call.writingPath}
          schema={schema}
          complete={status !== 'pending' && status !== 'streaming'}
          error={call.argumentsError}
          text={call.argumentsText}
        />
        {status === 'issued' && call.progress !== undefined && <ToolProgress progress={call.progress} />}
        {call.code !== undefined && (
          <p className="toolgate-card-note">
            {labels.result} <code>{call.code}</code>
          </p>
        )}
        {call.cancelledBy && <p className="toolgate-card-note">{labels.cancelledBy[call.cancelledBy]}</p>}
        {late && (
          <p className="toolgate-card-note" data-outcome={late.ok ? 'ok' : 'error'} data-late="">
            {labels.lateOutcome(outcomeText(labels, late.ok, late.code))}
          </p>
        )}
        {status === 'failed' && (
          <p className="toolgate-card-note">
            {labels.modelStopped} <span>{call.message}</span>
          </p>
        )}
        <ToolCallOutput callId={callId} />
        <ToolCallApproval callId={callId} />
        <ToolCallInput callId={callId} />
      </article>
    );
  }),
);
