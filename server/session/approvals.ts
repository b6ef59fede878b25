/**
 * The before-tool-call gate's wait for the page (seed 000 `beforeToolCall` with an on-screen
 * confirmation): the request carries the arguments that will run, and the page must answer with
 * the fingerprint of exactly those (the server does not send it, so the page computes it with its
 * own canonical JSON).
 */
import { CanonicalJsonError, fingerprintOf, normalizeFingerprint } from '../jcs';
import type { ClientFrame } from '../protocol';
import { checkValueShape } from '../shape';
import type { CallState, SessionCore, Turn } from './model';

export interface ApprovalAnswer {
  approved: boolean;
  reason?: string;
}

interface PendingApproval {
  requestId: string;
  call: CallState;
  fingerprint: string;
  resolve: (answer: ApprovalAnswer) => void;
}

export class Approvals {
  private readonly pending = new Map<string, PendingApproval>();

  constructor(private readonly core: SessionCore) {}

  /** Ask the page; resolves with its answer (or a refusal when the session or turn ends first). */
  request(call: CallState, args: unknown): Promise<ApprovalAnswer> {
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
    return new Promise((resolve) => {
      this.pending.set(requestId, { requestId, call, fingerprint, resolve });
      this.core.emit({
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

  /** The page's `tool.approval`. */
  answer(frame: Extract<ClientFrame, { type: 'tool.approval' }>): void {
    const pending = this.pending.get(frame.requestId);
    if (!pending) {
      this.core.ignore('tool.approval', 'unknown-request', { requestId: frame.requestId });
      this.core.sendError('APPROVAL_IGNORED', `no pending approval ${frame.requestId}`, { requestId: frame.requestId });
      return;
    }
    this.pending.delete(frame.requestId);
    if (!frame.approved) {
      pending.resolve({ approved: false, ...(frame.reason !== undefined ? { reason: frame.reason } : {}) });
      return;
    }
    const received = normalizeFingerprint(frame.fingerprint);
    if (received !== pending.fingerprint) {
      // An approval of other arguments is no approval of these: refuse, run nothing.
      this.core.ignore('tool.approval', 'fingerprint-mismatch', {
        requestId: frame.requestId,
        callId: pending.call.callId,
        expected: pending.fingerprint,
        received: frame.fingerprint,
      });
      this.core.sendError('FINGERPRINT_MISMATCH', 'the approval does not match the arguments it was asked about; nothing ran', {
        requestId: frame.requestId,
        callId: pending.call.callId,
      });
      pending.resolve({ approved: false, reason: 'fingerprint mismatch' });
      return;
    }
    pending.resolve({ approved: true });
  }

  /** The turn was interrupted: its waiting requests are answered no. */
  cancelTurn(turn: Turn): void {
    for (const [id, approval] of this.pending) {
      if (approval.call.turn !== turn) continue;
      this.pending.delete(id);
      approval.resolve({ approved: false, reason: 'interrupted' });
    }
  }

  /** The session closed: every waiting request is answered no. */
  closeAll(): void {
    for (const approval of this.pending.values()) approval.resolve({ approved: false, reason: 'session closed' });
    this.pending.clear();
  }
}
