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
export type { ToolSession, ToolSessionStatus } from './session/tool-session';
export type { JsonValue } from './json/json-value';

// The client: one object per agent session that owns the store, the app-tool host and the approvals, wired once
export { createToolgate, type ToolgateClient, type ToolgateEvent, type ToolgateEventListener, type ToolgateOptions } from './toolgate-client';

// Tool calls and the state the store holds (the pure reducer: toolgate/testing; the incremental argument parser: toolgate/json)
export { isTerminalStatus, type ToolCallStatus } from './stream/call-lifecycle';
export type { ToolCall } from './stream/tool-call';
// The page's own events: never from a session (a frame naming one is refused as local-only)
export type { ApprovalMark, ToolApproval } from './stream/local-events';
export type { ToolStreamState } from './stream/reducer';

// The store
export {
  createToolStreamStore,
  type ToolStreamErrorCode,
  type ToolStreamStore,
  type ToolStreamStoreOptions,
  type ToolStreamStoreState,
} from './stream/store';
export type { ErrorReporter } from './external-store';

// App tools: the host (queue, epoch gate, signals, time limits, result codes); the client binds it to a session
export { ToolError, type ToolErrorCode } from './app-tools/tool-error';
export type { StandardSchemaV1 } from './json/standard-schema';
export {
  createAppToolHost,
  defineAppTool,
  type AppCallState,
  type AppTool,
  type AppToolCallRequest,
  type AppToolContext,
  type AppToolEditCheck,
  type AppToolEditing,
  type AppToolHost,
  type AppToolHostOptions,
  type AppToolState,
} from './app-tools/app-tool-host';


// Confirmation: descriptors, the room and the controller (canonical JSON and fingerprints: toolgate/json; definition
// fingerprints, which a server checks too: toolgate/server; a session kept across a reload: toolgate/client)
export { isUndeclared, type ToolDescriptor, type ToolDescriptorField, type ToolEffect } from './approval/tool-descriptor';
export { ToolRoomError, ToolRoomUnknownOutcomeError, type ToolRoom } from './session/room';
export type { ConfirmationStatus } from './approval/confirmation-machine';
export type {
  ApprovalContext,
  ArgumentsCheck,
  ArgumentsIssue,
  CheckOutcome,
  ConfirmationDecider,
  ConfirmationEditing,
  ConfirmationOutcome,
  ConfirmationRequest,
  ConfirmationState,
  ConfirmationView,
  DefinitionChange,
} from './approval/confirmation-types';
export type {
  ConfirmationClock,
  ConfirmationController,
  ConfirmationControllerOptions,
  ConfirmationPick,
  ApproveAllResult,
  BatchRefusal,
  EditResult,
} from './approval/confirmation-controller-types';
export type { ApprovalRecord } from './approval/approval-record';
export { selectApprovalRecord } from './approval/approval-records';
export { createConfirmationController } from './approval/confirmation-controller';

// Human in the loop: standing grants (made by the client; rules over them: toolgate/policy)
export type { ToolGrant, ToolGrantDecision, ToolGrants, ToolGrantsState } from './approval/tool-grants';

