/**
 * Answers the server acts on at once (a result, an approval, an interrupt), from sent until seen
 * acted on: a `settled` for a result, a `turn.ended` for an interrupt, any later event of the call
 * for an approval. A message written into a socket that was already gone is lost; after a resume,
 * once the replay has caught up, what is still unacknowledged is sent again (the server ignores an
 * answer it already has). Keyed by what each answers.
 */
import type { ReferenceClientMessage } from './protocol';

const TERMINAL_PHASES = new Set(['settled', 'cancelled', 'failed']);

export class AnswerLedger {
  private readonly unacknowledged = new Map<string, ReferenceClientMessage>();
  /** requestId -> callId of the gate's approval requests, to acknowledge approvals. */
  private readonly approvalCalls = new Map<string, string>();
  /** After a resumed welcome: resend the unacknowledged once the replay reached this seq. */
  private resendAfterSeq: number | undefined;
  /** What the lost connection carried and may have swallowed: only these are sent again. */
  private resendKeys = new Set<string>();

  /** The key of an answer whose effect shows in the event stream, or `undefined`. */
  keyOf(message: ReferenceClientMessage, streams: boolean): string | undefined {
    // Without tool-stream-v1 no `settled` comes to acknowledge results and approvals.
    if (message.type === 'tool.result' && streams) return `result:${message.callId}`;
    if (message.type === 'tool.approval' && streams) return `approval:${message.requestId}`;
    if (message.type === 'turn.interrupt') return `interrupt:${message.turnId}`;
    return undefined;
  }

  /** Sent over the current connection: not one to send again for the connection before. */
  sent(key: string, message: ReferenceClientMessage): void {
    this.unacknowledged.set(key, message);
    this.resendKeys.delete(key);
  }

  /** A session event: what it shows the server acted on. */
  acknowledge(event: Record<string, unknown>): void {
    if (event.type === 'tool.approval-request' && typeof event.requestId === 'string' && typeof event.callId === 'string') {
      this.approvalCalls.set(event.requestId, event.callId);
      return;
    }
    if (event.type === 'turn.ended' && typeof event.turnId === 'string') {
      this.unacknowledged.delete(`interrupt:${event.turnId}`);
      return;
    }
    if (event.type !== 'tool.stream' || typeof event.callId !== 'string') return;
    const callId = event.callId;
    const terminal = TERMINAL_PHASES.has(event.phase as string);
    // Anything the call does after its approval request means the gate heard the answer.
    for (const [requestId, call] of this.approvalCalls) {
      if (call !== callId) continue;
      this.unacknowledged.delete(`approval:${requestId}`);
      if (terminal) this.approvalCalls.delete(requestId);
    }
    if (terminal) this.unacknowledged.delete(`result:${callId}`);
  }

  /** An answer the server refused or ignored was heard all the same: never send it again. */
  heard(key: string): void {
    this.unacknowledged.delete(key);
  }

  /**
   * A welcome: after a resume, what the lost connection carried is to be sent again once the
   * replay reaches `replayEnd`. Taken before the outbox goes out: what it sends now travels over
   * this connection, and sending it again after the replay would answer the same call twice.
   */
  welcomed(resumed: boolean, replayEnd: number): void {
    this.resendKeys = resumed ? new Set(this.unacknowledged.keys()) : new Set();
    this.resendAfterSeq = resumed && this.resendKeys.size > 0 ? replayEnd : undefined;
  }

  /** Once the replay has caught up (`lastSeq` reached its end): the messages to send again. */
  due(lastSeq: number): ReferenceClientMessage[] {
    if (this.resendAfterSeq === undefined || lastSeq < this.resendAfterSeq) return [];
    this.resendAfterSeq = undefined;
    const keys = this.resendKeys;
    this.resendKeys = new Set();
    return [...this.unacknowledged].filter(([key]) => keys.has(key)).map(([, message]) => message);
  }

  clear(): void {
    this.unacknowledged.clear();
    this.approvalCalls.clear();
    this.resendKeys.clear();
    this.resendAfterSeq = undefined;
  }
}
