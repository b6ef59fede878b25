/**
 * The AI SDK's UI message stream (`toUIMessageStream()` / `toUIMessageStreamResponse()`, what
 * `useChat` reads), whatever model produced it.
 *
 * A call is `tool-input-start` (toolCallId, toolName), `tool-input-delta` fragments
 * (`inputTextDelta`), then `tool-input-available` with the parsed input. Tool outputs follow
 * as `tool-output-available` / `tool-output-error` / `tool-output-denied`; unlike the raw
 * provider adapters this one maps them too, since the stream carries them.
 */
import { defineAdapter, type AdapterOptions, type ToolStreamAdapter } from './base';
import { CallBook, type OpenCall } from './call-book';
import { MalformedChunk, optString, reqString, unknownCall, type Rec } from './chunk-fields';
import { UI_MESSAGE_STREAM } from './vocabularies';

/**
 * Options of {@link createAISDKAdapter}: those of every adapter.
 *
 * @example
 * const adapter = createAISDKAdapter({ turnId: 'turn-1', onError: (reason) => console.warn(reason) } satisfies AISDKAdapterOptions);
 */
export type AISDKAdapterOptions = AdapterOptions;

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
  const mapper = createAISDKChunkMapper(book);
  return defineAdapter(book, mapper.handle, { why: 'the stream ended before the input was complete' }, UI_MESSAGE_STREAM);
}

/**
 * The chunk handler behind {@link createAISDKAdapter}, also used by the `toolgate/ai-sdk` bridge,
 * which feeds one chat's many response streams through one book (a call's output may come on a
 * later stream than its input: after an approval, or after the page answered).
 */
export interface AISDKChunkMapper {
  handle(chunk: Rec): void;
  /** The call the chat knows as `toolCallId`, once it started. */
  call(toolCallId: string): OpenCall | undefined;
}

export interface AISDKChunkMapperOptions {
  /**
   * Calls handed to someone else (the page runs them, a person reviews them): the stream's
   * boundaries (abort, error, a reset step) leave them, since their outcome does not come from it.
   */
  keep?: (call: OpenCall) => boolean;
}

export function createAISDKChunkMapper(book: CallBook, options: AISDKChunkMapperOptions = {}): AISDKChunkMapper {
  const keep = options.keep ?? (() => false);
  /** Calls by the SDK's `toolCallId`. */
  const calls = new Map<string, OpenCall>();
  /** Calls with `inputEncoding: 'text'`: free text, not JSON. */
  const textInputs = new WeakSet<OpenCall>();
  /** Calls started in the current step, which a `reset-step` takes back. */
  let stepCalls = new Set<OpenCall>();
  let turnId: string | undefined;

  const turn = (): string => (turnId ??= book.fallbackTurnId());

  const startCall = (chunk: Rec, where: string): OpenCall | undefined => {
    const id = reqString(chunk, 'toolCallId', where);
    const name = reqString(chunk, 'toolName', where);
    if (calls.has(id)) return undefined;
    // A provider-executed tool runs at the provider, whose result this stream carries.
    const location = chunk.providerExecuted === true ? ('server' as const) : undefined;
    const call = book.start(book.uniqueCallId(id), name, turn(), location ? { location, awaitsOutcome: true } : {});
    if (chunk.inputEncoding === 'text') {
      // The fragments are free text, not JSON: they are not streamed, and only a
      // `tool-input-available` can complete the input.
      call.endArguments = (_how, why) => book.fail(call, `${book.provider}: ${why}; the text input of ${name} never arrived whole`);
      textInputs.add(call);
    }
    calls.set(id, call);
    stepCalls.add(call);
    return call;
  };
  const known = (chunk: Rec, where: string): OpenCall => {
    const id = reqString(chunk, 'toolCallId', where);
    const call = calls.get(id);
    if (call === undefined) throw unknownCall(where, id);
    return call;
  };

  /**
   * An outcome arrived: the input ends here if nothing ended it (the recorded LangGraph stream
   * sends no tool-input-available, so the streamed text is the input). Input that is not JSON
   * ends the call `failed` (one terminal event per call: docs/protocol.md, "Rules of the stream"), and the outcome then says nothing.
   */
  const beforeOutcome = (call: OpenCall, why: string): boolean => {
    book.endArguments(call, 'cut', why);
    return call.stage === 'issued';
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
        const call = known(chunk, type);
        if (call.stage !== 'arguments') throw new MalformedChunk(`tool-input-delta for ${call.callId} after its input was complete`);
        if (!textInputs.has(call)) book.delta(call, delta);
        return;
      }
      case 'tool-input-available':
      case 'tool-input-error': {
        const id = reqString(chunk, 'toolCallId', type);
        // Non-streamed calls arrive as a single `tool-input-available`.
        const call = calls.get(id) ?? startCall(chunk, type);
        if (call === undefined) return;
        if (type === 'tool-input-error') {
          const errorText = optString(chunk, 'errorText', type) ?? 'invalid input';
          book.fail(call, `${book.provider}: the input of ${call.name} is invalid: ${errorText}`);
          return;
        }
        // The provider's own parsed input wins over the joined fragments.
        book.complete(call, chunk.input === undefined ? {} : chunk.input);
        return;
      }
      case 'tool-output-available': {
        const call = known(chunk, type);
        if (call.stage === 'over' || !beforeOutcome(call, 'the output arrived')) return;
        if (chunk.preliminary === true) {
          // A preliminary output (a tool that yields as it goes) replaces the last one.
          book.outcome(call, { type: 'tool.stream', phase: 'progress', callId: call.callId, output: chunk.output });
          return;
        }
        book.outcome(call, { type: 'tool.stream', phase: 'settled', callId: call.callId, ok: true, output: chunk.output });
        return;
      }
      case 'tool-output-error': {
        const call = known(chunk, type);
        if (call.stage === 'over') return;
        const errorText = optString(chunk, 'errorText', type);
        if (!beforeOutcome(call, 'the tool failed')) return;
        // The call was issued and its tool ran and failed: `settled` with FAILED and the tool's
        // error text. (`failed` is the model stopping before the arguments were complete; after
        // `issued` the store refuses it and the call would stay issued for good.)
        book.outcome(call, {
          type: 'tool.stream',
          phase: 'settled',
          callId: call.callId,
          ok: false,
          code: 'FAILED',
          ...(errorText === undefined ? {} : { message: errorText }),
        });
        return;
      }
      case 'tool-output-denied': {
        const call = known(chunk, type);
        if (call.stage === 'over' || !beforeOutcome(call, 'the call was denied')) return;
        book.outcome(call, { type: 'tool.stream', phase: 'settled', callId: call.callId, ok: false, code: 'REJECTED' });
        return;
      }
      case 'start-step':
        stepCalls = new Set();
        return;
      case 'reset-step': {
        // AI SDK 7 removes every part the current step added (a retried step): its calls are
        // gone from the message, so those not yet over end cancelled.
        const taken = stepCalls;
        stepCalls = new Set();
        book.end({ kind: 'aborted' }, (call) => taken.has(call) && !keep(call));
        return;
      }
      case 'finish-step':
      case 'finish':
        // A step's tool inputs are complete when the step ends.
        book.end({ kind: 'finished', why: `the ${type === 'finish' ? 'message' : 'step'} finished before the input was complete` });
        return;
      case 'abort':
        // The user stopped the stream: like the store's interrupt (docs/protocol.md, "Rules of the
        // stream": it cancels every open call of that turn), every call not yet ended is cancelled, also one whose input is
        // complete and whose output will now never come.
        book.end({ kind: 'aborted' }, (call) => !keep(call));
        return;
      case 'error':
        // The stream broke off: a call still writing its arguments failed; one already issued
        // will get no outcome from this stream, so it is cancelled (as on abort), not left issued.
        book.end({ kind: 'error', message: optString(chunk, 'errorText', type) ?? 'unknown error' }, (call) => !keep(call));
        return;
      default:
        return; // text, reasoning, sources, data parts, approvals: ignored
    }
  };

  return { handle, call: (toolCallId) => calls.get(toolCallId) };
}
