/**
 * Every provider adapter of `toolgate/adapters`, as data: the one list that the adapter tests,
 * the recordings' replays and the stories iterate, so a new adapter is one file and one entry here.
 */
import type { AdapterOptions, ToolStreamAdapter } from './base';
import { createAGUIAdapter } from './ag-ui';
import { createAISDKAdapter } from './ai-sdk';
import { createAnthropicAdapter } from './anthropic';
import { createCohereAdapter } from './cohere';
import { createGeminiAdapter } from './gemini';
import { createOpenAIChatAdapter } from './openai-chat';
import { createOpenAIRealtimeAdapter, createOpenAIResponsesAdapter } from './openai-responses';

/**
 * One entry of {@link PROVIDER_ADAPTERS}.
 *
 * @example
 * const { label, create }: ProviderAdapter = PROVIDER_ADAPTERS.anthropic;
 * const adapter = create({ onError: (reason) => console.warn(reason) }); // reasons start with `${label}: `
 */
export interface ProviderAdapter {
  /** The name that starts the adapter's `onError` reasons and `failed` messages (unless `label` is given). */
  readonly label: string;
  /** What the adapter reads. */
  readonly reads: string;
  /** The adapter's factory, as exported. */
  readonly create: (options?: AdapterOptions) => ToolStreamAdapter;
}

/**
 * The provider adapters by id.
 *
 * @example
 * // Pick the adapter from configuration:
 * const adapter = PROVIDER_ADAPTERS[config.provider satisfies ProviderId].create({ turnId });
 * for (const [id, { label }] of Object.entries(PROVIDER_ADAPTERS)) console.log(id, label);
 */
export const PROVIDER_ADAPTERS = {
  'openai-chat': {
    label: 'OpenAI Chat',
    reads: 'OpenAI Chat Completions chunks, and the compatible APIs (DeepSeek, Z.ai GLM, Kimi, Mistral, Groq, OpenRouter, Azure OpenAI, vLLM)',
    create: createOpenAIChatAdapter,
  },
  'openai-responses': {
    label: 'OpenAI Responses',
    reads: 'OpenAI Responses API stream events, hosted MCP calls included',
    create: createOpenAIResponsesAdapter,
  },
  'openai-realtime': {
    label: 'OpenAI Realtime',
    reads: 'OpenAI Realtime API server events (WebSocket or WebRTC), and xAI realtime voice',
    create: createOpenAIRealtimeAdapter,
  },
  anthropic: {
    label: 'Anthropic',
    reads: 'Anthropic Messages stream events (also through Amazon Bedrock and Google Vertex AI)',
    create: createAnthropicAdapter,
  },
  gemini: {
    label: 'Gemini',
    reads: 'Gemini streamGenerateContent responses (Gemini API and Vertex AI), partialArgs included',
    create: createGeminiAdapter,
  },
  cohere: {
    label: 'Cohere',
    reads: 'Cohere Chat v2 stream events',
    create: createCohereAdapter,
  },
  'ai-sdk': {
    label: 'AI SDK',
    reads: "The AI SDK's UI message stream (what useChat reads), whatever model produced it",
    create: createAISDKAdapter,
  },
  'ag-ui': {
    label: 'AG-UI',
    reads: 'AG-UI events (CopilotKit, Mastra, LangGraph and other agents), from @ag-ui/client or the SSE stream',
    create: createAGUIAdapter,
  },
} as const satisfies Record<string, ProviderAdapter>;

/**
 * The id of a provider adapter: a key of {@link PROVIDER_ADAPTERS}.
 *
 * @example
 * const provider: ProviderId = 'anthropic';
 */
export type ProviderId = keyof typeof PROVIDER_ADAPTERS;
