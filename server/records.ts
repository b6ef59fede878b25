/**
 * What the server remembers for tests and the demo to read: every effect (accepted, refused
 * with its reason, failed), the internal traces, and every client message it ignored.
 */

export type EffectOutcome = 'accepted' | 'refused' | 'failed';

export interface EffectRecord {
  /** Rises through the server's life. */
  id: number;
  at: number;
  /** `room`: an invokeTool of the room; `server-tool`: a server tool of the agent that writes. */
  source: 'room' | 'server-tool';
  sessionId: string;
  toolName: string;
  effect: 'read' | 'write';
  arguments: unknown;
  /** SHA-256 of the canonical arguments (absent when they are not JSON). */
  argumentsHash?: string;
  confirmationId?: string;
  outcome: EffectOutcome;
  /** The refusal or failure code (FORBIDDEN, CONFIRMATION_CONSUMED, REJECTED, …). */
  code?: string;
  reason?: string;
  result?: unknown;
  /** A fault dropped the response: the effect happened, its answer never left the server. */
  responseDropped?: boolean;
  callId?: string;
  turnId?: string;
}

/** Internal trace publications (rmc `tool.completed`): a log entry, never a receipt. */
export interface TraceRecord {
  at: number;
  type: 'tool.invoked' | 'tool.completed' | 'tool.failed';
  roomId: string;
  toolName: string;
  invocationId: string;
  sessionId: string;
  effectId: number;
  ok?: boolean;
}

export interface IgnoredRecord {
  at: number;
  sessionId: string | undefined;
  /** The type of the message that was ignored. */
  message: string;
  /** A short machine reason: unknown-call, finished-call, stale-epoch, unknown-request, … */
  reason: string;
  detail?: unknown;
}

export class Records {
  readonly effects: EffectRecord[] = [];
  readonly traces: TraceRecord[] = [];
  readonly ignored: IgnoredRecord[] = [];
  private nextEffectId = 1;

  constructor(private readonly now: () => number) {}

  addEffect(entry: Omit<EffectRecord, 'id' | 'at'>): EffectRecord {
    const record: EffectRecord = { id: this.nextEffectId++, at: this.now(), ...entry };
    this.effects.push(record);
    return record;
  }

  addTrace(entry: Omit<TraceRecord, 'at'>): void {
    this.traces.push({ at: this.now(), ...entry });
  }

  addIgnored(entry: Omit<IgnoredRecord, 'at'>): IgnoredRecord {
    const record = { at: this.now(), ...entry };
    this.ignored.push(record);
    return record;
  }
}
