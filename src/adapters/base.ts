/**
 * The contract every provider adapter keeps, and the wrapper that gives all of them the same
 * behaviour at the edges (SSE text, chunks that are not objects, pushes after the end, a
 * handler that throws). The calls themselves go through the book (`call-book.ts`).
 *
 * Adapters only own the part of a call's life the provider streams: `start`, the argument
 * text and its end, and the outcome where the stream carries one. Running the tool is someone
 * else's job.
 */
import { localOnlyNameIn } from '../core/stream/local-events';
import type { ToolStreamEvent } from '../core/wire';
import type { CallBook } from './call-book';
import { describe, isRecord, MalformedChunk, type AdapterIssue, type Rec } from './chunk-fields';
import type { ChunkVocabulary } from './vocabularies';

/**
 * Options every adapter accepts.
 *
 * @example
 * const options: AdapterOptions = { turnId: conversationTurnId, onError: (reason, chunk, code) => report(reason, chunk, code) };
 * const adapter = createAnthropicAdapter(options);
 */
export interface AdapterOptions {
  /**
   * The turn id for calls whose provider gives no response or message id. Where the provider
   * gives one (OpenAI `chatcmpl-…` / `resp_…`, Anthropic `msg_…`, Gemini `responseId`, Cohere
   * `message-start` id, AI SDK `messageId`, AG-UI `runId`), that id is used instead.
   */
  turnId?: string;
  /**
   * Called with a reason (which names the provider), the chunk, and a code ({@link AdapterIssue})
   * for each chunk the adapter cannot read: not an object, a known chunk type with fields of the
   * wrong type, or a fragment for a call that never started. The chunk is skipped; no other
   * call changes. Chunks of types the adapter does not know are not errors: they are ignored.
   */
  onError?: (reason: string, chunk: unknown, code: AdapterIssue) => void;
  /** The provider name that starts every `onError` reason and `failed` message (default: the API's name). */
  label?: string;
}

/**
 * A stateful mapper from one provider's stream chunks to toolgate `tool.stream` events.
 *
 * @example
 * const adapter: ToolStreamAdapter = createOpenAIChatAdapter();
 * for await (const chunk of stream) for (const event of adapter.push(chunk)) store.getState().dispatch(event);
 * for (const event of adapter.end()) store.getState().dispatch(event);
 */
export interface ToolStreamAdapter {
  /**
   * Map one chunk (the parsed object, or its JSON text: a WebSocket message or an SSE
   * `data:` line; other SSE lines are skipped) to the events it causes, in order. Never
   * throws; chunks of types the stream does not have give no events, and each such type is
   * reported once (`ignored-chunk`).
   */
  push(chunk: unknown): ToolStreamEvent[];
  /**
   * The stream ended: every call whose arguments are still open ends (complete when its text
   * is complete JSON, else `failed` with the reason), and a provider-hosted call whose result
   * never came is cancelled. Calls issued to the page (client tools) stay issued.
   */
  end(): ToolStreamEvent[];
}

/** Turn a string chunk into the value it carries, or `undefined` for lines that carry none. */
function readText(text: string, book: CallBook, chunk: unknown): { value: unknown } | undefined {
  const line = text.trim();
  // The other SSE fields (`event:`, `id:`, `retry:`, `:` comments) carry no chunk.
  if (/^(event|id|retry):|^:/.test(line)) return undefined;
  const json = line.replace(/^data:\s*/, '');
  if (json === '' || json === '[DONE]') return undefined;
  try {
    return { value: JSON.parse(json) as unknown };
  } catch {
    book.report(`a chunk is not JSON: ${describe(json)}`, chunk, 'not-json');
    return undefined;
  }
}

/**
 * Build an adapter from a chunk handler. The wrapper gives every adapter the same behaviour
 * for the edges: a string chunk is the JSON text of an SSE `data:` line (`[DONE]` and blank
 * lines are ignored), a chunk that is not an object or whose fields are broken reaches
 * `onError` with the provider's name, and `push` never throws. `end()` ends what is open with
 * the book's `ended`, after `finish` (an adapter's own last words, such as dropping calls that
 * never got a name).
 */
export function defineAdapter(
  book: CallBook,
  handle: (chunk: Rec) => void,
  end: { why: string; finish?: () => void },
  vocabulary?: ChunkVocabulary,
): ToolStreamAdapter {
  let ended = false;
  const read = vocabulary === undefined ? handle : withVocabulary(book, vocabulary, handle);
  return {
    push(chunk) {
      if (ended) {
        book.report('a chunk arrived after end(); it was ignored', chunk, 'after-end');
        return [];
      }
      return readChunk(book, chunk, read);
    },
    end() {
      if (ended) return [];
      ended = true;
      try {
        end.finish?.();
        book.end({ kind: 'ended', why: end.why });
      } catch (error) {
        book.report(`could not close the open calls (${String(error)})`, undefined, 'adapter-failed');
      }
      return book.drain();
    },
  };
}

/**
 * `handle`, after a word about a chunk whose type is not in `vocabulary`: reported once per type
 * (`ignored-chunk`), and then handled as usual (a handler gives no events for a type it does not
 * read). A stream of a newer API version thus says what this one does not show.
 */
export function withVocabulary(book: CallBook, vocabulary: ChunkVocabulary, handle: (chunk: Rec) => void): (chunk: Rec) => void {
  const told = new Set<string>();
  return (chunk) => {
    const type = chunk.type;
    if (typeof type === 'string' && !vocabulary.has(type) && !told.has(type)) {
      told.add(type);
      book.report(`${vocabulary.noun} of type "${type}" are not part of ${vocabulary.name}; they are ignored`, chunk, 'ignored-chunk');
    }
    handle(chunk);
  };
}

/**
 * One chunk through a handler with the edges every adapter shares (see {@link defineAdapter}):
 * the events it caused, in order. Never throws. The bridges read their libraries' chunks
 * through this too, with boundaries of their own instead of `end()`.
 */
export function readChunk(book: CallBook, chunk: unknown, handle: (chunk: Rec) => void): ToolStreamEvent[] {
  let value = chunk;
  if (typeof value === 'string') {
    const read = readText(value, book, chunk);
    if (read === undefined) return [];
    value = read.value;
  }
  if (!isRecord(value)) {
    book.report(`a chunk is ${describe(value)}, not an object`, chunk, 'not-an-object');
    return [];
  }
  // docs/protocol.md, "Rules of the stream": no stream produces the page's own events. A chunk that names one, in
  // any spelling, is refused with a reason (and could not act as one anyway: adapters only
  // ever make tool.stream events).
  const named = localOnlyNameIn(value);
  if (named !== undefined) {
    book.report(`a chunk names ${describe(named)}, an event only this page may produce: refused`, chunk, 'local-only');
    return [];
  }
  try {
    handle(value);
  } catch (error) {
    // The broken part is skipped. Whatever the chunk's earlier, readable parts caused is
    // still returned below, so the events always match the adapter's state.
    if (error instanceof MalformedChunk) book.report(error.message, chunk, error.code);
    else book.report(`could not read a chunk (${String(error)})`, chunk, 'adapter-failed');
  }
  return book.drain();
}

/**
 * Feed a whole stream through an adapter and yield toolgate events, calling `end()` when the
 * stream finishes (also when it throws, so no call is left open; the error is rethrown).
 *
 * @example
 * for await (const event of adaptStream(createAnthropicAdapter(), stream)) store.getState().dispatch(event);
 */
export async function* adaptStream(
  adapter: ToolStreamAdapter,
  stream: AsyncIterable<unknown> | Iterable<unknown>,
): AsyncGenerator<ToolStreamEvent, void, undefined> {
  let finished = false;
  try {
    for await (const chunk of stream) yield* adapter.push(chunk);
    finished = true;
  } catch (error) {
    finished = true;
    yield* adapter.end();
    throw error;
  } finally {
    // The consumer stopped listening (break / return): close quietly, nobody reads the events.
    if (!finished) adapter.end();
  }
  yield* adapter.end();
}
