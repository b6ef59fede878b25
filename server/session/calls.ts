/**
 * Running one call once its arguments are complete (docs/protocol.md, "The agent's side"): the before-tool-call gate (allow,
 * reject, rewrite, or wait for the page's approval), then the server tool or the app tool, and the
 * call's one result. Writes that did not run are recorded as refused.
 */
import type { GateDecision, ServerTool, ServerToolContext } from '../agent-tools';
import { fingerprintOf } from '../jcs';
import type { ToolResult } from '../protocol';
import { validateAgainstSchema } from '../schema';
import { checkValueShape } from '../shape';
import type { AppQueue } from './app-queue';
import type { Approvals } from './approvals';
import type { CallState, SessionCore } from './model';

/** What the effect record keeps of an approval: a grant's answer (`automatic`) or a person's, and whether it was an edit. */
type EffectApproval = { automatic: boolean; edited: boolean };

export class CallRunner {
  constructor(
    private readonly core: SessionCore,
    private readonly approvals: Approvals,
    private readonly appQueue: AppQueue,
  ) {}

  /** The call's one result (docs/protocol.md, "The agent's side"); `settled` says only whether it succeeded. */
  settle(call: CallState, result: ToolResult): void {
    if (this.core.terminal(call)) return;
    call.status = 'settled';
    this.core.results.set(call.callId, result);
    this.core.audit.settled(call.callId, result.ok ? 'OK' : result.code, result.ok ? result.output : undefined);
    this.core.emitStream('settled', call.callId, result.ok ? { ok: true } : { ok: false, code: result.code });
    call.finish();
  }

  /** A person answered in the tool's place: their answer is the result, and the event says so (docs/protocol.md "Decisions"). */
  private settleByPerson(call: CallState, output: unknown): void {
    if (this.core.terminal(call)) return;
    call.status = 'settled';
    this.core.results.set(call.callId, { ok: true, output });
    this.core.audit.settled(call.callId, 'OK', output);
    this.core.emitStream('settled', call.callId, { ok: true, output, answeredBy: 'person' });
    call.finish();
  }

  /** A person withdrew the request: the call is cancelled (not rejected), and the model is told so. */
  private withdraw(call: CallState, reason: string | undefined): void {
    if (this.core.terminal(call)) return;
    call.status = 'cancelled';
    call.abort.abort();
    this.core.results.set(call.callId, { ok: false, code: 'INTERRUPTED', message: `cancelled: the person withdrew the request${reason ? ` (${reason})` : ''}; it was not rejected` });
    this.core.audit.settled(call.callId, 'CANCELLED');
    this.core.emitStream('cancelled', call.callId);
    call.finish();
  }

  /** Gate, then run; any failure on the way is the call's FAILED result. */
  start(call: CallState): void {
    this.execute(call).catch((error: unknown) => {
      this.settle(call, { ok: false, code: 'FAILED', message: error instanceof Error ? error.message : String(error) });
    });
  }

  private async execute(call: CallState): Promise<void> {
    const tool = call.location === 'server' ? this.core.config.serverTools.get(call.name) : undefined;
    if (call.location === undefined || (call.location === 'server' && !tool)) {
      this.settle(call, { ok: false, code: 'FAILED', message: `no tool named ${call.name}` });
      return;
    }
    const args = await this.passGate(call);
    if (args === undefined) return;
    // After a decision, what runs is recorded in the session's audit chain (nothing for a call nobody decided).
    if (args.approval !== undefined) this.core.audit.ran(call.callId, args.value);
    if (tool) {
      await this.runServerTool(call, tool, args.value, args.approval);
      return;
    }
    if (!this.core.offersAppTool(call.name)) {
      this.settle(call, { ok: false, code: 'FAILED', message: `the app does not host ${call.name}` });
      return;
    }
    const result = await this.appQueue.call(call, args.value);
    this.settle(call, result);
  }

  /**
   * Every call, server or app, passes through beforeToolCall first. Resolves with the
   * arguments that will run, or `undefined` when the call got its result here (or meanwhile).
   */
  private async passGate(call: CallState): Promise<{ value: unknown; approval?: EffectApproval } | undefined> {
    let args = call.arguments;
    const decision: GateDecision = await this.core.config.beforeToolCall({
      sessionId: this.core.id,
      callId: call.callId,
      turnId: call.turn.id,
      name: call.name,
      location: call.location!,
      ...(call.risk ? { risk: call.risk } : {}),
      ...(call.effect ? { effect: call.effect } : {}),
      arguments: structuredClone(args),
      params: structuredClone(call.turn.params),
    });
    if (this.core.terminal(call)) return undefined;
    if (decision.action === 'reject') {
      const message = decision.message ?? 'rejected by beforeToolCall';
      this.refuseWrite(call, args, 'REJECTED', message);
      this.settle(call, { ok: false, code: 'REJECTED', message });
      return undefined;
    }
    if (decision.arguments !== undefined) args = decision.arguments;
    if (decision.action === 'confirm') {
      const answer = await this.approvals.request(call, args, {
        ...(decision.editable === true ? { editable: true } : {}),
        ...(decision.expiresInMs !== undefined ? { expiresInMs: decision.expiresInMs } : {}),
      });
      if (this.core.terminal(call)) return undefined;
      if (!answer.approved && 'responded' in answer) {
        this.refuseWrite(call, args, 'RESPONDED', 'a person answered in the tool’s place', { automatic: false, edited: false });
        this.settleByPerson(call, answer.output);
        return undefined;
      }
      if (!answer.approved && 'cancelled' in answer) {
        this.refuseWrite(call, args, 'CANCELLED', answer.reason ?? 'the person withdrew the request', { automatic: false, edited: false });
        this.withdraw(call, answer.reason);
        return undefined;
      }
      if (!answer.approved) {
        // The person's reason is the call's result: it is what the model reads.
        const message = answer.reason ?? 'declined by the user';
        const code = answer.code ?? 'REJECTED';
        this.refuseWrite(call, args, code, message, { automatic: answer.automatic === true, edited: false });
        this.settle(call, { ok: false, code, message });
        return undefined;
      }
      // What runs is exactly what was approved: the arguments asked about, or the person's checked edit.
      return { value: answer.arguments, approval: { automatic: answer.automatic, edited: answer.edited } };
    }
    return { value: args };
  }

  /** A write tool that did not run leaves a refused entry in the effect record. */
  private refuseWrite(call: CallState, args: unknown, code: string, reason: string, approval?: EffectApproval): void {
    if (call.location !== 'server' || call.effect !== 'write') return;
    this.core.config.records.addEffect({
      source: 'server-tool',
      sessionId: this.core.id,
      toolName: call.name,
      effect: 'write',
      arguments: args,
      ...this.hashField(args),
      outcome: 'refused',
      code,
      reason,
      callId: call.callId,
      turnId: call.turn.id,
      ...(approval ? { approval } : {}),
    });
  }

  private async runServerTool(call: CallState, tool: ServerTool, args: unknown, approval?: EffectApproval): Promise<void> {
    const problems = validateAgainstSchema(tool.parameters, args);
    if (problems.length > 0) {
      const message = problems.join('; ');
      this.refuseWrite(call, args, 'INVALID', message, approval);
      this.settle(call, { ok: false, code: 'INVALID', message });
      return;
    }
    const recordWrite = (outcome: 'accepted' | 'failed', fields: { result?: unknown; code?: string; reason?: string }) =>
      this.core.config.records.addEffect({
        source: 'server-tool',
        sessionId: this.core.id,
        toolName: call.name,
        effect: tool.effect,
        arguments: args,
        ...this.hashField(args),
        outcome,
        ...fields,
        callId: call.callId,
        turnId: call.turn.id,
        ...(approval ? { approval } : {}),
      });
    const context: ServerToolContext = {
      signal: call.abort.signal,
      callId: call.callId,
      turnId: call.turn.id,
      epoch: call.epoch,
      emit: (progress) => {
        if (!this.core.terminal(call)) this.core.emitStream('progress', call.callId, { progress });
      },
      sleep: (ms) => call.turn.pacing.wait(ms, call.abort.signal),
      commit: (summary) => void recordWrite('accepted', { result: summary }),
      ...(call.subagent ? { subagent: call.subagent } : {}),
    };
    let output: unknown;
    try {
      output = await tool.run(structuredClone(args) as Record<string, unknown>, context);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (tool.effect === 'write') recordWrite('failed', { code: 'FAILED', reason: message });
      this.settle(call, { ok: false, code: 'FAILED', message });
      return;
    }
    this.settle(call, { ok: true, output: output ?? null });
  }

  private hashField(args: unknown): { argumentsHash?: string } {
    if (checkValueShape(args, this.core.config.room.argumentLimits)) return {};
    try {
      return { argumentsHash: fingerprintOf(args) };
    } catch {
      return {};
    }
  }
}
