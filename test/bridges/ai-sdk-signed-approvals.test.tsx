/**
 * toolgate/ai-sdk with the AI SDK's own signed approvals turned on (`experimental_toolApprovalSecret`
 * on the route's `streamText`): the route HMAC-signs each approval request over its approval id, tool
 * call id, tool name and input, the chat keeps `approval.signature` on the tool part, and the route
 * verifies it when the answer comes back. The bridge answers with `addToolApprovalResponse` and must
 * leave the SDK's approval id and signature as the route issued them. Real parts throughout: the
 * mock model through `streamText` on a real HTTP route, `DefaultChatTransport` and `Chat`.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Chat, useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  InvalidToolApprovalSignatureError,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from 'ai';
import { ConfirmToolDialog, ToolCallList, ToolgateProvider } from 'toolgate';
import { createAISDKBridge, type AISDKBridge, type ChatTransportLike } from 'toolgate/ai-sdk';
import { callParts, finishPart, textParts, type Turn } from './ai-sdk-model';
import { startChatServer, type ChatServer } from './ai-sdk-server';

const SECRET = 'route-secret-for-signed-approvals';

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Issued {
  approvalId: string;
  toolCallId: string;
  signature: unknown;
}

/**
 * The route's transport, read before the bridge's tap: the approval requests exactly as the route
 * issued them, to compare with what the page sends back.
 */
function recording(inner: DefaultChatTransport<UIMessage>, issued: Issued[]): ChatTransportLike {
  const read = (stream: ReadableStream<unknown>): ReadableStream<unknown> =>
    stream.pipeThrough(
      new TransformStream<unknown, unknown>({
        transform(chunk, controller) {
          const c = chunk as Record<string, unknown>;
          if (c.type === 'tool-approval-request') issued.push({ approvalId: String(c.approvalId), toolCallId: String(c.toolCallId), signature: c.signature });
          controller.enqueue(chunk);
        },
      }),
    );
  return {
    sendMessages: async (request) => read(await inner.sendMessages(request as Parameters<typeof inner.sendMessages>[0])),
    reconnectToStream: async (request) => {
      const stream = await inner.reconnectToStream(request as Parameters<typeof inner.reconnectToStream>[0]);
      return stream === null ? null : read(stream);
    },
  };
}

async function setup(turns: Turn[]) {
  const server = await startChatServer(turns, { approvalSecret: SECRET });
  servers.push(server);
  const reported: { reason: string; code: string }[] = [];
  const issued: Issued[] = [];
  const bridge = createAISDKBridge({ onError: (reason, _detail, code) => reported.push({ reason, code }) });
  const chat = new Chat<UIMessage>({
    transport: bridge.transport(recording(new DefaultChatTransport<UIMessage>({ api: server.url }), issued)) as never,
    onToolCall: bridge.onToolCall,
    sendAutomaticallyWhen: ({ messages }) =>
      lastAssistantMessageIsCompleteWithApprovalResponses({ messages }) || lastAssistantMessageIsCompleteWithToolCalls({ messages }),
  });
  bridge.connect(chat);
  return { server, bridge, chat, reported, issued };
}

function Page({ bridge, chat }: { bridge: AISDKBridge; chat: Chat<UIMessage> }) {
  useChat({ chat });
  return (
    <ToolgateProvider store={bridge.store} host={bridge.host} confirmations={bridge.confirmations}>
      <ToolCallList />
      <ConfirmToolDialog />
    </ToolgateProvider>
  );
}

const approvalTurns: Turn[] = [
  { parts: [...callParts('c1', 'deleteFile', ['{"path":', '"/tmp/report.txt"}']), finishPart('tool-calls')] },
  { parts: [...textParts('Done.'), finishPart('stop')] },
];

type SentPart = { state: string; input: unknown; approval: { id: string; approved?: boolean; reason?: string; signature?: string } };
const sentPart = (server: ChatServer, request: number) => server.requests[request]!.at(-1)!.parts.find((p) => p.type === 'tool-deleteFile') as unknown as SentPart;
const storeCall = (bridge: AISDKBridge) => bridge.store.getState().calls['c1'];

/** Change the chat's copy of the tool part before the person answers, as a buggy or hostile page script could. */
function changePart(chat: Chat<UIMessage>, change: (part: SentPart) => SentPart): void {
  const index = chat.messages.length - 1;
  const message = chat.messages[index]!;
  chat.messages = [
    ...chat.messages.slice(0, index),
    { ...message, parts: message.parts.map((p) => (p.type === 'tool-deleteFile' ? change(p as unknown as SentPart) : p)) } as UIMessage,
  ];
}

describe("the AI SDK's signed approvals through the bridge", () => {
  it("an approval goes back with the route's own approval id and signature, unchanged, and the route verifies it and runs the tool", async () => {
    const { bridge, chat, server, reported, issued } = await setup(approvalTurns);
    const user = userEvent.setup();
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete the report' }));
    const dialog = await screen.findByRole('dialog');
    expect(issued).toHaveLength(1);
    const [request] = issued;
    expect(request!.toolCallId).toBe('c1');
    // The route really signs: a base64url HMAC-SHA256 (32 bytes, 43 characters).
    expect(request!.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(server.log.deleted).toEqual([{ path: '/tmp/report.txt' }]));
    const sent = sentPart(server, 1);
    expect(sent.state).toBe('approval-responded');
    expect(sent.approval).toMatchObject({ id: request!.approvalId, approved: true, signature: request!.signature });
    expect(sent.input).toEqual({ path: '/tmp/report.txt' });
    expect(server.errors).toEqual([]);
    await waitFor(() => expect(storeCall(bridge)).toMatchObject({ status: 'settled', ok: true, approval: 'approved' }));
    expect(reported).toEqual([]);
  });

  it('a denial keeps the signature too (the SDK checks signatures of approvals only), and nothing runs', async () => {
    const { bridge, chat, server, issued } = await setup(approvalTurns);
    const user = userEvent.setup();
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete the report' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(server.requests).toHaveLength(2));
    expect(sentPart(server, 1).approval).toMatchObject({ id: issued[0]!.approvalId, approved: false, signature: issued[0]!.signature });
    await waitFor(() => expect(storeCall(bridge)).toMatchObject({ status: 'settled', code: 'REJECTED' }));
    expect(server.errors).toEqual([]);
    expect(server.log.deleted).toEqual([]);
  });

  it('arguments changed in the chat after they were shown are answered as a denial, never as an approval under a signature made for other arguments', async () => {
    const { bridge, chat, server, reported, issued } = await setup(approvalTurns);
    const user = userEvent.setup();
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete the report' }));
    const dialog = await screen.findByRole('dialog');
    changePart(chat, (part) => ({ ...part, input: { path: '/' } }));
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(server.requests).toHaveLength(2));
    const sent = sentPart(server, 1);
    expect(sent.approval).toMatchObject({ id: issued[0]!.approvalId, approved: false, reason: 'the arguments changed after they were shown', signature: issued[0]!.signature });
    // Had the changed input gone back approved, the route would have refused its signature; a denial is not checked.
    expect(server.errors).toEqual([]);
    expect(server.log.deleted).toEqual([]);
    expect(reported.map((r) => r.code)).toEqual(['approval-mismatch']);
    await waitFor(() => expect(storeCall(bridge)).toMatchObject({ approval: 'denied' }));
  });

  it('the route really verifies: a signature changed in the chat is refused by the SDK and nothing runs (the bridge neither repairs nor re-signs it)', async () => {
    const { bridge, chat, server, issued } = await setup(approvalTurns);
    const user = userEvent.setup();
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete the report' }));
    const dialog = await screen.findByRole('dialog');
    const forged = `${issued[0]!.signature === 'A'.repeat(43) ? 'B' : 'A'}`.repeat(43);
    changePart(chat, (part) => ({ ...part, approval: { ...part.approval, signature: forged } }));
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(server.errors).toHaveLength(1));
    expect(InvalidToolApprovalSignatureError.isInstance(server.errors[0])).toBe(true);
    expect(sentPart(server, 1).approval).toMatchObject({ approved: true, signature: forged });
    expect(server.log.deleted).toEqual([]);
  });
  it('respond: the answer goes back as the tool output, which needs no signature; the route takes it without a signature error and runs nothing', async () => {
    const { bridge, chat, server } = await setup(approvalTurns);
    const user = userEvent.setup();
    render(<Page bridge={bridge} chat={chat} />);
    await act(() => chat.sendMessage({ text: 'Delete the report' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Respond instead' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Your answer (JSON)' }), '{{"deleted": "nothing"}');
    await user.click(within(dialog).getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(server.requests).toHaveLength(2));
    // The chat's own addToolOutput replaces the part's approval (the SDK's rule): nothing was approved, so nothing is verified.
    expect(sentPart(server, 1)).toMatchObject({ state: 'output-available', output: { deleted: 'nothing' } });
    expect(sentPart(server, 1).approval?.approved).not.toBe(true);
    await waitFor(() => expect(chat.status).toBe('ready'));
    expect(server.errors).toEqual([]);
    expect(server.log.deleted).toEqual([]);
  });
});
