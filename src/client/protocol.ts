/**
 * The reference server's own frames: what DESIGN's wire leaves to the session (the welcome,
 * resume, turns, the room over the socket, faults). See server/README.md "The protocol".
 * Types only; the client reads every field defensively, since a frame is data from a socket.
 */
import type { ClientMessage, ToolDeclaration } from '../core/wire';

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
  /** The next `count` (1) tool.result messages from the page are lost; with `disconnect`, the socket drops after each. */
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
 * Every message this client sends: the kit's session messages (`hello`, `tools.update`, `tool.result`,
 * `turn.interrupt`, `tool.approval`), with `hello` naming the session
 * to resume, plus the reference server's own (turns, the room, close, faults).
 *
 * @example
 * const message: ReferenceClientMessage = { type: 'turn.start', prompt: 'deploy', speed: Infinity };
 */
export type ReferenceClientMessage =
  | Exclude<ClientMessage, { type: 'hello' }>
  | { type: 'hello'; capabilities: string[]; tools: ToolDeclaration[]; lastSeq?: number; sessionId?: string }
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
  location: 'server' | 'app';
  risk?: 'low' | 'medium' | 'high';
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
}

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
  risk: 'low' | 'medium' | 'high';
  requiredAction: string;
  requiresConfirmation: boolean;
}

/**
 * One entry of the room's effect record, as `listEffects` gives it.
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
  arguments: unknown;
  argumentsHash?: string;
  confirmationId?: string;
  outcome: 'accepted' | 'refused' | 'failed';
  code?: string;
  reason?: string;
  result?: unknown;
  responseDropped?: boolean;
}
