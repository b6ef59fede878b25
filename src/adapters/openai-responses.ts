/**
 * OpenAI Responses API stream events, and the OpenAI Realtime API server events (over
 * WebSocket or WebRTC), which use the same names for tool calls; xAI's realtime voice API
 * speaks the same events.
 *
 * A call is an output item: `response.output_item.added` (type `function_call`, or `mcp_call`
 * for a hosted MCP tool) announces it, `response.function_call_arguments.delta` /
 * `response.mcp_call_arguments.delta` grow it by `item_id`, and the matching `.done` event
 * carries the provider's final argument text. A hosted MCP call's `output_item.done` carries its
 * result (`output`, or `error`), which settles it.
 */
import { defineAdapter, type AdapterOptions, type ToolStreamAdapter } from './base';
import { CallBook, parseArguments, type OpenCall } from './call-book';
import { describe, isRecord, jsonOrText, MalformedChunk, optRecord, optString, reqRecord, reqString, type Rec } from './chunk-fields';
import { OPENAI_REALTIME, OPENAI_RESPONSES, type ChunkVocabulary } from './vocabularies';

/**
 * Options of {@link createOpenAIResponsesAdapter}: those of every adapter.
 *
 * @example
 * const adapter = createOpenAIResponsesAdapter({ turnId: 'turn-1', onError: (reason) => console.warn(reason) } satisfies OpenAIResponsesAdapterOptions);
 */
export type OpenAIResponsesAdapterOptions = AdapterOptions;

/** Output item types that are tool calls with JSON arguments. */
const CALL_ITEM_TYPES = new Set(['function_call', 'mcp_call']);

interface ItemCall {
  itemId: string;
  turnId: string;
  /** `call_id` (what the tool result must quote) where the item has one, else the item id. */
  providerId: string;
  location: 'server' | undefined;
  call: OpenCall | undefined;
  /** Fragments that arrived before the item's name was known. */
  pendingText: string;
}

/**
 * Map OpenAI Responses API events, or OpenAI / xAI Realtime server events, to toolgate events.
 *
 * @example
 * const adapter = createOpenAIResponsesAdapter();
 * for await (const event of await openai.responses.create({ ...params, stream: true }))
 *   for (const e of adapter.push(event)) store.getState().dispatch(e);
 * for (const e of adapter.end()) store.getState().dispatch(e);
 */
export function createOpenAIResponsesAdapter(options: OpenAIResponsesAdapterOptions = {}): ToolStreamAdapter {
  return createItemAdapter('OpenAI Responses', options, OPENAI_RESPONSES);
}

/**
 * Map OpenAI Realtime API server events (WebSocket or WebRTC data channel) to toolgate
 * events. xAI's realtime voice API sends the same events (its deltas lack `output_index`,
 * which this adapter never needs): pass `label: 'xAI Realtime'` for clearer error reports.
 *
 * @example
 * const adapter = createOpenAIRealtimeAdapter();
 * socket.addEventListener('message', (m) => {
 *   for (const e of adapter.push(m.data)) store.getState().dispatch(e);
 * });
 */
export function createOpenAIRealtimeAdapter(options: OpenAIResponsesAdapterOptions = {}): ToolStreamAdapter {
  return createItemAdapter('OpenAI Realtime', options, OPENAI_REALTIME);
}

function createItemAdapter(provider: string, options: AdapterOptions, vocabulary: ChunkVocabulary): ToolStreamAdapter {
  const PROVIDER = options.label ?? provider;
  const book = new CallBook(PROVIDER, options);
  const items = new Map<string, ItemCall>();
  /** Items whose arguments already ended, so a late `output_item.done` does not end them twice. */
  const finished = new Map<string, OpenCall | undefined>();
  let currentResponse: string | undefined;

  /** Realtime events carry `response_id`; Responses events belong to the latest `response.created`. */
  const turnOf = (chunk: Rec): string => {
    const responseId = optString(chunk, 'response_id', chunk.type as string);
    if (responseId !== undefined && responseId !== '') return responseId;
    currentResponse ??= book.fallbackTurnId();
    return currentResponse;
  };

  const begin = (entry: ItemCall, name: string | undefined): void => {
    if (entry.call !== undefined || name === undefined || name === '') return;
    const callId = book.uniqueCallId(entry.providerId);
    // A hosted MCP call's result comes on this stream (its item's `output`).
    entry.call = book.start(callId, name, entry.turnId, entry.location ? { location: entry.location, awaitsOutcome: true } : undefined);
    const pending = entry.pendingText;
    entry.pendingText = '';
    book.delta(entry.call, pending);
  };

  const entryFor = (chunk: Rec, itemId: string, item: Rec | undefined): ItemCall => {
    let entry = items.get(itemId);
    if (entry === undefined) {
      const where = String(chunk.type);
      const callId =
        (item && optString(item, 'call_id', `${where}.item`)) || optString(chunk, 'call_id', where) || itemId;
      const type = item ? optString(item, 'type', `${where}.item`) : undefined;
      entry = {
        itemId,
        turnId: turnOf(chunk),
        providerId: callId,
        // A hosted MCP call runs at OpenAI, not in the app.
        location: type === 'mcp_call' || String(chunk.type).startsWith('response.mcp_call') ? 'server' : undefined,
        call: undefined,
        pendingText: '',
      };
      items.set(itemId, entry);
    }
    return entry;
  };

  /** The provider's own final text ends the call: it wins over the joined fragments. */
  const finishWith = (entry: ItemCall, finalText: string | undefined, why: string): void => {
    items.delete(entry.itemId);
    finished.set(entry.itemId, entry.call);
    if (entry.call === undefined) {
      book.report(`the call in item ${entry.itemId} ended without its name ever arriving; it was dropped`, undefined, 'dropped-call');
      return;
    }
    if (finalText === undefined) {
      book.endArguments(entry.call, 'cut', why);
      return;
    }
    const parsed = parseArguments(finalText, true);
    if (parsed.ok) book.complete(entry.call, parsed.value);
    else book.fail(entry.call, `${PROVIDER}: the final arguments of ${entry.call.name} are not JSON: ${parsed.reason}`);
  };

  const closeResponse = (responseId: string | undefined, response: Rec | undefined, type: string): void => {
    const status = response ? optString(response, 'status', `${type}.response`) : undefined;
    let why: string;
    let cancelled = false;
    if (type === 'response.failed' || status === 'failed') {
      const error = response ? optRecord(response, 'error', `${type}.response`) : undefined;
      const details = response ? optRecord(response, 'status_details', `${type}.response`) : undefined;
      const detailError = details ? optRecord(details, 'error', `${type}.response.status_details`) : undefined;
      const message = (error && optString(error, 'message', 'error')) ?? (detailError && optString(detailError, 'message', 'error'));
      why = `the response failed${message ? `: ${message}` : ''}`;
    } else if (type === 'response.incomplete' || status === 'incomplete') {
      const details =
        (response && optRecord(response, 'incomplete_details', `${type}.response`)) ??
        (response && optRecord(response, 'status_details', `${type}.response`));
      const reason = details ? optString(details, 'reason', 'details') : undefined;
      why = reason === 'max_output_tokens' ? 'the response stopped at max_output_tokens' : `the response is incomplete (${reason ?? 'no reason given'})`;
    } else if (status === 'cancelled') {
      // Realtime: the user spoke over the model (or the client cancelled the response).
      cancelled = true;
      why = 'the response was cancelled';
    } else {
      why = 'the response completed before the call\'s arguments did';
    }
    for (const entry of [...items.values()]) {
      if (responseId !== undefined && entry.turnId !== responseId) continue;
      if (cancelled && entry.call !== undefined) {
        items.delete(entry.itemId);
        finished.set(entry.itemId, entry.call);
        book.cancel(entry.call);
        continue;
      }
      finishWith(entry, undefined, why);
    }
  };

  /** A finished hosted MCP call carries its result: `output` (the tool's text), or `error`. */
  const settleMcpCall = (call: OpenCall | undefined, item: Rec, where: string): void => {
    if (call === undefined) return;
    const error = item.error;
    const output = item.output;
    if (error !== undefined && error !== null) {
      const message = typeof error === 'string' ? error : isRecord(error) && typeof error.message === 'string' ? error.message : JSON.stringify(error);
      book.outcome(call, { type: 'tool.stream', phase: 'settled', callId: call.callId, ok: false, code: 'FAILED', message });
      return;
    }
    if (output === undefined || output === null) return;
    if (typeof output !== 'string') throw new MalformedChunk(`${where}.output is ${describe(output)}, not a string`);
    book.outcome(call, { type: 'tool.stream', phase: 'settled', callId: call.callId, ok: true, output: jsonOrText(output) });
  };

  const handle = (chunk: Rec): void => {
    const type = chunk.type;
    if (typeof type !== 'string') return; // not an event: ignored
    switch (type) {
      case 'response.created':
      case 'response.in_progress': {
        const response = reqRecord(chunk, 'response', type);
        const id = optString(response, 'id', `${type}.response`);
        if (id !== undefined && id !== '') currentResponse = id;
        else if (type === 'response.created') currentResponse = book.fallbackTurnId();
        return;
      }
      case 'response.output_item.added': {
        const item = reqRecord(chunk, 'item', type);
        const itemType = reqString(item, 'type', `${type}.item`);
        if (!CALL_ITEM_TYPES.has(itemType)) return;
        const itemId = reqString(item, 'id', `${type}.item`);
        const name = optString(item, 'name', `${type}.item`);
        const args = optString(item, 'arguments', `${type}.item`);
        if (finished.has(itemId) || items.has(itemId)) return;
        const entry = entryFor(chunk, itemId, item);
        begin(entry, name);
        if (args !== undefined && entry.call) book.delta(entry.call, args);
        return;
      }
      case 'response.function_call_arguments.delta':
      case 'response.mcp_call_arguments.delta': {
        const itemId = reqString(chunk, 'item_id', type);
        const delta = reqString(chunk, 'delta', type);
        if (finished.has(itemId)) {
          book.report(`${type} for item ${itemId}, whose arguments already ended`, chunk, 'malformed-chunk');
          return;
        }
        // A fragment for an item never announced waits for the name (Realtime's `.done`
        // repeats it), so a missed `output_item.added` does not lose the call.
        const entry = entryFor(chunk, itemId, undefined);
        if (entry.call) book.delta(entry.call, delta);
        else entry.pendingText += delta;
        return;
      }
      case 'response.function_call_arguments.done':
      case 'response.mcp_call_arguments.done': {
        const itemId = reqString(chunk, 'item_id', type);
        const args = reqString(chunk, 'arguments', type);
        const name = optString(chunk, 'name', type);
        if (finished.has(itemId)) return;
        const entry = entryFor(chunk, itemId, undefined);
        begin(entry, name);
        finishWith(entry, args, '');
        return;
      }
      case 'response.output_item.done': {
        const item = reqRecord(chunk, 'item', type);
        const itemType = reqString(item, 'type', `${type}.item`);
        if (!CALL_ITEM_TYPES.has(itemType)) return;
        const itemId = reqString(item, 'id', `${type}.item`);
        const name = optString(item, 'name', `${type}.item`);
        const args = optString(item, 'arguments', `${type}.item`);
        if (!finished.has(itemId)) {
          // Some compatible servers skip the `.done` event; the finished item has the final text.
          const entry = entryFor(chunk, itemId, item);
          begin(entry, name);
          finishWith(entry, args, 'the item finished without its arguments');
        }
        if (itemType === 'mcp_call') settleMcpCall(finished.get(itemId), item, `${type}.item`);
        return;
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
      case 'response.done': {
        const response = optRecord(chunk, 'response', type);
        const id = response ? optString(response, 'id', `${type}.response`) : undefined;
        closeResponse(id || currentResponse, response, type);
        return;
      }
      default:
        return; // text, audio, reasoning, session and other events: ignored
    }
  };

  const why = "the stream ended before the call's arguments were done";
  return defineAdapter(book, handle, {
    why,
    finish: () => {
      for (const entry of [...items.values()]) finishWith(entry, undefined, why);
    },
  }, vocabulary);
}
