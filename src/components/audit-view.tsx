/**
 * The audit trail where a person can read it: each record of a log, oldest first, and whether the
 * chain verifies (docs/guarantees.md "An audit trail that shows tampering").
 */
import { forwardRef, useEffect, useId, useState, useSyncExternalStore, type ComponentPropsWithoutRef } from 'react';
import type { AuditLog } from '../core/audit/audit-log';
import type { AuditRecord } from '../core/audit/audit-record';
import { verifyAuditLog, type AuditVerification } from '../core/audit/verify-audit-log';
import { formatFingerprint } from '../core/json/fingerprint';
import { cx } from './cx';

/**
 * Props of {@link AuditView}: a `<section>`'s, and the log it shows.
 *
 * @example
 * const props: AuditViewProps = { log: client.audit! };
 */
export interface AuditViewProps extends Omit<ComponentPropsWithoutRef<'section'>, 'children'> {
  /** The audit log to show (`client.audit`, or one imported with `parseAuditJsonLines`). */
  log: Pick<AuditLog, 'subscribe' | 'getState' | 'getInitialState'>;
  /** The heading; default "Audit trail". */
  title?: string;
}

/** What a record says beyond its type, in a few words. */
function detailOf(record: AuditRecord): string {
  switch (record.type) {
    case 'requested':
      return `${record.toolName}, arguments ${formatFingerprint(record.argumentsFingerprint)}`;
    case 'decided':
      return `${record.kind} by ${record.by}${record.ruleId === null ? '' : ` (${record.ruleId})`}${record.reason === null ? '' : `: ${record.reason}`}`;
    case 'ran':
      return `arguments ${formatFingerprint(record.argumentsFingerprint)}`;
    case 'settled':
      return `${record.code}${record.outputFingerprint === null ? '' : `, output ${formatFingerprint(record.outputFingerprint)}`}`;
  }
}

/**
 * The records of an audit log in a table (place, call, what happened, the short hash), and a status
 * line that says whether the chain verifies, checked again whenever the log changes: "Chain
 * verified: 4 records", or the first broken record and why. The status line is polite, so a
 * screen reader hears a broken chain once it is found.
 *
 * @example
 * const audit = createAuditLog();
 * const client = createToolgate({ audit });
 * <AuditView log={audit} />
 */
export const AuditView = forwardRef<HTMLElement, AuditViewProps>(function AuditView({ log, title = 'Audit trail', className, ...rest }, ref) {
  const { records } = useSyncExternalStore(log.subscribe, log.getState, log.getInitialState);
  const [verification, setVerification] = useState<{ of: readonly AuditRecord[]; result: AuditVerification } | null>(null);
  const heading = useId();
  useEffect(() => {
    let current = true;
    void verifyAuditLog(records).then((result) => {
      if (current) setVerification({ of: records, result });
    });
    return () => {
      current = false;
    };
  }, [records]);
  // A result for older records is not shown as this chain's.
  const result = verification?.of === records ? verification.result : null;
  const status = result === null ? 'checking' : result.ok ? 'verified' : 'broken';
  return (
    <section {...rest} ref={ref} className={cx('toolgate-audit', className)} aria-labelledby={heading} data-state={status}>
      <h3 id={heading} className="toolgate-audit-title">
        {title}
      </h3>
      <p className="toolgate-audit-status" role="status" aria-live="polite">
        {result === null ? 'Checking the chain…' : result.ok ? `Chain verified: ${result.length} ${result.length === 1 ? 'record' : 'records'}` : `Chain broken at record ${result.index}: ${result.message}`}
      </p>
      {records.length === 0 ? (
        <p className="toolgate-audit-empty">No records yet.</p>
      ) : (
        <table className="toolgate-audit-records">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Call</th>
              <th scope="col">Record</th>
              <th scope="col">Details</th>
              <th scope="col">Hash</th>
            </tr>
          </thead>
          <tbody>
            {records.map((record) => (
              <tr key={record.hash} data-type={record.type} data-broken={result !== null && !result.ok && result.index === record.seq ? '' : undefined}>
                <td>{record.seq}</td>
                <td>{record.callId}</td>
                <td>{record.type}</td>
                <td>{detailOf(record)}</td>
                <td>
                  <code>{formatFingerprint(record.hash)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
});
