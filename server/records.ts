/**
 * What the server remembers for tests and the demo to read: every effect (accepted, refused
 * with its reason, failed), the internal traces, and every client message it ignored.
 *
 * Bounded, so that no session can make the server hold more and more: each kind keeps at most
 * `perSession` entries of one session and `total` entries in all (the oldest go first), a large
 * value (arguments, a result, a detail) is kept only up to `valueBytes` of JSON, and a session's
 * entries go when the server forgets the session.
 */
import type { ReferenceEffect } from '../src/client/protocol';

export type EffectOutcome = ReferenceEffect['outcome'];

/** One effect; `sessionId` says whose it is, and only that session's `listEffects` shows it. */
export type EffectRecord = ReferenceEffect;

/** Internal trace publications (`tool.completed`): a log entry, never a receipt. */
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

export interface RecordLimits {
  /** Entries of each kind kept for one session. */
  perSession: number;
  /** Entries of each kind kept in all. */
  total: number;
  /** Largest value (arguments, result, detail) kept as it is, in bytes of JSON. */
  valueBytes: number;
  /** Longest reason kept, in characters. */
  reasonLength: number;
}

export const DEFAULT_RECORD_LIMITS: RecordLimits = { perSession: 1000, total: 10_000, valueBytes: 16 * 1024, reasonLength: 1000 };

/**
 * A copy of `value` when its JSON text has at most `limit` bytes; otherwise `undefined`. It stops
 * counting as soon as the limit is passed, so a megabyte of arguments costs no more than a small
 * value: the walk is bounded by the limit, not by the value.
 */
function keptCopy(value: unknown, limit: number): { value: unknown } | undefined {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length + 2;
    else if (Array.isArray(v)) {
      total += v.length + 1;
      for (const item of v) stack.push(item);
    } else if (typeof v === 'object' && v !== null) {
      for (const [key, item] of Object.entries(v)) {
        total += key.length + 4;
        stack.push(item);
      }
    } else total += 5;
    if (total > limit || stack.length > limit) return undefined;
  }
  // Small enough to write out: the exact size decides, and the copy is the record's own.
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return { value: undefined };
    return Buffer.byteLength(text, 'utf8') > limit ? undefined : { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text;
}

/** One kind of record: the array tests read, bounded per session and in all. */
class BoundedLog<T extends { sessionId: string | undefined }> {
  readonly entries: T[] = [];
  private readonly counts = new Map<string | undefined, number>();

  constructor(private readonly limits: RecordLimits) {}

  add(entry: T): T {
    this.entries.push(entry);
    const count = (this.counts.get(entry.sessionId) ?? 0) + 1;
    this.counts.set(entry.sessionId, count);
    if (count > this.limits.perSession) {
      // The session's oldest entry: the arrays are short enough (`total`) for a scan.
      this.removeAt(this.entries.findIndex((e) => e.sessionId === entry.sessionId));
    }
    if (this.entries.length > this.limits.total) this.removeAt(0);
    return entry;
  }

  forget(sessionId: string): void {
    if (!this.counts.delete(sessionId)) return;
    let kept = 0;
    for (const entry of this.entries) if (entry.sessionId !== sessionId) this.entries[kept++] = entry;
    this.entries.length = kept;
  }

  /** Sessions that have entries here (for the server's own accounting). */
  get sessions(): number {
    return this.counts.size;
  }

  private removeAt(index: number): void {
    if (index < 0) return;
    const [removed] = this.entries.splice(index, 1);
    if (!removed) return;
    const left = (this.counts.get(removed.sessionId) ?? 1) - 1;
    if (left > 0) this.counts.set(removed.sessionId, left);
    else this.counts.delete(removed.sessionId);
  }
}

export class Records {
  private readonly effectLog: BoundedLog<EffectRecord>;
  private readonly traceLog: BoundedLog<TraceRecord>;
  private readonly ignoredLog: BoundedLog<IgnoredRecord>;
  private nextEffectId = 1;
  readonly limits: RecordLimits;

  constructor(
    private readonly now: () => number,
    limits: Partial<RecordLimits> = {},
  ) {
    this.limits = { ...DEFAULT_RECORD_LIMITS, ...limits };
    this.effectLog = new BoundedLog(this.limits);
    this.traceLog = new BoundedLog(this.limits);
    this.ignoredLog = new BoundedLog(this.limits);
  }

  get effects(): EffectRecord[] {
    return this.effectLog.entries;
  }
  get traces(): TraceRecord[] {
    return this.traceLog.entries;
  }
  get ignored(): IgnoredRecord[] {
    return this.ignoredLog.entries;
  }

  addEffect(entry: Omit<EffectRecord, 'id' | 'at'>): EffectRecord {
    const record: EffectRecord = { id: this.nextEffectId++, at: this.now(), ...entry };
    const limit = this.limits.valueBytes;
    const args = keptCopy(record.arguments, limit);
    record.arguments = args?.value;
    if (!args) record.argumentsOmitted = { reason: `more than ${limit} bytes of JSON (or not JSON)` };
    if (record.result !== undefined) {
      record.result = keptCopy(record.result, limit)?.value ?? { omitted: `a result of more than ${limit} bytes of JSON` };
    }
    if (record.reason !== undefined) record.reason = clip(record.reason, this.limits.reasonLength);
    return this.effectLog.add(record);
  }

  addTrace(entry: Omit<TraceRecord, 'at'>): void {
    this.traceLog.add({ at: this.now(), ...entry });
  }

  addIgnored(entry: Omit<IgnoredRecord, 'at'>): IgnoredRecord {
    const record: IgnoredRecord = { at: this.now(), ...entry };
    if (record.detail !== undefined) {
      record.detail = keptCopy(record.detail, this.limits.valueBytes)?.value ?? { omitted: `a detail of more than ${this.limits.valueBytes} bytes of JSON` };
    }
    return this.ignoredLog.add(record);
  }

  /** Drop every record of a session the server forgot. */
  forget(sessionId: string): void {
    this.effectLog.forget(sessionId);
    this.traceLog.forget(sessionId);
    this.ignoredLog.forget(sessionId);
  }

  /** How many sessions have records of each kind (the server's own accounting, for tests). */
  sessionCounts(): { effects: number; traces: number; ignored: number } {
    return { effects: this.effectLog.sessions, traces: this.traceLog.sessions, ignored: this.ignoredLog.sessions };
  }
}
