/**
 * A session's sequenced events, kept as the text that was sent so a resume replays exactly the
 * same bytes. Bounded in bytes: the oldest events go first, and a resume that would need one of
 * them can no longer catch up (the server refuses it as `gap` rather than replay with a hole).
 */
export class EventLog {
  private seqValue = 0;
  private entries: { seq: number; text: string }[] = [];
  /** Index of the first kept entry (entries before it are dropped, compacted now and then). */
  private head = 0;
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The seq of the last event. */
  get seq(): number {
    return this.seqValue;
  }

  /** Give the event the next seq, keep its text, and return that text. */
  append(event: Record<string, unknown>): string {
    const seq = ++this.seqValue;
    const text = JSON.stringify({ ...event, seq });
    this.entries.push({ seq, text });
    this.bytes += text.length;
    // Keep at least the newest event, whatever its size.
    while (this.bytes > this.maxBytes && this.entries.length - this.head > 1) {
      this.bytes -= this.entries[this.head]!.text.length;
      this.head++;
    }
    if (this.head > 1024 && this.head > this.entries.length / 2) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return text;
  }

  /** Whether every event after `lastSeq` is still kept. */
  canReplayAfter(lastSeq: number): boolean {
    const first = this.entries[this.head]?.seq ?? this.seqValue + 1;
    return lastSeq >= first - 1;
  }

  /** The texts of the kept events after `lastSeq`, in order. */
  *after(lastSeq: number): Iterable<string> {
    for (let i = this.head; i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (entry.seq > lastSeq) yield entry.text;
    }
  }

  /**
   * The text of the last event not of type `skip` (else the last event at all), to send it again
   * as a malformed repeat. Looks back a few events only: a repeat is a fault, not a search.
   */
  last(skip?: string): string | undefined {
    const oldest = Math.max(this.head, this.entries.length - 8);
    for (let i = this.entries.length - 1; i >= oldest; i--) {
      const text = this.entries[i]!.text;
      if (skip === undefined || (JSON.parse(text) as { type?: unknown }).type !== skip) return text;
    }
    return this.entries.length > this.head ? this.entries.at(-1)!.text : undefined;
  }

  /** Every kept event, decoded. */
  decoded(): Record<string, unknown>[] {
    return this.entries.slice(this.head).map((entry) => JSON.parse(entry.text) as Record<string, unknown>);
  }
}
