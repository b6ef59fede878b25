/**
 * One agent session: the sequenced event log (for resume), scripted turns, the before-tool-call
 * gate, server tools, the one-at-a-time app-tool queue with its epoch and timeout, room requests
 * over the socket, and fault injection. A session outlives its socket: a lost connection
 * detaches it, a `hello` with its id and `lastSeq` attaches a new socket and replays.
 */
import type { WebSocket } from 'ws';
import type { BeforeToolCall, GateDecision, ServerTool, ServerToolContext } from './agent-tools';
import { CanonicalJsonError, fingerprintOf, normalizeFingerprint } from './jcs';
import {
  TOOL_STREAM_V1,
  isToolResult,
  type ClientFrame,
  type FaultSpec,
  type MalformedFrame,
  type OfferedTool,
  type ToolDeclaration,
  type ToolResult,
  type ToolRisk,
  type ToolLocation,
} from './protocol';
import type { Records } from './records';
import { RoomError, type Room } from './room';
import { validateAgainstSchema } from './schema';
import { createRandom, fragment, seedOf, type Script, type ScriptCall, type ScriptStep } from './scripts';
import { sleep, type Timer, type TimerHandle } from './timer';

export interface SessionConfig {
  /** The server speaks tool-stream-v1 (with `tool.preview` alongside). */
  toolStream: boolean;
  /** seed 000: app tools are offered to the model only with `'accept'`. */
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
  log: (line: string) => void;
}

type TurnStatus = 'running' | 'completed' | 'interrupted' | 'failed' | 'closed';
type CallStatus = 'streaming' | 'issued' | 'settled' | 'cancelled' | 'failed';

interface Turn {
  id: string;
  script: Script;
  status: TurnStatus;
  abort: AbortController;
  calls: CallState[];
  pacing: Pacing;
  params: Record<string, unknown>;
  random: () => number;
}

interface CallState {
  callId: string;
  turn: Turn;
  name: string;
  location: ToolLocation | undefined;
  risk: ToolRisk | undefined;
  effect: 'read' | 'write' | undefined;
  status: CallStatus;
  /** The epoch the server stamped on the call. */
  epoch: number;
  text: string;
  previewedLength: number;
  arguments?: unknown;
  abort: AbortController;
  finished: Promise<void>;
  finish: () => void;
}

interface AppEntry {
  call: CallState;
  args: unknown;
  resolve: (result: ToolResult) => void;
  timeout?: TimerHandle;
}

interface PendingApproval {
  requestId: string;
  call: CallState;
  arguments: unknown;
  fingerprint: string;
  resolve: (answer: { approved: boolean; reason?: string }) => void;
}

interface Trigger {
  remaining: number;
  fire: () => void;
}

/** A frame a fault dropped: a room response that never left, or a page's message the server never acted on. */
export interface DroppedFrame {
  direction: 'to-page' | 'from-page';
  frame: Record<string, unknown>;
}

interface Faults {
  dropInvokeResponses: number;
  dropConfirmResponses: number;
  dropToolResults: number;
  /** Drop the socket right after each dropped tool.result. */
  dropToolResultsDisconnect: boolean;
  responseDelayMs: number;
  triggers: Trigger[];
}

const INTERRUPTED: ToolResult = { ok: false, code: 'INTERRUPTED', message: 'the turn was interrupted' };
const TERMINAL: ReadonlySet<CallStatus> = new Set(['settled', 'cancelled', 'failed']);

/** Token pacing: `speed` scales every delay; Infinity or 0 (or a token delay of 0) is instant. */
class Pacing {
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

export class Session {
  readonly id: string;
  /** The result each call had for the model (what the runtime would hand back to it). */
  readonly results = new Map<string, ToolResult>();
  /** What the drop faults dropped, in order: the evidence that a fault fired. */
  readonly dropped: DroppedFrame[] = [];
  private seqValue = 0;
  private readonly log: { seq: number; text: string }[] = [];
  private socket: WebSocket | undefined;
  private closedValue = false;
  private capabilities: string[] = [];
  private readonly appTools = new Map<string, ToolDeclaration>();
  private epochValue = 0;
  private readonly turns = new Map<string, Turn>();
  private activeTurn: Turn | undefined;
  private readonly calls = new Map<string, CallState>();
  private appQueue: AppEntry[] = [];
  private appCurrent: AppEntry | undefined;
  private readonly approvals = new Map<string, PendingApproval>();
  private readonly counters = { turn: 0, call: 0, approval: 0 };
  private readonly faults: Faults;
  private resumeTimer: TimerHandle | undefined;
  private readonly delayed = new Set<TimerHandle>();
  private lastCallId: string | undefined;

  constructor(
    id: string,
    private readonly config: SessionConfig,
    private readonly onClosed: (session: Session) => void,
  ) {
    this.id = id;
    this.faults = {
      dropConfirmResponses: 0,
      dropToolResults: 0,
      dropToolResultsDisconnect: false,
      ...config.initialFaults,
      triggers: [],
    };
  }

  /* ------------------------------------------------------------ observers */

  get seq(): number {
    return this.seqValue;
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
  /** tool-stream-v1 when both sides speak it; otherwise `tool.preview` only. */
  get streamMode(): boolean {
    return this.config.toolStream && this.capabilities.includes(TOOL_STREAM_V1);
  }
  /** Every sequenced event sent so far, decoded (the replay log). */
  events(): Record<string, unknown>[] {
    return this.log.map((entry) => JSON.parse(entry.text) as Record<string, unknown>);
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

  /* ------------------------------------------------------- the connection */

  /** Bind a socket (a new session's, or a resuming one), greet it and replay what it missed. */
  attach(socket: WebSocket, hello: Extract<ClientFrame, { type: 'hello' }>, resumed: boolean): void {
    if (this.socket && this.socket !== socket) {
      const old = this.socket;
      this.socket = undefined;
      old.terminate();
    }
    this.socket = socket;
    this.config.timer.clearTimeout(this.resumeTimer);
    this.resumeTimer = undefined;
    this.capabilities = [...hello.capabilities];
    this.replaceAppTools(hello.tools);
    this.sendDirect({
      type: 'session.welcome',
      sessionId: this.id,
      resumed,
      // Not `seq`: this frame is not a session event, and a client must not take it for one.
      currentSeq: this.seqValue,
      epoch: this.epochValue,
      capabilities: this.streamMode ? [TOOL_STREAM_V1] : [],
      mode: this.streamMode ? 'stream' : 'preview',
      clientTools: this.config.clientTools,
      tools: this.offeredTools(),
      scripts: [...this.config.scripts.values()].map((s) => ({ name: s.name, description: s.description })),
      room: { id: this.config.room.id },
      activeTurnId: this.activeTurn?.id ?? null,
    });
    if (resumed) {
      const from = hello.lastSeq ?? 0;
      for (const entry of this.log) if (entry.seq > from) this.transmit(entry.text);
    }
  }

  /** The socket went away without `session.close`: keep the session for a resume. */
  detach(socket: WebSocket): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    if (this.closedValue) return;
    this.config.timer.clearTimeout(this.resumeTimer);
    this.resumeTimer = this.config.timer.setTimeout(() => this.close('expired'), this.config.resumeWindowMs);
  }

  /** Drop the socket as a network failure would; the session stays resumable. */
  dropConnection(): boolean {
    const socket = this.socket;
    if (!socket) return false;
    this.detach(socket);
    socket.terminate();
    return true;
  }

  handle(frame: ClientFrame): void {
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
        this.startTurn(frame);
        return;
      case 'turn.interrupt':
        this.interrupt(frame.turnId);
        return;
      case 'tool.result':
        if (this.faults.dropToolResults > 0) {
          this.dropToolResult(frame);
          return;
        }
        this.onToolResult(frame);
        return;
      case 'tool.approval':
        this.onApproval(frame);
        return;
      case 'room.request':
        this.onRoomRequest(frame);
        return;
      case 'session.close':
        this.close('client');
        return;
      case 'fault':
        this.onFault(frame);
        return;
      default:
        frame satisfies never;
    }
  }

  /**
   * Final close (seed 000): `closed`, then nothing more; open calls get no terminal event of
   * their own ("unless the session ends first"), their work is aborted, the session cannot
   * be resumed.
   */
  close(reason: 'client' | 'server' | 'fault' | 'expired' | 'shutdown'): void {
    if (this.closedValue) return;
    for (const turn of this.turns.values()) {
      if (turn.status === 'running') {
        turn.status = 'closed';
        turn.abort.abort();
      }
    }
    for (const call of this.calls.values()) {
      if (!TERMINAL.has(call.status)) call.abort.abort();
    }
    const entries = [...(this.appCurrent ? [this.appCurrent] : []), ...this.appQueue];
    this.appCurrent = undefined;
    this.appQueue = [];
    for (const entry of entries) {
      this.config.timer.clearTimeout(entry.timeout);
      entry.resolve(INTERRUPTED);
    }
    for (const approval of this.approvals.values()) approval.resolve({ approved: false, reason: 'session closed' });
    this.approvals.clear();
    for (const handle of this.delayed) this.config.timer.clearTimeout(handle);
    this.delayed.clear();
    this.faults.triggers = [];
    this.activeTurn = undefined;
    this.emit({ type: 'closed', reason });
    this.closedValue = true;
    this.config.timer.clearTimeout(this.resumeTimer);
    this.resumeTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    socket?.close(1000, 'session closed');
    this.onClosed(this);
  }

  /* ------------------------------------------------------------- sending */

  private transmit(text: string): void {
    const socket = this.socket;
    if (socket && socket.readyState === 1) socket.send(text);
  }

  /** A connection-scoped frame: no `seq`, not replayed. */
  private sendDirect(frame: Record<string, unknown>): void {
    this.transmit(JSON.stringify(frame));
  }

  private sendError(code: string, message: string, extra: Record<string, unknown> = {}): void {
    this.sendDirect({ type: 'error', code, message, ...extra });
  }

  /** A session event: the next `seq`, kept in the log for replay, sent if a socket is there. */
  private emit(event: Record<string, unknown>): void {
    if (this.closedValue) return;
    const seq = ++this.seqValue;
    const text = JSON.stringify({ ...event, seq });
    this.log.push({ seq, text });
    this.transmit(text);
    this.countEvent();
  }

  private emitStream(phase: string, callId: string, fields: Record<string, unknown> = {}): void {
    if (!this.streamMode) return;
    this.emit({ type: 'tool.stream', phase, callId, ...fields });
  }

  /**
   * Legacy previews carry the whole text so far. Sent on every fragment while the text is
   * short, then only when it grew by an eighth since the last one, so a long argument costs
   * linear bytes rather than quadratic.
   */
  private preview(call: CallState, force: boolean): void {
    const grown = call.text.length - call.previewedLength;
    const due = call.previewedLength < 0 || grown >= Math.max(1, call.previewedLength >> 3);
    if (!(due || (force && grown !== 0))) return;
    call.previewedLength = call.text.length;
    this.emit({ type: 'tool.preview', callId: call.callId, name: call.name, turnId: call.turn.id, arguments: call.text });
  }

  /* --------------------------------------------------------------- turns */

  private offersAppTool(name: string): boolean {
    return this.config.clientTools === 'accept' && this.appTools.has(name) && !this.config.serverTools.has(name);
  }

  /** `tools.update` carries the full set, so an unregister is a tool left out. */
  private replaceAppTools(tools: readonly ToolDeclaration[]): void {
    this.appTools.clear();
    for (const tool of tools) this.appTools.set(tool.name, tool);
  }

  private startTurn(frame: Extract<ClientFrame, { type: 'turn.start' }>): void {
    if (this.activeTurn) {
      this.sendError('TURN_IN_PROGRESS', `turn ${this.activeTurn.id} is still running; interrupt it first`, {
        turnId: this.activeTurn.id,
      });
      return;
    }
    const script = this.config.scripts.get(frame.prompt) ?? this.config.scripts.get(frame.prompt.trim().toLowerCase());
    if (!script) {
      this.sendError('UNKNOWN_SCRIPT', `no script named ${JSON.stringify(frame.prompt)}`, {
        scripts: [...this.config.scripts.keys()],
      });
      return;
    }
    const id = frame.turnId ?? `turn_${++this.counters.turn}`;
    if (this.turns.has(id)) {
      this.sendError('DUPLICATE_TURN', `turn ${id} already exists in this session`);
      return;
    }
    const random = createRandom(seedOf(`${this.id}/${id}`));
    const turn: Turn = {
      id,
      script,
      status: 'running',
      abort: new AbortController(),
      calls: [],
      pacing: new Pacing(this.config.timer, frame.speed ?? this.config.speed, this.config.tokenDelayMs, random),
      params: frame.params ?? {},
      random,
    };
    this.turns.set(id, turn);
    this.activeTurn = turn;
    this.emit({ type: 'turn.started', turnId: id, prompt: script.name, epoch: this.epochValue });
    this.runTurn(turn).catch((error: unknown) => {
      this.config.log(`turn ${id} crashed: ${error instanceof Error ? error.stack : String(error)}`);
      this.endTurn(turn, 'failed');
    });
  }

  private live(turn: Turn): boolean {
    return !this.closedValue && turn.status === 'running';
  }

  private endTurn(turn: Turn, status: 'completed' | 'interrupted' | 'failed'): void {
    if (turn.status !== 'running' || this.closedValue) return;
    turn.status = status;
    if (this.activeTurn === turn) this.activeTurn = undefined;
    this.emit({ type: 'turn.ended', turnId: turn.id, status });
  }

  private async runTurn(turn: Turn): Promise<void> {
    for (const step of turn.script.steps) {
      // The model reads the conversation before it answers.
      if (!(await turn.pacing.wait(300, turn.abort.signal)) || !this.live(turn)) return;
      const outcome = await this.runStep(turn, step);
      if (!this.live(turn)) return;
      if (outcome === 'stopped') {
        this.endTurn(turn, 'failed');
        return;
      }
    }
    this.endTurn(turn, 'completed');
  }

  private argumentsOf(spec: ScriptCall, turn: Turn): { value: unknown; text: string } {
    const raw = typeof spec.arguments === 'function' ? (spec.arguments as (p: Record<string, unknown>) => unknown)(turn.params) : spec.arguments;
    const text = JSON.stringify(raw);
    return { value: JSON.parse(text) as unknown, text };
  }

  /** One model response: stream its calls, execute each once complete, wait for their results. */
  private async runStep(turn: Turn, step: ScriptStep): Promise<'done' | 'stopped'> {
    const signal = turn.abort.signal;
    // The model calls only what it is offered: an app tool the agent does not accept is never called.
    const specs = step.calls.filter((c) => c.location === 'server' || this.offersAppTool(c.tool));
    const started: CallState[] = [];
    const injections = [...(step.inject ?? [])].sort((a, b) => a.afterFragment - b.afterFragment);
    let fragments = 0;
    const afterFragment = () => {
      fragments++;
      while (injections[0] && injections[0].afterFragment <= fragments) this.sendMalformed(injections.shift()!.frame);
    };
    let stopped = false;

    type Stream = { call: CallState; spec: ScriptCall; value: unknown; pieces: string[]; next: number };
    const open = (spec: ScriptCall): Stream => {
      const { value, text } = this.argumentsOf(spec, turn);
      const call = this.startCall(turn, spec);
      started.push(call);
      const streamed = spec.stopAfterChars !== undefined ? text.slice(0, spec.stopAfterChars) : text;
      const pieces = spec.stream === false ? [] : fragment(streamed, turn.random, spec.maxFragment ?? 6);
      return { call, spec, value, pieces, next: 0 };
    };
    // Returns false when the stream ends the step (the model stopped).
    const finishStream = (s: Stream): boolean => {
      if (s.spec.stopAfterChars !== undefined) {
        this.modelStopped(started);
        stopped = true;
        return false;
      }
      this.complete(s.call, s.value);
      return true;
    };

    if (step.interleave) {
      let streams = specs.map(open);
      while (streams.length > 0 && !stopped) {
        for (const s of [...streams]) {
          if (!this.live(turn)) return 'done';
          const piece = s.pieces[s.next++];
          if (piece !== undefined) {
            this.delta(s.call, piece);
            afterFragment();
          }
          if (s.next >= s.pieces.length) {
            streams = streams.filter((x) => x !== s);
            if (!finishStream(s)) break;
          }
          if (!(await turn.pacing.token(signal))) return 'done';
        }
      }
    } else {
      for (const spec of specs) {
        if (!this.live(turn)) return 'done';
        const s = open(spec);
        if (spec.stream === false) {
          // The model writes the whole arguments before the runtime sees any of them.
          if (!(await turn.pacing.wait(600, signal)) || !this.live(turn)) return 'done';
        }
        for (const piece of s.pieces) {
          this.delta(s.call, piece);
          afterFragment();
          if (!(await turn.pacing.token(signal)) || !this.live(turn)) return 'done';
        }
        if (!finishStream(s)) break;
      }
    }
    await Promise.all(started.map((c) => c.finished));
    return stopped ? 'stopped' : 'done';
  }

  private startCall(turn: Turn, spec: ScriptCall): CallState {
    const callId = `call_${++this.counters.call}`;
    const tool = spec.location === 'server' ? this.config.serverTools.get(spec.tool) : undefined;
    const location: ToolLocation | undefined = tool ? 'server' : spec.location === 'app' ? 'app' : undefined;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const call: CallState = {
      callId,
      turn,
      name: spec.tool,
      location,
      risk: tool?.risk,
      effect: tool?.effect,
      status: 'streaming',
      epoch: this.epochValue,
      text: '',
      previewedLength: -1,
      abort: new AbortController(),
      finished,
      finish,
    };
    this.calls.set(callId, call);
    this.lastCallId = callId;
    turn.calls.push(call);
    this.emitStream('start', callId, {
      turnId: turn.id,
      name: spec.tool,
      ...(location ? { location } : {}),
      ...(call.risk ? { risk: call.risk } : {}),
    });
    return call;
  }

  private delta(call: CallState, piece: string): void {
    call.text += piece;
    this.emitStream('arguments-delta', call.callId, { delta: piece });
    this.preview(call, false);
  }

  /** Arguments complete: the call is issued (seed 000) and goes to the gate. */
  private complete(call: CallState, value: unknown): void {
    if (call.status !== 'streaming') return;
    call.status = 'issued';
    call.arguments = value;
    if (call.text === '') call.text = JSON.stringify(value);
    this.emitStream('arguments-complete', call.callId, { arguments: value });
    this.preview(call, true);
    this.execute(call).catch((error: unknown) => {
      this.settle(call, { ok: false, code: 'FAILED', message: error instanceof Error ? error.message : String(error) });
    });
  }

  /** seed 000 `failed`: the model stopped before completing the arguments. */
  private modelStopped(calls: CallState[]): void {
    for (const call of calls) {
      if (call.status !== 'streaming') continue;
      call.status = 'failed';
      this.emitStream('failed', call.callId, { message: 'The model stopped before completing the arguments.' });
      call.finish();
    }
  }

  private terminal(call: CallState): boolean {
    return this.closedValue || TERMINAL.has(call.status);
  }

  /** The call's one result (seed 000); `settled` says only whether it succeeded. */
  private settle(call: CallState, result: ToolResult): void {
    if (this.terminal(call)) return;
    call.status = 'settled';
    this.results.set(call.callId, result);
    this.emitStream('settled', call.callId, result.ok ? { ok: true } : { ok: false, code: result.code });
    call.finish();
  }

  private async execute(call: CallState): Promise<void> {
    const tool = call.location === 'server' ? this.config.serverTools.get(call.name) : undefined;
    if (call.location === undefined || (call.location === 'server' && !tool)) {
      this.settle(call, { ok: false, code: 'FAILED', message: `no tool named ${call.name}` });
      return;
    }
    let args = call.arguments;
    // seed 000: every call, server or app, passes through beforeToolCall first.
    const decision: GateDecision = await this.config.beforeToolCall({
      sessionId: this.id,
      callId: call.callId,
      turnId: call.turn.id,
      name: call.name,
      location: call.location,
      ...(call.risk ? { risk: call.risk } : {}),
      ...(call.effect ? { effect: call.effect } : {}),
      arguments: structuredClone(args),
    });
    if (this.terminal(call)) return;
    if (decision.action === 'reject') {
      this.refuseWrite(call, args, 'REJECTED', decision.message ?? 'rejected by beforeToolCall');
      this.settle(call, { ok: false, code: 'REJECTED', message: decision.message ?? 'rejected by beforeToolCall' });
      return;
    }
    if (decision.arguments !== undefined) args = decision.arguments;
    if (decision.action === 'confirm') {
      const answer = await this.requestApproval(call, args);
      if (this.terminal(call)) return;
      if (!answer.approved) {
        const message = answer.reason ?? 'declined by the user';
        this.refuseWrite(call, args, 'REJECTED', message);
        this.settle(call, { ok: false, code: 'REJECTED', message });
        return;
      }
    }
    if (tool) {
      await this.runServerTool(call, tool, args);
      return;
    }
    if (!this.offersAppTool(call.name)) {
      this.settle(call, { ok: false, code: 'FAILED', message: `the app does not host ${call.name}` });
      return;
    }
    const result = await this.callAppTool(call, args);
    this.settle(call, result);
  }

  /** A write tool that did not run leaves a refused entry in the effect record. */
  private refuseWrite(call: CallState, args: unknown, code: string, reason: string): void {
    if (call.location !== 'server' || call.effect !== 'write') return;
    this.config.records.addEffect({
      source: 'server-tool',
      sessionId: this.id,
      toolName: call.name,
      effect: 'write',
      arguments: args,
      ...hashField(args),
      outcome: 'refused',
      code,
      reason,
      callId: call.callId,
      turnId: call.turn.id,
    });
  }

  private async runServerTool(call: CallState, tool: ServerTool, args: unknown): Promise<void> {
    const problems = validateAgainstSchema(tool.parameters, args);
    if (problems.length > 0) {
      const message = problems.join('; ');
      this.refuseWrite(call, args, 'INVALID', message);
      this.settle(call, { ok: false, code: 'INVALID', message });
      return;
    }
    const context: ServerToolContext = {
      signal: call.abort.signal,
      callId: call.callId,
      turnId: call.turn.id,
      epoch: call.epoch,
      emit: (progress) => {
        if (!this.terminal(call)) this.emitStream('progress', call.callId, { progress });
      },
      sleep: (ms) => call.turn.pacing.wait(ms, call.abort.signal),
      commit: (summary) => {
        this.config.records.addEffect({
          source: 'server-tool',
          sessionId: this.id,
          toolName: call.name,
          effect: tool.effect,
          arguments: args,
          ...hashField(args),
          outcome: 'accepted',
          result: summary,
          callId: call.callId,
          turnId: call.turn.id,
        });
      },
    };
    let output: unknown;
    try {
      output = await tool.run(structuredClone(args) as Record<string, unknown>, context);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (tool.effect === 'write') {
        this.config.records.addEffect({
          source: 'server-tool',
          sessionId: this.id,
          toolName: call.name,
          effect: 'write',
          arguments: args,
          ...hashField(args),
          outcome: 'failed',
          code: 'FAILED',
          reason: message,
          callId: call.callId,
          turnId: call.turn.id,
        });
      }
      this.settle(call, { ok: false, code: 'FAILED', message });
      return;
    }
    this.settle(call, { ok: true, output: output ?? null });
  }

  /* ----------------------------------------------------------- approvals */

  /**
   * The gate waits for the page. The request carries the arguments that will run; the page
   * must answer with the fingerprint of exactly those (the server does not send it, so the
   * page computes it with its own canonical JSON).
   */
  private requestApproval(call: CallState, args: unknown): Promise<{ approved: boolean; reason?: string }> {
    let fingerprint: string;
    try {
      fingerprint = fingerprintOf(args);
    } catch (error) {
      const reason = error instanceof CanonicalJsonError ? error.message : 'arguments are not JSON';
      return Promise.resolve({ approved: false, reason });
    }
    const requestId = `apr_${++this.counters.approval}`;
    return new Promise((resolve) => {
      this.approvals.set(requestId, { requestId, call, arguments: args, fingerprint, resolve });
      this.emit({
        type: 'tool.approval-request',
        requestId,
        callId: call.callId,
        turnId: call.turn.id,
        name: call.name,
        arguments: args,
        risk: call.risk ?? 'high',
        ...(call.effect ? { effect: call.effect } : {}),
      });
    });
  }

  private onApproval(frame: Extract<ClientFrame, { type: 'tool.approval' }>): void {
    const pending = this.approvals.get(frame.requestId);
    if (!pending) {
      this.ignore('tool.approval', 'unknown-request', { requestId: frame.requestId });
      this.sendError('APPROVAL_IGNORED', `no pending approval ${frame.requestId}`, { requestId: frame.requestId });
      return;
    }
    this.approvals.delete(frame.requestId);
    if (!frame.approved) {
      pending.resolve({ approved: false, ...(frame.reason !== undefined ? { reason: frame.reason } : {}) });
      return;
    }
    const received = normalizeFingerprint(frame.fingerprint);
    if (received !== pending.fingerprint) {
      // An approval of other arguments is no approval of these: refuse, run nothing.
      this.ignore('tool.approval', 'fingerprint-mismatch', {
        requestId: frame.requestId,
        callId: pending.call.callId,
        expected: pending.fingerprint,
        received: frame.fingerprint,
      });
      this.sendError('FINGERPRINT_MISMATCH', 'the approval does not match the arguments it was asked about; nothing ran', {
        requestId: frame.requestId,
        callId: pending.call.callId,
      });
      pending.resolve({ approved: false, reason: 'fingerprint mismatch' });
      return;
    }
    pending.resolve({ approved: true });
  }

  /* ----------------------------------------------------------- app tools */

  /** seed 000: app tools run one at a time, in arrival order. */
  private callAppTool(call: CallState, args: unknown): Promise<ToolResult> {
    return new Promise((resolve) => {
      this.appQueue.push({ call, args, resolve });
      this.pumpAppQueue();
    });
  }

  private pumpAppQueue(): void {
    if (this.appCurrent || this.closedValue) return;
    const entry = this.appQueue.shift();
    if (!entry) return;
    this.appCurrent = entry;
    const { call } = entry;
    this.emit({ type: 'tool.call', callId: call.callId, turnId: call.turn.id, epoch: call.epoch, name: call.name, arguments: entry.args });
    const ms = this.config.clientToolTimeoutMs;
    entry.timeout = this.config.timer.setTimeout(() => {
      this.finishAppEntry(entry, { ok: false, code: 'TIMEOUT', message: `no result within ${ms} ms` });
    }, ms);
  }

  private finishAppEntry(entry: AppEntry, result: ToolResult): void {
    if (this.appCurrent !== entry) return;
    this.config.timer.clearTimeout(entry.timeout);
    this.appCurrent = undefined;
    // Settle here, not in execute's continuation, so the page sees this call's `settled`
    // before the next call's `tool.call`.
    this.settle(entry.call, result);
    entry.resolve(result);
    this.pumpAppQueue();
  }

  private onToolResult(frame: Extract<ClientFrame, { type: 'tool.result' }>): void {
    const current = this.appCurrent;
    const reject = (reason: string, message: string) => {
      this.ignore('tool.result', reason, { callId: frame.callId, epoch: frame.epoch });
      this.sendError('RESULT_IGNORED', message, { reason, callId: frame.callId });
    };
    if (!current || current.call.callId !== frame.callId) {
      const known = this.calls.get(frame.callId);
      if (!known) return reject('unknown-call', `no call ${frame.callId} in this session`);
      if (this.terminal(known)) return reject('finished-call', `call ${frame.callId} already has its result`);
      return reject('not-awaiting-result', `call ${frame.callId} was not sent to the page yet`);
    }
    if (frame.epoch !== current.call.epoch) {
      return reject('stale-epoch', `call ${frame.callId} has epoch ${current.call.epoch}, not ${frame.epoch}`);
    }
    if (!isToolResult(frame.result)) {
      return reject('malformed-result', 'a result is { ok: true, output } or { ok: false, code, message? } with a known code');
    }
    this.finishAppEntry(current, frame.result);
  }

  /* ---------------------------------------------------------- interrupts */

  /**
   * seed 000: the epoch rises and every open call of the turn is cancelled at once: queued and
   * running app calls are answered INTERRUPTED, server tools see their signal abort.
   */
  interrupt(turnId: string): void {
    if (this.closedValue) return;
    this.epochValue += 1;
    const turn = this.turns.get(turnId);
    if (!turn || turn.status !== 'running') {
      this.ignore('turn.interrupt', turn ? 'turn-ended' : 'unknown-turn', { turnId });
      this.sendDirect({ type: 'turn.interrupt-ignored', turnId, epoch: this.epochValue, reason: turn ? 'turn-ended' : 'unknown-turn' });
      return;
    }
    turn.status = 'interrupted';
    turn.abort.abort();
    const interrupted: AppEntry[] = [];
    this.appQueue = this.appQueue.filter((entry) => {
      if (entry.call.turn !== turn) return true;
      interrupted.push(entry);
      return false;
    });
    if (this.appCurrent?.call.turn === turn) {
      interrupted.push(this.appCurrent);
      this.config.timer.clearTimeout(this.appCurrent.timeout);
      this.appCurrent = undefined;
    }
    for (const [id, approval] of this.approvals) {
      if (approval.call.turn !== turn) continue;
      this.approvals.delete(id);
      approval.resolve({ approved: false, reason: 'interrupted' });
    }
    for (const call of turn.calls) {
      if (TERMINAL.has(call.status)) continue;
      call.status = 'cancelled';
      call.abort.abort();
      this.results.set(call.callId, INTERRUPTED);
      this.emitStream('cancelled', call.callId);
      call.finish();
    }
    for (const entry of interrupted) entry.resolve(INTERRUPTED);
    if (this.activeTurn === turn) this.activeTurn = undefined;
    this.emit({ type: 'turn.ended', turnId, status: 'interrupted', epoch: this.epochValue });
    this.pumpAppQueue();
  }

  /* ---------------------------------------------------------------- room */

  private onRoomRequest(frame: Extract<ClientFrame, { type: 'room.request' }>): void {
    const { id, method, params } = frame;
    const room = this.config.room;
    const asked = this.socket;
    let response: Record<string, unknown>;
    let effectId: number | undefined;
    try {
      let result: unknown;
      switch (method) {
        case 'describeTools':
          result = room.describeTools(this.id);
          break;
        case 'confirmTool':
          result = room.confirmTool(this.id, params.toolName, params.arguments);
          break;
        case 'invokeTool': {
          const outcome = room.invokeTool(this.id, params.toolName, params.arguments, params.confirmationId);
          effectId = outcome.record?.id;
          if (!outcome.ok) throw outcome.error;
          result = outcome.result;
          break;
        }
        case 'listEffects':
          result = {
            effects: this.config.records.effects
              .filter((e) => e.source === 'room')
              .filter((e) => params.toolName === undefined || e.toolName === params.toolName)
              .filter((e) => params.confirmationId === undefined || e.confirmationId === params.confirmationId)
              .map((e) => structuredClone(e)),
          };
          break;
        default:
          throw new RoomError('UNKNOWN_METHOD', `no room method ${JSON.stringify(method)}`);
      }
      response = { type: 'room.response', id, ok: true, result };
    } catch (error) {
      const e = error instanceof RoomError ? error : new RoomError('TOOL_FAILED', String(error));
      response = { type: 'room.response', id, ok: false, error: { code: e.code, message: e.message } };
    }
    if (method === 'invokeTool' && this.faults.dropInvokeResponses > 0) {
      // The effect happened (or was refused and recorded); its answer never leaves.
      this.faults.dropInvokeResponses -= 1;
      const record = this.config.records.effects.find((e) => e.id === effectId);
      if (record) record.responseDropped = true;
      this.dropped.push({ direction: 'to-page', frame: response });
      return;
    }
    if (method === 'confirmTool' && this.faults.dropConfirmResponses > 0) {
      // The room made the confirmation (bound, unconsumed); its id never reaches the page.
      this.faults.dropConfirmResponses -= 1;
      this.dropped.push({ direction: 'to-page', frame: response });
      return;
    }
    // A response belongs to the connection that asked: a lost connection loses it.
    const send = () => {
      if (this.socket === asked) this.sendDirect(response);
    };
    const delay = this.faults.responseDelayMs;
    if (delay > 0) {
      const handle = this.config.timer.setTimeout(() => {
        this.delayed.delete(handle);
        send();
      }, delay);
      this.delayed.add(handle);
    } else {
      send();
    }
  }

  /* -------------------------------------------------------------- faults */

  /** Fault injection, from the socket (`{ type: 'fault', … }`) or from the server handle. */
  injectFault(spec: FaultSpec): void {
    if (this.closedValue) return;
    const later = (afterEvents: number | undefined, fire: () => void): boolean => {
      if (!afterEvents) {
        fire();
        return false;
      }
      this.faults.triggers.push({ remaining: afterEvents, fire });
      return true;
    };
    let armed = true;
    switch (spec.fault) {
      case 'drop-invoke-response':
        this.faults.dropInvokeResponses += spec.count ?? 1;
        break;
      case 'drop-confirm-response':
        this.faults.dropConfirmResponses += spec.count ?? 1;
        break;
      case 'drop-tool-result':
        this.faults.dropToolResults += spec.count ?? 1;
        this.faults.dropToolResultsDisconnect = spec.disconnect ?? false;
        break;
      case 'delay-responses':
        this.faults.responseDelayMs = spec.ms;
        break;
      case 'disconnect':
        armed = later(spec.afterEvents, () => this.dropConnection());
        break;
      case 'close-session':
        armed = later(spec.afterEvents, () => this.close('fault'));
        break;
      case 'malformed':
        armed = later(spec.afterEvents, () => this.sendMalformed(spec.frame));
        break;
      case 'reset':
        this.faults.dropInvokeResponses = 0;
        this.faults.dropConfirmResponses = 0;
        this.faults.dropToolResults = 0;
        this.faults.dropToolResultsDisconnect = false;
        this.faults.responseDelayMs = 0;
        this.faults.triggers = [];
        break;
      default:
        spec satisfies never;
    }
    if (armed && !this.closedValue) this.sendDirect({ type: 'fault.ack', ...spec });
  }

  /** A page's result lost on the way: the server never acts on it (the call keeps waiting). */
  private dropToolResult(frame: Extract<ClientFrame, { type: 'tool.result' }>): void {
    this.faults.dropToolResults -= 1;
    this.dropped.push({ direction: 'from-page', frame: { ...frame } });
    if (this.faults.dropToolResultsDisconnect) this.dropConnection();
  }

  private onFault(frame: Extract<ClientFrame, { type: 'fault' }>): void {
    if (!this.config.faultsEnabled) {
      this.sendError('FAULTS_DISABLED', 'fault injection is off on this server');
      return;
    }
    const { type: _type, ...spec } = frame;
    this.injectFault(spec as FaultSpec);
  }

  private countEvent(): void {
    if (this.faults.triggers.length === 0) return;
    const due: Trigger[] = [];
    this.faults.triggers = this.faults.triggers.filter((t) => {
      t.remaining -= 1;
      if (t.remaining > 0) return true;
      due.push(t);
      return false;
    });
    for (const t of due) t.fire();
  }

  /** Frames a sloppy server might send. Those that are JSON objects take a `seq`. */
  private sendMalformed(frame: MalformedFrame): void {
    switch (frame) {
      case 'invalid-json':
        this.transmit('{"type":"tool.stream","phase":"arguments-delta","callId":');
        return;
      case 'not-an-object':
        this.transmit('[{"type":"tool.stream","phase":"start"}]');
        return;
      case 'unknown-phase':
        this.emit({ type: 'tool.stream', phase: 'rewind', callId: this.lastCallId ?? 'call_0' });
        return;
      case 'missing-call-id':
        this.emit({ type: 'tool.stream', phase: 'progress', progress: { note: 'this event has no callId' } });
        return;
      case 'unknown-type':
        this.emit({ type: 'tool.teleport', note: 'an event type nobody knows' });
        return;
      case 'repeat-seq': {
        const last = this.log.at(-1);
        if (last) this.transmit(last.text);
        return;
      }
      case 'local-event':
        // A forged local interrupt of the running turn: the page must refuse it.
        this.emit({ type: 'toolgate.interrupt', turnId: this.activeTurn?.id ?? 'turn_1' });
        return;
      default:
        frame satisfies never;
    }
  }

  private ignore(message: string, reason: string, detail?: unknown): void {
    this.config.records.addIgnored({ sessionId: this.id, message, reason, ...(detail !== undefined ? { detail } : {}) });
  }
}

function hashField(args: unknown): { argumentsHash?: string } {
  try {
    return { argumentsHash: fingerprintOf(args) };
  } catch {
    return {};
  }
}
