/**
 * The audit log: an append-only hash chain of what happened to each call that involved a
 * decision, as a store a view can subscribe to. docs/guarantees.md ("An audit trail that shows
 * tampering") states the rules.
 */

import { createExternalStore, type ErrorReporter } from '../external-store';
import { fingerprintJson } from '../json/fingerprint';
import { deepFreeze, snapshotJson, type JsonValue } from '../json/json-value';
import { canonicalJson } from '../json/canonical-json';
import { auditRecordShapeProblem, hashAuditBody, type AuditDecider, type AuditDecisionKind, type AuditRecord, type AuditRecordBody } from './audit-record';
import { verifyAuditLog, type AuditCheckpoint, type AuditVerification } from './verify-audit-log';
import { auditLogToJsonLines } from './audit-json-lines';
import { feedAuditLog } from './audit-feed';
import { FEED_AUDIT, type AuditFeeder } from './audit-feed-key';

/**
 * What {@link AuditLog.append} takes: a record's content without its place, links and hash.
 * Fingerprints are computed from the values when only the values are given (`arguments`,
 * `output`); `at` defaults to the log's clock when `append` is called.
 *
 * @example
 * log.append({ type: 'requested', callId: 'c1', toolName: 'send_money', definitionFingerprint: null, arguments: { to: 'ada', amount: 5 } });
 * log.append({ type: 'decided', callId: 'c1', kind: 'approve', by: 'person' });
 * log.append({ type: 'ran', callId: 'c1', arguments: { to: 'ada', amount: 5 } });
 * log.append({ type: 'settled', callId: 'c1', code: 'OK', output: { receipt: 'r-9' } });
 */
export type AuditEntry =
  | (AuditEntryBase & {
      readonly type: 'requested';
      readonly toolName: string;
      readonly definitionFingerprint?: string | null | undefined;
      /** The arguments as shown. */
      readonly arguments: JsonValue;
      /** Their fingerprint, when known; it must be the arguments' own (the append is refused otherwise). */
      readonly argumentsFingerprint?: string | undefined;
    })
  | (AuditEntryBase & {
      readonly type: 'decided';
      readonly kind: AuditDecisionKind;
      readonly by: AuditDecider;
      readonly ruleId?: string | null | undefined;
      readonly reason?: string | null | undefined;
    })
  | (AuditEntryBase & {
      readonly type: 'ran';
      /** The fingerprint of what ran; or give `arguments` and the log computes it. */
      readonly argumentsFingerprint?: string | undefined;
      readonly arguments?: JsonValue | undefined;
    })
  | (AuditEntryBase & {
      readonly type: 'settled';
      /** `OK` on success, else the result code. */
      readonly code: string;
      /** The output's fingerprint; or give `output` and the log computes it. `null` when there was none. */
      readonly outputFingerprint?: string | null | undefined;
      readonly output?: JsonValue | undefined;
    });

/** Fields every entry has (a record's `AuditRecordBase` without its place, links and hash). */
interface AuditEntryBase {
  /** The call the record is about. */
  readonly callId: string;
  /** When it happened, in milliseconds since the epoch; the log's clock when omitted. */
  readonly at?: number | undefined;
}

/**
 * What an audit log holds: its records, oldest first (frozen), and the hash of the last one.
 *
 * @example
 * const { records, head }: AuditLogState = log.getState();
 */
export interface AuditLogState {
  readonly records: readonly AuditRecord[];
  /** The last record's `hash`; `null` while the log is empty. */
  readonly head: string | null;
}

/**
 * Options of {@link createAuditLog}.
 *
 * @example
 * const log = createAuditLog({ now: () => clock.now(), records: imported.records });
 */
export interface AuditLogOptions {
  /** The clock of each record's `at`, in milliseconds; `Date.now` when omitted. */
  now?: (() => number) | undefined;
  /**
   * Records to continue from (from {@link parseAuditJsonLines}). They are verified before the first
   * append; when they do not verify, every append is refused.
   */
  records?: readonly AuditRecord[] | undefined;
  /** Told of subscribers that throw; `console.error` when omitted. */
  onError?: ErrorReporter | undefined;
}

/**
 * An audit log: append records, read them as a store, verify and export them.
 *
 * @example
 * const log = createAuditLog();
 * const stop = log.subscribe(({ records }) => render(records));
 * await log.append({ type: 'decided', callId: 'c1', kind: 'deny', by: 'rule', ruleId: 'no-wires', reason: 'wires need a person' });
 */
export interface AuditLog {
  /**
   * Append a record. Records take the order of the calls to `append`, awaited or not; the promise
   * gives the record once it is in the log, or rejects with an {@link AuditLogError} and adds nothing.
   */
  append(entry: AuditEntry): Promise<AuditRecord>;
  /** Resolves when every append made so far has finished (added or refused). */
  idle(): Promise<void>;
  getState(): AuditLogState;
  getInitialState(): AuditLogState;
  subscribe(listener: (state: AuditLogState, previous: AuditLogState) => void): () => void;
  /** The log's length and last hash now, to keep apart from it (see {@link AuditCheckpoint}). */
  checkpoint(): AuditCheckpoint;
  /** {@link verifyAuditLog} over the records appended so far. */
  verify(): Promise<AuditVerification>;
  /** The records appended so far as JSON Lines (see {@link auditLogToJsonLines}). */
  toJsonLines(): string;
}

/**
 * Why an append was refused: the entry is not a record (a missing field, a fingerprint that is not
 * SHA-256 hex, arguments that are not JSON), a given fingerprint is not the arguments' own, or the
 * records the log was made with do not verify.
 *
 * @example
 * log.append(entry).catch((e) => { if (e instanceof AuditLogError) console.warn(e.message); });
 */
export class AuditLogError extends Error {
  override readonly name = 'AuditLogError';
}

/**
 * Create an audit log. Each record holds the SHA-256 of the record before it, so
 * {@link verifyAuditLog} finds a changed, moved, removed or added record; records are appended one
 * at a time in the order `append` was called.
 *
 * @example
 * const log = createAuditLog();
 * void log.append({ type: 'requested', callId: 'c1', toolName: 'delete_file', definitionFingerprint: null, arguments: { path: 'a.txt' } });
 * void log.append({ type: 'decided', callId: 'c1', kind: 'cancel', by: 'person' });
 * await log.idle();
 * download(log.toJsonLines());
 */
export function createAuditLog(options: AuditLogOptions = {}): AuditLog {
  const now = options.now ?? Date.now;
  const seeded = deepFreeze([...(options.records ?? [])]);
  const initial: AuditLogState = Object.freeze({ records: seeded, head: seeded.at(-1)?.hash ?? null });
  const store = createExternalStore<AuditLogState>(initial, { onError: options.onError });

  // The seeded records are checked once, before the first append links to them.
  let ready: Promise<void> | undefined;
  const seededVerified = (): Promise<void> =>
    (ready ??= verifyAuditLog(seeded).then((result) => {
      if (!result.ok) throw new AuditLogError(`the records the log was made with do not verify: ${result.message}`);
    }));

  // Appends run one after another: each needs the hash of the one before it, and WebCrypto is async.
  let tail: Promise<unknown> = Promise.resolve();

  const append = (entry: AuditEntry): Promise<AuditRecord> => {
    let prepared: Prepared;
    try {
      // Taken now, not when the append's turn comes: the arguments shown and the time are the ones
      // of this moment, whatever the caller does with its objects afterwards.
      prepared = prepare(entry, now);
    } catch (error) {
      return Promise.reject(error);
    }
    const step = tail.then(async () => {
      await seededVerified();
      const fields = await prepared();
      const { records, head } = store.getState();
      const body = { ...fields, seq: records.length, prev: head } as AuditRecordBody;
      let hash: string;
      try {
        hash = await hashAuditBody(body);
      } catch (error) {
        throw new AuditLogError(`the entry cannot be hashed: ${error instanceof Error ? error.message : String(error)}`);
      }
      const record = deepFreeze({ ...body, hash } as AuditRecord);
      const problem = auditRecordShapeProblem(record);
      if (problem !== undefined) throw new AuditLogError(`the entry is not a record: it ${problem}`);
      store.setState(Object.freeze({ records: Object.freeze([...records, record]), head: hash }), true);
      return record;
    });
    tail = step.catch(() => undefined);
    return step;
  };

  const log: AuditLog = {
    append,
    idle: () => tail.then(() => undefined),
    getState: store.getState,
    getInitialState: store.getInitialState,
    subscribe: store.subscribe,
    checkpoint: () => {
      const { records, head } = store.getState();
      return { length: records.length, head };
    },
    verify: () => verifyAuditLog(store.getState().records),
    toJsonLines: () => auditLogToJsonLines(store.getState().records),
  };
  // What `createToolgate({ audit })` feeds the log with, kept with the log: a page without one loads none of it.
  const feeder: AuditFeeder = (controller, feedOptions) => feedAuditLog(controller, append, feedOptions);
  Object.defineProperty(log, FEED_AUDIT, { value: feeder });
  return log;
}

/** The fields of a record but its place and links, once the fingerprints it needs are computed. */
type Prepared = () => Promise<Record<string, JsonValue>>;

function snapshot(value: unknown, what: string): JsonValue {
  const copy = snapshotJson(value, what);
  if (!copy.ok) throw new AuditLogError(copy.reason);
  // Canonical JSON also refuses lone surrogates, which a fingerprint could not tell apart.
  try {
    canonicalJson(copy.value);
  } catch (error) {
    throw new AuditLogError(error instanceof Error ? error.message : String(error));
  }
  return copy.value;
}

const fingerprintOf = async (value: JsonValue): Promise<string> => (await fingerprintJson(value)).hex;

/** A fingerprint the caller gave must be the one the log computed from the value it also gave. */
function sameAsGiven<T extends string | null>(given: T | undefined, computed: T, field: string, of: string): T {
  if (given !== undefined && given !== computed) {
    throw new AuditLogError(`the ${field} given (${String(given)}) is not the fingerprint of ${of} (${String(computed)})`);
  }
  return computed;
}

function prepare(entry: AuditEntry, now: () => number): Prepared {
  if (typeof entry !== 'object' || entry === null) throw new AuditLogError('the entry is not an object');
  const at = entry.at ?? now();
  const base = { type: entry.type, callId: entry.callId, at };
  switch (entry.type) {
    case 'requested': {
      const shown = snapshot(entry.arguments, 'arguments');
      const given = entry.argumentsFingerprint;
      const definitionFingerprint = entry.definitionFingerprint ?? null;
      return async () => {
        const argumentsFingerprint = sameAsGiven(given, await fingerprintOf(shown), 'argumentsFingerprint', 'the arguments shown');
        return { ...base, toolName: entry.toolName, definitionFingerprint, argumentsFingerprint, arguments: shown };
      };
    }
    case 'decided': {
      const fields = { ...base, kind: entry.kind, by: entry.by, ruleId: entry.ruleId ?? null, reason: entry.reason ?? null };
      return () => Promise.resolve(fields);
    }
    case 'ran': {
      const given = entry.argumentsFingerprint;
      const ran = entry.arguments === undefined ? undefined : snapshot(entry.arguments, 'arguments');
      if (given === undefined && ran === undefined) throw new AuditLogError('a ran record needs the arguments that ran or their fingerprint');
      return async () => {
        const computed = ran === undefined ? (given as string) : await fingerprintOf(ran);
        const argumentsFingerprint = sameAsGiven(given, computed, 'argumentsFingerprint', 'the arguments that ran');
        return { ...base, argumentsFingerprint };
      };
    }
    case 'settled': {
      const output = entry.output === undefined ? undefined : snapshot(entry.output, 'output');
      const given = entry.outputFingerprint;
      return async () => {
        const computed = output === undefined ? (given ?? null) : await fingerprintOf(output);
        const outputFingerprint = sameAsGiven(given, computed, 'outputFingerprint', 'the output');
        return { ...base, code: entry.code, outputFingerprint };
      };
    }
    default:
      throw new AuditLogError(`the entry has no known type: ${String((entry as { type?: unknown }).type)}`);
  }
}
