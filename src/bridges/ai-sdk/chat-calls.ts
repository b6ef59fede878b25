/**
 * The chat's tool calls that the page answers: a call of an app tool the page has runs through
 * the kit's host and is answered with `addToolOutput`; an approval the chat asks for goes through
 * the kit's confirmation queue and is answered with `addToolApprovalResponse`, only if the chat
 * still holds the arguments the person saw.
 */
import type { ErrorReporter, ToolResult } from '../../core';
import { describeThrown } from '../../core/external-store';
import type { AISDKChunkMapper } from '../../adapters/ai-sdk';
import type { CallBook, OpenCall } from '../../adapters/call-book';
import { reqString, unknownCall, type Rec } from '../../adapters/chunk-fields';
import { changedSinceShown } from '../../core/approval/approval-binding';
import { settledBy, type ApprovalDecision, type BridgeKit } from '../shared/kit';
import type { ChatLink } from './chat-link';
import { toolNameOf, toolPartsOf, type ChatToolCall, type ToolPart } from './chat-types';

export interface ChatCallsOptions {
  kit: BridgeKit;
  book: CallBook;
  mapper: AISDKChunkMapper;
  link: ChatLink;
  /** Calls handed to the page; the streams' boundaries leave them. */
  handed: Set<OpenCall>;
  say: ErrorReporter;
  /** The reason of each denial that went to the chat, by the store's call id: the card shows it. */
  reasons: Map<string, string>;
}

export interface ChatCalls {
  onToolCall(options: { toolCall: ChatToolCall }): void;
  /** A `tool-approval-request` chunk (throws `MalformedChunk` for a broken one). */
  askApproval(chunk: Rec): void;
  /** A `tool-input-available` chunk, before the store reads it: it may name another tool than the call's start did. */
  inputAvailable(chunk: Rec): void;
}

export function createChatCalls({ kit, book, mapper, link, handed, say, reasons }: ChatCallsOptions): ChatCalls {
  const asked = new Set<string>();
  /** Calls whose stream named another tool at `tool-input-available` than at `tool-input-start`: the tool the chat now holds. */
  const renamed = new Map<OpenCall, string>();

  /**
   * The call names another tool than its card and its dialog show: nothing is answered or run
   * for it (an answer would go to a tool nobody was shown), it is reported, and its card ends cancelled.
   */
  const refuseRenamed = (call: OpenCall, now: string | undefined, detail: unknown): void => {
    say(`tool call ${call.callId} was shown as ${call.name} but the chat now calls ${String(now)}; nothing was answered`, detail, 'approval-mismatch');
    if (call.stage !== 'over') {
      book.cancel(call);
      kit.dispatch(book.drain());
    }
  };

  const answerTool = (toolCall: ChatToolCall, result: ToolResult): void =>
    link.send((chat) => {
      const add = chat.addToolOutput ?? chat.addToolResult;
      if (add === undefined) throw new Error('the chat has neither addToolOutput nor addToolResult');
      if (result.ok) return add.call(chat, { tool: toolCall.toolName, toolCallId: toolCall.toolCallId, output: result.output });
      const errorText = `${result.code}${result.message ? `: ${result.message}` : ''}`;
      return add.call(chat, { state: 'output-error', tool: toolCall.toolName, toolCallId: toolCall.toolCallId, errorText });
    });

  const onToolCall = ({ toolCall }: { toolCall: ChatToolCall }): void => {
    try {
      if (toolCall.providerExecuted === true || !kit.hasTool(toolCall.toolName)) return;
      const call = mapper.call(toolCall.toolCallId);
      if (call !== undefined && call.name !== toolCall.toolName) {
        refuseRenamed(call, toolCall.toolName, toolCall);
        return;
      }
      if (call === undefined) say(`tool call ${toolCall.toolCallId} never came through bridge.transport(): its card is missing`, toolCall, 'not-tapped');
      else handed.add(call);
      const request = { callId: call?.callId ?? toolCall.toolCallId, turnId: call?.turnId ?? '', name: toolCall.toolName, arguments: toolCall.input };
      void kit.run(request).then((result) => {
        if (call !== undefined) handed.delete(call);
        if (result === undefined) return;
        if (call !== undefined) {
          book.outcome(call, settledBy(call.callId, result));
          kit.dispatch(book.drain());
        }
        answerTool(toolCall, result);
      });
    } catch (error) {
      say(`could not run ${toolCall.toolName}: ${describeThrown(error)}`, toolCall, 'bridge-failed');
    }
  };

  const answerApproval = (approvalId: string, call: OpenCall, toolCallId: string, decision: ApprovalDecision): void =>
    link.send((chat) => {
      if (chat.addToolApprovalResponse === undefined) throw new Error('the chat has no addToolApprovalResponse (AI SDK 6 or later)');
      let part: ToolPart | undefined;
      for (const candidate of toolPartsOf(chat.messages)) if (candidate.toolCallId === toolCallId) part = candidate;
      if (part === undefined || part.state !== 'approval-requested' || part.approval?.id !== approvalId) {
        say(`the chat no longer waits for the approval of ${call.name} (${approvalId})`, decision, 'approval-gone');
        return undefined;
      }
      let sent = decision;
      // What runs is the tool and the input the chat sends back: approve only what the person saw.
      const changed = changedSinceShown(decision, { toolName: toolNameOf(part), input: part.input });
      if (changed === 'tool') {
        refuseRenamed(call, toolNameOf(part), { shown: decision.toolName, now: toolNameOf(part) });
        return undefined;
      }
      if (decision.approved && changed === 'arguments') {
        sent = { ...decision, approved: false, reason: 'the arguments changed after they were shown' };
        say(`the arguments of ${call.name} changed after they were shown; the approval was sent as a denial`, { shown: decision.arguments, now: part.input }, 'approval-mismatch');
      }
      kit.answered(call.callId, sent);
      if (sent.instead === 'respond') {
        // The SDK's approval response has no "respond": the person's answer goes back as the tool's output.
        const add = chat.addToolOutput ?? chat.addToolResult;
        if (add === undefined) throw new Error('the chat has neither addToolOutput nor addToolResult');
        book.outcome(call, { type: 'tool.stream', phase: 'settled', callId: call.callId, ok: true, output: sent.output ?? null, answeredBy: 'person' });
        kit.dispatch(book.drain());
        return add.call(chat, { tool: call.name, toolCallId, output: sent.output ?? null });
      }
      if (sent.instead === 'cancel') {
        // Nor has it a "cancel": a denial whose reason tells the model the request was withdrawn, not rejected.
        const reason = `cancelled: the person withdrew the request${sent.reason === undefined ? '' : ` (${sent.reason})`}; it was not rejected`;
        reasons.set(call.callId, reason);
        return chat.addToolApprovalResponse({ id: approvalId, approved: false, reason });
      }
      const { approved, reason } = sent;
      if (!approved && reason !== undefined) reasons.set(call.callId, reason);
      return chat.addToolApprovalResponse(reason === undefined ? { id: approvalId, approved } : { id: approvalId, approved, reason });
    });

  const askApproval = (chunk: Rec): void => {
    const approvalId = reqString(chunk, 'approvalId', 'tool-approval-request');
    const toolCallId = reqString(chunk, 'toolCallId', 'tool-approval-request');
    const call = mapper.call(toolCallId);
    if (call === undefined) throw unknownCall('tool-approval-request', toolCallId);
    // A resumed stream repeats its chunks: each request is asked once.
    if (asked.has(approvalId)) return;
    asked.add(approvalId);
    if (renamed.has(call)) {
      refuseRenamed(call, renamed.get(call), chunk);
      return;
    }
    if (call.stage !== 'issued') {
      say(`the approval of ${call.name} came before its arguments were complete; it was denied`, chunk, 'malformed-chunk');
      answerApproval(approvalId, call, toolCallId, { approved: false, reason: 'the arguments were not complete', toolName: call.name, arguments: null, fingerprint: '' });
      return;
    }
    handed.add(call);
    void kit.approve({ callId: call.callId, turnId: call.turnId, name: call.name, arguments: call.arguments }).then((decision) => {
      handed.delete(call);
      if (decision !== undefined) answerApproval(approvalId, call, toolCallId, decision);
    });
  };

  const inputAvailable = (chunk: Rec): void => {
    const call = typeof chunk.toolCallId === 'string' ? mapper.call(chunk.toolCallId) : undefined;
    if (call !== undefined && typeof chunk.toolName === 'string' && chunk.toolName !== call.name) renamed.set(call, chunk.toolName);
  };

  return { onToolCall, askApproval, inputAvailable };
}
