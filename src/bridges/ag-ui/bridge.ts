/**
 * The two-way bridge between an AG-UI agent (`@ag-ui/client` 1.x: CopilotKit, Mastra, LangGraph
 * and other agents speak the protocol) and the kit.
 *
 * - In: the agent's events fill the store: `TOOL_CALL_START`/`ARGS`/`END` as argument text,
 *   `TOOL_CALL_RESULT` as the output, the run's end or error ending the calls it leaves open, and
 *   `SUBAGENT_*` nesting the calls a sub-agent makes under the call that started it.
 * - Out: `run()` runs the agent until it needs nothing more from the page. The frontend tools a
 *   run leaves pending run through the kit's host and answer as tool messages, and the run goes
 *   on; an interrupt asking to approve a tool call goes through the kit's confirmation queue and
 *   the run resumes with the answer.
 * - Stop: `stop()` (or an interrupt in the page) aborts the run and cancels every open call.
 */
import type { AppToolHost, ConfirmationController, ToolStreamStore, ToolgateClient } from '../../core';
import { describeThrown } from '../../core/external-store';
import { createAGUIEventMapper } from '../../adapters/ag-ui';
import { readChunk } from '../../adapters/base';
import { CallBook, type OpenCall } from '../../adapters/call-book';
import { isRecord, type Rec } from '../../adapters/chunk-fields';
import { createBridgeKit, type BridgeOptions } from '../shared/kit';
import { createAgentAnswers, type InterruptAnswer } from './agent-answers';
import { AGUI_EVENTS } from '../../adapters/vocabularies';
import { type AGUIAgentLike, type AGUIInterrupt, type AGUIResumeEntry, type AGUITool } from './agent-types';

/**
 * Options of {@link createAGUIBridge}: the kit's parts (made for you when absent), the tools'
 * descriptors for the approval dialog, `onError`, the name in reports (default `AG-UI`), and what
 * answers the interrupts that are not a tool's approval.
 *
 * @example
 * const bridge = createAGUIBridge(agent, { onInterrupt: (interrupt) => ({ status: 'resolved', payload: askTheUser(interrupt) }) } satisfies AGUIBridgeOptions);
 */
export interface AGUIBridgeOptions extends BridgeOptions {
  label?: string;
  /** Answers an interrupt that is not a tool's approval (an input form, a confirmation); by default it is cancelled. */
  onInterrupt?: InterruptAnswer;
  /** The clock interrupts' `expiresAt` is read against (default `Date.now`). */
  now?: () => number;
}

/**
 * What {@link AGUIBridge.run} takes: the run's own tools and context besides the page's app
 * tools, and the answers to interrupts of an earlier run (when the page answers them itself).
 *
 * @example
 * await bridge.run({ context: [{ description: 'The open document', value: title }] } satisfies AGUIRunParameters);
 */
export interface AGUIRunParameters {
  tools?: AGUITool[];
  context?: { description: string; value: string }[];
  forwardedProps?: unknown;
  resume?: AGUIResumeEntry[];
}

/**
 * How `run()` ended: the agent is done; it was stopped; the agent cancelled its run; its run
 * failed (with the message); or a run was already going.
 *
 * @example
 * const { status }: AGUIRunResult = await bridge.run();
 */
export type AGUIRunResult =
  | { status: 'done' | 'stopped' | 'cancelled' | 'busy' }
  | { status: 'error'; message: string };

/**
 * The bridge: give `store`, `host` and `confirmations` to `<ToolgateProvider>`, add the user's
 * message to the agent, and `run()`.
 *
 * @example
 * const bridge: AGUIBridge = createAGUIBridge(new HttpAgent({ url: '/api/agent' }));
 * agent.addMessage({ id: crypto.randomUUID(), role: 'user', content: 'Tidy up my files' });
 * await bridge.run();
 */
export interface AGUIBridge {
  /** The client the bridge fills and answers through: give it to `<ToolgateProvider client>`. */
  readonly client: ToolgateClient;
  readonly store: ToolStreamStore;
  readonly host: AppToolHost;
  readonly confirmations: ConfirmationController;
  /** Run the agent, answering its frontend tools and approvals, until it needs nothing more from the page. */
  run(parameters?: AGUIRunParameters): Promise<AGUIRunResult>;
  /** Abort the run and cancel every open call, abort the app tools' runs and withdraw the approvals, at once. */
  stop(): void;
  /** Stop listening to the agent (the store keeps what it shows). */
  close(): void;
  /**
   * The store's call id of one of the agent's tool calls (`message.toolCalls[i].id`), for its
   * card in place in the conversation: `<ToolCallCard callId={bridge.callIdOf(toolCall.id)} />`.
   */
  callIdOf(toolCallId: string): string | undefined;
}

type RunOutcome =
  | { kind: 'success'; pending: string[] }
  | { kind: 'interrupt'; interrupts: AGUIInterrupt[] }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

/**
 * Connect an AG-UI agent to the kit; see {@link AGUIBridge}.
 *
 * @example
 * const agent = new HttpAgent({ url: '/api/agent' });
 * const bridge = createAGUIBridge(agent);
 * // <ToolgateProvider client={bridge.client}>
 * agent.addMessage({ id: 'm1', role: 'user', content: 'Delete the old forecast' });
 * const { status } = await bridge.run();
 */
export function createAGUIBridge(agent: AGUIAgentLike, options: AGUIBridgeOptions = {}): AGUIBridge {
  const kit = createBridgeKit(options);
  const book = new CallBook('AG-UI', { onError: kit.report, label: options.label });
  /** Calls handed to the page (its app tool runs, a person reviews): a run's end leaves them. */
  const handed = new Set<OpenCall>();
  const mapper = createAGUIEventMapper(book, { keep: (call) => handed.has(call) });
  const say = (reason: string, detail: unknown, code: string): void => kit.report(`${book.provider}: ${reason}`, detail, code);
  const flush = (): void => kit.dispatch(book.drain());
  const answers = createAgentAnswers({ kit, book, mapper, agent, handed, say, onInterrupt: options.onInterrupt, now: options.now ?? Date.now });

  const ignoredTypes = new Set<string>();
  const onEvent = (event: unknown): void => {
    const type = isRecord(event) ? event.type : undefined;
    if (typeof type === 'string' && !AGUI_EVENTS.has(type) && !ignoredTypes.has(type)) {
      ignoredTypes.add(type);
      say(`events of type "${type}" are not part of AG-UI 1.0; they are ignored`, event, 'ignored-event');
    }
    kit.dispatch(readChunk(book, event, (e: Rec) => mapper.handle(e)));
  };
  const subscription = agent.subscribe({ onEvent: ({ event }) => onEvent(event) });

  let running = false;
  let stopped = false;
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    stopped = true;
    try {
      agent.abortRun();
    } catch (error) {
      say(`the agent's run could not be aborted: ${describeThrown(error)}`, error, 'bridge-failed');
    }
    try {
      kit.interrupt();
      book.end({ kind: 'aborted' });
      flush();
    } finally {
      stopping = false;
    }
  };
  // An interrupt in the page (useInterrupt) stops the agent's run.
  const stopInterrupts = kit.host.onInterrupt(() => {
    if (!stopping && running) stop();
  });

  const tools = (own: AGUITool[] = []): AGUITool[] => {
    // The run's own tool definitions describe their tools in the dialog, unless `describe` says otherwise.
    for (const tool of own) kit.learn(tool.name, { description: tool.description === '' ? undefined : tool.description });
    return [
      ...own,
      ...kit.host.declarations().map((d) => ({ name: d.name, description: d.description ?? '', parameters: d.parameters ?? { type: 'object' } })),
    ];
  };

  /** One run, and how it ended (what the run's subscriber was told). */
  const runOnce = async (parameters: AGUIRunParameters): Promise<RunOutcome> => {
    let outcome: RunOutcome | undefined;
    let failure: unknown;
    try {
      await agent.runAgent(
        { ...parameters, tools: tools(parameters.tools) },
        {
          onRunFinishedEvent: (finished) => {
            if (finished.outcome === 'success') outcome = { kind: 'success', pending: [...finished.pendingToolCallIds] };
            else if (finished.outcome === 'interrupt') outcome = { kind: 'interrupt', interrupts: [...finished.interrupts] };
            else outcome = { kind: 'cancelled' };
          },
          onRunErrorEvent: ({ event }) => {
            outcome = { kind: 'error', message: typeof event.message === 'string' ? event.message : 'the run failed' };
          },
          // The client then rejects runAgent (and logs it): either way the failure is reported once, below.
          onRunFailed: ({ error }) => {
            failure ??= error;
          },
        },
      );
    } catch (error) {
      failure ??= error;
    }
    if (failure !== undefined) outcome = { kind: 'error', message: describeThrown(failure) };
    outcome ??= { kind: 'error', message: 'the run ended without RUN_FINISHED' };
    // The run is over: a call it leaves with its arguments open, or nobody left to answer it, ends.
    mapper.endChunked();
    if (outcome.kind === 'error' && !stopped) {
      say(`the run failed: ${outcome.message}`, failure, 'run-failed');
      book.end({ kind: 'error', message: outcome.message }, (call) => !handed.has(call));
    }
    flush();
    return outcome;
  };

  const run = async (parameters: AGUIRunParameters = {}): Promise<AGUIRunResult> => {
    if (running) {
      say('run() was called while a run is going; it was ignored', parameters, 'busy');
      return { status: 'busy' };
    }
    running = true;
    stopped = false;
    try {
      let next: AGUIRunParameters = parameters;
      for (;;) {
        const outcome = await runOnce(next);
        if (stopped) return { status: 'stopped' };
        next = { ...parameters, resume: undefined };
        if (outcome.kind === 'cancelled') return { status: 'cancelled' };
        if (outcome.kind === 'error') return { status: 'error', message: outcome.message };
        if (outcome.kind === 'success') {
          if (outcome.pending.length === 0) return { status: 'done' };
          const answered = await answers.pending(outcome.pending);
          if (answered === false || stopped) return { status: 'stopped' };
          // Running again with nothing new answered would bring the same run back: it ends here.
          if (answered === 0) return { status: 'error', message: 'the run left only tool calls the page answered before or will not answer' };
          continue;
        }
        const resume = await answers.interrupts(outcome.interrupts);
        if (resume === undefined || stopped) return { status: 'stopped' };
        next = { ...next, resume };
      }
    } finally {
      running = false;
    }
  };

  return {
    client: kit.client,
    store: kit.store,
    host: kit.host,
    confirmations: kit.confirmations,
    run,
    stop,
    close: () => {
      stopInterrupts();
      subscription.unsubscribe();
    },
    callIdOf: (toolCallId) => mapper.call(toolCallId)?.callId,
  };
}
