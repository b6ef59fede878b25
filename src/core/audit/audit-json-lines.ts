/**
 * An audit log as JSON Lines (one record per line, each line its canonical JSON), and back,
 * verified. docs/guarantees.md ("An audit trail that shows tampering").
 */

import { canonicalJson } from '../json/canonical-json';
import { deepFreeze, type JsonValue } from '../json/json-value';
import type { AuditRecord } from './audit-record';
import { verifyAuditLog, type AuditBreakReason, type VerifyAuditLogOptions } from './verify-audit-log';

/**
 * The records as JSON Lines: each record's canonical JSON (RFC 8785) on a line of its own, each
 * line ending in `\n`; an empty log gives `''`.
 *
 * @example
 * await writeFile('audit.jsonl', auditLogToJsonLines(log.getState().records));
 */
export function auditLogToJsonLines(records: readonly AuditRecord[]): string {
  let text = '';
  for (const record of records) text += `${canonicalJson(record as unknown as JsonValue)}\n`;
  return text;
}

/**
 * What {@link parseAuditJsonLines} gives: the records, verified (frozen, with the chain's length
 * and last hash), or the first record (its 0-based line) where the text or the chain breaks.
 *
 * @example
 * const imported: AuditImport = await parseAuditJsonLines(text);
 * if (imported.ok) createAuditLog({ records: imported.records });
 */
export type AuditImport =
  | { readonly ok: true; readonly records: readonly AuditRecord[]; readonly length: number; readonly head: string | null }
  | { readonly ok: false; readonly index: number; readonly reason: AuditBreakReason; readonly message: string };

/**
 * Read JSON Lines written by {@link auditLogToJsonLines} and verify the chain they hold
 * ({@link verifyAuditLog}, with the same options). A line that is not JSON, or a blank line, is a
 * `malformed` record at that index. Accepts `\r\n` line ends and a missing last `\n`.
 *
 * @example
 * const imported = await parseAuditJsonLines(await file.text(), { checkpoint });
 * if (!imported.ok) console.error(`line ${imported.index + 1}: ${imported.message}`);
 */
export async function parseAuditJsonLines(text: string, options: VerifyAuditLogOptions = {}): Promise<AuditImport> {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const records: unknown[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).replace(/\r$/, '');
    try {
      records.push(JSON.parse(line));
    } catch {
      return { ok: false, index, reason: 'malformed', message: `record ${index} is not JSON` };
    }
  }
  const result = await verifyAuditLog(records, options);
  if (!result.ok) return result;
  return { ...result, records: deepFreeze(records as AuditRecord[]) };
}
