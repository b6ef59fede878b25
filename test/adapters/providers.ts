/**
 * What the tests and stories know of each provider adapter, keyed by the ids of the public list
 * (`PROVIDER_ADAPTERS`): a chunk that starts a call, which recordings of
 * test/fixtures/real-streams it reads, and how to read the provider's own final arguments from
 * a recording. `satisfies Record<ProviderId, …>`: a provider added to the list without its entry
 * here does not type-check. Works in any environment (no file access).
 */
import { PROVIDER_ADAPTERS, type ProviderAdapter, type ProviderId } from 'toolgate/adapters';
import {
  aguiFinals,
  aiSdkFinals,
  anthropicFinals,
  cohereFinals,
  geminiFinals,
  openAIChatFinals,
  openAIResponsesFinals,
  type ProviderCall,
} from './provider-finals';

export interface ProviderCase {
  /** A chunk that starts a call named `lookup` (whose arguments are not complete). */
  startChunk: unknown;
  /** The recordings this adapter reads, by file name. */
  recordings: RegExp;
  /**
   * For a provider without a recording in the fixtures: a short stream of its chunks, written
   * from its specification (the stories replay it where they would replay a recording).
   */
  sample?: readonly unknown[];
  /** The provider's own final arguments of each call in a recording. */
  finals: (chunks: readonly unknown[]) => ProviderCall[];
}

export const PROVIDER_CASES = {
  'openai-chat': {
    startChunk: { id: 'r1', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'lookup', arguments: '{"q":' } }] } }] },
    recordings: /^(openai-chat|deepseek|zai|openrouter|groq|mistral)-/,
    finals: openAIChatFinals,
  },
  'openai-responses': {
    startChunk: { type: 'response.output_item.added', item: { id: 'fc1', type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '' } },
    recordings: /^openai-responses-/,
    finals: openAIResponsesFinals,
  },
  'openai-realtime': {
    startChunk: { type: 'response.output_item.added', response_id: 'r1', item: { id: 'i1', type: 'function_call', call_id: 'c1', name: 'lookup' } },
    recordings: /^(openai|xai)-realtime-/,
    finals: openAIResponsesFinals,
  },
  anthropic: {
    startChunk: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'c1', name: 'lookup', input: {} } },
    recordings: /^anthropic-/,
    finals: anthropicFinals,
  },
  gemini: {
    startChunk: { candidates: [{ content: { parts: [{ functionCall: { name: 'lookup', willContinue: true } }] } }], responseId: 'r1' },
    recordings: /^gemini-/,
    finals: geminiFinals,
  },
  cohere: {
    startChunk: { type: 'tool-call-start', index: 0, delta: { message: { tool_calls: { id: 'c1', function: { name: 'lookup', arguments: '' } } } } },
    recordings: /^cohere-/,
    finals: cohereFinals,
  },
  'ai-sdk': {
    startChunk: { type: 'tool-input-start', toolCallId: 'c1', toolName: 'lookup' },
    recordings: /^aisdk-/,
    finals: aiSdkFinals,
  },
  'ag-ui': {
    startChunk: { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'lookup' },
    recordings: /^ag-ui-/,
    finals: aguiFinals,
    sample: [
      { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-1' },
      { type: 'TOOL_CALL_START', toolCallId: 'call-1', toolCallName: 'get_weather', parentMessageId: 'msg-1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: '{"city":' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'call-1', delta: '"Oslo"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'call-1' },
      { type: 'TOOL_CALL_RESULT', toolCallId: 'call-1', messageId: 'msg-2', content: '{"sky":"clear","temperature":3}' },
      { type: 'RUN_FINISHED', threadId: 'thread-1', runId: 'run-1', outcome: { type: 'success' } },
    ],
  },
} satisfies Record<ProviderId, ProviderCase>;

/** Every provider, in the list's order: its id, its public entry and its test data. */
export const PROVIDERS = (Object.keys(PROVIDER_ADAPTERS) as ProviderId[]).map((id) => ({
  id,
  ...(PROVIDER_ADAPTERS[id] as ProviderAdapter),
  ...(PROVIDER_CASES[id] as ProviderCase),
}));

/** The provider whose adapter reads a recording; throws for a recording no provider claims. */
export function providerOfRecording(file: string): ProviderId {
  const matches = PROVIDERS.filter((p) => p.recordings.test(file));
  if (matches.length !== 1) throw new Error(`${file} is read by ${matches.length} providers: ${matches.map((p) => p.id).join(', ') || 'none'}`);
  return matches[0]!.id;
}
