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
