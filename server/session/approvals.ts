/**
 * The before-tool-call gate's wait for the page (docs/protocol.md, "The agent's
 * side", `confirm`): the request carries the arguments that will run, and the page must answer with
 * the fingerprint of exactly those (the server does not send it, so the page computes it with its
 * own canonical JSON).
 *
 * Second round (docs/protocol.md, "Edits, grants and batches"): a request the gate marks `editable`
 * may come back approved with the person's edited `arguments`; they must be valid for the tool's
 * schema and carry the fingerprint of their own canonical JSON, and then they are what runs. A
 * request with `expiresAt` that nobody answered in time ends there, and a later decision is refused.
 *
 * Decisions are typed (docs/protocol.md "Decisions"): approve, deny, respond (the person's answer
 * is the call's result and nothing runs) and cancel (withdrawn, not rejected). Each request is
 * signed (`approvalToken`, made by `createApprovalSigner`); a decision is acted on only after its
 * token verified, once, and one without a valid token runs nothing (`APPROVAL_TOKEN_INVALID`).
 */
import type { ApprovalSigner } from '../../src/server/approval-signer';
import { definitionFingerprintOf } from '../audit-chain';
import { CanonicalJsonError, fingerprintOf, normalizeFingerprint } from '../jcs';
import type { ClientFrame } from '../protocol';
import { validateAgainstSchema } from '../schema';
import { checkValueShape } from '../shape';
import type { TimerHandle } from '../timer';
import type { CallState, SessionCore, Turn } from './model';

export type ApprovalAnswer =
  | { approved: true; /** What runs: the arguments asked about, or the person's checked edit. */ arguments: unknown; edited: boolean; automatic: boolean }
  | { approved: false; reason?: string; /** `INVALID` for an edit that is not valid; else the call is `REJECTED`. */ code?: 'REJECTED' | 'INVALID'; automatic?: boolean }
  /** A person answered in the tool's place: `output` is the call's result, and nothing runs. */
  | { approved: false; responded: true; output: unknown }
  /** A person withdrew the request: the call is cancelled, not rejected. */
  | { approved: false; cancelled: true; reason?: string };

/** How the gate asked: whether the person may edit, and for how long the request waits. */
export interface ApprovalOptions {
  editable?: boolean;
  expiresInMs?: number;
}

interface PendingApproval {
  requestId: string;
  call: CallState;
  args: unknown;
  fingerprint: string;
  editable: boolean;
  expiry: TimerHandle | undefined;
  /** The request as it was sent, and its seq, to send again after a resume. */
  frame: Record<string, unknown>;
  seq: number;
  resolve: (answer: ApprovalAnswer) => void;
}

/** Expired request ids remembered, so a late decision is told why it changed nothing; the oldest are forgotten. */
const MAX_EXPIRED_REMEMBERED = 256;

export class Approvals {
  private readonly pending = new Map<string, PendingApproval>();
  private readonly expired = new Set<string>();

  constructor(
    private readonly core: SessionCore,
    private readonly signer: ApprovalSigner,
  ) {}

  /** Ask the page; resolves with its answer (or a refusal when the session or turn ends first, or the request expires). */
  request(call: CallState, args: unknown, options: ApprovalOptions = {}): Promise<ApprovalAnswer> {
    const shape = checkValueShape(args, this.core.config.room.argumentLimits);
    if (shape) return Promise.resolve({ approved: false, reason: `the arguments have ${shape.message}` });
    let fingerprint: string;
    try {
      fingerprint = fingerprintOf(args);
    } catch (error) {
      const reason = error instanceof CanonicalJsonError ? error.message : 'arguments are not JSON';
      return Promise.resolve({ approved: false, reason });
    }
    const requestId = this.core.nextId('apr');
    const editable = options.editable === true;
    const ttl = options.expiresInMs;
    const expiresAt = ttl !== undefined && Number.isFinite(ttl) && ttl >= 0 ? this.core.config.timer.now() + ttl : undefined;
    const frame = {
      type: 'tool.approval-request',
      requestId,
      callId: call.callId,
      turnId: call.turn.id,
      name: call.name,
      arguments: args,
      risk: call.risk ?? 'high',
      ...(call.effect ? { effect: call.effect } : {}),
      ...(editable ? { editable: true } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(call.parentCallId ? { parentCallId: call.parentCallId } : {}),
      // A server tool's declared definition: the page binds standing grants to it (with name, effect and risk).
      ...this.definitionOf(call),
    };
    // The definition the page will fingerprint from this very request: the token binds it too.
    const definitionFingerprint = definitionFingerprintOf({ name: call.name, ...this.definitionOf(call), effect: call.effect, risk: frame.risk });
    return this.signer
      .sign({
        sessionId: this.core.id,
        callId: call.callId,
        toolName: call.name,
        argumentsFingerprint: fingerprint,
        definitionFingerprint,
        editable,
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      })
      .then(
        (approvalToken) =>
          new Promise<ApprovalAnswer>((resolve) => {
            // The call may have ended while the request was being signed (an interrupt, a close).
            if (this.core.terminal(call)) return resolve({ approved: false, reason: 'the call ended before its approval was asked' });
            const signed = { ...frame, approvalToken };
            const pending: PendingApproval = { requestId, call, args, fingerprint, editable, expiry: undefined, frame: signed, seq: 0, resolve };
            this.pending.set(requestId, pending);
            if (expiresAt !== undefined) pending.expiry = this.core.config.timer.setTimeout(() => this.expire(requestId), expiresAt - this.core.config.timer.now());
            this.core.audit.requested(call.callId, call.name, args, fingerprint, definitionFingerprint);
            this.core.emit(signed);
            pending.seq = this.core.seq;
          }),
        (error: unknown) => ({ approved: false, reason: `the approval request could not be signed: ${error instanceof Error ? error.message : String(error)}` }),
      );
  }

  /** The requests still waiting for the page's answer: their ids, their seq, and each as it was sent. */
  waiting(): { id: string; seq: number; frame: Record<string, unknown> }[] {
    return [...this.pending.values()].map((approval) => ({ id: approval.requestId, seq: approval.seq, frame: approval.frame }));
  }

  /** The page's `tool.approval`: its token is verified first; the decision is acted on only then. */
  answer(frame: Extract<ClientFrame, { type: 'tool.approval' }>): void {
    const pending = this.pending.get(frame.requestId);
    if (!pending) {
      this.decide(frame);
      return;
    }
    // It leaves the wait now: a second answer while the token is checked finds nothing to answer.
    this.settle(pending);
    // The token binds the decision to this session, call, tool and the arguments asked about; what
    // an approval runs (those arguments, or a checked edit) is then checked as before.
    void this.signer
      .verify(frame.approvalToken, { sessionId: this.core.id, callId: pending.call.callId, toolName: pending.call.name, argumentsFingerprint: pending.fingerprint })
      .then((verdict) => {
        if (verdict.ok) return this.decide(frame, pending);
        const { requestId, call } = pending;
        this.core.ignore('tool.approval', 'approval-token', { requestId, callId: call.callId, reason: verdict.reason });
        this.core.sendError('APPROVAL_TOKEN_INVALID', `the approval's token was refused (${verdict.reason}: ${verdict.message}); nothing ran`, {
          requestId,
          callId: call.callId,
          reason: verdict.reason,
        });
        pending.resolve({ approved: false, reason: `the approval's token was refused (${verdict.reason}); nothing ran` });
      });
  }

  /** Act on a decision whose token verified (or tell why one for no waiting request changed nothing). */
  private decide(frame: Extract<ClientFrame, { type: 'tool.approval' }>, waiting?: PendingApproval): void {
    const pending = waiting;
    if (!pending) {
      if (this.expired.has(frame.requestId)) {
        // A decision after expiresAt changes nothing (docs/protocol.md, "Expiry").
        this.core.ignore('tool.approval', 'expired', { requestId: frame.requestId });
        this.core.sendError('APPROVAL_EXPIRED', `approval request ${frame.requestId} expired before it was answered; nothing ran`, { requestId: frame.requestId });
        return;
      }
      this.core.ignore('tool.approval', 'unknown-request', { requestId: frame.requestId });
      this.core.sendError('APPROVAL_IGNORED', `no pending approval ${frame.requestId}`, { requestId: frame.requestId });
      return;
    }
    if ((frame.approved || frame.decision === 'respond') && frame.toolName !== undefined && frame.toolName !== pending.call.name) {
      // An approval of another tool is no approval of this call: refuse, run nothing.
      this.core.ignore('tool.approval', 'tool-mismatch', { requestId: frame.requestId, callId: pending.call.callId, expected: pending.call.name, received: frame.toolName });
      this.core.sendError('FINGERPRINT_MISMATCH', `the approval names ${frame.toolName}, not the call's tool ${pending.call.name}; nothing ran`, {
        requestId: frame.requestId,
        callId: pending.call.callId,
      });
      pending.resolve({ approved: false, reason: 'tool mismatch' });
      return;
    }
    if (frame.decision === 'respond') {
      const shape = checkValueShape(frame.output, this.core.config.room.argumentLimits);
      if (shape || frame.output === undefined) {
        const detail = shape ? `the answer has ${shape.message}` : 'the answer is missing';
        this.core.ignore('tool.approval', 'response-refused', { requestId: pending.requestId, callId: pending.call.callId, detail });
        this.core.sendError('RESPONSE_REFUSED', `${detail}; nothing ran`, { requestId: pending.requestId, callId: pending.call.callId });
        pending.resolve({ approved: false, reason: detail, code: 'INVALID' });
        return;
      }
      this.core.audit.decided(pending.call.callId, 'respond', 'person');
      // A copy of its own: nothing the socket layer holds can change the call's result.
      pending.resolve({ approved: false, responded: true, output: structuredClone(frame.output) });
      return;
    }
    if (frame.decision === 'cancel') {
      this.core.audit.decided(pending.call.callId, 'cancel', 'person', frame.reason);
      pending.resolve({ approved: false, cancelled: true, ...(frame.reason !== undefined ? { reason: frame.reason } : {}) });
      return;
    }
    if (!frame.approved) {
      this.core.audit.decided(pending.call.callId, 'deny', frame.automatic === true ? 'grant' : 'person', frame.reason);
      pending.resolve({ approved: false, ...(frame.reason !== undefined ? { reason: frame.reason } : {}), ...(frame.automatic === true ? { automatic: true } : {}) });
      return;
    }
    const automatic = frame.automatic === true;
    if (frame.arguments !== undefined) {
      this.answerEdit(pending, frame, automatic);
      return;
    }
    if (!this.fingerprintMatches(pending, frame, pending.fingerprint)) return;
    this.core.audit.decided(pending.call.callId, 'approve', automatic ? 'grant' : 'person');
    pending.resolve({ approved: true, arguments: pending.args, edited: false, automatic });
  }

  /** Approved with the person's edit: only where the request was editable, valid, and with its own fingerprint. */
  private answerEdit(pending: PendingApproval, frame: Extract<ClientFrame, { type: 'tool.approval' }>, automatic: boolean): void {
    const { requestId, call } = pending;
    const refuse = (reason: string, detail: string, code: 'REJECTED' | 'INVALID') => {
      this.core.ignore('tool.approval', reason, { requestId, callId: call.callId, detail });
      this.core.sendError('EDIT_REFUSED', `${detail}; nothing ran`, { requestId, callId: call.callId });
      pending.resolve({ approved: false, reason: detail, code });
    };
    if (!pending.editable) return refuse('edit-not-allowed', 'the request was not editable, but the approval carried edited arguments', 'REJECTED');
    const edited = frame.arguments;
    const shape = checkValueShape(edited, this.core.config.room.argumentLimits);
    if (shape) return refuse('edit-invalid', `the edited arguments have ${shape.message}`, 'INVALID');
    const schema = this.schemaOf(call);
    const problems = schema === undefined ? [] : validateAgainstSchema(schema, edited);
    if (problems.length > 0) return refuse('edit-invalid', `the edited arguments are not valid: ${problems.join('; ')}`, 'INVALID');
    let fingerprint: string;
    try {
      // The server's own canonical JSON of the edit: the page's fingerprint must be of exactly this.
      fingerprint = fingerprintOf(edited);
    } catch (error) {
      const reason = error instanceof CanonicalJsonError ? error.message : 'not JSON';
      return refuse('edit-invalid', `the edited arguments cannot be fingerprinted: ${reason}`, 'INVALID');
    }
    if (!this.fingerprintMatches(pending, frame, fingerprint)) return;
    this.core.audit.decided(call.callId, 'approve', automatic ? 'grant' : 'person');
    // A copy of its own: nothing the socket layer holds can change what runs.
    pending.resolve({ approved: true, arguments: structuredClone(edited), edited: true, automatic });
  }

  /** True when the frame's fingerprint is `expected`; otherwise the approval is refused and nothing runs. */
  private fingerprintMatches(pending: PendingApproval, frame: Extract<ClientFrame, { type: 'tool.approval' }>, expected: string): boolean {
    const received = normalizeFingerprint(frame.fingerprint);
    if (received === expected) return true;
    // An approval of other arguments is no approval of these: refuse, run nothing.
    this.core.ignore('tool.approval', 'fingerprint-mismatch', {
      requestId: frame.requestId,
      callId: pending.call.callId,
      expected,
      received: frame.fingerprint,
    });
    this.core.sendError('FINGERPRINT_MISMATCH', 'the approval does not match the arguments it was asked about; nothing ran', {
      requestId: frame.requestId,
      callId: pending.call.callId,
    });
    pending.resolve({ approved: false, reason: 'fingerprint mismatch' });
    return false;
  }

  /** What a server tool declares of itself (its description and schema); nothing for an app tool, whose page declared it. */
  private definitionOf(call: CallState): { description?: string; parameters?: unknown } {
    const tool = this.core.config.serverTools.get(call.name);
    if (!tool) return {};
    return { description: tool.description, ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }) };
  }

  /** The schema of the tool the call names: the server tool's own, or the one the page declared for its app tool. */
  private schemaOf(call: CallState): Parameters<typeof validateAgainstSchema>[0] | undefined {
    const server = this.core.config.serverTools.get(call.name);
    if (server) return server.parameters;
    return this.core.appToolSchema(call.name) as Parameters<typeof validateAgainstSchema>[0] | undefined;
  }

  /** Nobody answered in time: the request ends, the call is refused, and a later decision is told it expired. */
  private expire(requestId: string): void {
    const pending = this.pending.get(requestId);
    if (!pending) return;
    this.pending.delete(requestId);
    this.expired.add(requestId);
    if (this.expired.size > MAX_EXPIRED_REMEMBERED) this.expired.delete(this.expired.values().next().value as string);
    pending.resolve({ approved: false, reason: 'the approval request expired before anyone answered it' });
  }

  /** The request leaves the wait: no expiry fires for it any more. */
  private settle(pending: PendingApproval): void {
    this.pending.delete(pending.requestId);
    this.core.config.timer.clearTimeout(pending.expiry);
  }

  /** The turn was interrupted: its waiting requests are answered no. */
  cancelTurn(turn: Turn): void {
    for (const approval of [...this.pending.values()]) {
      if (approval.call.turn !== turn) continue;
      this.settle(approval);
      approval.resolve({ approved: false, reason: 'interrupted' });
    }
  }

  /** The session closed: every waiting request is answered no. */
  closeAll(): void {
    for (const approval of [...this.pending.values()]) {
      this.settle(approval);
      approval.resolve({ approved: false, reason: 'session closed' });
    }
    this.expired.clear();
  }
}
