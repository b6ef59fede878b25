/**
 * One agent session: its connection, its sequenced event log (for resume), and the parts that do
 * its work (server/session/*): scripted turns, the gate and its approvals, server tools, the
 * one-at-a-time app-tool queue, room requests, faults. A session outlives its socket: a lost
 * connection detaches it, and a `hello` with its id, its resume token and `lastSeq` attaches a
 * new socket and replays what was missed.
 */
import type { WebSocket } from 'ws';
import type { ReferenceWelcome } from '../src/client/protocol';
import { TOOL_STREAM_V1, type ClientFrame, type ConnectionFrame, type ErrorCode, type FaultSpec, type OfferedTool, type StreamFieldsArgument, type ToolDeclaration, type ToolResult } from './protocol';
import type { ToolStreamPhase } from '../src/core/wire';
import { AuditChain } from './audit-chain';
import { AppQueue } from './session/app-queue';
import { Approvals } from './session/approvals';
import { CallRunner } from './session/calls';
import { EventLog } from './session/event-log';
import { SessionFaults, type DroppedFrame } from './session/faults';
import { TERMINAL, type CallState, type SessionConfig, type SessionCore } from './session/model';
import { allowBurst, sendBounded } from './outbound';
import { answerRoomRequest } from './session/room-requests';
import { TurnRunner } from './session/turns';
import type { TimerHandle } from './timer';
import { newResumeToken, tokenDigest, tokenMatches } from './tokens';

export type { SessionConfig, SessionLimits } from './session/model';
export { DEFAULT_SESSION_LIMITS } from './session/model';
export type { DroppedFrame } from './session/faults';

/** Records kept in a session's audit chain (about four per decided call); past it, none are added. */
const MAX_AUDIT_RECORDS = 4000;

export type CloseReason = 'client' | 'server' | 'fault' | 'expired' | 'shutdown';

export class Session implements SessionCore {
  readonly id: string;
  /** The result each call had for the model (what the runtime would hand back to it). */
  readonly results = new Map<string, ToolResult>();
  readonly calls = new Map<string, CallState>();
  /** Its own audit chain: what was asked, decided, ran and settled, for each call that involved a decision. */
  readonly audit: AuditChain;
  private readonly log: EventLog;
  private readonly tokenHash: Buffer;
  /** The token in the clear, until the first welcome carries it to the page. */
  private freshToken: string | undefined;
  private socket: WebSocket | undefined;
  /** The page nonce the attached socket said hello with, if any. */
  private socketPage: string | undefined;
  private closedValue = false;
  private capabilities: string[] = [];
  private readonly appTools = new Map<string, ToolDeclaration>();
  private epochValue = 0;
  private readonly counters = { turn: 0, call: 0, apr: 0 };
  private resumeTimer: TimerHandle | undefined;
  private readonly delayed = new Set<TimerHandle>();
  /** Room requests are answered one after another, in the order they came; this one is still being hashed. */
  private roomQueue: Promise<void> | undefined;
  private readonly approvals: Approvals;
  private readonly appQueue: AppQueue;
  private readonly runner: CallRunner;
  private readonly turns: TurnRunner;
  private readonly faults: SessionFaults;

  constructor(
    id: string,
    readonly config: SessionConfig,
    private readonly onClosed: (session: Session) => void,
  ) {
    this.id = id;
    this.audit = new AuditChain(() => config.timer.now(), MAX_AUDIT_RECORDS);
    this.log = new EventLog(config.limits.maxReplayBytes);
    this.freshToken = newResumeToken();
    this.tokenHash = tokenDigest(this.freshToken);
    this.faults = new SessionFaults(this, {
      dropConnection: () => this.dropConnection(),
      close: (reason) => this.close(reason),
      lastEventText: (skip) => this.log.last(skip),
      lastCallId: () => this.turns.lastCallId,
      activeTurnId: () => this.turns.activeTurnId,
    });
    this.approvals = new Approvals(this, config.approvalSigner);
    this.appQueue = new AppQueue(this, (call, result) => this.runner.settle(call, result));
    this.runner = new CallRunner(this, this.approvals, this.appQueue);
    this.turns = new TurnRunner(this, this.runner, this.appQueue, this.approvals, (frame) => this.faults.sendMalformed(frame));
  }

  /* ------------------------------------------------------------ observers */

  get seq(): number {
    return this.log.seq;
  }
  get epoch(): number {
    return this.epochValue;
  }
  get closed(): boolean {
    return this.closedValue;
  }
  get connected(): boolean {
    return this.socket !== undefined;
  }
  get streamMode(): boolean {
    return this.config.toolStream && this.capabilities.includes(TOOL_STREAM_V1);
  }
  /** What the drop faults dropped, in order: the evidence that a fault fired. */
  get dropped(): readonly DroppedFrame[] {
    return this.faults.dropped;
  }
  /** Every sequenced event still kept for replay, decoded. */
  events(): Record<string, unknown>[] {
    return this.log.decoded();
  }
  /** What the model is offered: the server tools, and the app tools when the agent accepts them. */
  offeredTools(): OfferedTool[] {
    const server: OfferedTool[] = [...this.config.serverTools.values()].map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters as Record<string, unknown>,
      location: 'server',
      risk: t.risk,
      effect: t.effect,
    }));
    const app: OfferedTool[] = [...this.appTools.values()]
      .filter((t) => this.offersAppTool(t.name))
      .map((t) => ({ ...t, location: 'app' }));
    return [...server, ...app];
  }
  isAttached(socket: WebSocket): boolean {
    return this.socket === socket;
  }
  /** Whether `token` is this session's resume token (constant time). */
  acceptsToken(token: string): boolean {
    return tokenMatches(this.tokenHash, token);
  }
  /**
   * Whether a resume said with `page` may attach now (docs/guarantees.md "One page holds a saved
   * session"): when no socket is attached, or when the attached one said hello with the same page
   * nonce (that page lost its connection before the server noticed). Another page, or one without
   * a nonce, waits until the attached socket is gone (closed, or dropped by the heartbeat).
   */
  mayTakeOver(page: string | undefined): boolean {
    return this.socket === undefined || (page !== undefined && page === this.socketPage);
  }
  /** Whether a resume from `lastSeq` can be replayed without a hole. */
  canResumeFrom(lastSeq: number): boolean {
    return this.log.canReplayAfter(lastSeq);
  }
  /** Turns kept, pending delayed answers and whether a resume timer runs (the server's accounting). */
  footprint(): { turns: number; calls: number; results: number; delayed: number; resumeTimer: boolean } {
    return { turns: this.turns.size, calls: this.calls.size, results: this.results.size, delayed: this.delayed.size, resumeTimer: this.resumeTimer !== undefined };
  }

  /* ------------------------------------------------------- the connection */

  /**
   * Bind a socket (a new session's, or one that resumed with the right token), greet it and
   * replay what it missed. A resume replaces a socket the server still holds: the page that has
   * the token is the one that lost its connection.
   */
  attach(socket: WebSocket, hello: Extract<ClientFrame, { type: 'hello' }>): void {
    const resumed = hello.resume !== undefined;
    if (this.socket && this.socket !== socket) {
      // Only the newest socket speaks for the session: the older one is told, so that a page
      // still reading it stops instead of taking the session back.
      const old = this.socket;
      this.socket = undefined;
      if (old.readyState === 1) old.send(JSON.stringify({ type: 'session.taken', sessionId: this.id, message: 'a newer connection of this page took over the session' }));
      // A close handshake (not terminate), so the frame above goes out first; a peer that is
      // gone is cut by ws's close timeout.
      old.close(4409, 'session taken over');
    }
    this.socket = socket;
    this.socketPage = hello.page;
    this.config.timer.clearTimeout(this.resumeTimer);
    this.resumeTimer = undefined;
    this.capabilities = [...hello.capabilities];
    this.replaceAppTools(hello.tools);
    // A resume presented the token (checked before this): its welcome repeats it. The server
    // keeps only its digest once the first welcome has carried it.
    const token = hello.resume?.token ?? this.freshToken ?? '';
    this.freshToken = undefined;
    this.sendDirect(this.welcome(resumed, token));
    if (!resumed) return;
    const lastSeq = hello.resume!.lastSeq;
    const replay = [...this.log.after(lastSeq)];
    allowBurst(socket, replay.reduce((bytes, text) => bytes + Buffer.byteLength(text), 0));
    for (const text of replay) this.transmit(text);
    // What still waits for the page's answer and was sent before `lastSeq` (so the replay does
    // not carry it) goes again after the replay, marked `resent`, without a seq: a page that
    // resumed from a lastSeq of its own may not have it.
    for (const request of this.waiting()) {
      if (request.seq <= lastSeq) this.transmit(JSON.stringify({ ...request.frame, resent: true }));
    }
  }

  /** The requests that wait for the page's answer: the app call out to it and the gate's approval requests. */
  private waiting(): { id: string; seq: number; frame: Record<string, unknown> }[] {
    const call = this.appQueue.waiting();
    return [...(call ? [call] : []), ...this.approvals.waiting()];
  }

  private welcome(resumed: boolean, token: string): ReferenceWelcome {
    return {
      type: 'session.welcome',
      sessionId: this.id,
      resumeToken: token,
      resumed,
      // Not `seq`: this frame is not a session event, and a client must not take it for one.
      currentSeq: this.log.seq,
      epoch: this.epochValue,
      capabilities: this.streamMode ? [TOOL_STREAM_V1] : [],
      mode: this.streamMode ? 'stream' : 'preview',
      clientTools: this.config.clientTools,
      tools: this.offeredTools(),
      scripts: [...this.config.scripts.values()].map((s) => ({ name: s.name, description: s.description })),
      room: { id: this.config.room.id },
      activeTurnId: this.turns.activeTurnId,
      waiting: {
        calls: this.appQueue.waiting() === undefined ? [] : [this.appQueue.waiting()!.id],
        approvals: this.approvals.waiting().map((request) => request.id),
      },
    };
  }

  /** The socket went away without `session.close`: keep the session for a resume. */
  detach(socket: WebSocket): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    if (this.closedValue) return;
    this.config.timer.clearTimeout(this.resumeTimer);
    // server/README.md "Limits": a session that never started a turn holds nothing worth the
    // whole resume window, and a flood of such sessions must not keep others out for that long.
    const window = !this.turns.everStarted ? Math.min(this.config.limits.unusedSessionTtlMs, this.config.resumeWindowMs) : this.config.resumeWindowMs;
    this.resumeTimer = this.config.timer.setTimeout(() => this.close('expired'), window);
  }

  /** Drop the socket as a network failure would; the session stays resumable. */
  dropConnection(): boolean {
    const socket = this.socket;
    if (!socket) return false;
    this.detach(socket);
    socket.terminate();
    return true;
  }

  /**
   * One message of the attached socket. `nodes`: how many values its frame held (the scan's
   * count, checked against the limits before it was read), for work that grows with it.
   */
  handle(frame: ClientFrame, nodes = Infinity): void {
    if (this.closedValue) return;
    switch (frame.type) {
      case 'hello':
        this.sendError('HELLO_REPEATED', 'this connection already said hello');
        return;
      case 'tools.update':
        this.replaceAppTools(frame.tools);
        this.sendDirect({ type: 'tools.offered', tools: this.offeredTools() });
        return;
      case 'turn.start':
        this.turns.start(frame);
        return;
      case 'turn.interrupt':
        this.interrupt(frame.turnId);
        return;
      case 'tool.result':
        if (!this.faults.dropsToolResult(frame)) this.appQueue.result(frame);
        return;
      case 'tool.approval':
        this.approvals.answer(frame);
        return;
      case 'room.request':
        this.roomRequest(frame, nodes);
        return;
      case 'session.close':
        this.close('client');
        return;
      case 'fault':
        this.faults.onFrame(frame);
        return;
      default:
        frame satisfies never;
    }
  }

  /** docs/protocol.md, "The agent's side": the epoch rises, and every open call of the turn is cancelled at once. */
  interrupt(turnId: string): void {
    if (this.closedValue) return;
    this.epochValue += 1;
    const outcome = this.turns.interrupt(turnId);
    if (outcome === 'interrupted') return;
    this.ignore('turn.interrupt', outcome, { turnId });
    this.sendDirect({ type: 'turn.interrupt-ignored', turnId, epoch: this.epochValue, reason: outcome });
  }

  /** Fault injection from the server handle. */
  injectFault(spec: FaultSpec): void {
    this.faults.inject(spec);
  }

  /**
   * Final close (docs/protocol.md, "The agent's side"): `closed`, then nothing more; open calls get no terminal event of
   * their own (a call ends once "unless the session closes first"), their work is aborted, the session cannot
   * be resumed.
   */
  close(reason: CloseReason): void {
    if (this.closedValue) return;
    this.turns.closeAll();
    this.appQueue.closeAll();
    this.approvals.closeAll();
    for (const handle of this.delayed) this.config.timer.clearTimeout(handle);
    this.delayed.clear();
    this.faults.clear();
    this.emit({ type: 'closed', reason });
    this.closedValue = true;
    this.config.timer.clearTimeout(this.resumeTimer);
    this.resumeTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    socket?.close(1000, 'session closed');
    this.onClosed(this);
  }

  /* ------------------------------------------------------------- the core */

  nextId(kind: 'turn' | 'call' | 'apr'): string {
    return `${kind}_${++this.counters[kind]}`;
  }

  transmit(text: string): void {
    const socket = this.socket;
    if (!socket) return;
    sendBounded(socket, text, this.config.limits.maxBufferedBytes, (buffered) => {
      this.ignore('socket', 'send-buffer-full', { buffered, limit: this.config.limits.maxBufferedBytes });
    });
  }

  sendDirect(frame: ConnectionFrame): void {
    this.transmit(JSON.stringify(frame));
  }

  sendError(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): void {
    this.sendDirect({ type: 'error', code, message, ...extra });
  }

  emit(event: Record<string, unknown>): void {
    if (this.closedValue) return;
    this.transmit(this.log.append(event));
    this.faults.countEvent();
  }

  emitStream<P extends ToolStreamPhase>(phase: P, callId: string, ...[fields]: StreamFieldsArgument<P>): void {
    if (!this.streamMode) return;
    this.emit({ type: 'tool.stream', phase, callId, ...fields });
  }

  ignore(message: string, reason: string, detail?: unknown): void {
    this.config.records.addIgnored({ sessionId: this.id, message, reason, ...(detail !== undefined ? { detail } : {}) });
  }

  offersAppTool(name: string): boolean {
    return this.config.clientTools === 'accept' && this.appTools.has(name) && !this.config.serverTools.has(name);
  }

  appToolSchema(name: string): Record<string, unknown> | undefined {
    return this.offersAppTool(name) ? this.appTools.get(name)?.parameters : undefined;
  }

  terminal(call: CallState): boolean {
    return this.closedValue || TERMINAL.has(call.status);
  }

  /**
   * A room request: answered at once while nothing is queued, else after the requests before it
   * (one with large arguments is hashed in slices, and later ones wait their turn).
   */
  private roomRequest(frame: Extract<ClientFrame, { type: 'room.request' }>, nodes: number): void {
    const host = { connection: () => this.socket, delay: (ms: number, send: () => void) => this.delay(ms, send) };
    const answer = () => answerRoomRequest(this, this.faults, host, frame, nodes);
    const queued = this.roomQueue ? this.roomQueue.then(answer) : answer();
    if (!queued) return;
    const settled = queued.catch((error: unknown) => {
      this.config.log(`room request ${String(frame.id)} failed: ${error instanceof Error ? error.stack : String(error)}`);
    });
    this.roomQueue = settled;
    void settled.then(() => {
      if (this.roomQueue === settled) this.roomQueue = undefined;
    });
  }

  /** `tools.update` carries the full set, so an unregister is a tool left out. */
  private replaceAppTools(tools: readonly ToolDeclaration[]): void {
    this.appTools.clear();
    for (const tool of tools) this.appTools.set(tool.name, tool);
  }

  private delay(ms: number, send: () => void): void {
    const handle = this.config.timer.setTimeout(() => {
      this.delayed.delete(handle);
      send();
    }, ms);
    this.delayed.add(handle);
  }
}
