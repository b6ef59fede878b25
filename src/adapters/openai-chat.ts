/**
 * OpenAI Chat Completions streaming chunks (`chat.completion.chunk`), and the many
 * OpenAI-compatible APIs that copy them: DeepSeek, Z.ai GLM, Kimi through Groq or OpenRouter,
 * Mistral, Azure OpenAI, vLLM and others.
 *
 * A call is announced by the first `choices[].delta.tool_calls[]` entry of an index (with
 * `id`, `function.name` and usually `arguments: ""`), then grows by `function.arguments`
 * fragments of that index. There is no per-call end marker: the choice's `finish_reason`
 * ends all its calls at once.
 */
import { defineAdapter, type AdapterOptions, type ToolStreamAdapter } from './base';
import { CallBook, type OpenCall } from './call-book';
import { isRecord, MalformedChunk, optArray, optNumber, optRecord, optString, type Rec } from './chunk-fields';

/**
 * Options of {@link createOpenAIChatAdapter}: those of every adapter.
 *
 * @example
 * const adapter = createOpenAIChatAdapter({ turnId: 'turn-1', onError: (reason) => console.warn(reason) } satisfies OpenAIChatAdapterOptions);
 */
export type OpenAIChatAdapterOptions = AdapterOptions;

const PROVIDER = 'OpenAI Chat';

interface ChatCall {
  /** The provider's id of the call, to tell a new call at a reused index from a continuation. */
  providerId: string | undefined;
  /** Known once the name arrived; fragments before that wait in `pendingText`. */
  call: OpenCall | undefined;
  pendingText: string;
  turnId: string;
  key: string;
}

/**
 * Map OpenAI Chat Completions stream chunks to toolgate events.
 *
 * @example
 * const adapter = createOpenAIChatAdapter();
 * for await (const chunk of await openai.chat.completions.create({ ...params, stream: true }))
 *   for (const event of adapter.push(chunk)) store.getState().dispatch(event);
 * for (const event of adapter.end()) store.getState().dispatch(event);
 */
export function createOpenAIChatAdapter(options: OpenAIChatAdapterOptions = {}): ToolStreamAdapter {
  const book = new CallBook(PROVIDER, options);
  /** Open calls by `choiceIndex/key`; a choice's `finish_reason` closes and forgets them. */
  const open = new Map<string, ChatCall>();
  let turnId: string | undefined;
  let lastResponseId: string | undefined;

  const currentTurn = (chunk: Rec): string => {
    const id = optString(chunk, 'id', 'chunk');
    // Azure sends a first chunk with an empty id (prompt filter results); keep the turn.
    if (id !== undefined && id !== '') {
      if (id !== lastResponseId) {
        lastResponseId = id;
        turnId = id;
      }
    }
    turnId ??= book.fallbackTurnId();
    return turnId;
  };

  /** A call's end: its choice finished (`finishReason`), the stream ended, or another call took its index. */
  const endCall = (entry: ChatCall, finishReason: string | undefined, atEnd: boolean): void => {
    open.delete(entry.key);
    if (entry.call === undefined) {
      book.report(
        `a tool call (${entry.providerId ?? entry.key}) ended without ever receiving its function name; it was dropped`,
        undefined,
        'dropped-call',
      );
      return;
    }
    let why: string;
    if (finishReason === 'length') why = 'the response stopped at max_tokens (finish_reason "length")';
    else if (finishReason === 'content_filter') why = 'the response was stopped by the content filter';
    else if (finishReason !== undefined) why = `the response finished ("${finishReason}")`;
    else if (atEnd) why = 'the stream ended without a finish_reason';
    else why = 'another call took its place';
    // An empty text is `{}` only when the provider said the response finished normally.
    const normal = finishReason === 'tool_calls' || finishReason === 'stop' || finishReason === 'function_call';
    book.endArguments(entry.call, normal ? 'normal' : 'cut', why);
  };

  const feed = (
    entry: ChatCall,
    name: string | undefined,
    args: string | undefined,
  ): void => {
    if (entry.call === undefined) {
      if (args !== undefined) entry.pendingText += args;
      if (name === undefined || name === '') return;
      const callId = book.uniqueCallId(entry.providerId ?? `${entry.turnId}:${entry.key}`);
      entry.call = book.start(callId, name, entry.turnId);
      const pending = entry.pendingText;
      entry.pendingText = '';
      book.delta(entry.call, pending);
      return;
    }
    // Some compatible servers repeat `id` and `function.name` on every fragment; only the
    // arguments are new.
    if (args !== undefined) book.delta(entry.call, args);
  };

  const handleToolCall = (choiceIndex: number, raw: unknown, position: number, turn: string): void => {
    const where = `choices[${choiceIndex}].delta.tool_calls[${position}]`;
    if (!isRecord(raw)) throw new MalformedChunk(`${where} is not an object`);
    const index = optNumber(raw, 'index', where);
    const id = optString(raw, 'id', where);
    const fn = optRecord(raw, 'function', where);
    const name = fn === undefined ? undefined : optString(fn, 'name', `${where}.function`);
    const args = fn === undefined ? undefined : optString(fn, 'arguments', `${where}.function`);
    // Mistral sends the whole call in the finishing chunk without an `index`
    // (recording mistral-chat-small-whole-args); key it by its id, else by its position.
    const key =
      index !== undefined
        ? `${choiceIndex}/${index}`
        : id !== undefined
          ? `${choiceIndex}/id:${id}`
          : `${choiceIndex}/at:${position}`;
    let entry = open.get(key);
    // Some compatible servers give every call index 0; a new provider id at an index that
    // is still open is a new call, and the old one is done.
    if (entry !== undefined && id !== undefined && id !== '' && entry.providerId !== undefined && id !== entry.providerId) {
      endCall(entry, undefined, false);
      entry = undefined;
    }
    if (entry === undefined) {
      if (name === undefined && args === undefined && id === undefined) return;
      entry = { providerId: id || undefined, call: undefined, pendingText: '', turnId: turn, key };
      open.set(key, entry);
    } else if (entry.providerId === undefined && id) {
      entry.providerId = id;
    }
    feed(entry, name, args);
  };

  const handleChoice = (raw: unknown, position: number, turn: string): void => {
    if (!isRecord(raw)) throw new MalformedChunk(`choices[${position}] is not an object`);
    const choiceIndex = optNumber(raw, 'index', `choices[${position}]`) ?? position;
    const delta = optRecord(raw, 'delta', `choices[${choiceIndex}]`);
    const finishReason = optString(raw, 'finish_reason', `choices[${choiceIndex}]`);
    if (delta !== undefined) {
      const toolCalls = optArray(delta, 'tool_calls', `choices[${choiceIndex}].delta`);
      if (toolCalls !== undefined) {
        toolCalls.forEach((tc, i) => handleToolCall(choiceIndex, tc, i, turn));
      }
      // The legacy `functions` API streams one call as `delta.function_call`.
      const legacy = optRecord(delta, 'function_call', `choices[${choiceIndex}].delta`);
      if (legacy !== undefined) {
        handleToolCall(choiceIndex, { index: -1, function: legacy }, 0, turn);
      }
    }
    if (finishReason !== undefined) {
      const prefix = `${choiceIndex}/`;
      for (const entry of [...open.values()]) {
        if (entry.key.startsWith(prefix)) endCall(entry, finishReason, false);
      }
    }
  };

  return defineAdapter(
    book,
    (chunk) => {
      // Some compatible servers report a failure mid-stream as `{ error: { message } }`.
      const error = chunk.error;
      if (error !== undefined && error !== null) {
        const message = isRecord(error) && typeof error.message === 'string' ? error.message : String(JSON.stringify(error));
        // The response broke off: its calls end (calls still without a name are dropped unseen).
        const current = turnId;
        book.end({ kind: 'error', message }, (call) => call.turnId === current);
        open.clear();
        return;
      }
      const choices = optArray(chunk, 'choices', 'chunk');
      if (choices === undefined) return; // not a completion chunk: ignored
      const turn = currentTurn(chunk);
      choices.forEach((choice, i) => handleChoice(choice, i, turn));
    },
    {
      why: 'the stream ended without a finish_reason',
      finish: () => {
        for (const entry of [...open.values()]) endCall(entry, undefined, true);
      },
    },
  );
}
