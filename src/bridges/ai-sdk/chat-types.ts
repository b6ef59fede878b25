/**
 * The parts of the AI SDK the bridge touches, described by their shape rather than imported, so
 * that the entry loads without `ai` and takes the chat of any version from 5 to 7 (`Chat` of
 * `@ai-sdk/react`, `@ai-sdk/vue`, `@ai-sdk/svelte`, or any `AbstractChat`).
 */

/**
 * What the bridge needs of a chat transport (`DefaultChatTransport`, `TextStreamChatTransport`, your own).
 *
 * @example
 * const inner: ChatTransportLike = new DefaultChatTransport({ api: '/api/chat' });
 */
export interface ChatTransportLike {
  sendMessages(options: { messages: readonly unknown[]; abortSignal: AbortSignal | undefined }): Promise<ReadableStream<unknown>>;
  reconnectToStream(options: { abortSignal?: AbortSignal | undefined }): Promise<ReadableStream<unknown> | null>;
  readonly resumeStreamIsReplay?: boolean;
  close?(): void;
}

/**
 * The transport `bridge.transport(inner)` returns: the inner one's methods, each stream tapped.
 *
 * @example
 * const transport: TappedTransport<DefaultChatTransport<UIMessage>> = bridge.transport(new DefaultChatTransport({ api }));
 */
export type TappedTransport<T extends ChatTransportLike> = Pick<T, Extract<keyof T, keyof ChatTransportLike>>;

/**
 * The tool call the chat's `onToolCall` receives.
 *
 * @example
 * const call: ChatToolCall = { toolCallId: 'c1', toolName: 'setTitle', input: { title: 'Hi' } };
 */
export interface ChatToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerExecuted?: boolean;
}

/**
 * How the page answers an app tool's call in the chat (AI SDK 6+ `addToolOutput`, 5's `addToolResult`).
 *
 * @example
 * const failed: ChatToolOutput = { state: 'output-error', tool: 'setTitle', toolCallId: 'c1', errorText: 'INVALID: title is required' };
 */
export type ChatToolOutput =
  | { tool: string; toolCallId: string; output: unknown }
  | { state: 'output-error'; tool: string; toolCallId: string; errorText: string };

/**
 * What the bridge needs of a chat: its messages (to check what a person approved), the calls
 * that answer tools and approvals, and `stop`.
 *
 * @example
 * const chat = new Chat({ transport: bridge.transport(new DefaultChatTransport({ api })), onToolCall: bridge.onToolCall });
 * const disconnect = bridge.connect(chat satisfies ChatLike);
 */
export interface ChatLike {
  readonly messages: readonly unknown[];
  addToolOutput?(options: ChatToolOutput): unknown;
  /** AI SDK 5's name for `addToolOutput`. */
  addToolResult?(options: ChatToolOutput): unknown;
  addToolApprovalResponse?(options: { id: string; approved: boolean; reason?: string }): unknown;
  stop(): unknown;
}

/** A tool part of a UI message, as far as the bridge reads it. */
export interface ToolPart {
  /** `tool-NAME`, or `dynamic-tool` with the name in `toolName`. */
  type: string;
  toolName?: unknown;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: unknown;
  approval?: { id?: unknown; approved?: unknown; reason?: unknown };
}

/** The tool a part calls: `tool-NAME`'s NAME, or a dynamic tool's `toolName`. */
export const toolNameOf = (part: ToolPart): string | undefined =>
  part.type === 'dynamic-tool' ? (typeof part.toolName === 'string' ? part.toolName : undefined) : part.type.slice('tool-'.length);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The tool parts of a chat's messages (`tool-NAME` and `dynamic-tool` parts), newest message last. */
export function* toolPartsOf(messages: readonly unknown[]): Generator<ToolPart> {
  for (const message of messages) {
    if (!isObject(message) || !Array.isArray(message.parts)) continue;
    for (const part of message.parts as unknown[]) {
      if (!isObject(part) || typeof part.type !== 'string') continue;
      if (!part.type.startsWith('tool-') && part.type !== 'dynamic-tool') continue;
      if (typeof part.toolCallId !== 'string' || typeof part.state !== 'string') continue;
      yield part as unknown as ToolPart;
    }
  }
}

