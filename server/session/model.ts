/**
 * What the parts of a session share: its configuration, the state of its turns and calls, and
 * the narrow core (sending, the event log, records) each part is given instead of the whole
 * session.
 */
import type { ApprovalSigner } from '../../src/server/approval-signer';
import type { BeforeToolCall, ServerTool, SubagentReport } from '../agent-tools';
import type { ConnectionFrame, ErrorCode, StreamFieldsArgument, ToolLocation, ToolResult, ToolRisk } from '../protocol';
import type { ToolStreamPhase } from '../../src/core/wire';
import type { AuditChain } from '../audit-chain';
import type { Records } from '../records';
import type { Room } from '../room';
import type { Script } from '../scripts';
import { sleep, type Timer } from '../timer';

export interface SessionLimits {
  /** Bytes of events kept for replay; older ones go first (a resume from before them is refused). */
  maxReplayBytes: number;
  /** Finished turns kept (with their calls and results); older ones are forgotten. */
  maxTurnsKept: number;
  /** Frames a drop fault keeps as evidence. */
  maxDroppedKept: number;
  /** Bytes the socket may have waiting to be sent before it is dropped (see ServerLimits). */
  maxBufferedBytes: number;
  /** How long a session that never started a turn waits for a resume. */
  unusedSessionTtlMs: number;
  /** The largest `params.size` a client may ask of a script. */
  maxScriptSize: number;
  /** The slowest `speed` a client may ask for a turn. */
  minTurnSpeed: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  maxReplayBytes: 16 * 1024 * 1024,
  maxTurnsKept: 200,
  maxDroppedKept: 100,
  maxBufferedBytes: 4 * 1024 * 1024,
  unusedSessionTtlMs: 15_000,
  maxScriptSize: 200_000,
  minTurnSpeed: 0.1,
};

export interface SessionConfig {
  /** The server speaks tool-stream-v1 (with `tool.preview` alongside). */
  toolStream: boolean;
  /** App tools are offered to the model only with `'accept'`. */
  clientTools: 'accept' | 'ignore';
  clientToolTimeoutMs: number;
  resumeWindowMs: number;
  speed: number;
  tokenDelayMs: number;
  faultsEnabled: boolean;
  initialFaults: { dropInvokeResponses: number; responseDelayMs: number };
  serverTools: ReadonlyMap<string, ServerTool>;
  scripts: ReadonlyMap<string, Script>;
  beforeToolCall: BeforeToolCall;
  timer: Timer;
  room: Room;
  records: Records;
  /** Signs each approval request and verifies the token its decision brings back (docs/protocol.md "Signed approvals"). */
  approvalSigner: ApprovalSigner;
  limits: SessionLimits;
  log: (line: string) => void;
}

export type TurnStatus = 'running' | 'completed' | 'interrupted' | 'failed' | 'closed';
export type CallStatus = 'streaming' | 'issued' | 'settled' | 'cancelled' | 'failed';

export interface Turn {
  id: string;
  script: Script;
  status: TurnStatus;
  abort: AbortController;
  calls: CallState[];
  pacing: Pacing;
  params: Record<string, unknown>;
  random: () => number;
}

export interface CallState {
  callId: string;
  turn: Turn;
  name: string;
  location: ToolLocation | undefined;
  risk: ToolRisk | undefined;
  effect: 'read' | 'write' | undefined;
  status: CallStatus;
  /** The epoch the server stamped on the call. */
  epoch: number;
  /** The argument text so far, for previews; released once the arguments are complete. */
  text: string;
  previewedLength: number;
  arguments?: unknown;
  /** The call inside which a sub-agent made this one. */
  parentCallId?: string;
  /** The sub-agent this call runs (its script gave it one): its calls are made with this call as their parent. */
  subagent?: () => Promise<SubagentReport>;
  abort: AbortController;
  finished: Promise<void>;
  finish: () => void;
}


export const INTERRUPTED: ToolResult = { ok: false, code: 'INTERRUPTED', message: 'the turn was interrupted' };
export const TERMINAL: ReadonlySet<CallStatus> = new Set(['settled', 'cancelled', 'failed']);

/** What every part of a session may use of it. */
export interface SessionCore {
  readonly id: string;
  readonly config: SessionConfig;
  readonly closed: boolean;
  readonly epoch: number;
  /** The seq of the last event. */
  readonly seq: number;
  /** tool-stream-v1 when both sides speak it; otherwise `tool.preview` only. */
  readonly streamMode: boolean;
  /** The result each call had for the model. */
  readonly results: Map<string, ToolResult>;
  /** Calls by id (of the turns still kept). */
  readonly calls: Map<string, CallState>;
  /** The session's own audit chain of the calls that involved a decision. */
  readonly audit: AuditChain;
  /** A fresh id of a kind (`turn_3`, `call_12`, `apr_1`), unique in the session. */
  nextId(kind: 'turn' | 'call' | 'apr'): string;
  /** A session event: the next `seq`, kept for replay, sent if a socket is there. */
  emit(event: Record<string, unknown>): void;
  /** A `tool.stream` event, only in stream mode. */
  emitStream<P extends ToolStreamPhase>(phase: P, callId: string, ...fields: StreamFieldsArgument<P>): void;
  /** A connection frame: no `seq`, not replayed. */
  sendDirect(frame: ConnectionFrame): void;
  /** Raw text to the socket (malformed frames). */
  transmit(text: string): void;
  sendError(code: ErrorCode, message: string, extra?: Record<string, unknown>): void;
  /** Record a client message the session did not act on. */
  ignore(message: string, reason: string, detail?: unknown): void;
  offersAppTool(name: string): boolean;
  /** The JSON Schema the page declared for its app tool, if any. */
  appToolSchema(name: string): Record<string, unknown> | undefined;
  /** Whether the call has its one result (or the session closed). */
  terminal(call: CallState): boolean;
}

/** Token pacing: `speed` scales every delay; Infinity or 0 (or a token delay of 0) is instant. */
export class Pacing {
  readonly instant: boolean;
  constructor(
    private readonly timer: Timer,
    private readonly speed: number,
    private readonly tokenDelayMs: number,
    private readonly random: () => number,
  ) {
    this.instant = !(speed > 0 && Number.isFinite(speed));
  }
  scale(ms: number): number {
    return this.instant ? 0 : ms / this.speed;
  }
  /** One token's wait, jittered between half and one and a half of the base delay. */
  token(signal: AbortSignal): Promise<boolean> {
    const ms = this.instant || !(this.tokenDelayMs > 0) ? 0 : (this.tokenDelayMs * (0.5 + this.random())) / this.speed;
    return sleep(this.timer, ms, signal);
  }
  wait(ms: number, signal: AbortSignal): Promise<boolean> {
    return sleep(this.timer, this.scale(ms), signal);
  }
}
