// toolgate/adapters: map today's provider streams to toolgate `tool.stream` events. No React.
export {
  adaptStream,
  type AdapterOptions,
  type ToolStreamAdapter,
} from './base';
export type { AdapterIssue } from './chunk-fields';
export { PROVIDER_ADAPTERS, type ProviderAdapter, type ProviderId } from './providers';
export { createOpenAIChatAdapter, type OpenAIChatAdapterOptions } from './openai-chat';
export {
  createOpenAIRealtimeAdapter,
  createOpenAIResponsesAdapter,
  type OpenAIResponsesAdapterOptions,
} from './openai-responses';
export { createAnthropicAdapter, type AnthropicAdapterOptions } from './anthropic';
export { createGeminiAdapter, type GeminiAdapterOptions } from './gemini';
export { createCohereAdapter, type CohereAdapterOptions } from './cohere';
export { createAISDKAdapter, type AISDKAdapterOptions } from './ai-sdk';
export { createAGUIAdapter, type AGUIAdapterOptions } from './ag-ui';

// Descriptors from MCP tool annotations, trusted only for servers the app trusts
export { descriptorFromMcpTool, type McpDescriptorOptions, type McpToolAnnotations, type McpToolLike } from '../core/approval/mcp-descriptors';
