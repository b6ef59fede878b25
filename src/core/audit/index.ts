/**
 * `toolgate/audit`: the audit trail, a hash chain of each call's request, decision, run and
 * result (docs/architecture.md, "Where each rule lives"). No React; its own entry, so an app that
 * keeps no audit log loads none of it.
 */
export type { AuditDecider, AuditDecisionKind, AuditRecord } from './audit-record';
export {
  verifyAuditLog,
  type AuditBreakReason,
  type AuditCheckpoint,
  type AuditVerification,
  type VerifyAuditLogOptions,
} from './verify-audit-log';
export { AuditLogError, createAuditLog, type AuditEntry, type AuditLog, type AuditLogOptions, type AuditLogState } from './audit-log';
export { auditLogToJsonLines, parseAuditJsonLines, type AuditImport } from './audit-json-lines';
