/**
 * Anthropic Messages streaming events (`client.messages.stream` / `create({ stream: true })`,
 * also through Amazon Bedrock and Google Vertex AI, which relay the same events).
 *
 * A call is a content block: `content_block_start` with a `tool_use`, `server_tool_use` or
 * `mcp_tool_use` block, `input_json_delta` fragments for its index, `content_block_stop`. A
 * server or MCP tool's result follows as a block of its own (`web_search_tool_result`,
 * `code_execution_tool_result`, `bash_code_execution_tool_result`, `mcp_tool_result`, …) naming
 * the call by `tool_use_id`, in the same message or a later one: it settles the call.
 */
import { defineAdapter, type AdapterOptions, type ToolStreamAdapter } from './base';
import { CallBook, type OpenCall } from './call-book';
import { ANTHROPIC_MESSAGES } from './vocabularies';
import {
  isRecord,
  MalformedChunk,
  optArray,
  optRecord,
  optString,
  reqNumber,
  reqRecord,
  reqString,
  unknownCall,
  type Rec,
} from './chunk-fields';

/**
 * Options of {@link createAnthropicAdapter}: those of every adapter.
 *
 * @example
 * const adapter = createAnthropicAdapter({ turnId: 'turn-1', onError: (reason) => console.warn(reason) } satisfies AnthropicAdapterOptions);
 */
export type AnthropicAdapterOptions = AdapterOptions;

const TOOL_BLOCK_TYPES = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/**
 * Map Anthropic Messages stream events to toolgate events.
 *
 * @example
 * const adapter = createAnthropicAdapter();
 * for await (const event of anthropic.messages.stream(params))
 *   for (const e of adapter.push(event)) store.getState().dispatch(e);
 * for (const e of adapter.end()) store.getState().dispatch(e);
 */
export function createAnthropicAdapter(options: AnthropicAdapterOptions = {}): ToolStreamAdapter {
  const book = new CallBook('Anthropic', options);
  /** Open tool blocks of the current message, by block index. */
  let blocks = new Map<number, OpenCall>();
  /** Block indexes to skip: a tool block already delivered whole in `message_start`. */
  let skipped = new Set<number>();
  /** Call ids of the current message, so a block repeated in `message_start` is not started twice. */
  let seenIds = new Set<string>();
  let turnId: string | undefined;
  let stopReason: string | undefined;
  /** Every call of the stream by Anthropic's id, for the result blocks that name them. */
  const byId = new Map<string, OpenCall>();

  const turn = (): string => (turnId ??= book.fallbackTurnId());

  /** The message ended (or the stream did) while tool blocks were open: their arguments were cut. */
  const endMessage = (why: string): void => {
    // The recording anthropic-truncated-max-tokens-invalid stops at max_tokens in the middle
    // of a string and never sends `content_block_stop` for its tool block.
    const reason =
      stopReason === 'max_tokens'
        ? 'the response stopped at max_tokens (stop_reason "max_tokens") before the tool block ended'
        : why;
    book.end({ kind: 'finished', why: reason });
    blocks = new Map();
  };

  const startBlock = (block: Rec, where: string): OpenCall | undefined => {
    const id = reqString(block, 'id', where);
    const name = reqString(block, 'name', where);
    if (seenIds.has(id)) return undefined;
    seenIds.add(id);
    const type = block.type;
    // Server tools (code execution, web search) and MCP connector tools run at Anthropic.
    const location = type === 'server_tool_use' || type === 'mcp_tool_use' ? ('server' as const) : undefined;
    // The block's `input` is the whole input when no fragments follow (programmatic tool calling).
    // A hosted tool's result comes on this stream: at its end, one still without it is cancelled.
    const call = book.start(book.uniqueCallId(id), name, turn(), {
      ...(location ? { location, awaitsOutcome: true } : {}),
      wholeInput: block.input,
    });
    byId.set(id, call);
    return call;
  };

  /** A server or MCP tool's result block: the call's outcome. */
  const settleFrom = (block: Rec, where: string): void => {
    const id = reqString(block, 'tool_use_id', where);
    const call = byId.get(id);
    if (call === undefined) throw unknownCall(where, id);
    const content = block.content;
    const errorType = isRecord(content) && typeof content.type === 'string' && content.type.endsWith('_error') ? content.type : undefined;
    const failed = block.is_error === true || errorType !== undefined;
    book.endArguments(call, 'cut', 'the result arrived');
    if (!failed) {
      book.outcome(call, { type: 'tool.stream', phase: 'settled', callId: call.callId, ok: true, output: content });
      return;
    }
    // `{ type: '…_error', error_code }` (web search, code execution) or an MCP result with `is_error`.
    const code = isRecord(content) && typeof content.error_code === 'string' ? content.error_code : undefined;
    book.outcome(call, {
      type: 'tool.stream',
      phase: 'settled',
      callId: call.callId,
      ok: false,
      code: 'FAILED',
      message: code ?? errorType ?? 'the tool reported an error',
      output: content,
    });
  };

  const handle = (chunk: Rec): void => {
    const type = chunk.type;
    if (typeof type !== 'string') return;
    switch (type) {
      case 'message_start': {
        const message = reqRecord(chunk, 'message', type);
        const id = optString(message, 'id', 'message_start.message');
        const content = optArray(message, 'content', 'message_start.message') ?? [];
        // Several messages may follow each other on one stream (an agent loop's steps); a
        // message that never reached `message_stop` is over now.
        endMessage('a new message started before the tool block ended');
        skipped = new Set();
        seenIds = new Set();
        stopReason = undefined;
        turnId = id !== undefined && id !== '' ? id : book.fallbackTurnId();
        // Programmatic tool calling delivers each tool_use whole in `message_start.content`,
        // followed directly by `message_stop` (recording anthropic-programmatic-tool-calling-emoji).
        content.forEach((block, i) => {
          if (isRecord(block) && typeof block.type === 'string' && block.type.endsWith('_tool_result')) {
            settleFrom(block, `message_start.message.content[${i}]`);
            skipped.add(i);
            return;
          }
          if (!isRecord(block) || !TOOL_BLOCK_TYPES.has(String(block.type))) return;
          const call = startBlock(block, `message_start.message.content[${i}]`);
          if (call) book.complete(call, isRecord(block.input) ? block.input : {});
          skipped.add(i);
        });
        return;
      }
      case 'content_block_start': {
        const index = reqNumber(chunk, 'index', type);
        const block = reqRecord(chunk, 'content_block', type);
        if (typeof block.type === 'string' && block.type.endsWith('_tool_result')) {
          settleFrom(block, `content_block_start.content_block (${block.type})`);
          return;
        }
        if (!TOOL_BLOCK_TYPES.has(String(block.type))) return;
        if (blocks.has(index)) throw new MalformedChunk(`content_block_start for block ${index}, which is already open`);
        const call = startBlock(block, 'content_block_start.content_block');
        if (call === undefined) {
          skipped.add(index);
          return;
        }
        skipped.delete(index);
        blocks.set(index, call);
        return;
      }
      case 'content_block_delta': {
        const index = reqNumber(chunk, 'index', type);
        const delta = reqRecord(chunk, 'delta', type);
        if (delta.type !== 'input_json_delta') return; // text, thinking, citations: not ours
        const fragment = reqString(delta, 'partial_json', 'content_block_delta.delta');
        const call = blocks.get(index);
        if (call === undefined) {
          if (skipped.has(index)) return;
          throw new MalformedChunk(`input_json_delta for block ${index}, which never started as a tool block`, 'unknown-call');
        }
        book.delta(call, fragment);
        return;
      }
      case 'content_block_stop': {
        const index = reqNumber(chunk, 'index', type);
        const call = blocks.get(index);
        if (call === undefined) return;
        blocks.delete(index);
        book.endArguments(call, 'normal', 'the tool block ended');
        return;
      }
      case 'message_delta': {
        const delta = optRecord(chunk, 'delta', type);
        const reason = delta ? optString(delta, 'stop_reason', 'message_delta.delta') : undefined;
        if (reason !== undefined) stopReason = reason;
        return;
      }
      case 'message_stop':
        endMessage(`the message stopped (stop_reason "${stopReason ?? 'none'}") before the tool block ended`);
        return;
      case 'error': {
        // A mid-stream error (overloaded_error, api_error) ends the message it broke off.
        const error = optRecord(chunk, 'error', type);
        const message = (error && optString(error, 'message', 'error.error')) ?? 'unknown error';
        const current = turnId;
        book.end({ kind: 'error', message }, (call) => call.turnId === current);
        blocks = new Map();
        return;
      }
      default:
        return; // ping and future events: ignored
    }
  };

  // The stream's end cuts the open blocks as a message's end would (saying max_tokens where it was that).
  const why = 'the stream ended before the tool block did';
  return defineAdapter(book, handle, { why, finish: () => endMessage(why) }, ANTHROPIC_MESSAGES);
}
