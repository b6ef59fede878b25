import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { Chat, useChat } from '@ai-sdk/react';
import { isToolUIPart, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai';
import { ConfirmToolDialog, ToolCallCard, ToolgateProvider } from 'toolgate';
import { createAISDKBridge, type AISDKBridge } from 'toolgate/ai-sdk';
import { callParts, finishPart, inPageTransport, scriptedModel, serverTools, textParts, type Turn } from '../../test/bridges/ai-sdk-model';
import { Frame } from '../support/scenarios';

/**
 * Cards in place in the conversation: each tool part of a chat message renders as its
 * `ToolCallCard`, found through `bridge.callIdOf(part.toolCallId)`, between the message's text
 * parts, rather than in a list beside the chat. The approval still goes through the dialog.
 */
const meta = {
  title: 'Bridges/Inline cards',
  tags: ['autodocs'],
  parameters: { layout: 'padded' },
} satisfies Meta;
export default meta;
type Story = StoryObj;

const TURNS: Turn[] = [
  { parts: [...textParts('Checking the weather, then tidying up. '), ...callParts('call-weather', 'weather', ['{"city":"Oslo"}']), ...callParts('call-delete', 'deleteFile', ['{"path":"/tmp/forecast.txt"}']), finishPart('tool-calls')] },
  { parts: [...textParts('Done.'), finishPart('stop')] },
];

function Message({ message, bridge }: { message: UIMessage; bridge: AISDKBridge }) {
  return (
    <li data-testid={`message-${message.role}`}>
      {message.parts.map((part, index) => {
        if (part.type === 'text') return <p key={index}>{part.text}</p>;
        if (!isToolUIPart(part)) return null;
        const callId = bridge.callIdOf(part.toolCallId);
        return callId === undefined ? null : <ToolCallCard key={part.toolCallId} callId={callId} />;
      })}
    </li>
  );
}

function InlineChat() {
  const [{ bridge, chat }] = useState(() => {
    const bridge = createAISDKBridge();
    const chat = new Chat<UIMessage>({
      transport: bridge.transport(inPageTransport(scriptedModel(TURNS).model, serverTools({ deleted: [] }))),
      onToolCall: bridge.onToolCall,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    bridge.connect(chat);
    return { bridge, chat };
  });
  const { messages, sendMessage, status } = useChat({ chat });
  return (
    <ToolgateProvider store={bridge.store} host={bridge.host} confirmations={bridge.confirmations}>
      <Frame>
        <button type="button" disabled={status !== 'ready'} onClick={() => void sendMessage({ text: 'Weather, then delete the old forecast' })}>
          Ask
        </button>
        <ol aria-label="Conversation">
          {messages.map((message) => (
            <Message key={message.id} message={message} bridge={bridge} />
          ))}
        </ol>
        <ConfirmToolDialog />
      </Frame>
    </ToolgateProvider>
  );
}

export const CardsInTheConversation: Story = {
  render: () => <InlineChat />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const page = within(canvasElement.ownerDocument.body);
    await userEvent.click(canvas.getByRole('button', { name: 'Ask' }));
    const dialog = await page.findByRole('dialog', {}, { timeout: 10_000 });
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Reason for the agent (optional)' }));
    await userEvent.paste('keep it');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deny' }));
    const conversation = canvas.getByRole('list', { name: 'Conversation' });
    // Both calls' cards sit inside the assistant's message, after its text, the denial with its reason.
    await waitFor(() => expect(within(conversation).getByText('keep it')).toBeInTheDocument(), { timeout: 10_000 });
    const assistant = within(conversation).getAllByTestId('message-assistant')[0]!;
    expect(assistant).toHaveTextContent('Checking the weather');
    expect(within(assistant).getAllByRole('article')).toHaveLength(2);
    expect(within(assistant).getByText('deleteFile')).toBeInTheDocument();
    expect(within(assistant).getByText('weather')).toBeInTheDocument();
  },
};
