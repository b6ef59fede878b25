import { useState, type FormEvent } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { Chat, useChat } from '@ai-sdk/react';
import { lastAssistantMessageIsCompleteWithApprovalResponses, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from 'ai';
import { ConfirmToolDialog, ToolCallList, ToolgateProvider, useAppTool } from 'toolgate';
import { createAISDKBridge } from 'toolgate/ai-sdk';
import { callParts, finishPart, inPageTransport, scriptedModel, serverTools, textParts, type Turn } from '../../test/bridges/ai-sdk-model';
import { playToolsAndApproval } from '../support/bridges';
import { Frame, storySpeed } from '../support/scenarios';

interface Args {
  /** How fast the model writes: 1 is one part every 60 ms (instant when run as a test). */
  speed: number;
}

/**
 * `toolgate/ai-sdk` with the AI SDK's real `Chat` and `useChat`: the model (the AI SDK's mock
 * language model through `streamText`, answering in the page) calls a server tool, an app tool
 * the page registers with `useAppTool`, and a tool that needs a person's approval. The cards show
 * the argument text as it streams; the approval goes through the kit's dialog.
 */
const meta = {
  title: 'Bridges/AI SDK chat',
  tags: ['autodocs'],
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const TURNS: Turn[] = [
  { parts: [...callParts('call-weather', 'weather', ['{"ci', 'ty":', '"Os', 'lo"}']), finishPart('tool-calls')] },
  { parts: [...textParts('Clear in Oslo. '), ...callParts('call-title', 'setTitle', ['{"title":', '"Oslo: clear"}']), finishPart('tool-calls')] },
  { parts: [...callParts('call-delete', 'deleteFile', ['{"path":', '"/tmp/forecast.txt"}']), finishPart('tool-calls')] },
  { parts: [...textParts('Done: the old forecast is gone.'), finishPart('stop')] },
];

function useDemo(speed: number, turns: Turn[]) {
  const [demo] = useState(() => {
    const pace = storySpeed(speed);
    const scripted = scriptedModel(turns, { delayMs: pace === Infinity ? 0 : 60 / pace });
    const bridge = createAISDKBridge();
    const chat = new Chat<UIMessage>({
      transport: bridge.transport(inPageTransport(scripted.model, serverTools({ deleted: [] }))),
      onToolCall: bridge.onToolCall,
      sendAutomaticallyWhen: ({ messages }) =>
        lastAssistantMessageIsCompleteWithApprovalResponses({ messages }) || lastAssistantMessageIsCompleteWithToolCalls({ messages }),
    });
    bridge.connect(chat);
    return { bridge, chat, release: scripted.release };
  });
  return demo;
}

/** The page's own tool: sets the title shown above the chat. */
function TitleTool({ onTitle }: { onTitle: (title: string) => void }) {
  useAppTool({
    name: 'setTitle',
    description: "Set the page's title",
    parameters: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
    run: ({ title }) => {
      onTitle(String(title));
      return { title };
    },
  });
  return null;
}

function ChatPage({ speed, turns = TURNS }: { speed: number; turns?: Turn[] }) {
  const { bridge, chat } = useDemo(speed, turns);
  const { messages, status, sendMessage, stop } = useChat({ chat });
  const [title, setTitle] = useState('Weather');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void sendMessage({ text: 'What is the weather in Oslo? Then tidy up.' });
  };
  return (
    <ToolgateProvider client={bridge.client}>
      <Frame>
        <TitleTool onTitle={setTitle} />
        <h2 style={{ margin: 0 }} data-testid="title">
          {title}
        </h2>
        <form onSubmit={submit} style={{ display: 'flex', gap: '0.5rem' }}>
          <button type="submit" disabled={status !== 'ready'}>
            Ask
          </button>
          <button type="button" onClick={() => void stop()} disabled={status !== 'streaming' && status !== 'submitted'}>
            Stop
          </button>
          <span data-testid="chat-status">Chat: {status}</span>
        </form>
        <ol aria-label="Messages" style={{ margin: 0 }}>
          {messages.map((message) => (
            <li key={message.id}>
              <strong>{message.role}:</strong>{' '}
              {message.parts.map((part, i) => (part.type === 'text' ? <span key={i}>{part.text}</span> : null))}
            </li>
          ))}
        </ol>
        <ToolCallList />
        <ConfirmToolDialog />
      </Frame>
    </ToolgateProvider>
  );
}

/**
 * The whole loop: `weather` runs on the server, `setTitle` runs in the page (through the kit's
 * host, answered with the chat's `addToolOutput`), `deleteFile` waits for Approve in the kit's
 * dialog (answered with `addToolApprovalResponse`), then the chat goes on.
 */
export const ToolsAndApproval: Story = {
  render: ({ speed }) => <ChatPage key={speed} speed={speed} />,
  play: ({ canvasElement }) =>
    playToolsAndApproval(canvasElement, async (canvas, allSettled) => {
      await waitFor(allSettled);
      await waitFor(() => expect(canvas.getByRole('list', { name: 'Messages' })).toHaveTextContent('Done: the old forecast is gone.'));
    }),
};

/** Stop while the model is still writing a call's arguments: the call is cancelled at once. */
export const StoppedMidCall: Story = {
  render: ({ speed }) => (
    <ChatPage
      key={speed}
      speed={speed}
      turns={[{ parts: [{ type: 'tool-input-start', id: 'call-weather', toolName: 'weather' }, { type: 'tool-input-delta', id: 'call-weather', delta: '{"city":"Os' }], holdAfter: 2 }]}
    />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }));
    await waitFor(() => expect(canvas.getByRole('article')).toHaveAttribute('data-status', 'streaming'));
    await userEvent.click(canvas.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(canvas.getByRole('article')).toHaveAttribute('data-status', 'cancelled'));
    await waitFor(() => expect(canvas.getByTestId('chat-status')).toHaveTextContent('Chat: ready'));
  },
};
