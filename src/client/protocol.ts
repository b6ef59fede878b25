/**
 * The reference server's own messages: what the kit's wire leaves to the session (the welcome and
 * resume, turns, the room over the socket, faults, refusals). See server/README.md "The protocol".
 *
 * Types only, and the one place they are written: the reference server imports them with
 * `import type`, so the server and this client cannot drift apart. The client still reads every
 * field defensively, since a frame is data from a socket.
 */
import type { ClientMessage, ToolDeclaration, ToolLocation, ToolRisk } from '../core/wire';

/**
 * The malformed frames the server can be asked to send.
 *
 * @example
 * session.injectFault({ fault: 'malformed', frame: 'repeat-seq' satisfies ReferenceMalformedFrame });
 */
export type ReferenceMalformedFrame =
  | 'invalid-json'
  | 'unknown-phase'
  | 'missing-call-id'
  | 'unknown-type'
  | 'not-an-object'
  | 'repeat-seq'
  /** A frame naming the page's own interrupt, which the page must refuse. */
  | 'local-event';

/**
 * Fault injection (server/README.md "Faults"), for demos and tests.
 *
 * @example
 * session.injectFault({ fault: 'drop-invoke-response' });
 * session.injectFault({ fault: 'disconnect', afterEvents: 20 });
 */
export type ReferenceFault =
  /** The next `count` (1) invokeTool responses are not sent; the effect still happens. */
  | { fault: 'drop-invoke-response'; count?: number }
  /** The next `count` (1) confirmTool responses are not sent; the confirmation is made and stays unused. */
  | { fault: 'drop-confirm-response'; count?: number }
  /**
   * The next `count` (1) tool.result messages from the page are lost on the way: the server never
   * acts on them. With `disconnect`, the socket drops right after each, as when a result is
   * written into a connection that is already gone (the page resumes and may send it again).
   */
  | { fault: 'drop-tool-result'; count?: number; disconnect?: boolean }
  /** Room responses wait `ms` on the server clock (0 turns the delay off). */
  | { fault: 'delay-responses'; ms: number }
  /** Drop the socket now, or after that many more events; the session stays resumable. */
  | { fault: 'disconnect'; afterEvents?: number }
  /** Close the session for good (`closed`), now or after that many more events. */
  | { fault: 'close-session'; afterEvents?: number }
  /** Send one malformed frame, now or after that many more events. */
  | { fault: 'malformed'; frame: ReferenceMalformedFrame; afterEvents?: number }
  /** Disarm every fault of this session. */
  | { fault: 'reset' };

/**
 * A room method of the reference server.
 *
 * @example
 * const effects = await session.room.request('listEffects' satisfies ReferenceRoomMethod, { toolName: 'transfer' });
 */
export type ReferenceRoomMethod = 'describeTools' | 'confirmTool' | 'invokeTool' | 'listEffects';

/**
 * What a turn may carry besides its prompt.
 *
 * @example
 * session.startTurn('transfer 5 to bob', { speed: Infinity } satisfies StartTurnOptions);
 */
export interface StartTurnOptions {
  /** A turn id of the page's choosing (default: a fresh one). */
  turnId?: string;
  /** Pacing of this turn: 1 realistic, 4 four times faster, `Infinity` (or 0) instant. */
  speed?: number;
  /** Script parameters, e.g. `{ size: 20000 }` for `long`, `{ environment: 'staging' }` for `deploy`. */
  params?: Record<string, unknown>;
}

/**
 * What it takes to resume a session: its id, the `resumeToken` its welcome carried, and the `seq`
 * of the last event the page has. Knowing a session id is not enough to take a session over.
 *
 * @example
 * const saved: ReferenceResume | undefined = session.resume;
 * if (saved) sessionStorage.setItem('toolgate', JSON.stringify(saved));
 */
export interface ReferenceResume {
  sessionId: string;
  token: string;
  lastSeq: number;
}

/**
 * The first message of every connection: the kit's `hello`, with `resume` to take up a session
 * that lost its connection (the server replays the events after `resume.lastSeq`).
 *
 * @example
 * const hello: ReferenceHello = { type: 'hello', capabilities: ['tool-stream-v1'], tools: [], resume: { sessionId, token, lastSeq: 12 } };
 */
export interface ReferenceHello {
  type: 'hello';
  capabilities: string[];
  tools: ToolDeclaration[];
  /** The kit's field; the reference server reads `resume.lastSeq` instead. */
  lastSeq?: number;
  resume?: ReferenceResume;
  /**
   * This page's nonce (docs/guarantees.md "One page holds a saved session"): a resume with the
   * nonce of the socket the server holds is that page reconnecting and takes over; one with
   * another nonce while that socket lives is refused `in-use`.
   */
  page?: string;
}

/**
 * Every message this client sends: the kit's session messages (`hello`, `tools.update`,
 * `tool.result`, `turn.interrupt`, `tool.approval`), with `hello` able to resume, plus the
 * reference server's own (turns, the room, close, faults).
 *
 * @example
 * const message: ReferenceClientMessage = { type: 'turn.start', prompt: 'deploy', speed: Infinity };
 */
export type ReferenceClientMessage =
  | Exclude<ClientMessage, { type: 'hello' }>
  | ReferenceHello
  | { type: 'turn.start'; prompt: string; turnId?: string; speed?: number; params?: Record<string, unknown> }
  | { type: 'room.request'; id: string; method: ReferenceRoomMethod; params: Record<string, unknown> }
  | { type: 'session.close' }
  | ({ type: 'fault' } & ReferenceFault);

/**
 * A tool as the welcome lists it (what the model is offered).
 *
 * @example
 * const names = (await session.ready).tools.map((tool: ReferenceOfferedTool) => tool.name);
 */
export interface ReferenceOfferedTool {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  location: ToolLocation;
  risk?: ToolRisk;
  effect?: 'read' | 'write';
}

/**
 * The answer to `hello` (a connection frame: no `seq`, never replayed).
 *
 * @example
 * const welcome: ReferenceWelcome = await session.ready;
 * if (welcome.resumed) console.info('resumed at seq', welcome.currentSeq);
 */
export interface ReferenceWelcome {
  type: 'session.welcome';
  sessionId: string;
  /**
   * The secret that resumes this session (at least 128 random bits, the same for the session's
   * whole life). Keep it where the page keeps the session id; never show or log it.
   */
  resumeToken: string;
  resumed: boolean;
  /** The last event's seq before any replay. */
  currentSeq: number;
  epoch: number;
  /** `['tool-stream-v1']` when both sides speak it, else `[]`. */
  capabilities: string[];
  mode: 'stream' | 'preview';
  clientTools: 'accept' | 'ignore';
  tools: ReferenceOfferedTool[];
  scripts: { name: string; description: string }[];
  room: { id: string };
  activeTurnId: string | null;
  /**
   * The requests that wait for the page's answer when it is welcomed: the app-tool call out to it
   * and the approval requests of the server's gate. In a resumed connection's replay, a
   * `tool.call` or `tool.approval-request` not listed here is history (answered, timed out or
   * withdrawn while the page was away): the client delivers it to nobody, so it is never acted on.
   * One listed here that the replay does not carry (sent before `resume.lastSeq`) comes again
   * after the replay, marked `resent: true` and without a seq.
   */
  waiting: { calls: string[]; approvals: string[] };
}

/**
 * Why a resume was refused: `unknown` (no such session, or not with that token: the two are
 * answered alike), `closed` (it ended for good), `gap` (the events after `lastSeq` are no longer
 * kept, so the page cannot catch up), `in-use` (another page's socket holds the session now).
 *
 * @example
 * session.onFrame((frame) => {
 *   if (frame.type === 'session.refused' && (frame.reason as ReferenceRefusalReason) === 'gap') startOver();
 * });
 */
export type ReferenceRefusalReason = 'unknown' | 'closed' | 'gap' | 'in-use';

/**
 * The answer to a `hello` that cannot resume; the socket then closes (4404 unknown, 4410 closed,
 * 4412 gap, 4409 in use) and no session is attached to it.
 *
 * @example
 * const refusal: ReferenceRefusal = { type: 'session.refused', sessionId: 'sess_1', reason: 'unknown', message: 'no such session' };
 */
export interface ReferenceRefusal {
  type: 'session.refused';
  sessionId: string;
  reason: ReferenceRefusalReason;
  message: string;
}

/**
 * The codes of the server's `error` frames: it could not, or would not, use a message.
 *
 * @example
 * session.onFrame((frame) => {
 *   if (frame.type === 'error' && (frame.code as ReferenceErrorCode) === 'RATE_LIMITED') slowDown();
 * });
 */
export type ReferenceErrorCode =
  | 'BAD_JSON'
  | 'BAD_MESSAGE'
  | 'UNKNOWN_MESSAGE'
  | 'TOO_COMPLEX'
  | 'RATE_LIMITED'
  | 'SERVER_BUSY'
  | 'HELLO_REQUIRED'
  | 'HELLO_REPEATED'
  | 'TURN_IN_PROGRESS'
  | 'UNKNOWN_SCRIPT'
  | 'DUPLICATE_TURN'
  | 'RESULT_IGNORED'
  | 'APPROVAL_IGNORED'
  | 'FINGERPRINT_MISMATCH'
  | 'EDIT_REFUSED'
  | 'APPROVAL_EXPIRED'
  /** The decision's `approvalToken` was missing, forged, changed, for another call, or already used: nothing ran. */
  | 'APPROVAL_TOKEN_INVALID'
  /** A `respond` decision's answer was refused (too large or deep, or missing): nothing ran. */
  | 'RESPONSE_REFUSED'
  | 'FAULTS_DISABLED';

/**
 * The server could not use a message: a code, a sentence, and what the message concerned
 * (`callId`, `requestId`, `turnId`, `reason`, … where there is one).
 *
 * @example
 * const error: ReferenceErrorFrame = { type: 'error', code: 'RESULT_IGNORED', message: 'call c1 already has its result', callId: 'c1' };
 */
export interface ReferenceErrorFrame {
  type: 'error';
  code: ReferenceErrorCode;
  message: string;
  [detail: string]: unknown;
}

/**
 * The room's refusal codes: authority, confirmations, arguments, and the server's own limits.
 *
 * @example
 * const definite = (code: ReferenceRoomErrorCode) => code !== 'TOOL_FAILED';
 */
export type ReferenceRoomErrorCode =
  | 'UNKNOWN_TOOL'
  | 'FORBIDDEN'
  | 'INVALID_ARGUMENTS'
  | 'CONFIRMATION_REQUIRED'
  | 'CONFIRMATION_INVALID'
  | 'CONFIRMATION_CONSUMED'
  | 'CONFIRMATION_EXPIRED'
  | 'TOO_MANY_CONFIRMATIONS'
  | 'NOT_FOUND'
  | 'TOOL_FAILED'
  | 'UNKNOWN_METHOD';

/**
 * The answer to a `room.request`, with the request's `id`.
 *
 * @example
 * const refused: ReferenceRoomResponse = { type: 'room.response', id: 'room-1', ok: false, error: { code: 'FORBIDDEN', message: 'no tool:confirm:delete_customer' } };
 */
export type ReferenceRoomResponse =
  | { type: 'room.response'; id: string | number; ok: true; result: unknown }
  | { type: 'room.response'; id: string | number; ok: false; error: { code: ReferenceRoomErrorCode; message: string } };

/**
 * A room tool's descriptor as `describeTools` gives it: its effect, risk and the authority it needs.
 *
 * @example
 * const { tools } = await session.room.describeTools();
 * const writes = tools.filter((tool: ReferenceRoomTool) => tool.effect === 'write');
 */
export interface ReferenceRoomTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  effect: 'read' | 'write';
  risk: ToolRisk;
  requiredAction: string;
  requiresConfirmation: boolean;
}

/**
 * One entry of the room's effect record, as `listEffects` gives it (only the asking session's).
 *
 * @example
 * const effects: ReferenceEffect[] = await session.room.listEffects({ toolName: 'transfer' });
 * const happened = effects.some((e) => e.outcome === 'accepted');
 */
export interface ReferenceEffect {
  id: number;
  at: number;
  source: 'room' | 'server-tool';
  sessionId: string;
  toolName: string;
  effect: 'read' | 'write';
  /** The arguments, unless they were too large to keep (then `argumentsOmitted` says why). */
  arguments: unknown;
  argumentsOmitted?: { reason: string };
  argumentsHash?: string;
  confirmationId?: string;
  outcome: 'accepted' | 'refused' | 'failed';
  code?: string;
  reason?: string;
  result?: unknown;
  responseDropped?: boolean;
  callId?: string;
  turnId?: string;
  /** For a call that waited for an approval: whether a grant answered it (`automatic`) and whether it ran an edit. */
  approval?: { automatic: boolean; edited: boolean };
}

/**
 * The frames the server sends outside the session's event log: no `seq`, never replayed.
 *
 * @example
 * session.onFrame((frame) => {
 *   const connection = frame as ReferenceConnectionFrame;
 *   if (connection.type === 'fault.ack') console.info('armed', connection.fault);
 * });
 */
export type ReferenceConnectionFrame =
  | ReferenceWelcome
  | ReferenceRefusal
  | ReferenceErrorFrame
  | ReferenceRoomResponse
  | { type: 'tools.offered'; tools: ReferenceOfferedTool[] }
  /** This socket lost its session to a newer one of the same page nonce (then it closes with 4409): it must not reconnect. */
  | { type: 'session.taken'; sessionId: string; message: string }
  | ({ type: 'fault.ack' } & ReferenceFault)
  | { type: 'turn.interrupt-ignored'; turnId: string; epoch: number; reason: 'unknown-turn' | 'turn-ended' };
