/**
 * toolgate/ai-sdk with the chats of older AI SDK versions: their shape, without the package
 * (only one `ai` can be installed). AI SDK 5 answers a tool with `addToolResult`.
 */
import { describe, expect, it } from 'vitest';
import { createAISDKBridge, type ChatLike, type ChatToolOutput } from 'toolgate/ai-sdk';

/** Read a tapped stream to its end. */
async function drain(stream: ReadableStream<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

const chunksOf = (chunks: unknown[]) => ({
  sendMessages: async (_request: { messages: readonly unknown[]; abortSignal: AbortSignal | undefined }) =>
    new ReadableStream<unknown>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    }),
  reconnectToStream: async () => null,
});

describe('an AI SDK 5 chat', () => {
  it('gets its app tools answered through addToolResult', async () => {
    const bridge = createAISDKBridge();
    bridge.host.register({ name: 'setTitle', run: ({ title }) => ({ set: title }) });
    const answers: ChatToolOutput[] = [];
    const chat: ChatLike = { messages: [], addToolResult: (answer) => answers.push(answer), stop: () => undefined };
    bridge.connect(chat);
    const input = { title: 'Hi' };
    const transport = bridge.transport(
      chunksOf([
        { type: 'start', messageId: 'm1' },
        { type: 'tool-input-start', toolCallId: 'c1', toolName: 'setTitle' },
        { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"title":"Hi"}' },
        { type: 'tool-input-available', toolCallId: 'c1', toolName: 'setTitle', input },
        { type: 'finish' },
      ]),
    );
    // The chunks pass through unchanged, in order.
    expect(await drain(await transport.sendMessages({ messages: [], abortSignal: undefined }))).toHaveLength(5);
    bridge.onToolCall({ toolCall: { toolCallId: 'c1', toolName: 'setTitle', input } });
    await expect.poll(() => answers).toEqual([{ tool: 'setTitle', toolCallId: 'c1', output: { set: 'Hi' } }]);
    expect(bridge.store.getState().calls['c1']).toMatchObject({ status: 'settled', ok: true });
  });

  it('has its answers kept until it is connected, and is told so once', async () => {
    const codes: string[] = [];
    const bridge = createAISDKBridge({ onError: (_reason, _detail, code) => codes.push(code) });
    bridge.host.register({ name: 'a', run: () => 1 });
    bridge.host.register({ name: 'b', run: () => 2 });
    bridge.onToolCall({ toolCall: { toolCallId: 'x', toolName: 'a', input: {} } });
    bridge.onToolCall({ toolCall: { toolCallId: 'y', toolName: 'b', input: {} } });
    await expect.poll(() => codes.filter((c) => c === 'not-connected')).toHaveLength(1);
    const answers: ChatToolOutput[] = [];
    bridge.connect({ messages: [], addToolOutput: (answer) => answers.push(answer), stop: () => undefined });
    expect(answers.map((a) => a.toolCallId)).toEqual(['x', 'y']);
    expect(codes).toEqual(['not-tapped', 'not-tapped', 'not-connected']);
  });
});
