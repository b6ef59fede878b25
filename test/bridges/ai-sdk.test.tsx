/**
 * toolgate/ai-sdk end to end with the real libraries: the AI SDK's mock language model through
 * `streamText` and its UI message stream on a real HTTP route, the page's `DefaultChatTransport`
 * and `Chat` (@ai-sdk/react, with `useChat`), and the kit rendered in React.
 */
import { StrictMode, useState } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Chat, useChat } from '@ai-sdk/react';
import {
  isToolUIPart,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from 'ai';
import { ConfirmToolDialog, ToolCallCard, ToolCallList, ToolgateProvider, useAppTool, useInterrupt, type AppTool } from 'toolgate';
import { createAISDKBridge, type AISDKBridge, type AISDKBridgeOptions } from 'toolgate/ai-sdk';
import { callParts, finishPart, textParts, type Turn } from './ai-sdk-model';
import { startChatServer, type ChatServer } from './ai-sdk-server';

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Reported {
  reason: string;
  detail: unknown;
  code: string;
}

async function setup(turns: Turn[], options: { connect?: boolean; bridge?: AISDKBridgeOptions } = {}) {
  const server = await startChatServer(turns);
  servers.push(server);
  const reported: Reported[] = [];
  const bridge = createAISDKBridge({ ...options.bridge, onError: (reason, detail, code) => reported.push({ reason, detail, code }) });
  const chat = new Chat<UIMessage>({
    transport: bridge.transport(new DefaultChatTransport<UIMessage>({ api: server.url })),
    onToolCall: bridge.onToolCall,
    sendAutomaticallyWhen: ({ messages }) =>
      lastAssistantMessageIsCompleteWithApprovalResponses({ messages }) || lastAssistantMessageIsCompleteWithToolCalls({ messages }),
  });
  if (options.connect !== false) bridge.connect(chat);
  return { server, bridge, chat, reported };
}

/** The page: the kit's provider around the bridge's parts, an app tool, the cards and the dialog. */
function Page({ bridge, chat, tools = [] }: { bridge: AISDKBridge; chat: Chat<UIMessage>; tools?: AppTool[] }) {
  const { status } = useChat({ chat });
  return (
    <ToolgateProvider store={bridge.store} host={bridge.host} confirmations={bridge.confirmations}>
      {tools.map((tool) => (
        <RegisteredTool key={tool.name} tool={tool} />
      ))}
      <p data-testid="status">{status}</p>
      <StopButton />
      <ToolCallList />
      <ConfirmToolDialog />
    </ToolgateProvider>
  );
}

function RegisteredTool({ tool }: { tool: AppTool }) {
  useAppTool(tool);
  return null;
}

function StopButton() {
  const interrupt = useInterrupt();
  return (
    <button type="button" onClick={() => interrupt()}>
      Interrupt
    </button>
  );
}

const lastParts = (chat: Chat<UIMessage>) => chat.messages.at(-1)?.parts ?? [];
const calls = (bridge: AISDKBridge) => {
  const { calls: byId, order } = bridge.store.getState();
  return order.map((id) => byId[id]!);
};

describe('the chat’s stream fills the store', () => {
  it('with the argument text fragments as the model streams them, then the output', async () => {
    const { bridge, chat, reported } = await setup([
      { parts: [...callParts('c1', 'weather', ['{"city":', '"Os', 'lo"}']), finishPart('tool-calls')] },
      { parts: [...textParts('Clear in Oslo.'), finishPart('stop')] },
    ]);
    const texts: string[] = [];
    bridge.store.subscribe((state) => {
      const text = state.calls['c1']?.argumentsText;
      if (text && text !== texts.at(-1)) texts.push(text);
    });
    await act(() => chat.sendMessage({ text: 'Weather in Oslo?' }));
    await waitFor(() => expect(calls(bridge)[0]?.status).toBe('settled'));
    expect(texts).toEqual(['{"city":', '{"city":"Os', '{"city":"Oslo"}']);
    expect(calls(bridge)[0]).toMatchObject({ name: 'weather', ok: true, arguments: { city: 'Oslo' }, output: { city: 'Oslo', temperature: 3, sky: 'clear' } });
    expect(reported).toEqual([]);
  });
});

describe('app tools registered with useAppTool', () => {
  const setTitle = (ran: unknown[]): AppTool => ({
    name: 'setTitle',
    parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    run: (args) => {
      ran.push(args);
      return { title: (args as { title: string }).title };
    },
  });

  it("run through the host from the chat's tool call, answer with addToolOutput, and the chat goes on", async () => {
    const { bridge, chat, server, reported } = await setup([
      { parts: [...callParts('c1', 'setTitle', ['{"title":', '"Hi"}']), finishPart('tool-calls')] },
      { parts: [...textParts('Title set.'), finishPart('stop')] },
    ]);
    const ran: unknown[] = [];
    render(
      <StrictMode>
        <Page bridge={bridge} chat={chat} tools={[setTitle(ran)]} />
      </StrictMode>,
    );
    await act(() => chat.sendMessage({ text: 'Set the title' }));
    await waitFor(() => expect(server.requests).toHaveLength(2));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('ready'));
    expect(ran).toEqual([{ title: 'Hi' }]);
    // The chat sent the page's answer back to the model.
    const answered = server.requests[1]!.at(-1)!.parts.find((p) => p.type === 'tool-setTitle');
    expect(answered).toMatchObject({ state: 'output-available', output: { title: 'Hi' } });
    expect(calls(bridge)[0]).toMatchObject({ callId: 'c1', status: 'settled', ok: true, output: { title: 'Hi' } });
    expect(lastParts(chat).some((p) => p.type === 'text' && p.text === 'Title set.')).toBe(true);
    expect(reported).toEqual([]);
  });

  it('answer a call that fails validation as an output error with its code, and run nothing', async () => {
    const { bridge, chat, server } = await setup([
      { parts: [...callParts('c1', 'setTitle', ['{"name":"x"}']), finishPart('tool-calls')] },
      { parts: [...textParts('Sorry.'), finishPart('stop')] },
    ]);
    const ran: unknown[] = [];
    render(<Page bridge={bridge} chat={chat} tools={[setTitle(ran)]} />);
    await act(() => chat.sendMessage({ text: 'Set the title' }));
    await waitFor(() => expect(server.requests).toHaveLength(2));
    expect(ran).toEqual([]);
    const answered = server.requests[1]!.at(-1)!.parts.find((p) => p.type === 'tool-setTitle');
    expect(answered).toMatchObject({ state: 'output-error', errorText: expect.stringMatching(/^INVALID: /) });
    await waitFor(() => expect(calls(bridge)[0]).toMatchObject({ status: 'settled', ok: false, code: 'INVALID', message: expect.any(String) }));
  });

  it('leave the calls of tools the page does not have to the server', async () => {
    const { bridge, chat, server } = await setup([
      { parts: [...callParts('c1', 'weather', ['{"city":"Oslo"}']), finishPart('tool-calls')] },
      { parts: [...textParts('Clear.'), finishPart('stop')] },
    ]);
    const ran: unknown[] = [];
    render(<Page bridge={bridge} chat={chat} tools={[setTitle(ran)]} />);
    await act(() => chat.sendMessage({ text: 'Weather?' }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('ready'));
    expect(bridge.host.getState().queue).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(calls(bridge)[0]).toMatchObject({ name: 'weather', status: 'settled', ok: true });
  });
});

describe("the chat's approval requests", () => {
  const approvalTurns = (path = '/tmp/report.txt'): Turn[] => [
    { parts: [...callParts('c1', 'deleteFile', [`{"path":`, JSON.stringify(path) + '}']), finishPart('tool-calls')] },
    { parts: [...textParts('Done.'), finishPart('stop')] },
  ];

  it("go through the kit's confirmation queue, and an approval is answered with addToolApprovalResponse", async () => {
    const { bridge, chat, server, reported } = await setup(approvalTurns());
    const user = userEvent.setup();
    render(
      <StrictMode>
        <Page bridge={bridge} chat={chat} />
      </StrictMode>,
    );
    await act(() => chat.sendMessage({ text: 'Delete the report' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('deleteFile');
    expect(dialog).toHaveTextContent('/tmp/report.txt');
    expect(server.log.deleted).toEqual([]);
    // The card says what the call waits for.
    expect(calls(bridge)[0]).toMatchObject({ status: 'issued', approval: 'awaiting' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(server.log.deleted).toEqual([{ path: '/tmp/report.txt' }]));
    const sent = server.requests[1]!.at(-1)!.parts.find((p) => p.type === 'tool-deleteFile');
    expect(sent).toMatchObject({ state: 'approval-responded', approval: { approved: true } });
    await waitFor(() => expect(calls(bridge)[0]).toMatchObject({ status: 'settled', ok: true, output: { deleted: '/tmp/report.txt' } }));
    expect(calls(bridge)[0]).toMatchObject({ approval: 'approved', approvedArguments: { path: '/tmp/report.txt' } });
    expect(reported).toEqual([]);
  });

  it('a denial is answered with addToolApprovalResponse too, and the tool never runs', async () => {
    const { bridge, chat, server } = await setup(approvalTurns());
    const user = userEvent.setup();
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete the report' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(calls(bridge)[0]).toMatchObject({ status: 'settled', ok: false, code: 'REJECTED', approval: 'denied' }));
    const sent = server.requests[1]!.at(-1)!.parts.find((p) => p.type === 'tool-deleteFile');
    expect(sent).toMatchObject({ approval: { approved: false } });
    // The reason field left empty: no reason is made up, for the model or for the card.
    expect((sent as { approval: { reason?: unknown } }).approval.reason).toBeUndefined();
    expect(calls(bridge)[0]?.message).toBeUndefined();
    expect(server.log.deleted).toEqual([]);
  });

  it('withdraw: answered with addToolApprovalResponse as a denial whose reason says cancelled, not rejected; the card says cancelled; nothing runs', async () => {
    const { bridge, chat, server } = await setup(approvalTurns());
    const user = userEvent.setup();
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete the report' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Withdraw request' }));
    await waitFor(() => expect(server.requests).toHaveLength(2));
    const sent = server.requests[1]!.at(-1)!.parts.find((p) => p.type === 'tool-deleteFile');
    expect(sent).toMatchObject({ approval: { approved: false, reason: expect.stringMatching(/^cancelled: the person withdrew the request/) } });
    expect(calls(bridge)[0]?.approval).toBe('cancelled');
    expect(server.log.deleted).toEqual([]);
  });

  it('respond: the SDK has no respond, so the answer goes back as the tool output (addToolOutput), marked answered by a person; nothing runs', async () => {
    const { bridge, chat, server } = await setup(approvalTurns());
    const user = userEvent.setup();
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete the report' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Respond instead' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Your answer (JSON)' }), '{{"deleted": "nothing: kept for the audit"}');
    await user.click(within(dialog).getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(calls(bridge)[0]).toMatchObject({ status: 'settled', ok: true, output: { deleted: 'nothing: kept for the audit' }, answeredBy: 'person', approval: 'responded' }));
    const part = lastParts(chat).find((p) => p.type === 'tool-deleteFile');
    expect(part).toMatchObject({ state: 'output-available', output: { deleted: 'nothing: kept for the audit' } });
    expect(server.log.deleted).toEqual([]);
  });

  it('are bound to the snapshot the person saw: arguments changed in the chat meanwhile are answered as a denial', async () => {
    const { bridge, chat, server, reported } = await setup(approvalTurns());
    const user = userEvent.setup();
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete the report' }));
    const dialog = await screen.findByRole('dialog');
    // Something changes the input the chat will send back (what the server would run).
    const index = chat.messages.length - 1;
    const message = chat.messages[index]!;
    chat.messages = [
      ...chat.messages.slice(0, index),
      { ...message, parts: message.parts.map((p) => (p.type === 'tool-deleteFile' ? { ...p, input: { path: '/' } } : p)) } as UIMessage,
    ];
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(server.requests).toHaveLength(2));
    const sent = server.requests[1]!.at(-1)!.parts.find((p) => p.type === 'tool-deleteFile');
    expect(sent).toMatchObject({ approval: { approved: false, reason: 'the arguments changed after they were shown' } });
    expect(server.log.deleted).toEqual([]);
    expect(reported.map((r) => r.code)).toEqual(['approval-mismatch']);
    expect(calls(bridge)[0]).toMatchObject({ approval: 'denied', approvalReason: 'the arguments changed after they were shown' });
  });
});

describe('an approval is bound to the tool that was shown, not only its arguments', () => {
  /** A call the model starts as one tool and completes as another, with the same id. */
  const renamedParts = (id: string, shown: string, called: string, input: string) => [
    { type: 'tool-input-start', id, toolName: shown },
    { type: 'tool-input-delta', id, delta: input },
    { type: 'tool-input-end', id },
    { type: 'tool-call', toolCallId: id, toolName: called, input },
  ];

  it('a call named readFile at its start and deleteFile when complete is never approved for deleteFile: nothing is answered, it is reported', async () => {
    const { bridge, chat, server, reported } = await setup([
      { parts: [...renamedParts('c1', 'readFile', 'deleteFile', '{"path":"/etc/passwd"}'), finishPart('tool-calls')] },
      { parts: [...textParts('Done.'), finishPart('stop')] },
    ]);
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Read the file' }));
    await waitFor(() => expect(reported.map((r) => r.code)).toContain('approval-mismatch'));
    // No dialog asked about readFile on deleteFile's behalf, and no answer went to the chat.
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(lastParts(chat).find((p) => p.type === 'tool-deleteFile')).toMatchObject({ state: 'approval-requested' });
    expect(server.requests).toHaveLength(1);
    expect(server.log.deleted).toEqual([]);
    expect(calls(bridge)[0]).toMatchObject({ name: 'readFile', status: 'cancelled' });
  });

  it('an approval given for one tool is not sent when the chat meanwhile holds the call as another tool', async () => {
    const { bridge, chat, server, reported } = await setup([
      { parts: [...callParts('c1', 'deleteFile', ['{"path":"/tmp/a"}']), finishPart('tool-calls')] },
      { parts: [...textParts('Done.'), finishPart('stop')] },
    ]);
    const user = userEvent.setup();
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete it' }));
    const dialog = await screen.findByRole('dialog');
    // Something renames the call the chat will send back (a dynamic tool of another name).
    const index = chat.messages.length - 1;
    const message = chat.messages[index]!;
    chat.messages = [
      ...chat.messages.slice(0, index),
      { ...message, parts: message.parts.map((p) => (p.type === 'tool-deleteFile' ? { ...p, type: 'dynamic-tool', toolName: 'wipeDisk' } : p)) } as UIMessage,
    ];
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(reported.map((r) => r.code)).toEqual(['approval-mismatch']));
    expect(chat.messages.at(-1)!.parts.find((p) => p.type === 'dynamic-tool')).toMatchObject({ state: 'approval-requested' });
    expect(server.requests).toHaveLength(1);
    expect(calls(bridge)[0]).toMatchObject({ status: 'cancelled' });
  });

  it("an app tool's call completed under another name than it started with runs nothing and is reported", async () => {
    const ran: unknown[] = [];
    const { bridge, chat, reported } = await setup([{ parts: [...renamedParts('c1', 'readTitle', 'setTitle', '{"title":"x"}'), finishPart('tool-calls')] }]);
    const setTitle: AppTool = { name: 'setTitle', parameters: { type: 'object' }, run: (args) => void ran.push(args) };
    render(<Page bridge={bridge} chat={chat} tools={[setTitle]} />);
    await act(() => chat.sendMessage({ text: 'Title?' }));
    await waitFor(() => expect(reported.map((r) => r.code)).toContain('approval-mismatch'));
    expect(ran).toEqual([]);
    expect(calls(bridge)[0]).toMatchObject({ name: 'readTitle', status: 'cancelled' });
  });
});

describe('the dialog describes a tool by what the library says of it', () => {
  const clearTurns = (): Turn[] => [
    { parts: [...callParts('c1', 'clearCache', ['{"scope":"all"}']), finishPart('tool-calls')] },
    { parts: [...textParts('Done.'), finishPart('stop')] },
  ];

  it("a trusted MCP server's annotations (carried in the stream's toolMetadata) give the risk", async () => {
    const { bridge, chat } = await setup(clearTurns(), { bridge: { trustedMcpClients: ['build-server'] } });
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Clear the cache' }));
    const dialog = await screen.findByRole('dialog');
    expect(bridge.confirmations.getState().current?.descriptor).toMatchObject({ effect: 'write', risk: 'medium', retrySafe: true });
    expect(dialog).not.toHaveTextContent('Risk not declared');
  });

  it("an MCP server the application does not trust is not believed: the risk stays undeclared", async () => {
    const { bridge, chat } = await setup(clearTurns());
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Clear the cache' }));
    await screen.findByRole('dialog');
    expect(bridge.confirmations.getState().current?.descriptor).toMatchObject({ risk: 'high', undeclared: ['effect', 'risk'] });
  });

  it('the tools given to the bridge describe their tools, and an explicit describe wins', async () => {
    const tools = { clearCache: { description: 'Clear the build cache', title: 'Clear cache', needsApproval: true } };
    const derived = await setup(clearTurns(), { bridge: { tools } });
    const view = render(<Page bridge={derived.bridge} chat={derived.chat} />);
    await act(() => derived.chat.sendMessage({ text: 'Clear the cache' }));
    await screen.findByRole('dialog');
    expect(derived.bridge.confirmations.getState().current?.descriptor).toMatchObject({ title: 'Clear cache', description: 'Clear the build cache' });
    view.unmount();

    const explicit = await setup(clearTurns(), { bridge: { tools, trustedMcpClients: ['build-server'], describe: () => ({ effect: 'write', risk: 'high', title: 'Wipe' }) } });
    render(<Page bridge={explicit.bridge} chat={explicit.chat} />);
    await act(() => explicit.chat.sendMessage({ text: 'Clear the cache' }));
    await screen.findByRole('dialog');
    expect(explicit.bridge.confirmations.getState().current?.descriptor).toMatchObject({ title: 'Wipe', risk: 'high' });
  });
});

describe('cards in place in the conversation', () => {
  function Conversation({ bridge, chat }: { bridge: AISDKBridge; chat: Chat<UIMessage> }) {
    const { messages } = useChat({ chat });
    return (
      <ToolgateProvider store={bridge.store} host={bridge.host} confirmations={bridge.confirmations}>
        <ol>
          {messages.map((message) => (
            <li key={message.id} data-testid={`message-${message.role}`}>
              {message.parts.map((part, index) => {
                if (part.type === 'text') return <p key={index}>{part.text}</p>;
                const callId = isToolUIPart(part) ? bridge.callIdOf(part.toolCallId) : undefined;
                return callId === undefined ? null : <ToolCallCard key={callId} callId={callId} />;
              })}
            </li>
          ))}
        </ol>
      </ToolgateProvider>
    );
  }

  it("render each tool part of a message as its card, inside that message, through callIdOf", async () => {
    const { bridge, chat } = await setup([
      { parts: [...textParts('Looking. '), ...callParts('c1', 'weather', ['{"city":"Oslo"}']), finishPart('tool-calls')] },
      { parts: [...textParts('Clear.'), finishPart('stop')] },
    ]);
    render(<Conversation bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Weather?' }));
    const assistant = await screen.findByTestId('message-assistant');
    await waitFor(() => expect(within(assistant).getAllByRole('article')).toHaveLength(1));
    expect(assistant).toHaveTextContent('Looking.');
    expect(within(assistant).getByText('weather')).toBeInTheDocument();
    expect(bridge.callIdOf('c1')).toBe(calls(bridge)[0]!.callId);
    expect(bridge.callIdOf('never-streamed')).toBeUndefined();
  });
});

describe('a denial says why on its card', () => {
  it('the reason a person typed in the default dialog reaches the model and shows on the card', async () => {
    const { bridge, chat, server } = await setup([
      { parts: [...callParts('c1', 'deleteFile', ['{"path":"/tmp/a"}']), finishPart('tool-calls')] },
      { parts: [...textParts('Understood.'), finishPart('stop')] },
    ]);
    const user = userEvent.setup();
    // The dialog as the README shows it: the field for the agent is offered without asking for it.
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete it' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('textbox', { name: 'Reason for the agent (optional)' }));
    await user.paste('keep it for the audit');
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(calls(bridge)[0]).toMatchObject({ status: 'settled', code: 'REJECTED', message: 'keep it for the audit' }));
    const sent = server.requests[1]!.at(-1)!.parts.find((p) => p.type === 'tool-deleteFile');
    expect(sent).toMatchObject({ approval: { approved: false, reason: 'keep it for the audit' } });
    expect(screen.getByText('keep it for the audit')).toBeInTheDocument();
  });

  it("a denial the page gave through the chat itself shows the chat's reason", async () => {
    const { bridge, chat } = await setup([
      { parts: [...callParts('c1', 'deleteFile', ['{"path":"/tmp/a"}']), finishPart('tool-calls')] },
      { parts: [...textParts('Understood.'), finishPart('stop')] },
    ]);
    // No bridge.connect-driven dialog answer: the page answers the chat directly.
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete it' }));
    await screen.findByRole('dialog');
    const part = lastParts(chat).find((p) => p.type === 'tool-deleteFile') as { approval?: { id: string } };
    await act(async () => {
      await chat.addToolApprovalResponse({ id: part.approval!.id, approved: false, reason: 'not today' });
    });
    await waitFor(() => expect(calls(bridge)[0]).toMatchObject({ status: 'settled', code: 'REJECTED', message: 'not today' }));
  });
});

describe('stopping the chat', () => {
  it('cancels every open call at once: arguments still streaming, an app tool running, an approval waiting', async () => {
    const { bridge, chat, server } = await setup([
      {
        parts: [
          ...callParts('c1', 'deleteFile', ['{"path":"/a"}']),
          ...callParts('c2', 'setTitle', ['{"title":"Hi"}']),
          { type: 'tool-input-start', id: 'c3', toolName: 'weather' },
          { type: 'tool-input-delta', id: 'c3', delta: '{"city":' },
          finishPart('tool-calls'),
        ],
        holdAfter: 10,
      },
    ]);
    let signal: AbortSignal | undefined;
    const slowTitle: AppTool = {
      name: 'setTitle',
      run: (_args, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    };
    render(<Page bridge={bridge} chat={chat} tools={[slowTitle]} />);
    void chat.sendMessage({ text: 'Go' });
    await waitFor(() => expect(calls(bridge).map((c) => c.status)).toEqual(['issued', 'issued', 'streaming']));
    await waitFor(() => expect(signal).toBeDefined());
    await waitFor(() => expect(bridge.confirmations.getState().current?.toolName).toBe('deleteFile'));
    await act(() => chat.stop());
    expect(calls(bridge).map((c) => c.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(signal!.aborted).toBe(true);
    expect(bridge.confirmations.getState().current).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    server.release();
    // Nothing was answered for the stopped calls.
    expect(server.requests).toHaveLength(1);
    expect(lastParts(chat).find((p) => p.type === 'tool-setTitle')).toMatchObject({ state: 'input-available' });
  });

  it('after the response ended: an approval still waiting is withdrawn and its call cancelled', async () => {
    const { bridge, chat, server } = await setup([{ parts: [...callParts('c1', 'deleteFile', ['{"path":"/a"}']), finishPart('tool-calls')] }]);
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Go' }));
    await screen.findByRole('dialog');
    expect(screen.getByTestId('status')).toHaveTextContent('ready');
    await act(() => chat.stop());
    expect(calls(bridge)[0]?.status).toBe('cancelled');
    expect(bridge.confirmations.getState().current).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requests).toHaveLength(1);
  });

  it('an interrupt in the page stops the chat', async () => {
    const { bridge, chat, server } = await setup([
      { parts: [{ type: 'tool-input-start', id: 'c1', toolName: 'weather' }, { type: 'tool-input-delta', id: 'c1', delta: '{"ci' }], holdAfter: 2 },
    ]);
    const user = userEvent.setup();
    render(<Page bridge={bridge} chat={chat} />);
    void chat.sendMessage({ text: 'Go' });
    await waitFor(() => expect(calls(bridge)[0]?.status).toBe('streaming'));
    await user.click(screen.getByRole('button', { name: 'Interrupt' }));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('ready'));
    expect(calls(bridge)[0]?.status).toBe('cancelled');
    server.release();
  });
});

describe('answers the page gives itself', () => {
  it("settle the card from what the chat sends next (the page's own addToolOutput)", async () => {
    const { bridge, chat, reported } = await setup([
      { parts: [...callParts('c1', 'setTitle', ['{"title":"Hi"}']), finishPart('tool-calls')] },
      { parts: [...textParts('Ok.'), finishPart('stop')] },
    ]);
    await act(() => chat.sendMessage({ text: 'Title' }));
    expect(calls(bridge)[0]?.status).toBe('issued');
    await act(async () => {
      await chat.addToolOutput({ tool: 'setTitle', toolCallId: 'c1', output: 'done by the page' });
    });
    await waitFor(() => expect(calls(bridge)[0]).toMatchObject({ status: 'settled', ok: true, output: 'done by the page' }));
    expect(reported).toEqual([]);
  });
});

describe('bad input', () => {
  /** A transport that answers with these chunks, as a broken or newer server might. */
  const chunkTransport = (chunks: unknown[], options: { fail?: Error } = {}) => ({
    async sendMessages() {
      let next = 0;
      return new ReadableStream<unknown>({
        pull(controller) {
          if (next < chunks.length) controller.enqueue(chunks[next++]);
          else if (options.fail) controller.error(options.fail);
          else controller.close();
        },
      });
    },
    async reconnectToStream() {
      return null;
    },
  });

  function chatOver(chunks: unknown[], options: { fail?: Error } = {}) {
    const reported: Reported[] = [];
    const bridge = createAISDKBridge({ onError: (reason, detail, code) => reported.push({ reason, detail, code }) });
    const chat = new Chat<UIMessage>({ transport: bridge.transport(chunkTransport(chunks, options)) as never, onToolCall: bridge.onToolCall });
    bridge.connect(chat);
    return { bridge, chat, reported };
  }

  it('ignores chunk types the UI message stream does not have, with a reason, once per type', async () => {
    const { bridge, chat, reported } = chatOver([
      { type: 'start', messageId: 'm1' },
      { type: 'tool-party', toolCallId: 'c1' },
      { type: 'tool-party', toolCallId: 'c2' },
      { type: 'data-weather', data: { c: 1 } },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'weather', input: { city: 'Oslo' } },
      { type: 'finish' },
    ]);
    await act(() => chat.sendMessage({ text: 'Go' }));
    expect(reported.map((r) => [r.code, r.reason])).toEqual([
      ['ignored-chunk', 'AI SDK: chunks of type "tool-party" are not part of the UI message stream; they are ignored'],
    ]);
    expect(calls(bridge)[0]).toMatchObject({ status: 'issued', arguments: { city: 'Oslo' } });
  });

  it('reports malformed chunks with their code and goes on; nothing throws', async () => {
    const { bridge, chat, reported } = chatOver([
      { type: 'start', messageId: 'm1' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'weather' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"city":"Oslo"}' },
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'weather', input: { city: 'Oslo' } },
      { type: 'tool-approval-request', toolCallId: 'c1' },
      // The chat itself gives up at this one (its own error); the bridge reports it and stays whole.
      { type: 'tool-input-delta', toolCallId: 5, inputTextDelta: '{' },
      { type: 'finish' },
    ]);
    await act(() => chat.sendMessage({ text: 'Go' }));
    expect(reported.map((r) => [r.code, r.reason])).toEqual([
      ['malformed-chunk', 'AI SDK: tool-approval-request.approvalId is missing'],
      ['malformed-chunk', 'AI SDK: tool-input-delta.toolCallId is number 5, not a string'],
    ]);
    expect(reported[1]!.detail).toEqual({ type: 'tool-input-delta', toolCallId: 5, inputTextDelta: '{' });
    expect(calls(bridge)[0]).toMatchObject({ status: 'issued', argumentsText: '{"city":"Oslo"}' });
  });

  it('leaves no call running when the stream ends in the middle of one', async () => {
    const { bridge, chat } = chatOver([
      { type: 'start', messageId: 'm1' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'weather' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"city":' },
    ]);
    await act(() => chat.sendMessage({ text: 'Go' }));
    expect(calls(bridge)[0]).toMatchObject({ status: 'failed', message: expect.stringMatching(/^AI SDK: the response ended before the input was complete/) });
  });

  it('leaves no call running when the stream breaks in the middle of one', async () => {
    const { bridge, chat } = chatOver(
      [
        { type: 'start', messageId: 'm1' },
        { type: 'tool-input-available', toolCallId: 'c0', toolName: 'weather', input: { city: 'Rome' } },
        { type: 'tool-input-start', toolCallId: 'c1', toolName: 'weather' },
        { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"city":' },
      ],
      { fail: new TypeError('network error') },
    );
    await act(() => chat.sendMessage({ text: 'Go' }));
    expect(chat.status).toBe('error');
    expect(calls(bridge).map((c) => c.status)).toEqual(['cancelled', 'failed']);
    expect(calls(bridge)[1]).toMatchObject({ message: 'AI SDK: the stream reported an error: TypeError: network error' });
  });
});
