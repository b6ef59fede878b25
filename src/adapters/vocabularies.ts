/**
 * The chunk types each typed stream has, so that a chunk of another type (from a newer API, or
 * not from that API at all) is ignored with a reason instead of silently. Types a stream has but
 * that carry no tool call (text, reasoning, audio, pings) are part of its vocabulary and pass
 * without a word. OpenAI Chat Completions and Gemini chunks carry no type: nothing to check.
 */

/** A stream's vocabulary: its name in reports, and whether a type belongs to it. */
export interface ChunkVocabulary {
  /** Completes "chunks of type X are not part of …". */
  readonly name: string;
  /** What the stream calls its chunks ("events" for AG-UI). */
  readonly noun: string;
  has(type: string): boolean;
}

const ofSet = (name: string, types: readonly string[], prefixes: readonly string[] = [], noun = 'chunks'): ChunkVocabulary => {
  const set: ReadonlySet<string> = new Set(types);
  return { name, noun, has: (type) => set.has(type) || prefixes.some((prefix) => type.startsWith(prefix)) };
};

/**
 * Every chunk type of the UI message stream of AI SDK 5 to 7 (and `data-*`, the app's own
 * parts).
 */
const UI_CHUNK_TYPES: ReadonlySet<string> = new Set([
  'start', 'finish', 'abort', 'error', 'message-metadata',
  'start-step', 'finish-step', 'reset-step',
  'text-start', 'text-delta', 'text-end',
  'reasoning-start', 'reasoning-delta', 'reasoning-end', 'reasoning', 'reasoning-part-finish', 'reasoning-file',
  'tool-input-start', 'tool-input-delta', 'tool-input-available', 'tool-input-error',
  'tool-approval-request', 'tool-approval-response',
  'tool-output-available', 'tool-output-error', 'tool-output-denied',
  'source-url', 'source-document', 'file', 'custom', 'steering-message',
]);
export const UI_MESSAGE_STREAM: ChunkVocabulary = ofSet('the UI message stream', [...UI_CHUNK_TYPES], ['data-']);

/** Every event type of AG-UI 1.0 (and the `THINKING_*` names the client translates). */
const AGUI_EVENT_TYPES: ReadonlySet<string> = new Set([
  'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'TEXT_MESSAGE_CHUNK',
  'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_CHUNK', 'TOOL_CALL_RESULT',
  'STATE_SNAPSHOT', 'STATE_DELTA', 'MESSAGES_SNAPSHOT', 'ACTIVITY_SNAPSHOT', 'ACTIVITY_DELTA',
  'RAW', 'CUSTOM', 'RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR', 'STEP_STARTED', 'STEP_FINISHED',
  'REASONING_START', 'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END',
  'REASONING_MESSAGE_CHUNK', 'REASONING_END', 'REASONING_ENCRYPTED_VALUE',
  'SUBAGENT_STARTED', 'SUBAGENT_FINISHED', 'SUBAGENT_ERROR',
  'THINKING_START', 'THINKING_END', 'THINKING_TEXT_MESSAGE_START', 'THINKING_TEXT_MESSAGE_CONTENT', 'THINKING_TEXT_MESSAGE_END',
]);
export const AGUI_EVENTS: ChunkVocabulary = ofSet('AG-UI 1.0', [...AGUI_EVENT_TYPES], [], 'events');

/** Anthropic's Messages stream (server-sent events). */
export const ANTHROPIC_MESSAGES: ChunkVocabulary = ofSet("Anthropic's Messages stream", [
  'message_start', 'message_delta', 'message_stop', 'content_block_start', 'content_block_delta', 'content_block_stop', 'ping', 'error',
]);

/** Cohere's v2 chat stream. */
export const COHERE_CHAT: ChunkVocabulary = ofSet("Cohere's chat stream", [
  'message-start', 'content-start', 'content-delta', 'content-end', 'tool-plan-delta', 'tool-call-start', 'tool-call-delta', 'tool-call-end',
  'citation-start', 'citation-end', 'message-end', 'debug',
]);

/** The Responses API's stream: every event is named `response.*`, apart from `error`. */
export const OPENAI_RESPONSES: ChunkVocabulary = ofSet("OpenAI's Responses stream", ['error'], ['response.']);

/** The Realtime API's server events, by family (xAI's realtime voice API uses the same, and sends `ping`). */
export const OPENAI_REALTIME: ChunkVocabulary = ofSet(
  "the Realtime API's server events",
  ['error', 'rate_limits.updated', 'ping'],
  ['session.', 'conversation.', 'input_audio_buffer.', 'output_audio_buffer.', 'response.', 'transcription_session.', 'mcp_list_tools.'],
);
