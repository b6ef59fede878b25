/**
 * The public shape of the reference session: what `connectReferenceSession` takes and returns.
 */
import type { ToolRoom } from '../core/session/room';
import type { ToolSession, ToolSessionStatus } from '../core/session/tool-session';
import type { SessionPersistence, StorageLike } from '../core/session/session-persistence';
import type { ToolDeclaration } from '../core/wire';
import type {
  ReferenceEffect,
  ReferenceFault,
  ReferenceResume,
  ReferenceRoomMethod,
  ReferenceRoomTool,
  ReferenceWelcome,
  StartTurnOptions,
} from './protocol';

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
  /**
   * Resume this session instead of starting one (what `session.resume` gave before, kept where the
   * app chose): the first hello presents it, and the server replays the events after `lastSeq`.
   * A resume the server refuses ends the session `closed`, with the reason through `onError`.
   */
  resume?: ReferenceResume;
  /**
   * Keep the session across a page reload (opt-in): its resume triple in `storage`
   * (`sessionStorage` by default) under `key` (`'toolgate:session'` by default), and, with
   * `<ToolgateProvider>`, its standing grants and the app-tool calls the page ran. A page created
   * with the same options after a reload resumes the session: the server replays it from the
   * start to rebuild the store, and sends again an approval request or an app-tool call still
   * waiting for an answer. Such a restored session connects once the page listens for app-tool
   * calls (`<ToolgateProvider>` and `bindAppToolHost` do; an app without them calls
   * `session.onToolCall`), so nothing of the replay arrives before the page is wired to it.
   * When the storage fails, the session goes on unsaved and `onError` says so. The token is a
   * secret: whoever can read the storage can take the session over.
   */
  persist?: boolean | { storage?: StorageLike; key?: string };
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
  /** This session's entries in the room's effect record (the newest 100 at most): an application's own check after an unknown outcome. */
  listEffects(filter?: { toolName?: string; confirmationId?: string; limit?: number }): Promise<ReferenceEffect[]>;
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
  /**
   * What it takes to resume this session (`{ sessionId, token, lastSeq }`, current as of the last
   * event delivered), once the server welcomed it; `undefined` before. Pass it back as the
   * `resume` option to take the session up again; the token is a secret, never show or log it.
   */
  readonly resume: ReferenceResume | undefined;
  /** The latest welcome. */
  readonly welcome: ReferenceWelcome | undefined;
  /** Where the session is kept across a reload (the `persist` option), or `undefined`. */
  readonly persistence: SessionPersistence | undefined;
  /** Whether this session is one a page before this one kept, taken up again after a reload. */
  readonly restored: boolean;
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
