/**
 * The reference server's WebSocket client: one object that is the kit's `ToolSession` (events,
 * app-tool calls, status) and carries a `ToolRoom` over `room.request` / `room.response`.
 *
 * - Events carry `seq`; the client remembers the last one it delivered, drops (and reports) any
 *   event at or below it, and resumes a lost connection with `hello { sessionId, lastSeq }`, so
 *   the server replays exactly what was missed and nothing is shown or run twice.
 * - A lost connection is `reconnecting`, not `closed` (DESIGN "The wire"): the client reconnects
 *   with exponential backoff. `closed` comes only from the session's final `closed` event, a
 *   refused resume, or `close()`.
 * - `hello` is sent by whoever knows the app tools: `bindAppToolHost` (the provider) sends it each
 *   time the status turns `open`; the client adds the session id and `lastSeq` it alone knows.
 *   When nobody says hello, the client sends its own (`options.tools`).
 * - Room calls answered `ok: false` are definite `ToolRoomError`s with the server's code; a call
 *   that was sent and never answered (timeout, lost connection, closed session) is a
 *   `ToolRoomUnknownOutcomeError`, so a write becomes `uncertain` and is never retried blindly
 *   (seed 002, "Handle results and uncertain execution").
 * - Answers written into a socket that was already gone are lost with it: results, interrupts and
 *   approvals the server has not visibly acted on are sent again once a resumed session's replay
 *   has caught up (the server ignores an answer it already has).
 * - Frames that are not JSON objects reach `onError`; the session goes on.
 */
import { ToolRoomError, ToolRoomUnknownOutcomeError, type ToolRoom } from '../core/room';
import type { ToolSession, ToolSessionStatus } from '../core/session';
import { TOOL_STREAM_CAPABILITY, type AppToolCallMessage, type ClientMessage, type ToolDeclaration } from '../core/wire';
import type {
  ReferenceClientMessage,
  ReferenceEffect,
  ReferenceFault,
  ReferenceRoomMethod,
  ReferenceRoomTool,
  ReferenceWelcome,
  StartTurnOptions,
} from './protocol';

/* -------------------------------------------------------------------- types */

/**
 * The part of a WebSocket the client uses: the browser's `WebSocket` and the `ws` package's
 * both fit.
 *
 * @example
 * import WebSocket from 'ws';
 * connectReferenceSession(url, { WebSocket }); // Node 20 has no global WebSocket
 */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  // `any`: the browser's and ws's event types differ; the client reads `data` (message) only.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: any) => void): void;
}

/**
 * A WebSocket constructor: `globalThis.WebSocket` in browsers, `ws` in Node.
 *
 * @example
 * import WebSocket from 'ws';
 * const session = connectReferenceSession(url, { WebSocket: WebSocket as unknown as WebSocketConstructor });
 */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/**
 * Backoff between reconnection attempts: `initialDelayMs * factor^(attempt - 1)`, at most
 * `maxDelayMs`, jittered to 50–100 % so that many pages do not reconnect in step.
 *
 * @example
 * connectReferenceSession(url, { reconnect: { initialDelayMs: 100, maxDelayMs: 2000 } });
 */
export interface ReconnectOptions {
  /** Default 250. */
  initialDelayMs?: number;
  /** Default 5000. */
  maxDelayMs?: number;
  /** Default 2. */
  factor?: number;
  /** Attempts in a row before giving up (the session then ends `closed`). Default `Infinity`. */
  maxAttempts?: number;
}

/**
 * Options of {@link connectReferenceSession}.
 *
 * @example
 * connectReferenceSession('ws://127.0.0.1:8787', { roomTimeoutMs: 10_000, onError: (reason) => console.warn(reason) });
 */
export interface ReferenceSessionOptions {
  /** Default `globalThis.WebSocket` (pass `ws`'s in Node 20, which has none). */
  WebSocket?: WebSocketConstructor;
  /** The capabilities of the client's own hello (when no binding sends one). Default `['tool-stream-v1']`. */
  capabilities?: readonly string[];
  /** The app tools of the client's own hello (when no binding sends one). Default none. */
  tools?: readonly ToolDeclaration[];
  reconnect?: ReconnectOptions;
  /** How long a room call waits for its answer before its outcome counts as unknown. Default 15000. */
  roomTimeoutMs?: number;
  /** Frames the client could not use (not JSON, not an object, a repeated `seq`), refusals from the server, lost room answers. */
  onError?: (reason: string, detail?: unknown) => void;
}

/**
 * The reference server's room over the socket: the kit's `ToolRoom`, plus its other methods.
 *
 * @example
 * const id = await session.room.confirmTool('send_invoice', args);
 * const result = await session.room.invokeTool('send_invoice', args, id);
 */
export interface ReferenceRoom extends ToolRoom {
  /** Each tool's descriptor (effect, risk, required authority), the room id and this session's grants. */
  describeTools(): Promise<{ roomId: string; tools: ReferenceRoomTool[]; authority: string[] }>;
  /** The room's effect record: an application's own check after an unknown outcome. */
  listEffects(filter?: { toolName?: string; confirmationId?: string }): Promise<ReferenceEffect[]>;
  /** Any room method; resolves with its result, rejects with a `ToolRoomError`. */
  request(method: ReferenceRoomMethod, params?: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<unknown>;
}

/**
 * A live session with the reference server. See {@link connectReferenceSession}.
 *
 * @example
 * const session: ReferenceSession = connectReferenceSession(url);
 * session.startTurn('search');
 */
export interface ReferenceSession extends ToolSession {
  readonly url: string;
  readonly status: ToolSessionStatus;
  /** The welcome's capabilities once the server answered hello; `undefined` before. */
  readonly capabilities: readonly string[] | undefined;
  /** The session's id, from the first welcome. */
  readonly sessionId: string | undefined;
  /** The `seq` of the last event delivered (0 before any). */
  readonly lastSeq: number;
  /** The latest welcome. */
  readonly welcome: ReferenceWelcome | undefined;
  /** Resolves with the first welcome; rejects if the session ends before one. */
  readonly ready: Promise<ReferenceWelcome>;
  readonly room: ReferenceRoom;
  onStatusChange(listener: (status: ToolSessionStatus) => void): () => void;
  /** Every frame that is a JSON object with a `type`, connection frames included (`session.welcome`, `error`, `fault.ack`, …). */
  onFrame(listener: (frame: Record<string, unknown>) => void): () => void;
  /** Start a scripted model turn (`prompt` names a script: search, deploy, write, …). Returns its turn id. */
  startTurn(prompt: string, options?: StartTurnOptions): string;
  /** Ask the server for a fault (demos and tests). */
  injectFault(fault: ReferenceFault): void;
  /** End the session for good (`session.close`): the server answers `closed`; no resume. */
  close(): void;
}

/* ------------------------------------------------------------------ helpers */

const OPEN = 1;
const DEFAULT_ROOM_TIMEOUT_MS = 15_000;
/** How long `close()` waits for the server's `closed` before closing on its own. */
const CLOSE_GRACE_MS = 2_000;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function excerpt(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function textOf(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
  return undefined;
}

function isWelcome(frame: Record<string, unknown>): frame is Record<string, unknown> & ReferenceWelcome {
  return typeof frame.sessionId === 'string' && frame.sessionId !== '' && typeof frame.resumed === 'boolean';
}

interface OutboxItem {
  text: string;
  onSent?: () => void;
}

interface PendingRequest {
  readonly method: ReferenceRoomMethod;
  readonly item: OutboxItem;
  sent: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: ReturnType<typeof setTimeout>;
}

let turnCounter = 0;

/* ------------------------------------------------------------------- client */

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
  const Socket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  const backoff = {
    initialDelayMs: options.reconnect?.initialDelayMs ?? 250,
    maxDelayMs: options.reconnect?.maxDelayMs ?? 5_000,
    factor: options.reconnect?.factor ?? 2,
    maxAttempts: options.reconnect?.maxAttempts ?? Infinity,
  };
  const roomTimeoutMs = options.roomTimeoutMs ?? DEFAULT_ROOM_TIMEOUT_MS;

  const eventListeners = new Set<(event: unknown) => void>();
  const callHandlers = new Set<(call: AppToolCallMessage) => void>();
  const statusListeners = new Set<(status: ToolSessionStatus) => void>();
  const frameListeners = new Set<(frame: Record<string, unknown>) => void>();

  let status: ToolSessionStatus = 'connecting';
  let socket: WebSocketLike | undefined;
  /** This socket said hello / was welcomed. */
  let helloSent = false;
  let welcomed = false;
  let sessionId: string | undefined;
  let welcome: ReferenceWelcome | undefined;
  let lastSeq = 0;
  /** The declarations of the latest hello (or tools.update), for the next connection's hello. */
  let lastHello: { capabilities: string[]; tools: ToolDeclaration[] } = {
    capabilities: [...(options.capabilities ?? [TOOL_STREAM_CAPABILITY])],
    tools: [...(options.tools ?? [])],
  };
  let outbox: OutboxItem[] = [];
  /**
   * Answers the server acts on at once, sent but not yet seen acted on (a `settled` for a result,
   * a `turn.ended` for an interrupt, any later event of the call for an approval). A message
   * written into a socket that was already gone is lost; after a resume, once the replay has
   * caught up, what is still unacknowledged is sent again. Keyed by what it answers.
   */
  const unacknowledged = new Map<string, ReferenceClientMessage>();
  /** requestId -> callId of the gate's approval requests, to acknowledge approvals. */
  const approvalCalls = new Map<string, string>();
  /** After a resumed welcome: resend the unacknowledged once the replay reached this seq. */
  let resendAfterSeq: number | undefined;
  /** What the lost connection carried and may have swallowed: only these are sent again. */
  let resendKeys = new Set<string>();
  const pending = new Map<string, PendingRequest>();
  let requestCounter = 0;
  let attempts = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let closeTimer: ReturnType<typeof setTimeout> | undefined;
  let closing = false;
  let finalized = false;

  let resolveReady!: (welcome: ReferenceWelcome) => void;
  let rejectReady!: (error: unknown) => void;
  const ready = new Promise<ReferenceWelcome>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // Nobody has to wait for it: an unobserved rejection is not an error here.
  ready.catch(() => {});

  const report = (reason: string, detail?: unknown): void => {
    if (!options.onError) return;
    try {
      options.onError(reason, detail);
    } catch {
      // An error handler that throws has nowhere left to report to.
    }
  };

  const safely = <T>(listener: (value: T) => void, value: T): void => {
    try {
      listener(value);
    } catch (error) {
      report(`a session listener threw: ${error instanceof Error ? error.message : String(error)}`, error);
    }
  };

  const setStatus = (next: ToolSessionStatus): void => {
    if (status === next) return;
    status = next;
    for (const listener of [...statusListeners]) safely(listener, next);
  };

  const socketOpen = (): boolean => socket !== undefined && socket.readyState === OPEN;

  /* ---------------------------------------------------------- sending */

  const transmit = (text: string): boolean => {
    if (!socket || !socketOpen()) return false;
    try {
      socket.send(text);
      return true;
    } catch (error) {
      report('the socket refused a message', error);
      return false;
    }
  };

  /** Messages wait for the welcome of the current connection: the server takes nothing before hello. */
  const flush = (): void => {
    if (!welcomed) return;
    while (outbox.length > 0) {
      const item = outbox[0]!;
      if (!transmit(item.text)) return;
      outbox.shift();
      item.onSent?.();
    }
  };

  const enqueue = (message: ReferenceClientMessage, onSent?: () => void): void => {
    outbox.push(onSent ? { text: JSON.stringify(message), onSent } : { text: JSON.stringify(message) });
    flush();
  };

  /** The key of an answer whose effect shows in the event stream, or `undefined`. */
  const answerKey = (message: ReferenceClientMessage): string | undefined => {
    // Without tool-stream-v1 no `settled` comes to acknowledge results and approvals.
    const streams = welcome?.mode !== 'preview';
    if (message.type === 'tool.result' && streams) return `result:${message.callId}`;
    if (message.type === 'tool.approval' && streams) return `approval:${message.requestId}`;
    if (message.type === 'turn.interrupt') return `interrupt:${message.turnId}`;
    return undefined;
  };

  const sendAnswer = (message: ReferenceClientMessage): void => {
    const key = answerKey(message);
    if (key === undefined) {
      enqueue(message);
      return;
    }
    enqueue(message, () => {
      unacknowledged.set(key, message);
      // Sent over this connection: not one to send again for the connection before.
      resendKeys.delete(key);
    });
  };

  const acknowledge = (event: Record<string, unknown>): void => {
    if (event.type === 'tool.approval-request' && typeof event.requestId === 'string' && typeof event.callId === 'string') {
      approvalCalls.set(event.requestId, event.callId);
      return;
    }
    if (event.type === 'turn.ended' && typeof event.turnId === 'string') {
      unacknowledged.delete(`interrupt:${event.turnId}`);
      return;
    }
    if (event.type !== 'tool.stream' || typeof event.callId !== 'string') return;
    const callId = event.callId;
    // Anything the call does after its approval request means the gate heard the answer.
    for (const [requestId, call] of approvalCalls) {
      if (call !== callId) continue;
      unacknowledged.delete(`approval:${requestId}`);
      if (event.phase === 'settled' || event.phase === 'cancelled' || event.phase === 'failed') approvalCalls.delete(requestId);
    }
    if (event.phase === 'settled' || event.phase === 'cancelled' || event.phase === 'failed') unacknowledged.delete(`result:${callId}`);
  };

  /** Once a resumed session's replay has caught up, send again what the lost connection may have swallowed. */
  const resendIfCaughtUp = (): void => {
    if (resendAfterSeq === undefined || lastSeq < resendAfterSeq || !welcomed) return;
    resendAfterSeq = undefined;
    const keys = resendKeys;
    resendKeys = new Set();
    for (const [key, message] of [...unacknowledged]) if (keys.has(key)) sendAnswer(message);
  };

  const sendHello = (): void => {
    const message: Extract<ReferenceClientMessage, { type: 'hello' }> = {
      type: 'hello',
      capabilities: [...lastHello.capabilities],
      tools: [...lastHello.tools],
    };
    // Only this client knows which session to resume and what it has delivered (the store's
    // own lastSeq skips events it ignores, such as tool.call).
    if (sessionId !== undefined) {
      message.sessionId = sessionId;
      message.lastSeq = lastSeq;
    }
    if (transmit(JSON.stringify(message))) helloSent = true;
  };

  /* ------------------------------------------------------------ the end */

  const failRequests = (sentError: (method: string) => Error, unsentError?: (method: string) => Error): void => {
    for (const [id, request] of pending) {
      if (!request.sent && unsentError === undefined) continue;
      pending.delete(id);
      clearTimeout(request.timer);
      request.reject(request.sent ? sentError(request.method) : unsentError!(request.method));
    }
  };

  /** The session is over: `closed` (the server's, or one made here when none can come), then status `closed`. */
  const finalize = (syntheticReason?: string): void => {
    if (finalized) return;
    finalized = true;
    clearTimeout(reconnectTimer);
    clearTimeout(closeTimer);
    outbox = [];
    unacknowledged.clear();
    approvalCalls.clear();
    failRequests(
      (method) => new ToolRoomUnknownOutcomeError(`the session closed before ${method} was answered: it may or may not have taken effect`, { code: 'session-closed' }),
      (method) => new ToolRoomError(`the session closed before ${method} could be sent; nothing was sent`, { code: 'session-closed' }),
    );
    if (syntheticReason !== undefined) {
      // The final close must reach the store (drop the preview state) even when the server's
      // `closed` cannot arrive: a refused resume, a client that gave up, a close without answer.
      const event = { type: 'closed', reason: syntheticReason };
      for (const listener of [...eventListeners]) safely(listener, event);
    }
    setStatus('closed');
    if (!welcome) rejectReady(new Error(`the session ended before the server welcomed it (${syntheticReason ?? 'closed'})`));
    const s = socket;
    socket = undefined;
    helloSent = false;
    welcomed = false;
    if (s && s.readyState <= OPEN) {
      try {
        s.close(1000, 'session closed');
      } catch {
        // already closing
      }
    }
  };

  /* ---------------------------------------------------------- receiving */

  const deliver = (event: Record<string, unknown>): void => {
    acknowledge(event);
    for (const listener of [...eventListeners]) safely(listener, event);
    if (event.type === 'tool.call') {
      for (const handler of [...callHandlers]) safely(handler, event as unknown as AppToolCallMessage);
    }
    if (event.type === 'closed') finalize();
  };

  const onWelcome = (frame: Record<string, unknown>): void => {
    if (!isWelcome(frame)) {
      report('a session.welcome without a session id', frame);
      return;
    }
    if (sessionId !== undefined && (frame.sessionId !== sessionId || !frame.resumed)) {
      // Events of the old session would be mixed with a new one's: end the old one plainly.
      report(`asked to resume ${sessionId}, the server started ${frame.sessionId} instead`, frame);
      finalize('not-resumed');
      return;
    }
    sessionId = frame.sessionId;
    welcome = frame;
    welcomed = true;
    attempts = 0;
    resolveReady(frame);
    // Taken before the outbox goes out: what it sends now travels over this connection, and sending
    // it again after the replay would answer the same call twice.
    resendKeys = frame.resumed ? new Set(unacknowledged.keys()) : new Set();
    flush();
    if (frame.resumed && resendKeys.size > 0) {
      // The replay of what was missed follows; `currentSeq` is where it ends.
      resendAfterSeq = typeof frame.currentSeq === 'number' ? frame.currentSeq : lastSeq;
      resendIfCaughtUp();
    }
  };

  const onRoomResponse = (frame: Record<string, unknown>): void => {
    const id = frame.id;
    const request = typeof id === 'string' ? pending.get(id) : undefined;
    if (!request) {
      report(`a room response that nobody waits for (${String(id)}): it came after its time limit, or was never asked`, frame);
      return;
    }
    pending.delete(id as string);
    clearTimeout(request.timer);
    if (frame.ok === true) {
      request.resolve(frame.result);
      return;
    }
    if (frame.ok === false) {
      const error = isRecord(frame.error) ? frame.error : {};
      const code = typeof error.code === 'string' ? error.code : 'ROOM_ERROR';
      const message = typeof error.message === 'string' && error.message !== '' ? error.message : `${request.method} was refused (${code})`;
      // The room answered no: definite, nothing took effect (or the handler's own failure, recorded).
      request.reject(new ToolRoomError(message, { code }));
      return;
    }
    request.reject(new ToolRoomUnknownOutcomeError(`a malformed answer to ${request.method}: its outcome is unknown`, { code: 'bad-response' }));
  };

  const onText = (data: unknown): void => {
    const text = textOf(data);
    if (text === undefined) {
      report('a binary frame from the server (frames are JSON text)', data);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      report(`a frame from the server is not JSON: ${excerpt(text)}`, text);
      return;
    }
    if (!isRecord(value)) {
      report(`a frame from the server is not a JSON object: ${excerpt(text)}`, value);
      return;
    }
    if (typeof value.type !== 'string') {
      report(`a frame from the server has no type: ${excerpt(text)}`, value);
      return;
    }
    handleFrame(value as Record<string, unknown> & { type: string });
    // After the client applied it, so a listener reads the new state (welcome, lastSeq, status).
    for (const listener of [...frameListeners]) safely(listener, value);
  };

  const handleFrame = (value: Record<string, unknown> & { type: string }): void => {
    if (value.seq !== undefined) {
      const seq = value.seq;
      if (typeof seq !== 'number' || !Number.isFinite(seq)) {
        report(`a ${value.type} event with a seq that is not a number`, value);
        return;
      }
      if (seq <= lastSeq) {
        // A repeat must not reach the kit a second time: a repeated tool.call would run twice.
        report(`a repeated ${value.type} event: seq ${seq} was already delivered (last ${lastSeq})`, value);
        return;
      }
      lastSeq = seq;
      deliver(value);
      resendIfCaughtUp();
      return;
    }
    switch (value.type) {
      case 'session.welcome':
        onWelcome(value);
        return;
      case 'session.refused':
        report(`the server refused to resume session ${String(value.sessionId)}: ${String(value.message ?? value.reason)}`, value);
        finalize(`refused: ${String(value.reason ?? 'unknown')}`);
        return;
      case 'room.response':
        onRoomResponse(value);
        return;
      case 'error':
        // An answer the server ignored was heard all the same: never send it again.
        if (typeof value.callId === 'string' && value.code === 'RESULT_IGNORED') unacknowledged.delete(`result:${value.callId}`);
        if (typeof value.requestId === 'string') unacknowledged.delete(`approval:${value.requestId}`);
        report(`the server refused a message: ${String(value.code)}: ${String(value.message)}`, value);
        return;
      case 'turn.interrupt-ignored':
        if (typeof value.turnId === 'string') unacknowledged.delete(`interrupt:${value.turnId}`);
        return;
      case 'tools.offered':
      case 'fault.ack':
        // Connection frames for onFrame listeners only.
        return;
      default:
        // An event without seq (from a server that does not number them): delivered as it is.
        deliver(value);
    }
  };

  /* --------------------------------------------------------- connecting */

  const scheduleReconnect = (): void => {
    attempts += 1;
    if (attempts > backoff.maxAttempts) {
      report(`gave up reconnecting to ${url} after ${backoff.maxAttempts} attempts`);
      finalize('unreachable');
      return;
    }
    setStatus(sessionId === undefined ? 'connecting' : 'reconnecting');
    const base = Math.min(backoff.maxDelayMs, backoff.initialDelayMs * backoff.factor ** (attempts - 1));
    const delay = base * (0.5 + Math.random() * 0.5);
    reconnectTimer = setTimeout(connect, delay);
  };

  function connect(): void {
    if (finalized) return;
    if (!Socket) {
      report('no WebSocket constructor: pass options.WebSocket (Node 20 has no global WebSocket)');
      finalize('no-websocket');
      return;
    }
    let s: WebSocketLike;
    try {
      s = new Socket(url);
    } catch (error) {
      report(`cannot open ${url}: ${error instanceof Error ? error.message : String(error)}`, error);
      finalize('bad-url');
      return;
    }
    socket = s;
    helloSent = false;
    welcomed = false;
    s.addEventListener('open', () => {
      if (s !== socket || finalized) return;
      if (closing) {
        finalize('client');
        return;
      }
      // `open` tells bindAppToolHost to say hello (with its app tools) through `send`.
      setStatus('open');
      if (!helloSent && s === socket) sendHello();
    });
    s.addEventListener('message', (event: { data?: unknown }) => {
      if (s !== socket || finalized) return;
      onText(event.data);
    });
    s.addEventListener('close', () => {
      if (s !== socket) return;
      socket = undefined;
      helloSent = false;
      welcomed = false;
      // Room answers belong to the connection that asked: a lost connection loses them (seed 002).
      failRequests(
        (method) =>
          new ToolRoomUnknownOutcomeError(`the connection was lost before ${method} was answered: it may or may not have taken effect`, {
            code: 'connection-lost',
          }),
      );
      if (finalized) return;
      if (closing) {
        finalize('client');
        return;
      }
      scheduleReconnect();
    });
    // An error is followed by close, which decides what happens next.
    s.addEventListener('error', () => {});
  }

  /* --------------------------------------------------------------- room */

  const request = (method: ReferenceRoomMethod, params: Record<string, unknown> = {}, requestOptions: { timeoutMs?: number } = {}): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (finalized || closing) {
        reject(new ToolRoomError(`the session is closed; ${method} was not sent`, { code: 'session-closed' }));
        return;
      }
      const id = `room-${++requestCounter}`;
      const ms = requestOptions.timeoutMs ?? roomTimeoutMs;
      const item: OutboxItem = {
        text: JSON.stringify({ type: 'room.request', id, method, params } satisfies ReferenceClientMessage),
        onSent: () => {
          entry.sent = true;
        },
      };
      const entry: PendingRequest = {
        method,
        item,
        sent: false,
        resolve,
        reject,
        timer: setTimeout(() => {
          if (!pending.delete(id)) return;
          if (entry.sent) {
            reject(new ToolRoomUnknownOutcomeError(`no answer to ${method} within ${ms} ms: it may or may not have taken effect`, { code: 'timeout' }));
            return;
          }
          outbox = outbox.filter((queued) => queued !== item);
          reject(new ToolRoomError(`${method} could not be sent within ${ms} ms (not connected); nothing was sent`, { code: 'not-sent' }));
        }, ms),
      };
      pending.set(id, entry);
      outbox.push(item);
      flush();
    });

  const room: ReferenceRoom = {
    async confirmTool(toolName, args) {
      const result = await request('confirmTool', { toolName, arguments: args });
      const id = isRecord(result) ? result.confirmationId : undefined;
      if (typeof id !== 'string' || id === '') {
        throw new ToolRoomError('confirmTool answered without a confirmation id', { code: 'bad-response' });
      }
      return id;
    },
    invokeTool(toolName, args, confirmationId) {
      return request('invokeTool', {
        toolName,
        arguments: args,
        ...(confirmationId === undefined ? {} : { confirmationId }),
      });
    },
    async describeTools() {
      const result = await request('describeTools');
      if (!isRecord(result) || !Array.isArray(result.tools)) throw new ToolRoomError('describeTools answered without tools', { code: 'bad-response' });
      return result as unknown as { roomId: string; tools: ReferenceRoomTool[]; authority: string[] };
    },
    async listEffects(filter = {}) {
      const result = await request('listEffects', { ...filter });
      if (!isRecord(result) || !Array.isArray(result.effects)) throw new ToolRoomError('listEffects answered without effects', { code: 'bad-response' });
      return result.effects as ReferenceEffect[];
    },
    request,
  };

  /* -------------------------------------------------------------- session */

  const session: ReferenceSession = {
    url,
    get status() {
      return status;
    },
    get capabilities() {
      return welcome?.capabilities;
    },
    get sessionId() {
      return sessionId;
    },
    get lastSeq() {
      return lastSeq;
    },
    get welcome() {
      return welcome;
    },
    ready,
    room,
    subscribe(listener) {
      eventListeners.add(listener);
      return () => void eventListeners.delete(listener);
    },
    onToolCall(handler) {
      callHandlers.add(handler);
      return () => void callHandlers.delete(handler);
    },
    onStatusChange(listener) {
      statusListeners.add(listener);
      return () => void statusListeners.delete(listener);
    },
    onFrame(listener) {
      frameListeners.add(listener);
      return () => void frameListeners.delete(listener);
    },
    send(message: ClientMessage) {
      if (finalized || closing) {
        report(`the session is closed: ${String((message as { type?: unknown }).type)} was not sent`, message);
        return;
      }
      if (message.type === 'hello') {
        lastHello = { capabilities: [...message.capabilities], tools: [...message.tools] };
        // Not connected: the next connection says hello with these declarations.
        if (!socketOpen()) return;
        if (!helloSent) {
          sendHello();
          return;
        }
        // The server takes one hello per connection (HELLO_REPEATED): a later one (a binding made
        // after the client's own hello, a StrictMode re-bind) carries its tools as tools.update.
        enqueue({ type: 'tools.update', tools: [...message.tools] });
        return;
      }
      if (message.type === 'tools.update') lastHello = { ...lastHello, tools: [...message.tools] };
      sendAnswer(message);
    },
    startTurn(prompt, turnOptions = {}) {
      const turnId = turnOptions.turnId ?? `turn-${Date.now().toString(36)}-${++turnCounter}`;
      if (finalized || closing) {
        report(`the session is closed: turn ${prompt} was not started`);
        return turnId;
      }
      enqueue({
        type: 'turn.start',
        prompt,
        turnId,
        // JSON has no Infinity: the server reads 0 as instant too.
        ...(turnOptions.speed === undefined ? {} : { speed: Number.isFinite(turnOptions.speed) ? turnOptions.speed : 0 }),
        ...(turnOptions.params === undefined ? {} : { params: turnOptions.params }),
      });
      return turnId;
    },
    injectFault(fault) {
      if (finalized || closing) {
        report(`the session is closed: fault ${fault.fault} was not sent`);
        return;
      }
      enqueue({ type: 'fault', ...fault });
    },
    close() {
      if (finalized || closing) return;
      closing = true;
      if (welcomed && socketOpen()) {
        flush();
        transmit(JSON.stringify({ type: 'session.close' } satisfies ReferenceClientMessage));
        // The server answers with `closed`; if it never does, end here all the same.
        closeTimer = setTimeout(() => finalize('client'), CLOSE_GRACE_MS);
        return;
      }
      // Not connected: the server's session ends when its resume window passes.
      finalize('client');
    },
  };

  connect();
  return session;
}
