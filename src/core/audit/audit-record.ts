/**
 * The records of an audit trail, as plain data: what each one holds and how it is hashed.
 * docs/guarantees.md ("An audit trail that shows tampering") states what the chain proves and
 * what it cannot.
 */

import { canonicalJson } from '../json/canonical-json';
import { fingerprintCanonical } from '../json/fingerprint';
import type { JsonValue } from '../json/json-value';

/**
 * How a request was decided: run it (maybe edited), refuse it, answer it instead of running it,
 * or withdraw it.
 *
 * @example
 * const kind: AuditDecisionKind = 'respond'; // a person's answer replaced running the tool
 */
export type AuditDecisionKind = 'approve' | 'deny' | 'respond' | 'cancel';

/**
 * Who decided: a person in the dialog, a policy rule, a standing grant, or a person deciding a
 * whole list at once.
 *
 * @example
 * const by: AuditDecider = 'rule';
 */
export type AuditDecider = 'person' | 'rule' | 'grant' | 'batch';

/** Fields every record has. */
interface AuditRecordBase {
  /** Its place in the log, from 0. */
  readonly seq: number;
  /** The `hash` of the record before it; `null` for the first record. */
  readonly prev: string | null;
  /** SHA-256 (hex) of this record's canonical JSON without its `hash` field. */
  readonly hash: string;
  /** The call the record is about. */
  readonly callId: string;
  /** When it was recorded, in milliseconds since the epoch (the log's clock). */
  readonly at: number;
}

/**
 * One record of an audit log. Four kinds tell a call's story: `requested` (the tool, the
 * fingerprints of its definition and arguments, and the arguments shown), `decided` (the kind of
 * decision, who made it, the rule and the reason), `ran` (the fingerprint of the arguments that
 * ran) and `settled` (the result code, `OK` on success, and the output's fingerprint).
 *
 * @example
 * const ran = records.filter((r): r is Extract<AuditRecord, { type: 'ran' }> => r.type === 'ran');
 */
export type AuditRecord =
  | (AuditRecordBase & {
      readonly type: 'requested';
      readonly toolName: string;
      /** The tool's definition fingerprint, or `null` when the tool has no known definition. */
      readonly definitionFingerprint: string | null;
      readonly argumentsFingerprint: string;
      /** The arguments as they were shown. */
      readonly arguments: JsonValue;
    })
  | (AuditRecordBase & {
      readonly type: 'decided';
      readonly kind: AuditDecisionKind;
      readonly by: AuditDecider;
      readonly ruleId: string | null;
      readonly reason: string | null;
    })
  | (AuditRecordBase & {
      readonly type: 'ran';
      /** The fingerprint of the arguments that ran (an edit's, when a person edited them). */
      readonly argumentsFingerprint: string;
    })
  | (AuditRecordBase & {
      readonly type: 'settled';
      /** `OK` when the call succeeded, else its result code (`REJECTED`, `FAILED`, …). */
      readonly code: string;
      /** The output's fingerprint, or `null` when there was no output. */
      readonly outputFingerprint: string | null;
    });

const HEX64 = /^[0-9a-f]{64}$/;
const DECISION_KINDS: readonly string[] = ['approve', 'deny', 'respond', 'cancel'] satisfies readonly AuditDecisionKind[];
const DECIDERS: readonly string[] = ['person', 'rule', 'grant', 'batch'] satisfies readonly AuditDecider[];

/** A record without its `hash`: what the hash is taken over. */
export type AuditRecordBody = AuditRecord extends infer R ? (R extends unknown ? Omit<R, 'hash'> : never) : never;

/** SHA-256 (hex) of a record body's canonical JSON (RFC 8785). Throws for a body that is not JSON. */
export async function hashAuditBody(body: AuditRecordBody | Record<string, unknown>): Promise<string> {
  return (await fingerprintCanonical(canonicalJson(body as JsonValue))).hex;
}

const isHexOrNull = (v: unknown): boolean => v === null || (typeof v === 'string' && HEX64.test(v));

/**
 * What is wrong with the shape of `value` as a record, or `undefined` when it has every field a
 * record of its type needs, each of the right type. Unknown extra fields are not refused here:
 * they change the hash, which is where tampering shows.
 */
export function auditRecordShapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'is not an object';
  const r = value as Record<string, unknown>;
  if (!Number.isSafeInteger(r['seq']) || (r['seq'] as number) < 0) return 'has no whole-number seq';
  if (!isHexOrNull(r['prev'])) return 'has a prev that is neither null nor a SHA-256 hex digest';
  if (typeof r['hash'] !== 'string' || !HEX64.test(r['hash'])) return 'has a hash that is not a SHA-256 hex digest';
  if (typeof r['callId'] !== 'string') return 'has no callId';
  if (typeof r['at'] !== 'number' || !Number.isFinite(r['at'])) return 'has no time (at)';
  switch (r['type']) {
    case 'requested':
      if (typeof r['toolName'] !== 'string') return 'has no toolName';
      if (!isHexOrNull(r['definitionFingerprint'])) return 'has a definitionFingerprint that is neither null nor a digest';
      if (typeof r['argumentsFingerprint'] !== 'string' || !HEX64.test(r['argumentsFingerprint'])) return 'has no argumentsFingerprint';
      if (!Object.hasOwn(r, 'arguments')) return 'has no arguments';
      return undefined;
    case 'decided':
      if (typeof r['kind'] !== 'string' || !DECISION_KINDS.includes(r['kind'])) return 'has no known decision kind';
      if (typeof r['by'] !== 'string' || !DECIDERS.includes(r['by'])) return 'does not say who decided (by)';
      if (r['ruleId'] !== null && typeof r['ruleId'] !== 'string') return 'has a ruleId that is neither null nor a string';
      if (r['reason'] !== null && typeof r['reason'] !== 'string') return 'has a reason that is neither null nor a string';
      return undefined;
    case 'ran':
      if (typeof r['argumentsFingerprint'] !== 'string' || !HEX64.test(r['argumentsFingerprint'])) return 'has no argumentsFingerprint';
      return undefined;
    case 'settled':
      if (typeof r['code'] !== 'string' || r['code'] === '') return 'has no result code';
      if (!isHexOrNull(r['outputFingerprint'])) return 'has an outputFingerprint that is neither null nor a digest';
      return undefined;
    default:
      return 'has no known type (requested, decided, ran, settled)';
  }
}
