/**
 * A scripted language model for the AI SDK bridge's tests and story: the AI SDK's own
 * `MockLanguageModelV4` (from `ai/test`) giving one scripted turn per model call, run through the
 * real `streamText` and its UI message stream. Works in Node and in the browser.
 */
import { convertToModelMessages, jsonSchema, streamText, tool, type ChatTransport, type UIMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

type Part = Record<string, unknown> & { type: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A tool call as a model streams it: its input in these fragments. */
export const callParts = (id: string, toolName: string, fragments: string[]): Part[] => [
  { type: 'tool-input-start', id, toolName },
  ...fragments.map((delta) => ({ type: 'tool-input-delta', id, delta })),
  { type: 'tool-input-end', id },
  { type: 'tool-call', toolCallId: id, toolName, input: fragments.join('') },
];
export const textParts = (text: string): Part[] => [
  { type: 'text-start', id: 'text' },
  { type: 'text-delta', id: 'text', delta: text },
  { type: 'text-end', id: 'text' },
];
export const finishPart = (reason: 'tool-calls' | 'stop'): Part => ({
  type: 'finish',
  finishReason: { unified: reason, raw: reason === 'tool-calls' ? 'tool_calls' : 'stop' },
  usage,
});

/** One model call: its parts; `holdAfter` parts in, the stream waits until `release()` (or is cancelled). */
export interface Turn {
  parts: Part[];
  holdAfter?: number;
}

export interface ScriptedModel {
  model: MockLanguageModelV4;
  /** Lets a held turn go on. */
  release(): void;
  /** How many turns the model has started. */
  readonly calls: number;
}

/** `delayMs`: the pause before each part (0 in tests; a story slows the model down to watch it). */
export function scriptedModel(turns: Turn[], options: { delayMs?: number } = {}): ScriptedModel {
  const delayMs = options.delayMs ?? 0;
  let released: () => void = () => {};
  let calls = 0;
  const model = new MockLanguageModelV4({
    doStream: async () => {
      const turn = turns[calls++];
      if (turn === undefined) throw new Error(`the model was called ${calls} times; the script has ${turns.length} turns`);
      const parts = [{ type: 'stream-start', warnings: [] }, ...turn.parts];
      const hold = turn.holdAfter === undefined ? -1 : turn.holdAfter + 1;
      let index = 0;
      let cancelled = false;
      const stream = new ReadableStream<Part>({
        async pull(controller) {
          if (index === hold) {
            await new Promise<void>((resolve) => {
              released = resolve;
            });
            if (cancelled) return;
          }
          if (delayMs > 0 && index > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          if (index < parts.length) controller.enqueue(parts[index++]!);
          else controller.close();
        },
        cancel() {
          cancelled = true;
          released();
        },
      });
      return { stream } as never;
    },
  });
  return {
    model,
    release: () => released(),
    get calls() {
      return calls;
    },
  };
}

/** What the server ran, for the tests to check against what a person saw. */
export interface ServerLog {
  deleted: unknown[];
}

/** The server's tools: `weather` runs there, `deleteFile` needs an approval first, `setTitle` is the page's. */
export function serverTools(log: ServerLog) {
  return {
    weather: tool({
      description: 'The weather in a city',
      inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
      execute: async ({ city }) => ({ city, temperature: 3, sky: 'clear' }),
    }),
    deleteFile: tool({
      description: 'Delete a file',
      inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
      needsApproval: true,
      execute: async (input) => {
        log.deleted.push(input);
        return { deleted: input.path };
      },
    }),
    // A tool an MCP server lists, as `@ai-sdk/mcp` makes it: its annotations in the tool's metadata.
    clearCache: tool({
      description: 'Clear the build cache',
      inputSchema: jsonSchema<{ scope: string }>({ type: 'object', properties: { scope: { type: 'string' } }, required: ['scope'] }),
      metadata: { clientName: 'build-server', toolName: 'clearCache', annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true } },
      needsApproval: true,
      execute: async ({ scope }) => ({ cleared: scope }),
    }),
    setTitle: tool({
      description: "Set the page's title",
      inputSchema: jsonSchema<{ title: string }>({ type: 'object', properties: { title: { type: 'string' } }, required: ['title'] }),
    }),
  };
}

/**
 * How the route runs the model: `approvalSecret` turns on the SDK's own signed approvals (each
 * approval request is HMAC-signed when issued and checked when the answer comes back);
 * `onError` hears what `streamText` refused, a bad signature among it.
 */
export interface RespondOptions {
  approvalSecret?: string;
  onError?: (error: unknown) => void;
}

/** What a route handler does with a chat request: the model's next turn as a UI message stream. */
export async function respond(
  model: MockLanguageModelV4,
  tools: ReturnType<typeof serverTools>,
  messages: UIMessage[],
  abortSignal?: AbortSignal,
  options: RespondOptions = {},
) {
  const result = streamText({
    model,
    messages: await convertToModelMessages(messages, { tools }),
    tools,
    abortSignal,
    ...(options.approvalSecret === undefined ? {} : { experimental_toolApprovalSecret: options.approvalSecret }),
    ...(options.onError === undefined ? {} : { onError: ({ error }: { error: unknown }) => options.onError?.(error) }),
  });
  return result;
}

/** A transport that answers in the page itself (for the story: no server in a browser test). */
export function inPageTransport(model: MockLanguageModelV4, tools: ReturnType<typeof serverTools>): ChatTransport<UIMessage> {
  return {
    async sendMessages({ messages, abortSignal }) {
      const result = await respond(model, tools, messages, abortSignal);
      return result.toUIMessageStream({ originalMessages: messages });
    },
    async reconnectToStream() {
      return null;
    },
  };
}
