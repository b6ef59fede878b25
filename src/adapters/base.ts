/**
 * The small shared part of every provider adapter: the adapter's contract, reading chunk
 * fields without trusting them, and a book of open calls that turns "this call started / got
 * text / ended" into toolgate `tool.stream` events.
 *
 * Adapters only own the part of a call's life the provider streams: `start`, the argument
 * text and its end (`arguments-complete` or `failed`). Running the tool is someone else's job.
 */
import type { ToolLocation, ToolStreamEvent, ToolStreamStartEvent } from '../core/wire';

/**
 * Options every adapter accepts.
 *
 * @example
 * const options: AdapterOptions = { turnId: conversationTurnId, onError: (reason, chunk) => report(reason, chunk) };
 * const adapter = createAnthropicAdapter(options);
 */
export interface AdapterOptions {
  /**
   * The turn id for calls whose provider gives no response or message id. Where the provider
   * gives one (OpenAI `chatcmpl-…` / `resp_…`, Anthropic `msg_…`, Gemini `responseId`, Cohere
   * `message-start` id, AI SDK `messageId`), that id is used instead.
   */
  turnId?: string;
  /**
   * Called with a reason (which names the provider) and the chunk for each chunk the adapter
   * cannot read: not an object, a known chunk type with fields of the wrong type, or a
   * fragment for a call that never started. The chunk is skipped; no other call changes.
   */
  onError?: (reason: string, chunk: unknown) => void;
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
   * throws; chunks of unknown types give no events.
   */
  push(chunk: unknown): ToolStreamEvent[];
  /**
   * The stream ended: close every call whose arguments are still open. Text that is
   * complete JSON completes the call; anything else ends it `failed` with the reason.
   */
  end(): ToolStreamEvent[];
}

/** Thrown by the field readers; the adapter turns it into an `onError` report. */
export class MalformedChunk extends Error {}

export type Rec = Record<string, unknown>;

export function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/* ------------------------------------------------------------- field readers */
// Each reader returns undefined for a missing (or null) field and throws MalformedChunk for a
// field of the wrong type, so "absent" and "broken" are never confused.

export function optString(obj: Rec, key: string, where: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new MalformedChunk(`${where}.${key} is ${describe(v)}, not a string`);
  return v;
}

export function optNumber(obj: Rec, key: string, where: string): number | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new MalformedChunk(`${where}.${key} is ${describe(v)}, not a number`);
  }
  return v;
}

export function optRecord(obj: Rec, key: string, where: string): Rec | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) throw new MalformedChunk(`${where}.${key} is ${describe(v)}, not an object`);
  return v;
}

export function optArray(obj: Rec, key: string, where: string): unknown[] | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw new MalformedChunk(`${where}.${key} is ${describe(v)}, not an array`);
  return v;
}

export function reqString(obj: Rec, key: string, where: string): string {
  const v = optString(obj, key, where);
  if (v === undefined) throw new MalformedChunk(`${where}.${key} is missing`);
  return v;
}

export function reqNumber(obj: Rec, key: string, where: string): number {
  const v = optNumber(obj, key, where);
  if (v === undefined) throw new MalformedChunk(`${where}.${key} is missing`);
  return v;
}

export function reqRecord(obj: Rec, key: string, where: string): Rec {
  const v = optRecord(obj, key, where);
  if (v === undefined) throw new MalformedChunk(`${where}.${key} is missing`);
  return v;
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

/* --------------------------------------------------------------- the book */

/** A call whose arguments are still arriving. */
export interface OpenCall {
  readonly callId: string;
  readonly name: string;
  readonly turnId: string;
  /** The argument JSON text received so far. */
  text: string;
}

export type ArgumentsParse = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * Parse a call's complete argument text. `emptyIsNoArguments`: a provider that said the
 * arguments are complete and sent no text at all means "no arguments" (Anthropic sends a
 * single `partial_json: ""` for a parameterless tool; the recording
 * anthropic-tool-no-args-empty shows it), so that reads as `{}`.
 */
export function parseArguments(text: string, emptyIsNoArguments: boolean): ArgumentsParse {
  if (text.trim() === '') {
    return emptyIsNoArguments ? { ok: true, value: {} } : { ok: false, reason: 'no argument text arrived' };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: `the argument text is not complete JSON (${(error as Error).message})` };
  }
}

/**
 * Where an adapter writes its events. One per adapter; `drain()` hands out what one `push`
 * or `end` produced.
 */
export class CallBook {
  private events: ToolStreamEvent[] = [];
  /** Every call id handed out, so two calls never share one (the reducer keys on it). */
  private readonly used = new Set<string>();
  private turnCounter = 0;

  readonly provider: string;

  constructor(
    provider: string,
    private readonly options: AdapterOptions,
  ) {
    this.provider = options.label ?? provider;
  }

  drain(): ToolStreamEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  report(reason: string, chunk: unknown): void {
    this.options.onError?.(`${this.provider}: ${reason}`, chunk);
  }

  /**
   * The turn id when the provider gives none: the `turnId` option, else a generated one.
   * Each call of this function (one per response boundary) gives a fresh id when generated,
   * so calls of consecutive responses stay apart.
   */
  fallbackTurnId(): string {
    if (this.options.turnId !== undefined) return this.options.turnId;
    this.turnCounter += 1;
    return `${this.provider.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-turn-${this.turnCounter}`;
  }

  /**
   * A call id that no earlier call of this adapter used. Providers that number calls per
   * response (Kimi's `functions.add:0`) or adapters that derive ids could repeat one across
   * consecutive responses; the later call gets a `#2`, `#3` suffix.
   */
  uniqueCallId(wanted: string): string {
    let id = wanted;
    for (let n = 2; this.used.has(id); n++) id = `${wanted}#${n}`;
    this.used.add(id);
    return id;
  }

  start(
    callId: string,
    name: string,
    turnId: string,
    extra?: { location?: ToolLocation },
  ): OpenCall {
    const event: ToolStreamStartEvent = { type: 'tool.stream', phase: 'start', callId, turnId, name };
    if (extra?.location !== undefined) event.location = extra.location;
    this.events.push(event);
    return { callId, name, turnId, text: '' };
  }

  /** Empty fragments (OpenAI's first `arguments: ""`, Anthropic's first `partial_json: ""`) say nothing. */
  delta(call: OpenCall, text: string): void {
    if (text === '') return;
    call.text += text;
    this.events.push({ type: 'tool.stream', phase: 'arguments-delta', callId: call.callId, delta: text });
  }

  complete(call: OpenCall, value: unknown): void {
    this.events.push({ type: 'tool.stream', phase: 'arguments-complete', callId: call.callId, arguments: value });
  }

  fail(call: OpenCall, message: string): void {
    this.events.push({ type: 'tool.stream', phase: 'failed', callId: call.callId, message });
  }

  /** Events about a call whose arguments are already settled (AI SDK tool outputs). */
  emit(event: ToolStreamEvent): void {
    this.events.push(event);
  }

  /**
   * End a call from its text: complete when the text is JSON, else `failed` with
   * `why` and the parse reason. Returns which, since `failed` also ends the call itself.
   */
  finishFromText(call: OpenCall, opts: { emptyIsNoArguments: boolean; why: string }): 'complete' | 'failed' {
    const parsed = parseArguments(call.text, opts.emptyIsNoArguments);
    if (parsed.ok) {
      this.complete(call, parsed.value);
      return 'complete';
    }
    this.fail(call, `${this.provider}: ${opts.why}; the arguments of ${call.name} are incomplete: ${parsed.reason}`);
    return 'failed';
  }
}

/**
 * Build an adapter from a chunk handler. The wrapper gives every adapter the same behaviour
 * for the edges: a string chunk is the JSON text of an SSE `data:` line (`[DONE]` and blank
 * lines are ignored), a chunk that is not an object or whose fields are broken reaches
 * `onError` with the provider's name, and `push` never throws.
 */
export function defineAdapter(
  book: CallBook,
  handle: (chunk: Rec) => void,
  finish: () => void,
): ToolStreamAdapter {
  let ended = false;
  return {
    push(chunk) {
      if (ended) {
        book.report('a chunk arrived after end(); it was ignored', chunk);
        return [];
      }
      let value = chunk;
      if (typeof value === 'string') {
        const line = value.trim();
        // The other SSE fields (`event:`, `id:`, `retry:`, `:` comments) carry no chunk.
        if (/^(event|id|retry):|^:/.test(line)) return [];
        const text = line.replace(/^data:\s*/, '');
        if (text === '' || text === '[DONE]') return [];
        try {
          value = JSON.parse(text) as unknown;
        } catch {
          book.report(`a chunk is not JSON: ${describe(text)}`, chunk);
          return [];
        }
      }
      if (!isRecord(value)) {
        book.report(`a chunk is ${describe(value)}, not an object`, chunk);
        return [];
      }
      try {
        handle(value);
      } catch (error) {
        // The broken part is skipped. Whatever the chunk's earlier, readable parts caused is
        // still returned below, so the events always match the adapter's state.
        const reason = error instanceof MalformedChunk ? error.message : `could not read a chunk (${String(error)})`;
        book.report(reason, chunk);
      }
      return book.drain();
    },
    end() {
      if (ended) return [];
      ended = true;
      try {
        finish();
      } catch (error) {
        book.report(`could not close the open calls (${String(error)})`, undefined);
      }
      return book.drain();
    },
  };
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
