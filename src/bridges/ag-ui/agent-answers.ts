/**
 * What the page answers an AG-UI agent between runs: the frontend tools a run left pending run
 * through the kit's host and answer as tool messages; the interrupts that ask to approve a tool
 * call go through the kit's confirmation queue and answer as resume entries, bound to the
 * snapshot the person saw (its fingerprint travels in the entry's metadata).
 */
import type { ErrorReporter, JsonValue, ToolResult } from '../../core';
import type { AGUIEventMapper } from '../../adapters/ag-ui';
import type { CallBook, OpenCall } from '../../adapters/call-book';
import { changedSinceShown, type HeldCall } from '../../core/approval/approval-binding';
import { settledBy, type ApprovalDecision, type BridgeKit } from '../shared/kit';
import type { AGUIAgentLike, AGUIInterrupt, AGUIResumeEntry } from './agent-types';

/**
 * What answers an interrupt that is not a tool's approval; `undefined` leaves it `cancelled`.
 *
 * @example
 * const onInterrupt: InterruptAnswer = async (interrupt) =>
 *   interrupt.reason === 'input_required' ? { status: 'resolved', payload: await askForm(interrupt.responseSchema) } : undefined;
 */
export type InterruptAnswer = (interrupt: AGUIInterrupt) => Omit<AGUIResumeEntry, 'interruptId'> | undefined | Promise<Omit<AGUIResumeEntry, 'interruptId'> | undefined>;

export interface AgentAnswersOptions {
  kit: BridgeKit;
  book: CallBook;
  mapper: AGUIEventMapper;
  agent: AGUIAgentLike;
  /** Calls handed to the page; a run's end leaves them. */
  handed: Set<OpenCall>;
  say: ErrorReporter;
  onInterrupt: InterruptAnswer | undefined;
  now: () => number;
}

export interface AgentAnswers {
  /**
   * Answer every pending call not answered before: how many were answered now, or `false` when
   * stopped meanwhile (nothing more is to be sent).
   */
  pending(toolCallIds: readonly string[]): Promise<number | false>;
  /** The resume entries of a run's interrupts; `undefined` when stopped meanwhile. */
  interrupts(interrupts: readonly AGUIInterrupt[]): Promise<AGUIResumeEntry[] | undefined>;
}

/** Why an interrupt is not a tool's approval the bridge can ask a person about. */
function unrecognised(interrupt: AGUIInterrupt, call: OpenCall | undefined): string {
  if (interrupt.reason !== 'tool_call') return `its reason is "${interrupt.reason}", not "tool_call"`;
  if (interrupt.toolCallId === undefined) return 'it asks about a tool call but names none (no toolCallId)';
  if (call === undefined) return `it names tool call ${interrupt.toolCallId}, which this agent never streamed`;
  return `its tool call ${interrupt.toolCallId} never arrived whole`;
}

/** A tool's answer as the tool message AG-UI carries: text (JSON for structured output), and an error. */
function toolMessage(toolCallId: string, result: ToolResult): { id: string; role: 'tool'; toolCallId: string; content: string; error?: string } {
  const id = `${toolCallId}-result`;
  if (result.ok) {
    const content = typeof result.output === 'string' ? result.output : JSON.stringify(result.output ?? null);
    return { id, role: 'tool', toolCallId, content };
  }
  const error = `${result.code}${result.message ? `: ${result.message}` : ''}`;
  return { id, role: 'tool', toolCallId, content: error, error };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function createAgentAnswers(options: AgentAnswersOptions): AgentAnswers {
  const { kit, book, mapper, agent, handed, say } = options;
  const flush = (): void => kit.dispatch(book.drain());
  /** Every call id answered with a tool message, for the agent's life: each is answered once. */
  const answeredCalls = new Set<string>();
  /** Every call id a person was asked about, for the agent's life: one dialog per call. */
  const askedCalls = new Set<string>();

  /**
   * The call as the agent holds it in its messages, which the next run sends to the server: its
   * tool's name (a later `TOOL_CALL_START` or `MESSAGES_SNAPSHOT` can rename it) and its arguments.
   * `undefined` when the agent keeps no messages, or not this call.
   */
  const held = (toolCallId: string): HeldCall | undefined => {
    const messages = agent.messages;
    if (!Array.isArray(messages)) return undefined;
    for (const message of messages as unknown[]) {
      if (!isObject(message) || !Array.isArray(message.toolCalls)) continue;
      for (const toolCall of message.toolCalls as unknown[]) {
        if (!isObject(toolCall) || toolCall.id !== toolCallId || !isObject(toolCall.function)) continue;
        const fn = toolCall.function;
        const name = typeof fn.name === 'string' ? fn.name : undefined;
        if (typeof fn.arguments !== 'string') return { toolName: name };
        try {
          return { toolName: name, input: fn.arguments.trim() === '' ? {} : JSON.parse(fn.arguments) };
        } catch {
          return { toolName: name, input: fn.arguments };
        }
      }
    }
    return undefined;
  };

  /** What the agent holds differs from what the card shows and the person saw: the reason, reported, or `undefined`. */
  const drifted = (toolCallId: string, shown: { toolName: string; arguments: JsonValue }): boolean => {
    const now = held(toolCallId);
    const changed = now === undefined ? undefined : changedSinceShown(shown, now);
    if (changed === undefined) return false;
    const what = changed === 'tool' ? `names ${String(now?.toolName)}, not ${shown.toolName}` : `holds other arguments for ${shown.toolName}`;
    say(`the agent's tool call ${toolCallId} ${what} than the page showed; nothing was approved or run for it`, { shown, now }, 'approval-mismatch');
    return true;
  };

  /** Nothing more is answered for this call: its card ends cancelled. */
  const withdraw = (call: OpenCall): void => {
    if (call.stage === 'over') return;
    book.cancel(call);
    flush();
  };

  const answerOne = async (toolCallId: string): Promise<boolean | 'skipped'> => {
    if (answeredCalls.has(toolCallId)) {
      say(`the run left tool call ${toolCallId} to the page again; it was answered once and is not answered again`, toolCallId, 'duplicate-call');
      return 'skipped';
    }
    answeredCalls.add(toolCallId);
    const call = mapper.call(toolCallId);
    let result: ToolResult | undefined;
    if (call !== undefined && call.stage === 'issued' && drifted(toolCallId, { toolName: call.name, arguments: call.arguments as JsonValue })) {
      withdraw(call);
      return 'skipped';
    }
    if (call === undefined || call.stage !== 'issued') {
      say(`the run left tool call ${toolCallId} to the page, but its arguments never came whole`, toolCallId, 'unknown-call');
      result = { ok: false, code: 'FAILED', message: 'the call never arrived whole' };
    } else {
      handed.add(call);
      try {
        result = await kit.run({ callId: call.callId, turnId: call.turnId, name: call.name, arguments: call.arguments });
      } finally {
        handed.delete(call);
      }
      if (result === undefined) return false;
      book.outcome(call, settledBy(call.callId, result));
      flush();
    }
    try {
      agent.addMessage(toolMessage(toolCallId, result));
    } catch (error) {
      say(`the agent refused the answer to ${toolCallId}`, error, 'answer-failed');
    }
    return true;
  };

  const approval = async (interrupt: AGUIInterrupt, call: OpenCall): Promise<AGUIResumeEntry | undefined> => {
    const cancelled: AGUIResumeEntry = { interruptId: interrupt.id, status: 'cancelled' };
    if (drifted(call.callId, { toolName: call.name, arguments: call.arguments as JsonValue })) {
      withdraw(call);
      return cancelled;
    }
    handed.add(call);
    let decision: ApprovalDecision | undefined;
    try {
      decision = await kit.approve({ callId: call.callId, turnId: call.turnId, name: call.name, arguments: call.arguments });
    } finally {
      handed.delete(call);
    }
    if (decision === undefined) return undefined;
    // The person answered what they saw: the agent must still hold that tool with those arguments.
    if (drifted(call.callId, decision)) {
      withdraw(call);
      return cancelled;
    }
    kit.answered(call.callId, decision);
    // AG-UI's two resumes: a withdrawn request is `cancelled`; a person's answer `resolved` with it.
    if (decision.instead === 'cancel') return cancelled;
    if (decision.instead === 'respond') {
      book.outcome(call, { type: 'tool.stream', phase: 'settled', callId: call.callId, ok: true, output: decision.output ?? null, answeredBy: 'person' });
      flush();
      const payload = { approved: false, decision: 'respond', output: decision.output ?? null };
      return { interruptId: interrupt.id, status: 'resolved', payload, metadata: { toolgate: { toolName: decision.toolName, fingerprint: decision.fingerprint } } };
    }
    if (!decision.approved) {
      // A denied call will not run: its card ends here, whatever the agent says of it later.
      const denied = { type: 'tool.stream', phase: 'settled', callId: call.callId, ok: false, code: 'REJECTED' } as const;
      book.outcome(call, decision.reason === undefined ? denied : { ...denied, message: decision.reason });
      flush();
    }
    const payload = decision.reason === undefined || decision.approved ? { approved: decision.approved } : { approved: false, reason: decision.reason };
    // The tool and the fingerprint of what the person approved, so an agent can check it is what it runs.
    return { interruptId: interrupt.id, status: 'resolved', payload, metadata: { toolgate: { toolName: decision.toolName, fingerprint: decision.fingerprint } } };
  };

  const answerInterrupt = async (interrupt: AGUIInterrupt): Promise<AGUIResumeEntry | undefined> => {
    const cancelled: AGUIResumeEntry = { interruptId: interrupt.id, status: 'cancelled' };
    // An interrupt past its expiry must not be answered (AG-UI "Contract rules"): it is cancelled.
    if (interrupt.expiresAt !== undefined && Date.parse(interrupt.expiresAt) <= options.now()) {
      say(`interrupt ${interrupt.id} expired at ${interrupt.expiresAt}; it was cancelled`, interrupt, 'interrupt-expired');
      return cancelled;
    }
    const call = interrupt.toolCallId === undefined ? undefined : mapper.call(interrupt.toolCallId);
    if (interrupt.reason === 'tool_call' && call !== undefined && call.stage === 'issued') {
      // One dialog per call, for the agent's life: a second interrupt about it is not asked again.
      if (askedCalls.has(call.callId)) {
        say(`interrupt ${interrupt.id} asks again about tool call ${call.callId}, which a person was already asked about; it was cancelled`, interrupt, 'duplicate-interrupt');
        return cancelled;
      }
      askedCalls.add(call.callId);
      return approval(interrupt, call);
    }
    const answer = options.onInterrupt === undefined ? undefined : await options.onInterrupt(interrupt);
    if (answer !== undefined) return { ...answer, interruptId: interrupt.id };
    say(`nothing here answers interrupt ${interrupt.id}: ${unrecognised(interrupt, call)}; it was cancelled`, interrupt, 'interrupt-unanswered');
    return cancelled;
  };

  return {
    pending: async (toolCallIds) => {
      // The host runs them one at a time, in this order; each answers as soon as it is done.
      const answered = await Promise.all(toolCallIds.map(answerOne));
      return answered.includes(false) ? false : answered.filter((a) => a === true).length;
    },
    interrupts: async (interrupts) => {
      const entries = await Promise.all(interrupts.map(answerInterrupt));
      return entries.some((entry) => entry === undefined) ? undefined : (entries as AGUIResumeEntry[]);
    },
  };
}
