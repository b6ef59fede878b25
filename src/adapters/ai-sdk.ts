/**
 * The AI SDK's UI message stream (`toUIMessageStream()` / `toUIMessageStreamResponse()`, what
 * `useChat` reads), whatever model produced it.
 *
 * A call is `tool-input-start` (toolCallId, toolName), `tool-input-delta` fragments
 * (`inputTextDelta`), then `tool-input-available` with the parsed input. Tool outputs follow
 * as `tool-output-available` / `tool-output-error` / `tool-output-denied`; unlike the raw
 * provider adapters this one maps them too, since the stream carries them.
 */
import {
  CallBook,
  defineAdapter,
  MalformedChunk,
  optString,
  reqString,
  type AdapterOptions,
  type OpenCall,
  type Rec,
  type ToolStreamAdapter,
} from './base';

/**
 * Options of {@link createAISDKAdapter}: those of every adapter.
 *
 * @example
 * const adapter = createAISDKAdapter({ turnId: 'turn-1', onError: (reason) => console.warn(reason) } satisfies AISDKAdapterOptions);
 */
export type AISDKAdapterOptions = AdapterOptions;

interface SdkCall {
  call: OpenCall;
  /** `inputEncoding: 'text'`: the fragments are free text, not JSON, so they are not streamed. */
  textInput: boolean;
  /** Arguments done (complete or failed); later chunks may only bring the outcome. */
  inputDone: boolean;
  /** `settled`, `failed` or `cancelled` sent: nothing more for this call. */
  over: boolean;
}

/**
 * Map AI SDK UI message stream chunks to toolgate events.
 *
 * @example
 * const adapter = createAISDKAdapter();
 * for await (const chunk of result.toUIMessageStream())
 *   for (const e of adapter.push(chunk)) store.getState().dispatch(e);
 * for (const e of adapter.end()) store.getState().dispatch(e);
 */
export function createAISDKAdapter(options: AISDKAdapterOptions = {}): ToolStreamAdapter {
  const book = new CallBook('AI SDK', options);
  const calls = new Map<string, SdkCall>();
  let turnId: string | undefined;

  const turn = (): string => (turnId ??= book.fallbackTurnId());

  const startCall = (chunk: Rec, where: string): SdkCall | undefined => {
    const id = reqString(chunk, 'toolCallId', where);
    const name = reqString(chunk, 'toolName', where);
    if (calls.has(id)) return undefined;
    const location = chunk.providerExecuted === true ? ('server' as const) : undefined;
    const entry: SdkCall = {
      call: book.start(book.uniqueCallId(id), name, turn(), location ? { location } : undefined),
      textInput: chunk.inputEncoding === 'text',
      inputDone: false,
      over: false,
    };
    calls.set(id, entry);
    return entry;
  };

  const known = (chunk: Rec, where: string): SdkCall => {
    const id = reqString(chunk, 'toolCallId', where);
    const entry = calls.get(id);
    if (entry === undefined) throw new MalformedChunk(`${where} for tool call ${id}, which never started`);
    return entry;
  };

  /** End the input from the streamed text where no `tool-input-available` came. */
  const closeInput = (entry: SdkCall, why: string): void => {
    if (entry.inputDone) return;
    entry.inputDone = true;
    if (entry.textInput) {
      book.fail(entry.call, `${book.provider}: ${why}; the text input of ${entry.call.name} never arrived whole`);
      entry.over = true;
      return;
    }
    // seed 000: a call ends with exactly one terminal event. Input that is not JSON ends it `failed`, so a
    // later output for it must send nothing more.
    if (book.finishFromText(entry.call, { emptyIsNoArguments: false, why }) === 'failed') entry.over = true;
  };

  const closeAllInputs = (why: string): void => {
    for (const entry of calls.values()) closeInput(entry, why);
  };

  const handle = (chunk: Rec): void => {
    const type = chunk.type;
    if (typeof type !== 'string') return;
    switch (type) {
      case 'start': {
        const id = optString(chunk, 'messageId', type);
        if (id !== undefined && id !== '') turnId = id;
        else if (turnId !== undefined) turnId = book.fallbackTurnId();
        return;
      }
      case 'tool-input-start':
        startCall(chunk, type);
        return;
      case 'tool-input-delta': {
        const delta = reqString(chunk, 'inputTextDelta', type);
        const entry = known(chunk, type);
        if (entry.inputDone) throw new MalformedChunk(`tool-input-delta for ${entry.call.callId} after its input was complete`);
        if (entry.textInput) return;
        book.delta(entry.call, delta);
        return;
      }
      case 'tool-input-available':
      case 'tool-input-error': {
        const id = reqString(chunk, 'toolCallId', type);
        // Non-streamed calls arrive as a single `tool-input-available`.
        const entry = calls.get(id) ?? startCall(chunk, type);
        if (entry === undefined || entry.inputDone) return;
        entry.inputDone = true;
        if (type === 'tool-input-error') {
          const errorText = optString(chunk, 'errorText', type) ?? 'invalid input';
          book.fail(entry.call, `${book.provider}: the input of ${entry.call.name} is invalid: ${errorText}`);
          entry.over = true;
          return;
        }
        // The provider's own parsed input wins over the joined fragments.
        book.complete(entry.call, chunk.input === undefined ? {} : chunk.input);
        return;
      }
      case 'tool-output-available': {
        const entry = known(chunk, type);
        if (entry.over) return;
        // Outputs come in a later step; the recorded LangGraph stream sends no
        // tool-input-available, so the streamed text is the input.
        closeInput(entry, 'the output arrived');
        if (entry.over) return;
        if (chunk.preliminary === true) {
          book.emit({ type: 'tool.stream', phase: 'progress', callId: entry.call.callId, progress: chunk.output });
          return;
        }
        entry.over = true;
        book.emit({ type: 'tool.stream', phase: 'settled', callId: entry.call.callId, ok: true });
        return;
      }
      case 'tool-output-error': {
        const entry = known(chunk, type);
        if (entry.over) return;
        optString(chunk, 'errorText', type); // checked: one that is not a string is a malformed chunk
        closeInput(entry, 'the tool failed');
        if (entry.over) return;
        // The call was issued and its tool ran and failed: `settled` with FAILED. (`failed` is
        // the model stopping before the arguments were complete; after `issued` the store
        // refuses it and the call would stay issued for good.) The wire's `settled` carries no
        // message, so the tool's error text is not shown.
        entry.over = true;
        book.emit({ type: 'tool.stream', phase: 'settled', callId: entry.call.callId, ok: false, code: 'FAILED' });
        return;
      }
      case 'tool-output-denied': {
        const entry = known(chunk, type);
        if (entry.over) return;
        closeInput(entry, 'the call was denied');
        if (entry.over) return;
        entry.over = true;
        book.emit({ type: 'tool.stream', phase: 'settled', callId: entry.call.callId, ok: false, code: 'REJECTED' });
        return;
      }
      case 'finish-step':
      case 'finish':
        // A step's tool inputs are complete when the step ends.
        closeAllInputs(`the ${type === 'finish' ? 'message' : 'step'} finished before the input was complete`);
        return;
      case 'abort':
        // The user stopped the stream: like the store's interrupt (DESIGN: "cancels every open
        // call of that turn"), every call not yet ended is cancelled, also one whose input is
        // complete and whose output will now never come.
        for (const entry of calls.values()) {
          if (entry.over) continue;
          entry.inputDone = true;
          entry.over = true;
          book.emit({ type: 'tool.stream', phase: 'cancelled', callId: entry.call.callId });
        }
        return;
      case 'error': {
        // The stream broke off: a call still writing its arguments failed; one already issued
        // will get no outcome from this stream, so it is cancelled (as on abort), not left issued.
        const errorText = optString(chunk, 'errorText', type) ?? 'unknown error';
        for (const entry of calls.values()) {
          if (entry.over) continue;
          entry.over = true;
          if (entry.inputDone) {
            book.emit({ type: 'tool.stream', phase: 'cancelled', callId: entry.call.callId });
            continue;
          }
          entry.inputDone = true;
          book.fail(entry.call, `${book.provider}: the stream reported an error: ${errorText}`);
        }
        return;
      }
      default:
        return; // text, reasoning, sources, data parts, approvals: ignored
    }
  };

  return defineAdapter(book, handle, () => closeAllInputs('the stream ended before the input was complete'));
}
