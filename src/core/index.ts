// toolgate/core: everything that works without React. Each name is listed on purpose and
// described in docs/api.md (a test holds the two equal); helpers the modules share stay internal.

// The wire: tool events, session messages and result codes
export {
  TOOL_RESULT_CODES,
  TOOL_STREAM_PHASES,
  type ClientMessage,
  type ServerMessage,
  type ToolEvent,
  type ToolResult,
  type ToolDecision,
  type ToolResultCode,
  type ToolRisk,
  type ToolStreamEvent,
  type ToolStreamPhase,
} from './wire';
export type { ToolSession, ToolSessionStatus } from './session';
export type { JsonValue } from './json-value';

// The client: one object per agent session that owns the store, the app-tool host and the approvals, wired once
export { createToolgate, type ToolgateClient, type ToolgateEvent, type ToolgateEventListener, type ToolgateOptions } from './toolgate-client';

// Tool calls: the reducer, its state and the incremental argument parser
export { createArgumentsParser, parsePartialArguments, type ArgumentsParser } from './arguments-parser';
export { isTerminalStatus, type ToolCallStatus } from './call-lifecycle';
export type { ToolCall } from './tool-call';
export {
  explainToolEvent,
  initialToolStreamState,
  reduceLocalToolEvent,
  reduceToolEvent,
  type ToolEventIssue,
  type ToolEventVerdict,
  type ToolStreamState,
} from './reducer';
// The page's own events: never from a session (a frame naming one is refused as local-only)
export type { ApprovalMark, LocalToolEvent, ToolApproval } from './local-events';

// The store
export {
  createToolStreamStore,
  type ToolStreamErrorCode,
  type ToolStreamStore,
  type ToolStreamStoreOptions,
  type ToolStreamStoreState,
  type ToolStreamTap,
  type ToolStreamTapEntry,
} from './store';
export type { ErrorReporter } from './external-store';

// App tools: the host (queue, epoch gate, signals, time limits, result codes) and its session binding
export { ToolError, type ToolErrorCode } from './tool-error';
export type { StandardSchemaV1 } from './standard-schema';
export {
  createAppToolHost,
  defineAppTool,
  type AppCallState,
  type AppTool,
  type AppToolApprovalHandler,
  type AppToolApprovalRequest,
  type AppToolCallRequest,
  type AppToolContext,
  type AppToolEditCheck,
  type AppToolEditing,
  type AppToolHost,
  type AppToolHostOptions,
  type AppToolState,
} from './app-tool-host';
export { bindAppToolHost, createHelloMessage, type BindAppToolHostOptions } from './bind-session';

// Sessions that survive a reload: the resume triple, the grants and the calls the page ran, kept in storage
export { RELOADED_WHILE_RUNNING, type SavedCall, type SavedCalls } from './app-tools/answer-ledger';
export {
  createSessionPersistence,
  type SavedResume,
  type SessionPersistence,
  type SessionPersistenceOptions,
  type StorageLike,
} from './session-persistence';

// Confirmation: canonical JSON (RFC 8785), fingerprints, descriptors, the room, the flow and its bridges
export { CanonicalJsonError, canonicalJson } from './canonical-json';
export { fingerprintJson, formatFingerprint, type Fingerprint } from './fingerprint';
export {
  changedDefinitionParts,
  fingerprintToolDefinition,
  type DefinitionFingerprint,
  type ToolDefinition,
  type ToolDefinitionPart,
} from './tool-definition';
export { isUndeclared, type ToolDescriptor, type ToolDescriptorField, type ToolEffect } from './tool-descriptor';
export { ToolRoomError, ToolRoomUnknownOutcomeError, type ToolRoom } from './room';
export type { ConfirmationStatus } from './confirmation-machine';
export type {
  ApprovalContext,
  ArgumentsCheck,
  ArgumentsIssue,
  CheckOutcome,
  ConfirmationClock,
  ConfirmationController,
  ConfirmationControllerOptions,
  ConfirmationDecider,
  ConfirmationEditing,
  ConfirmationOutcome,
  ConfirmationPick,
  ApproveAllResult,
  BatchRefusal,
  ConfirmationRequest,
  ConfirmationState,
  ConfirmationView,
  DefinitionChange,
  EditResult,
} from './confirmation-types';
export { createConfirmationController } from './confirmation-controller';
export { connectApprovalGate, createAppToolApprovalHandler } from './confirmation-bridges';

// Human in the loop: edited arguments and their diff, standing grants, descriptors from MCP
export { diffJson, formatJsonPath, type JsonChange, type JsonDiff, type JsonDiffOptions, type JsonPathStep } from './json-diff';
export {
  allowGrantRefusal,
  createToolGrants,
  type AllowGrantRefusal,
  type ToolGrant,
  type ToolGrantDecision,
  type ToolGrants,
  type ToolGrantsOptions,
  type ToolGrantsRestore,
  type ToolGrantsSnapshot,
  type ToolGrantsState,
} from './tool-grants';
export { descriptorFromMcpTool, type McpDescriptorOptions, type McpToolAnnotations, type McpToolLike } from './mcp-descriptors';

// Proof: the audit trail, a hash chain of each call's request, decision, run and result
export type { AuditDecider, AuditDecisionKind, AuditRecord } from './audit/audit-record';
export {
  verifyAuditLog,
  type AuditBreakReason,
  type AuditCheckpoint,
  type AuditVerification,
  type VerifyAuditLogOptions,
} from './audit/verify-audit-log';
export { AuditLogError, createAuditLog, type AuditEntry, type AuditLog, type AuditLogOptions, type AuditLogState } from './audit/audit-log';
export { auditLogToJsonLines, parseAuditJsonLines, type AuditImport } from './audit/audit-json-lines';
