/**
 * Cohere Chat v2 stream events (`cohere.v2.chatStream` / `POST /v2/chat` with `stream: true`).
 *
 * A call is `tool-call-start` (index, id, name, `arguments: ""`), `tool-call-delta` fragments
 * in `delta.message.tool_calls.function.arguments`, and `tool-call-end`.
 */
import { defineAdapter, type AdapterOptions, type ToolStreamAdapter } from './base';
import { CallBook, type OpenCall } from './call-book';
import { MalformedChunk, optRecord, optString, reqNumber, reqRecord, reqString, type Rec } from './chunk-fields';
import { COHERE_CHAT } from './vocabularies';

/**
 * Options of {@link createCohereAdapter}: those of every adapter.
 *
 * @example
 * const adapter = createCohereAdapter({ turnId: 'turn-1', onError: (reason) => console.warn(reason) } satisfies CohereAdapterOptions);
 */
export type CohereAdapterOptions = AdapterOptions;

/**
 * `delta.message.tool_calls` (one object, not an array, in v2 tool-call events). The raw API
 * is snake_case; the cohere-ai TypeScript SDK hands out the same events camelCased
 * (`toolCalls`, `finishReason`), so both spellings are read.
 */
function toolCallOf(chunk: Rec, where: string): Rec {
  const delta = reqRecord(chunk, 'delta', where);
  const message = reqRecord(delta, 'message', `${where}.delta`);
  const key = message.tool_calls === undefined && message.toolCalls !== undefined ? 'toolCalls' : 'tool_calls';
  return reqRecord(message, key, `${where}.delta.message`);
}

/**
 * Map Cohere v2 chat stream events to toolgate events.
 *
 * @example
 * const cohere = new CohereClientV2();
 * const adapter = createCohereAdapter();
 * for await (const event of await cohere.chatStream(params))
 *   for (const e of adapter.push(event)) store.getState().dispatch(e);
 * for (const e of adapter.end()) store.getState().dispatch(e);
 */
export function createCohereAdapter(options: CohereAdapterOptions = {}): ToolStreamAdapter {
  const book = new CallBook('Cohere', options);
  const open = new Map<number, OpenCall>();
  let turnId: string | undefined;
  let finishReason: string | undefined;

  /** The message ended (or a new one began) while calls were open: their arguments were cut. */
  const endMessage = (why: string): void => {
    book.end({ kind: 'finished', why });
    open.clear();
  };

  const handle = (chunk: Rec): void => {
    const type = chunk.type;
    if (typeof type !== 'string') return;
    switch (type) {
      case 'message-start': {
        const id = optString(chunk, 'id', type);
        endMessage('a new message started before the call ended');
        finishReason = undefined;
        turnId = id !== undefined && id !== '' ? id : book.fallbackTurnId();
        return;
      }
      case 'tool-call-start': {
        const index = reqNumber(chunk, 'index', type);
        const tc = toolCallOf(chunk, type);
        const id = optString(tc, 'id', `${type}.tool_calls`);
        const fn = reqRecord(tc, 'function', `${type}.tool_calls`);
        const name = reqString(fn, 'name', `${type}.tool_calls.function`);
        const args = optString(fn, 'arguments', `${type}.tool_calls.function`);
        if (open.has(index)) throw new MalformedChunk(`tool-call-start for index ${index}, which is already open`);
        turnId ??= book.fallbackTurnId();
        const call = book.start(book.uniqueCallId(id || `${turnId}:${index}`), name, turnId);
        open.set(index, call);
        if (args !== undefined) book.delta(call, args);
        return;
      }
      case 'tool-call-delta': {
        const index = reqNumber(chunk, 'index', type);
        const tc = toolCallOf(chunk, type);
        const fn = optRecord(tc, 'function', `${type}.tool_calls`);
        const args = fn ? optString(fn, 'arguments', `${type}.tool_calls.function`) : undefined;
        const call = open.get(index);
        if (call === undefined) throw new MalformedChunk(`tool-call-delta for index ${index}, which never started`, 'unknown-call');
        if (args !== undefined) book.delta(call, args);
        return;
      }
      case 'tool-call-end': {
        const index = reqNumber(chunk, 'index', type);
        const call = open.get(index);
        if (call === undefined) return;
        open.delete(index);
        book.endArguments(call, 'normal', 'the call ended');
        return;
      }
      case 'message-end': {
        const delta = optRecord(chunk, 'delta', type);
        finishReason = delta
          ? (optString(delta, 'finish_reason', `${type}.delta`) ?? optString(delta, 'finishReason', `${type}.delta`))
          : undefined;
        endMessage(
          finishReason === 'MAX_TOKENS'
            ? 'the response stopped at max_tokens (finish_reason "MAX_TOKENS")'
            : `the message ended (finish_reason "${finishReason ?? 'none'}") before the call did`,
        );
        return;
      }
      default:
        return; // text, tool-plan, citations: ignored
    }
  };

  return defineAdapter(book, handle, { why: 'the stream ended before the call did' }, COHERE_CHAT);
}
