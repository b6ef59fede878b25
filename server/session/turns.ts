/**
 * Scripted model turns: each step is one model response whose calls stream their argument text
 * as fragments at token pace; a call runs as soon as its arguments are complete, and the next
 * step starts once every call of the step has its result. Interrupts (docs/protocol.md, "The agent's side") end a turn at
 * once, with its open calls cancelled.
 */
import type { ClientFrame } from '../protocol';
import { createRandom, fragment, seedOf, type ScriptCall, type ScriptStep } from '../scripts';
import type { AppQueue } from './app-queue';
import type { Approvals } from './approvals';
import type { CallRunner } from './calls';
import type { SubagentReport } from '../agent-tools';
import { INTERRUPTED, Pacing, TERMINAL, type CallState, type SessionCore, type Turn } from './model';
import type { ReferenceMalformedFrame } from '../../src/client/protocol';

type Stream = { call: CallState; spec: ScriptCall; value: unknown; pieces: string[]; next: number };

export class TurnRunner {
  private readonly turns = new Map<string, Turn>();
  private activeTurn: Turn | undefined;
  private startedAny = false;
  private lastCall: string | undefined;

  constructor(
    private readonly core: SessionCore,
    private readonly runner: CallRunner,
    private readonly appQueue: AppQueue,
    private readonly approvals: Approvals,
    private readonly sendMalformed: (frame: ReferenceMalformedFrame) => void,
  ) {}

  get activeTurnId(): string | null {
    return this.activeTurn?.id ?? null;
  }
  /** The latest call's id (for a malformed event that names a call). */
  get lastCallId(): string | undefined {
    return this.lastCall;
  }
  /** Turns kept (running and recent ones). */
  get size(): number {
    return this.turns.size;
  }
  /** Whether the session ever started a turn (kept or forgotten since). */
  get everStarted(): boolean {
    return this.startedAny;
  }

  start(frame: Extract<ClientFrame, { type: 'turn.start' }>): void {
    const { config } = this.core;
    if (this.activeTurn) {
      this.core.sendError('TURN_IN_PROGRESS', `turn ${this.activeTurn.id} is still running; interrupt it first`, {
        turnId: this.activeTurn.id,
      });
      return;
    }
    const script = config.scripts.get(frame.prompt) ?? config.scripts.get(frame.prompt.trim().toLowerCase());
    if (!script) {
      this.core.sendError('UNKNOWN_SCRIPT', `no script named ${JSON.stringify(frame.prompt)}`, { scripts: [...config.scripts.keys()] });
      return;
    }
    const id = frame.turnId ?? this.core.nextId('turn');
    if (this.turns.has(id)) {
      this.core.sendError('DUPLICATE_TURN', `turn ${id} already exists in this session`);
      return;
    }
    const random = createRandom(seedOf(`${this.core.id}/${id}`));
    const turn: Turn = {
      id,
      script,
      status: 'running',
      abort: new AbortController(),
      calls: [],
      pacing: new Pacing(config.timer, clampSpeed(frame.speed ?? config.speed, config.limits.minTurnSpeed), config.tokenDelayMs, random),
      params: clampParams(frame.params ?? {}, config.limits.maxScriptSize),
      random,
    };
    this.turns.set(id, turn);
    this.startedAny = true;
    this.activeTurn = turn;
    this.core.emit({ type: 'turn.started', turnId: id, prompt: script.name, epoch: this.core.epoch });
    this.run(turn).catch((error: unknown) => {
      config.log(`turn ${id} crashed: ${error instanceof Error ? error.stack : String(error)}`);
      this.end(turn, 'failed');
    });
  }

  /**
   * Every open call of the turn is cancelled at once: queued and running app calls are
   * answered INTERRUPTED, server tools see their signal abort. Says why nothing happened for a
   * turn that is unknown or already over.
   */
  interrupt(turnId: string): 'interrupted' | 'unknown-turn' | 'turn-ended' {
    const turn = this.turns.get(turnId);
    if (!turn) return 'unknown-turn';
    if (turn.status !== 'running') return 'turn-ended';
    turn.status = 'interrupted';
    turn.abort.abort();
    const interrupted = this.appQueue.takeTurn(turn);
    this.approvals.cancelTurn(turn);
    for (const call of turn.calls) {
      if (TERMINAL.has(call.status)) continue;
      call.status = 'cancelled';
      call.abort.abort();
      this.core.results.set(call.callId, INTERRUPTED);
      this.core.emitStream('cancelled', call.callId);
      call.finish();
    }
    for (const entry of interrupted) entry.resolve(INTERRUPTED);
    if (this.activeTurn === turn) this.activeTurn = undefined;
    this.core.emit({ type: 'turn.ended', turnId, status: 'interrupted', epoch: this.core.epoch });
    this.forgetOldTurns();
    this.appQueue.pump();
    return 'interrupted';
  }

  /** The session closed: running turns stop, open calls' work is aborted, with no event of their own. */
  closeAll(): void {
    for (const turn of this.turns.values()) {
      if (turn.status === 'running') {
        turn.status = 'closed';
        turn.abort.abort();
      }
      for (const call of turn.calls) if (!TERMINAL.has(call.status)) call.abort.abort();
    }
    this.activeTurn = undefined;
  }

  private live(turn: Turn): boolean {
    return !this.core.closed && turn.status === 'running';
  }

  private end(turn: Turn, status: 'completed' | 'interrupted' | 'failed'): void {
    if (turn.status !== 'running' || this.core.closed) return;
    turn.status = status;
    if (this.activeTurn === turn) this.activeTurn = undefined;
    this.core.emit({ type: 'turn.ended', turnId: turn.id, status });
    this.forgetOldTurns();
  }

  /** Keep the newest finished turns only, with their calls and results: a session's memory stays bounded. */
  private forgetOldTurns(): void {
    let excess = this.turns.size - this.core.config.limits.maxTurnsKept;
    for (const [id, turn] of this.turns) {
      if (excess <= 0) return;
      if (turn.status === 'running') continue;
      this.turns.delete(id);
      for (const call of turn.calls) {
        this.core.calls.delete(call.callId);
        this.core.results.delete(call.callId);
      }
      excess--;
    }
  }

  private async run(turn: Turn): Promise<void> {
    for (const step of turn.script.steps) {
      // The model reads the conversation before it answers.
      if (!(await turn.pacing.wait(300, turn.abort.signal)) || !this.live(turn)) return;
      const outcome = await this.runStep(turn, step);
      if (!this.live(turn)) return;
      if (outcome === 'stopped') {
        this.end(turn, 'failed');
        return;
      }
    }
    this.end(turn, 'completed');
  }

  private argumentsOf(spec: ScriptCall, turn: Turn): { value: unknown; text: string } {
    const raw = typeof spec.arguments === 'function' ? (spec.arguments as (p: Record<string, unknown>) => unknown)(turn.params) : spec.arguments;
    const text = JSON.stringify(raw);
    return { value: JSON.parse(text) as unknown, text };
  }

  /**
   * A sub-agent inside `parent`: its responses run like the turn's own, each call nested under
   * `parent`; resolves with how each of its calls ended (for the parent's own output).
   */
  private async runSubagent(turn: Turn, steps: readonly ScriptStep[], parent: CallState): Promise<SubagentReport> {
    const made: CallState[] = [];
    for (const step of steps) {
      if (!(await turn.pacing.wait(300, turn.abort.signal)) || !this.live(turn) || this.core.terminal(parent)) break;
      if ((await this.runStep(turn, step, parent, made)) === 'stopped') break;
    }
    return {
      calls: made.map((call) => {
        const result = this.core.results.get(call.callId);
        return { callId: call.callId, name: call.name, ok: result?.ok === true, ...(result && !result.ok ? { code: result.code } : {}) };
      }),
    };
  }

  /** One model response: stream its calls, execute each once complete, wait for their results. */
  private async runStep(turn: Turn, step: ScriptStep, parent?: CallState, made?: CallState[]): Promise<'done' | 'stopped'> {
    const signal = turn.abort.signal;
    // The model calls only what it is offered: an app tool the agent does not accept is never called.
    const specs = step.calls.filter((c) => c.location === 'server' || this.core.offersAppTool(c.tool));
    const started: CallState[] = [];
    const injections = [...(step.inject ?? [])].sort((a, b) => a.afterFragment - b.afterFragment);
    let fragments = 0;
    const afterFragment = () => {
      fragments++;
      while (injections[0] && injections[0].afterFragment <= fragments) this.sendMalformed(injections.shift()!.frame);
    };
    let stopped = false;

    const open = (spec: ScriptCall): Stream => {
      const { value, text } = this.argumentsOf(spec, turn);
      const call = this.startCall(turn, spec, parent);
      started.push(call);
      made?.push(call);
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

  private startCall(turn: Turn, spec: ScriptCall, parent?: CallState): CallState {
    const callId = this.core.nextId('call');
    const tool = spec.location === 'server' ? this.core.config.serverTools.get(spec.tool) : undefined;
    const location = tool ? 'server' : spec.location === 'app' ? 'app' : undefined;
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
      epoch: this.core.epoch,
      text: '',
      previewedLength: -1,
      abort: new AbortController(),
      finished,
      finish,
      ...(parent ? { parentCallId: parent.callId } : {}),
    };
    const subagent = spec.subagent;
    if (subagent) call.subagent = () => this.runSubagent(turn, subagent, call);
    this.core.calls.set(callId, call);
    this.lastCall = callId;
    turn.calls.push(call);
    this.core.emitStream('start', callId, {
      turnId: turn.id,
      name: spec.tool,
      ...(location ? { location } : {}),
      ...(call.risk ? { risk: call.risk } : {}),
      ...(parent ? { parentCallId: parent.callId } : {}),
    });
    return call;
  }

  private delta(call: CallState, piece: string): void {
    call.text += piece;
    this.core.emitStream('arguments-delta', call.callId, { delta: piece });
    this.preview(call, false);
  }

  /** Arguments complete: the call is issued and goes to the gate. */
  private complete(call: CallState, value: unknown): void {
    if (call.status !== 'streaming') return;
    call.status = 'issued';
    call.arguments = value;
    if (call.text === '') call.text = JSON.stringify(value);
    this.core.emitStream('arguments-complete', call.callId, { arguments: value });
    this.preview(call, true);
    // Previews are over: the text is not needed any more (the value is).
    call.text = '';
    this.runner.start(call);
  }

  /** `failed` (docs/protocol.md, "The agent's side"): the model stopped before completing the arguments. */
  private modelStopped(calls: CallState[]): void {
    for (const call of calls) {
      if (call.status !== 'streaming') continue;
      call.status = 'failed';
      this.core.emitStream('failed', call.callId, { message: 'The model stopped before completing the arguments.' });
      call.finish();
    }
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
    this.core.emit({ type: 'tool.preview', callId: call.callId, name: call.name, turnId: call.turn.id, arguments: call.text });
  }
}

/**
 * server/README.md "Limits": what a client asks of a script is bounded, so one turn costs at
 * most so much. A `size` above `maxScriptSize` is clamped to it (the scripts' own lower bound
 * stays theirs).
 */
function clampParams(params: Record<string, unknown>, maxScriptSize: number): Record<string, unknown> {
  const size = params['size'];
  if (typeof size !== 'number' || !(size > maxScriptSize)) return params;
  return { ...params, size: maxScriptSize };
}

/** A turn paced slower than `minTurnSpeed` would hold its session for ever: clamped to it (0 and Infinity still mean instant). */
function clampSpeed(speed: number, minTurnSpeed: number): number {
  if (!(speed > 0) || !Number.isFinite(speed)) return speed;
  return Math.max(speed, minTurnSpeed);
}
