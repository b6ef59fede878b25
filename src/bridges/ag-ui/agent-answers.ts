/**
 * What the page answers an AG-UI agent between runs: the frontend tools a run left pending run
 * through the kit's host and answer as tool messages; the interrupts that ask to approve a tool
 * call go through the kit's confirmation queue and answer as resume entries, bound to the
 * snapshot the person saw (its fingerprint travels in the entry's metadata).
 */
import type { ErrorReporter, ToolResult } from '../../core';
import type { AGUIEventMapper } from '../../adapters/ag-ui';
import type { CallBook, OpenCall } from '../../adapters/call-book';
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
  /** Answer every pending call; `false` when stopped meanwhile (nothing more is to be sent). */
  pending(toolCallIds: readonly string[]): Promise<boolean>;
  /** The resume entries of a run's interrupts; `undefined` when stopped meanwhile. */
  interrupts(interrupts: readonly AGUIInterrupt[]): Promise<AGUIResumeEntry[] | undefined>;
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

export function createAgentAnswers(options: AgentAnswersOptions): AgentAnswers {
  const { kit, book, mapper, agent, handed, say } = options;
  const flush = (): void => kit.dispatch(book.drain());

  const answerOne = async (toolCallId: string): Promise<boolean> => {
    const call = mapper.call(toolCallId);
    let result: ToolResult | undefined;
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
    handed.add(call);
    let decision: ApprovalDecision | undefined;
    try {
      decision = await kit.approve({ callId: call.callId, turnId: call.turnId, name: call.name, arguments: call.arguments });
    } finally {
      handed.delete(call);
    }
    if (decision === undefined) return undefined;
    kit.answered(call.callId, decision);
    if (!decision.approved) {
      // A denied call will not run: its card ends here, whatever the agent says of it later.
      const denied = { type: 'tool.stream', phase: 'settled', callId: call.callId, ok: false, code: 'REJECTED' } as const;
      book.outcome(call, decision.reason === undefined ? denied : { ...denied, message: decision.reason });
      flush();
    }
    const payload = decision.reason === undefined || decision.approved ? { approved: decision.approved } : { approved: false, reason: decision.reason };
    // The fingerprint of what the person approved, so an agent can check it is what it runs.
    return { interruptId: interrupt.id, status: 'resolved', payload, metadata: { toolgate: { fingerprint: decision.fingerprint } } };
  };

  const answerInterrupt = async (interrupt: AGUIInterrupt): Promise<AGUIResumeEntry | undefined> => {
    const cancelled: AGUIResumeEntry = { interruptId: interrupt.id, status: 'cancelled' };
    // An interrupt past its expiry must not be answered (AG-UI "Contract rules"): it is cancelled.
    if (interrupt.expiresAt !== undefined && Date.parse(interrupt.expiresAt) <= options.now()) {
      say(`interrupt ${interrupt.id} expired at ${interrupt.expiresAt}; it was cancelled`, interrupt, 'interrupt-expired');
      return cancelled;
    }
    const call = interrupt.toolCallId === undefined ? undefined : mapper.call(interrupt.toolCallId);
    if (interrupt.reason === 'tool_call' && call !== undefined && call.stage === 'issued') return approval(interrupt, call);
    const answer = options.onInterrupt === undefined ? undefined : await options.onInterrupt(interrupt);
    if (answer !== undefined) return { ...answer, interruptId: interrupt.id };
    say(`nothing here answers interrupt ${interrupt.id} (${interrupt.reason}); it was cancelled`, interrupt, 'interrupt-unanswered');
    return cancelled;
  };

  return {
    pending: async (toolCallIds) => {
      // The host runs them one at a time, in this order; each answers as soon as it is done.
      const answered = await Promise.all(toolCallIds.map(answerOne));
      return answered.every(Boolean);
    },
    interrupts: async (interrupts) => {
      const entries = await Promise.all(interrupts.map(answerInterrupt));
      return entries.some((entry) => entry === undefined) ? undefined : (entries as AGUIResumeEntry[]);
    },
  };
}
