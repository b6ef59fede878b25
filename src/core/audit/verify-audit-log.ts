/**
 * Checking an audit chain: each record's own hash, its place, and its link to the record before
 * it. docs/guarantees.md ("An audit trail that shows tampering") says what this finds and what
 * only a checkpoint kept elsewhere can find.
 */

import { describeThrown } from '../external-store';
import { auditRecordShapeProblem, hashAuditBody, type AuditRecord } from './audit-record';

/**
 * Why a chain does not verify, at the index {@link verifyAuditLog} reports:
 * - `malformed`: the record is not a record (a field missing or of the wrong type, not JSON);
 * - `hash-mismatch`: the record's content does not give its `hash` (a field was changed);
 * - `out-of-sequence`: its `seq` is not its place (a record was moved, removed or added);
 * - `broken-link`: its `prev` is not the hash of the record before it;
 * - `truncated`: the log holds fewer records than the checkpoint says;
 * - `checkpoint-mismatch`: the record at the checkpoint is not the one the checkpoint names.
 *
 * @example
 * if (!result.ok && result.reason === 'hash-mismatch') alert(`record ${result.index} was changed`);
 */
export type AuditBreakReason = 'malformed' | 'hash-mismatch' | 'out-of-sequence' | 'broken-link' | 'truncated' | 'checkpoint-mismatch';

/**
 * The length and last hash of a log at some moment, kept apart from the log (on a server, in
 * another store): a chain can show a changed record by itself, but only a checkpoint shows that
 * records were cut from its end, or that every hash after a change was computed again.
 *
 * @example
 * const checkpoint: AuditCheckpoint = log.checkpoint();
 * await verifyAuditLog(records, { checkpoint }); // also finds records removed from the end
 */
export interface AuditCheckpoint {
  readonly length: number;
  /** The `hash` of the record at `length - 1`; `null` for an empty log. */
  readonly head: string | null;
}

/**
 * What {@link verifyAuditLog} found: the chain holds (its length and last hash), or the first
 * record where it breaks, why, and a sentence for people.
 *
 * @example
 * const result: AuditVerification = await verifyAuditLog(records);
 * console.log(result.ok ? `${result.length} records verify` : `broken at ${result.index}: ${result.message}`);
 */
export type AuditVerification =
  | { readonly ok: true; readonly length: number; readonly head: string | null }
  | { readonly ok: false; readonly index: number; readonly reason: AuditBreakReason; readonly message: string };

/**
 * Options of {@link verifyAuditLog}.
 *
 * @example
 * await verifyAuditLog(records, { checkpoint: { length: 12, head: savedHead } });
 */
export interface VerifyAuditLogOptions {
  /** A checkpoint taken earlier: the log must still hold its records, unchanged. */
  checkpoint?: AuditCheckpoint | undefined;
}

/**
 * Verify an audit chain and find its first broken link. Record `i` must have the shape of a
 * record, `seq` equal to `i`, a `hash` equal to SHA-256 of its canonical JSON without `hash`, and
 * a `prev` equal to the `hash` of record `i - 1` (`null` for the first). An empty log verifies.
 * Never throws: a record that cannot be read is `malformed`.
 *
 * @example
 * const result = await verifyAuditLog(log.getState().records);
 * if (!result.ok) console.error(`record ${result.index}: ${result.reason}`);
 */
export async function verifyAuditLog(records: readonly unknown[], options: VerifyAuditLogOptions = {}): Promise<AuditVerification> {
  let prev: string | null = null;
  for (let index = 0; index < records.length; index++) {
    const record = records[index];
    const broken = (reason: AuditBreakReason, message: string): AuditVerification => ({ ok: false, index, reason, message: `record ${index} ${message}` });
    const problem = auditRecordShapeProblem(record);
    if (problem !== undefined) return broken('malformed', problem);
    const { hash, ...body } = record as AuditRecord;
    let computed: string;
    try {
      computed = await hashAuditBody(body);
    } catch (error) {
      return broken('malformed', `cannot be hashed: ${describeThrown(error)}`);
    }
    if (computed !== hash) return broken('hash-mismatch', 'does not match its hash: its content was changed');
    if (body.seq !== index) return broken('out-of-sequence', `says it is record ${body.seq}: records were moved, removed or added`);
    if (body.prev !== prev) {
      return broken('broken-link', index === 0 ? 'is first but names a record before it' : 'does not name the record before it: a record was removed, added or changed');
    }
    prev = hash;
  }
  const checkpoint = options.checkpoint;
  if (checkpoint !== undefined && checkpoint.length > 0) {
    if (records.length < checkpoint.length) {
      return {
        ok: false,
        index: records.length,
        reason: 'truncated',
        message: `the log holds ${records.length} records, the checkpoint ${checkpoint.length}: records were removed from its end`,
      };
    }
    const at = records[checkpoint.length - 1] as AuditRecord;
    if (at.hash !== checkpoint.head) {
      return {
        ok: false,
        index: checkpoint.length - 1,
        reason: 'checkpoint-mismatch',
        message: `record ${checkpoint.length - 1} is not the one the checkpoint names: records up to it were rewritten`,
      };
    }
  }
  return { ok: true, length: records.length, head: prev };
}
