/**
 * The reference server's WebSocket client: one object that is the kit's `ToolSession` (events,
 * app-tool calls, status) and carries a `ToolRoom` over `room.request` / `room.response`.
 *
 * - Events carry `seq`; the client remembers the last one it delivered, drops (and reports) any
 *   event at or below it, and resumes a lost connection with `hello.resume = { sessionId, token,
 *   lastSeq }` (the token is the welcome's `resumeToken`: an id alone resumes nothing), so the
 *   server replays exactly what was missed and nothing is shown or run twice. `session.resume`
 *   reads that triple and the `resume` option starts from one, so an app can keep it across a reload.
 * - A lost connection is `reconnecting`, not `closed` (the kit's wire): the client reconnects
 *   with exponential backoff. `closed` comes only from the session's final `closed` event, a
 *   refused resume, or `close()`.
 * - `hello` is sent by whoever knows the app tools: `bindAppToolHost` (the provider) sends it each
 *   time the status turns `open`; the client adds the resume triple it alone knows.
 *   When nobody says hello, the client sends its own (`options.tools`).
 * - Room calls answered `ok: false` are definite `ToolRoomError`s with the server's code; a call
 *   that was sent and never answered (timeout, lost connection, closed session) is a
 *   `ToolRoomUnknownOutcomeError`, so a write becomes `uncertain` and is never retried blindly
 *   (a lost response must not lead to a blind retry of a write).
 * - Answers written into a socket that was already gone are lost with it: results, interrupts and
 *   approvals the server has not visibly acted on are sent again once a resumed session's replay
 *   has caught up (the server ignores an answer it already has).
 * - Frames that are not JSON objects reach `onError`; the session goes on.
 * - With `persist`, the resume triple (and, through the provider, the standing grants and the
 *   app-tool calls the page ran) is kept in storage: a page that reloads resumes the session from
 *   seq 0, so the replay rebuilds its store. In a resumed connection's replay, a `tool.call` or
 *   `tool.approval-request` the welcome does not list as waiting is history and reaches no
 *   listener; one still waiting that the replay does not carry comes again after it (`resent:
 *   true`, no seq), and a page that already has a request does not get it twice.
 */
import type { ClientMessage } from '../core/wire';
import type { ReferenceClientMessage } from './protocol';
import { SessionClient } from './session-client';
import type { ReferenceSession, ReferenceSessionOptions } from './session-types';

export type {
  ReconnectOptions,
  ReferenceRoom,
  ReferenceSession,
  ReferenceSessionOptions,
  WebSocketConstructor,
  WebSocketLike,
} from './session-types';

let turnCounter = 0;

/**
 * Connect to a reference server (`ws://127.0.0.1:8787`) and return the session: give it to
 * `<ToolgateProvider session={session} room={session.room}>`. It connects at once, reconnects
 * with backoff after a lost connection and resumes the same session.
 *
 * @example
 * const session = connectReferenceSession('ws://127.0.0.1:8787', { onError: (reason) => console.warn(reason) });
 * root.render(
 *   <ToolgateProvider session={session} room={session.room}>
 *     <ToolCallList />
 *   </ToolgateProvider>,
 * );
 * session.startTurn('deploy');
 */
export function connectReferenceSession(url: string, options: ReferenceSessionOptions = {}): ReferenceSession {
  const client = new SessionClient(url, options);
  const session: ReferenceSession = {
    url,
    get status() {
      return client.status;
    },
    get capabilities() {
      return client.welcome?.capabilities;
    },
    get sessionId() {
      return client.sessionId;
    },
    get lastSeq() {
      return client.lastSeq;
    },
    get welcome() {
      return client.welcome;
    },
    get resume() {
      return client.resume;
    },
    get persistence() {
      return client.persistence;
    },
    get restored() {
      return client.persistence?.restored !== undefined && client.sessionId === client.persistence.restored.sessionId;
    },
    ready: client.ready,
    room: client.channel.room,
    subscribe(listener) {
      client.eventListeners.add(listener);
      return () => void client.eventListeners.delete(listener);
    },
    onToolCall(handler) {
      client.callHandlers.add(handler);
      // A session restored from storage connects once the page listens for its calls.
      client.wired();
      return () => void client.callHandlers.delete(handler);
    },
    onStatusChange(listener) {
      client.statusListeners.add(listener);
      return () => void client.statusListeners.delete(listener);
    },
    onFrame(listener) {
      client.frameListeners.add(listener);
      return () => void client.frameListeners.delete(listener);
    },
    send(message: ClientMessage) {
      client.send(message);
    },
    startTurn(prompt, turnOptions = {}) {
      const turnId = turnOptions.turnId ?? `turn-${Date.now().toString(36)}-${++turnCounter}`;
      if (client.ended) {
        client.report(`the session is closed: turn ${prompt} was not started`);
        return turnId;
      }
      client.enqueue({
        type: 'turn.start',
        prompt,
        turnId,
        // JSON has no Infinity: the server reads 0 as instant too.
        ...(turnOptions.speed === undefined ? {} : { speed: Number.isFinite(turnOptions.speed) ? turnOptions.speed : 0 }),
        ...(turnOptions.params === undefined ? {} : { params: turnOptions.params }),
      } satisfies ReferenceClientMessage);
      return turnId;
    },
    injectFault(fault) {
      if (client.ended) {
        client.report(`the session is closed: fault ${fault.fault} was not sent`);
        return;
      }
      client.enqueue({ type: 'fault', ...fault });
    },
    close() {
      client.close();
    },
  };
  // A session restored from storage waits for the page to be wired to it (see `persist`).
  if (!client.restoring) client.connect();
  return session;
}
