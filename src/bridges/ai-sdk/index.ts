// toolgate/ai-sdk: the two-way bridge between the AI SDK's chat (useChat, AI SDK 5 to 7) and the kit. No React.
export { createAISDKBridge, type AISDKBridge, type AISDKBridgeOptions } from './bridge';
export type { ChatLike, ChatToolCall, ChatToolOutput, ChatTransportLike, TappedTransport } from './chat-types';
export type { ApprovalDecision, BridgeOptions } from '../shared/kit';
export type { LibraryTool } from '../shared/descriptors';
