/**
 * How a client finds the feed of an audit log without importing it: a log made by
 * `createAuditLog` carries its feed under this key, so a page that keeps no audit log loads none
 * of the feed's code (docs/architecture.md "What loads when").
 */
import type { ToolCallStatus } from '../stream/call-lifecycle';
import type { ConfirmationController } from '../approval/confirmation-controller-types';
import type { ErrorReporter } from '../external-store';

/** The key of a log's feed. */
export const FEED_AUDIT: unique symbol = Symbol('toolgate.feedAudit');

/** What the feed reads of the tool-call store (a `ToolStreamStore` fits). */
export interface AuditedCalls {
  getState(): {
    readonly calls: Readonly<Record<string, { readonly status: ToolCallStatus; readonly ok?: boolean | undefined; readonly code?: string | undefined; readonly output?: unknown }>>;
  };
  subscribe(listener: () => void): () => void;
}

export interface AuditFeedOptions {
  /** The store whose calls' ends become `settled` records. */
  calls?: AuditedCalls | undefined;
  /** Told of a record the log refused (`audit-refused`): the app's own flow goes on regardless. */
  onError?: ErrorReporter | undefined;
}

/** The controller, with every request recorded in the log; `stop` ends the watch on the store. */
export interface AuditFeed {
  readonly approvals: ConfirmationController;
  stop(): void;
}

/** A log's feed: wraps a controller so that each request it is given is recorded in that log. */
export type AuditFeeder = (controller: ConfirmationController, options?: AuditFeedOptions) => AuditFeed;

/** The feed a log carries, or `undefined` for a log not made by `createAuditLog`. */
export function feederOf(log: object): AuditFeeder | undefined {
  const feeder = (log as { [FEED_AUDIT]?: unknown })[FEED_AUDIT];
  return typeof feeder === 'function' ? (feeder as AuditFeeder) : undefined;
}
