import type { SessionPersistence } from './session-persistence';
import type { AppToolCallMessage, ClientMessage } from '../wire';

/**
 * `connecting | open | reconnecting | closed`; a lost connection is `reconnecting`, not `closed`.
 *
 * @example
 * session.onStatusChange?.((status: ToolSessionStatus) => setBanner(status === 'reconnecting' ? 'Reconnecting…' : null));
 */
export type ToolSessionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

/**
 * What a client library gives the kit: the session's events, its app-tool calls, a way to
 * answer, and its connection status. The reference server's WebSocket client is one; users
 * adapt their own runtime's client to it.
 *
 * @example
 * const session: ToolSession = {
 *   subscribe: (listener) => client.on('event', listener),
 *   onToolCall: (handler) => client.on('tool.call', handler),
 *   send: (message) => client.send(message),
 *   get status() { return client.status },
 * };
 */
export interface ToolSession {
  /** Every server event (`tool.stream`, `tool.preview`, `closed`, approval requests, …). Returns an unsubscribe function. */
  subscribe(listener: (event: unknown) => void): () => void;
  /** The server asks the page to run an app tool. Returns an unsubscribe function. */
  onToolCall(handler: (call: AppToolCallMessage) => void): () => void;
  /** Send a client message (results, interrupts, approvals, tool declarations). */
  send(message: ClientMessage): void;
  /** The connection's status. */
  readonly status: ToolSessionStatus;
  /**
   * Optional: every frame the server sends, connection frames included. The approval gate reads the
   * server's `error` frames that name a `requestId`: an answer it refused, so that the call's card
   * says what happened.
   */
  onFrame?(listener: (frame: Record<string, unknown>) => void): () => void;
  /** Optional: be told when `status` changes. */
  onStatusChange?(listener: (status: ToolSessionStatus) => void): () => void;
  /** Optional: the capabilities the session speaks (`tool-stream-v1`); drives the preview mode. */
  readonly capabilities?: readonly string[];
  /**
   * Optional: where the session is kept across a page reload. `<ToolgateProvider>` gives its
   * `calls` to the app-tool host it makes (a call that was running when the page went away is
   * never run again) and keeps and restores the standing grants in it.
   */
  readonly persistence?: SessionPersistence;
}
