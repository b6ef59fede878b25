import { Component, useId, type ComponentPropsWithoutRef, type ErrorInfo, type ReactNode } from 'react';
import type { AppToolHost } from '../core/app-tools/app-tool-host';
import type { ConfirmationController } from '../core/approval/confirmation-controller-types';
import { formatNumber, useLabels } from '../wording/labels';
import { useCallApproval } from '../hooks/use-call-approval';
import { usePersonRequest, type PersonRequest } from '../hooks/use-human-tool';
import { ActionButton } from './action-button';
import { cx } from './cx';

/* ------------------------------------------------------------- the error card */

/**
 * Props of {@link ToolCallError}.
 *
 * @example
 * const props: ToolCallErrorProps = { toolName: 'search_flights', error };
 */
export interface ToolCallErrorProps extends Omit<ComponentPropsWithoutRef<'article'>, 'children'> {
  toolName: string;
  /** What the view threw: its message is shown as text. */
  error: unknown;
}

/** The text of a thrown value. */
const messageOf = (error: unknown): string => (error instanceof Error ? error.message || error.name : String(error));

/**
 * The card shown in place of a tool's view that threw: the tool's name, `labels.renderFailed`
 * and the error's message, as text.
 *
 * @example
 * <ToolCallError toolName="search_flights" error={new Error('fares is undefined')} />
 */
export function ToolCallError({ toolName, error, className, ...rest }: ToolCallErrorProps) {
  const labels = useLabels();
  const nameId = useId();
  return (
    <article {...rest} aria-labelledby={nameId} className={cx('toolgate-card', className)} data-outcome="error" data-state="render-error">
      <header className="toolgate-card-header">
        <span id={nameId} className="toolgate-card-name">
          {toolName}
        </span>
      </header>
      <p className="toolgate-card-note">{labels.renderFailed(toolName)}</p>
      <p className="toolgate-card-note">
        <code>{messageOf(error)}</code>
      </p>
    </article>
  );
}

/* ------------------------------------------------------------ the boundary */

/**
 * Props of {@link ToolRenderBoundary}.
 *
 * @example
 * const props: ToolRenderBoundaryProps = { toolName: call.name, resetKey: call, onError: (error) => report(error) };
 */
export interface ToolRenderBoundaryProps {
  toolName: string;
  /** A new value (the call's next state) clears a caught error and renders the view again. */
  resetKey?: unknown;
  /** Told of each error caught (with React's component stack). */
  onError?: (error: unknown, info: ErrorInfo) => void;
  /** What to show instead (default `<ToolCallError>`). */
  fallback?: (error: unknown) => ReactNode;
  children?: ReactNode;
}

interface BoundaryState {
  caught: { error: unknown } | null;
}

/**
 * Keeps a tool's view that throws from taking the list down: shows `<ToolCallError>` in its place
 * until `resetKey` changes (the call moved on), then tries the view again.
 *
 * @example
 * <ToolRenderBoundary toolName={call.name} resetKey={call}><FlightCard call={call} /></ToolRenderBoundary>
 */
export class ToolRenderBoundary extends Component<ToolRenderBoundaryProps, BoundaryState> {
  override state: BoundaryState = { caught: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { caught: { error } };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  override componentDidUpdate(previous: ToolRenderBoundaryProps, before: BoundaryState): void {
    // Only an error caught before this update: the update that threw may itself bring a new key.
    if (before.caught && this.state.caught && !Object.is(previous.resetKey, this.props.resetKey)) this.setState({ caught: null });
  }

  override render(): ReactNode {
    const { caught } = this.state;
    if (!caught) return this.props.children;
    return this.props.fallback ? this.props.fallback(caught.error) : <ToolCallError toolName={this.props.toolName} error={caught.error} />;
  }
}

/* --------------------------------------------------------- approval inline */

/**
 * Props of {@link ToolCallApproval}.
 *
 * @example
 * const props: ToolCallApprovalProps = { callId: 'c1' };
 */
export interface ToolCallApprovalProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  callId: string;
  /** Default: the provider's confirmation controller. */
  controller?: ConfirmationController;
  /**
   * Show "Awaiting approval" beside the buttons (default `true`). `<ToolCallCard>` passes `false`:
   * its status badge already says it, and one state is said once.
   */
  showStatus?: boolean;
}

/**
 * `Awaiting approval`, with Deny and Approve, for a call whose confirmation request waits (an app
 * tool with `confirm`, the server's gate). The same request as `<ConfirmToolDialog />`: approving
 * here, there and by voice gives one approval. Approve acts once the request is shown (under
 * review); until then it says how many come first. Renders nothing when nothing waits.
 * A thin view over {@link useCallApproval}.
 *
 * @example
 * <ToolCallApproval callId={callId} />
 */
export function ToolCallApproval({ callId, controller, showStatus = true, className, ...rest }: ToolCallApprovalProps) {
  const approval = useCallApproval(callId, controller);
  const labels = useLabels();
  if (!approval?.request) return null;
  const { request, ahead } = approval;
  return (
    <div
      role="group"
      aria-label={labels.awaitingApproval}
      {...rest}
      className={cx('toolgate-card-approval', className)}
      data-state={request.status}
      data-risk={request.descriptor.risk}
    >
      {showStatus && (
        <span className="toolgate-chip" data-state="awaiting-approval">
          {labels.awaitingApproval}
        </span>
      )}
      {ahead > 0 && <span className="toolgate-card-note">{labels.approvalQueued(ahead, formatNumber(ahead, labels.locale))}</span>}
      <ActionButton className="toolgate-card-deny" enabled={request.can.deny} onAct={() => approval.deny()}>
        {labels.confirm.deny}
      </ActionButton>
      <ActionButton className="toolgate-card-approve" enabled={request.can.approve} onAct={approval.approve} danger={request.descriptor.risk === 'high'}>
        {labels.confirm.approve}
      </ActionButton>
    </div>
  );
}

/* ----------------------------------------------------------- person input */

/**
 * Props of {@link ToolCallInput}.
 *
 * @example
 * const props: ToolCallInputProps = { callId: 'c1' };
 */
export interface ToolCallInputProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  callId: string;
  /** Default: the provider's app-tool host. */
  host?: AppToolHost;
}

function PersonInputBody({ request }: { request: PersonRequest }) {
  return <>{request.render(request)}</>;
}

/**
 * The input a person answers a `useHumanTool` call with (its `render`), while the call waits;
 * gone the moment the call is answered or withdrawn (an interrupt). A view that throws shows an
 * error card here, not in the list.
 *
 * @example
 * <ToolCallInput callId={callId} />
 */
export function ToolCallInput({ callId, host, className, ...rest }: ToolCallInputProps) {
  const request = usePersonRequest(callId, host);
  const labels = useLabels();
  if (!request) return null;
  return (
    <div role="group" aria-label={labels.personInput(request.toolName)} {...rest} className={cx('toolgate-person-input', className)}>
      <ToolRenderBoundary toolName={request.toolName} resetKey={request}>
        <PersonInputBody key={request.callId} request={request} />
      </ToolRenderBoundary>
    </div>
  );
}
