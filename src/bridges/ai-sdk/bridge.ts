/**
 * The two-way bridge between the AI SDK's chat (`useChat`, `Chat`, AI SDK 5 to 7) and the kit.
 *
 * - In: the chat's UI message stream, tapped in its transport, fills the store with the
 *   argument text as it streams (not the SDK's reparsed partial objects), then the outputs.
 * - Out: a call of an app tool the page registered runs through the kit's host (one at a time,
 *   validation, time limit, approval) and is answered with the chat's `addToolOutput`; an approval
 *   the chat asks for goes through the kit's confirmation queue and is answered with the chat's
 *   `addToolApprovalResponse`, only if the chat still holds the arguments the person saw.
 * - Stop: stopping the chat cancels every open call at once, here and now.
 */
import type { AppToolHost, ConfirmationController, ToolStreamEvent, ToolStreamStore, ToolgateClient } from '../../core';
import { describeThrown } from '../../core/external-store';
import { createAISDKChunkMapper } from '../../adapters/ai-sdk';
import { readChunk } from '../../adapters/base';
import { CallBook, type OpenCall } from '../../adapters/call-book';
import type { Rec } from '../../adapters/chunk-fields';
import type { LibraryTool } from '../shared/descriptors';
import { createBridgeKit, type BridgeOptions } from '../shared/kit';
import { tapStream } from '../shared/tap';
import { createChatCalls } from './chat-calls';
import { createChatLink } from './chat-link';
import { UI_MESSAGE_STREAM } from '../../adapters/vocabularies';
import { toolPartsOf, type ChatLike, type ChatToolCall, type ChatTransportLike, type TappedTransport } from './chat-types';

/**
 * Options of {@link createAISDKBridge}: the kit's parts (made for you when absent), the tools'
 * descriptors for the approval dialog, `onError`, and the name in reports (default `AI SDK`).
 *
 * @example
 * const bridge = createAISDKBridge({ describe: (name) => descriptors[name], onError: (reason, detail, code) => console.warn(code, reason) } satisfies AISDKBridgeOptions);
 */
export interface AISDKBridgeOptions extends BridgeOptions {
  label?: string;
  /**
   * The chat's tools as the server declares them (the same `tools` object, where the app shares
   * it): each one's `description`, `title`, `needsApproval` and MCP `metadata` describe it in
   * the dialog, unless `describe` says otherwise. Tools the stream names are read as they come too.
   */
  tools?: Record<string, LibraryTool>;
}

/**
 * The bridge: hand `transport()` and `onToolCall` to the chat, `connect()` the chat, and give
 * `store`, `host` and `confirmations` to `<ToolgateProvider>`.
 *
 * @example
 * const bridge: AISDKBridge = createAISDKBridge();
 * const chat = new Chat({ transport: bridge.transport(new DefaultChatTransport({ api: '/api/chat' })), onToolCall: bridge.onToolCall });
 * bridge.connect(chat);
 */
export interface AISDKBridge {
  /** The client the bridge fills and answers through: give it to `<ToolgateProvider client>`. */
  readonly client: ToolgateClient;
  readonly store: ToolStreamStore;
  readonly host: AppToolHost;
  readonly confirmations: ConfirmationController;
  /** The chat's transport, each of its response streams read on the way: give this to the chat. */
  transport<T extends ChatTransportLike>(inner: T): TappedTransport<T>;
  /** The chat's `onToolCall`: a call of an app tool the page has runs through the host. */
  readonly onToolCall: (options: { toolCall: ChatToolCall }) => void;
  /**
   * Answer through this chat, and stop with it: its `stop` (and `useChat`'s) also stops the kit's
   * calls; an interrupt in the page (`useInterrupt`) stops the chat. Call it right after creating
   * the chat. Returns the function that disconnects.
   */
  connect(chat: ChatLike): () => void;
  /** Cancel every open call, abort the app tools' runs and withdraw the approvals, at once. */
  stop(): void;
  /**
   * The store's call id of a chat tool part (`part.toolCallId`), for its card in place in the
   * conversation: `<ToolCallCard callId={bridge.callIdOf(part.toolCallId)} />`. `undefined`
   * for a call that never came through `transport()`.
   */
  callIdOf(toolCallId: string): string | undefined;
}

/**
 * Connect a chat of the AI SDK to the kit; see {@link AISDKBridge}.
 *
 * @example
 * const bridge = createAISDKBridge();
 * const chat = new Chat({
 *   transport: bridge.transport(new DefaultChatTransport({ api: '/api/chat' })),
 *   onToolCall: bridge.onToolCall,
 *   sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
 * });
 * bridge.connect(chat);
 * // <ToolgateProvider client={bridge.client}>
 */
export function createAISDKBridge(options: AISDKBridgeOptions = {}): AISDKBridge {
  const kit = createBridgeKit(options);
  for (const [name, tool] of Object.entries(options.tools ?? {})) kit.learn(name, tool);
  const book = new CallBook('AI SDK', { onError: kit.report, label: options.label });
  /** Calls handed to the page (its app tool runs, a person reviews): the streams' boundaries leave them. */
  const handed = new Set<OpenCall>();
  const mapper = createAISDKChunkMapper(book, { keep: (call) => handed.has(call) });
  const say = (reason: string, detail: unknown, code: string): void => kit.report(`${book.provider}: ${reason}`, detail, code);
  const flush = (): void => kit.dispatch(book.drain());

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    try {
      kit.interrupt();
      book.end({ kind: 'aborted' });
      flush();
    } finally {
      stopping = false;
    }
  };

  const link = createChatLink({ say, host: kit.host, stop, stopping: () => stopping });
  const reasons = new Map<string, string>();
  const calls = createChatCalls({ kit, book, mapper, link, handed, say, reasons });

  const ignoredTypes = new Set<string>();
  const handle = (chunk: Rec): void => {
    const type = chunk.type;
    if (typeof type === 'string' && !UI_MESSAGE_STREAM.has(type) && !ignoredTypes.has(type)) {
      ignoredTypes.add(type);
      say(`chunks of type "${type}" are not part of the UI message stream; they are ignored`, chunk, 'ignored-chunk');
    }
    if (type === 'tool-input-available') calls.inputAvailable(chunk);
    // A call's chunks carry its tool's title and metadata (an MCP tool's annotations among them).
    if ((type === 'tool-input-start' || type === 'tool-input-available') && typeof chunk.toolName === 'string' && (chunk.toolMetadata !== undefined || chunk.title !== undefined)) {
      kit.learn(chunk.toolName, { title: chunk.title, metadata: chunk.toolMetadata });
    }
    mapper.handle(chunk);
    if (type === 'tool-approval-request') calls.askApproval(chunk);
  };

  /** A denial's card says why: the reason the person gave travels with the chat's answer, not with the stream's `tool-output-denied`. */
  const withReasons = (events: ToolStreamEvent[]): ToolStreamEvent[] =>
    events.map((event) => {
      if (event.phase !== 'settled' || event.ok || event.code !== 'REJECTED' || event.message !== undefined) return event;
      const reason = reasons.get(event.callId);
      return reason === undefined ? event : { ...event, message: reason };
    });

  /** Outcomes the page added to the chat itself (its own `addToolOutput`), read from what the chat sends next. */
  const settleFromMessages = (messages: readonly unknown[]): void => {
    for (const part of toolPartsOf(messages)) {
      const call = mapper.call(part.toolCallId);
      // A denial the page answered through the chat itself: its reason is the card's to show.
      if (call !== undefined && part.approval?.approved === false && typeof part.approval.reason === 'string') reasons.set(call.callId, part.approval.reason);
      if (call === undefined || call.stage !== 'issued' || handed.has(call)) continue;
      const base = { type: 'tool.stream', phase: 'settled', callId: call.callId } as const;
      if (part.state === 'output-available') book.outcome(call, { ...base, ok: true, output: part.output });
      else if (part.state === 'output-error') {
        book.outcome(call, { ...base, ok: false, code: 'FAILED', ...(typeof part.errorText === 'string' ? { message: part.errorText } : {}) });
      } else if (part.state === 'output-denied') {
        const reason = reasons.get(call.callId);
        book.outcome(call, { ...base, ok: false, code: 'REJECTED', ...(reason === undefined ? {} : { message: reason }) });
      }
    }
    flush();
  };

  const tap = (stream: ReadableStream<unknown>, signal: AbortSignal | undefined): ReadableStream<unknown> => {
    const done = (): void => signal?.removeEventListener('abort', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    return tapStream(stream, {
      value: (chunk) => kit.dispatch(withReasons(readChunk(book, chunk, handle))),
      end: () => {
        done();
        book.end({ kind: 'finished', why: 'the response ended before the input was complete' });
        flush();
      },
      broke: (error) => {
        done();
        if (signal?.aborted) return;
        book.end({ kind: 'error', message: describeThrown(error) }, (call) => !handed.has(call));
        flush();
      },
    });
  };

  const transport = <T extends ChatTransportLike>(inner: T): TappedTransport<T> => {
    const tapped: ChatTransportLike = {
      sendMessages: async (request) => {
        settleFromMessages(request.messages);
        return tap(await inner.sendMessages(request), request.abortSignal);
      },
      reconnectToStream: async (request) => {
        const stream = await inner.reconnectToStream(request);
        return stream === null ? null : tap(stream, request.abortSignal);
      },
    };
    if ('resumeStreamIsReplay' in inner) Object.defineProperty(tapped, 'resumeStreamIsReplay', { get: () => inner.resumeStreamIsReplay, enumerable: true });
    if (typeof inner.close === 'function') tapped.close = () => inner.close?.();
    return tapped as unknown as TappedTransport<T>;
  };

  return {
    client: kit.client,
    store: kit.store,
    host: kit.host,
    confirmations: kit.confirmations,
    transport,
    onToolCall: calls.onToolCall,
    connect: link.connect,
    stop,
    callIdOf: (toolCallId) => mapper.call(toolCallId)?.callId,
  };
}
