// toolgate/client: the reference server's WebSocket client (no React). Each name is listed on
// purpose and described in docs/api.md.
export {
  connectReferenceSession,
  type ReconnectOptions,
  type ReferenceRoom,
  type ReferenceSession,
  type ReferenceSessionOptions,
  type WebSocketConstructor,
  type WebSocketLike,
} from './websocket-session';
export type {
  ReferenceClientMessage,
  ReferenceConnectionFrame,
  ReferenceEffect,
  ReferenceErrorCode,
  ReferenceErrorFrame,
  ReferenceFault,
  ReferenceHello,
  ReferenceMalformedFrame,
  ReferenceOfferedTool,
  ReferenceRefusal,
  ReferenceRefusalReason,
  ReferenceResume,
  ReferenceRoomErrorCode,
  ReferenceRoomMethod,
  ReferenceRoomResponse,
  ReferenceRoomTool,
  ReferenceWelcome,
  StartTurnOptions,
} from './protocol';

// A session wired by hand, without `createToolgate` (which does all of this in `client.connect`)
export { bindAppToolHost, createHelloMessage, type BindAppToolHostOptions } from '../core/app-tools/bind-session';
export { connectApprovalGate, createAppToolApprovalHandler } from '../core/approval/confirmation-bridges';
export type { AppToolApprovalHandler, AppToolApprovalRequest } from '../core/app-tools/app-tool-host';

// Sessions that survive a reload: the resume triple, the grants and the calls the page ran, kept in storage
export { RELOADED_WHILE_RUNNING, type SavedCall, type SavedCalls } from '../core/app-tools/answer-ledger';
export {
  createSessionPersistence,
  type SavedResume,
  type SessionPersistence,
  type SessionPersistenceOptions,
  type StorageLike,
} from '../core/session/session-persistence';
