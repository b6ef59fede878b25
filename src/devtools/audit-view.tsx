/**
 * A call's audit records, with the whole chain verified (`verifyAuditLog`): a record is only
 * worth showing with whether the chain it sits in still holds.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { verifyAuditLog, type AuditLog, type AuditVerification } from '../core/audit';
import { styles } from './devtools-styles';

/** Props of {@link AuditView}. */
export interface AuditViewProps {
  readonly log: AuditLog;
  readonly callId: string;
}

/**
 * The audit part of a call's history.
 *
 * @example
 * <AuditView log={auditLog} callId="c1" />
 */
export function AuditView({ log, callId }: AuditViewProps) {
  const { records } = useSyncExternalStore(log.subscribe, log.getState, log.getState);
  const [verification, setVerification] = useState<{ of: typeof records; result: AuditVerification } | undefined>(undefined);
  useEffect(() => {
    let current = true;
    void verifyAuditLog(records).then((result) => current && setVerification({ of: records, result }));
    return () => {
      current = false;
    };
  }, [records]);
  const mine = records.filter((record) => record.callId === callId);
  const result = verification?.of === records ? verification.result : undefined;
  return (
    <section style={styles.section} aria-label="Audit records">
      <h4 style={styles.h3}>Audit</h4>
      <p role="status" style={result !== undefined && !result.ok ? styles.refused : styles.muted}>
        {result === undefined
          ? 'Verifying the chain…'
          : result.ok
            ? `Chain verified: ${result.length} records.`
            : `Chain broken at record ${result.index} (${result.reason}): ${result.message}`}
      </p>
      {mine.length === 0 ? (
        <p style={styles.muted}>No records for this call.</p>
      ) : (
        <ol style={styles.list}>
          {mine.map((record) => (
            <li key={record.seq}>
              {`#${record.seq} ${record.type}`}
              {record.type === 'decided' ? ` ${record.kind} by ${record.by}${record.ruleId ? ` (rule ${record.ruleId})` : ''}${record.reason ? `: ${record.reason}` : ''}` : ''}
              {record.type === 'settled' ? ` ${record.code}` : ''}
              {record.type === 'requested' || record.type === 'ran' ? ` args ${record.argumentsFingerprint.slice(0, 12)}` : ''}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
