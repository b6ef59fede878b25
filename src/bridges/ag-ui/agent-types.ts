/**
 * The parts of AG-UI's client the bridge touches, described by their shape rather than imported,
 * so the entry loads without `@ag-ui/client` and takes any agent of it (`HttpAgent`, a framework's
 * own `AbstractAgent`).
 */

/**
 * What AG-UI calls an interrupt: something a run needs from outside before it goes on.
 *
 * @example
 * const interrupt: AGUIInterrupt = { id: 'int-1', reason: 'tool_call', toolCallId: 'call-7', message: 'Delete /tmp/x?' };
 */
export interface AGUIInterrupt {
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  responseSchema?: Record<string, unknown>;
  expiresAt?: string;
  metadata?: Record<string, unknown>;
}

/**
 * The answer to one interrupt, as the next run carries it (`RunAgentInput.resume`).
 *
 * @example
 * const entry: AGUIResumeEntry = { interruptId: 'int-1', status: 'resolved', payload: { approved: true } };
 */
export interface AGUIResumeEntry {
  interruptId: string;
  status: 'resolved' | 'cancelled';
  payload?: unknown;
  metadata?: Record<string, unknown>;
}

/**
 * A tool as a run offers it to the agent.
 *
 * @example
 * const tool: AGUITool = { name: 'setTitle', description: "Set the page's title", parameters: { type: 'object' } };
 */
export interface AGUITool {
  name: string;
  description: string;
  parameters?: unknown;
}

/**
 * What a run finishing tells the subscriber (AG-UI 1.0's `onRunFinishedEvent`).
 *
 * @example
 * const finished: AGUIRunFinished = { outcome: 'success', pendingToolCallIds: ['call-1'] };
 */
export type AGUIRunFinished =
  | { outcome: 'success'; pendingToolCallIds: string[] }
  | { outcome: 'interrupt'; interrupts: AGUIInterrupt[] }
  | { outcome: 'cancelled' };

/**
 * The subscriber callbacks the bridge uses.
 *
 * @example
 * const subscriber: AGUISubscriber = { onEvent: ({ event }) => console.debug(event) };
 */
export interface AGUISubscriber {
  onEvent?(params: { event: unknown }): void;
  onRunFinishedEvent?(params: AGUIRunFinished): void;
  onRunErrorEvent?(params: { event: { message?: unknown } }): void;
  onRunFailed?(params: { error: Error }): void;
}

/**
 * What the bridge needs of an AG-UI agent: `HttpAgent` (and every `AbstractAgent`) of
 * `@ag-ui/client` 1.x fits.
 *
 * @example
 * const agent: AGUIAgentLike = new HttpAgent({ url: '/api/agent' });
 */
export interface AGUIAgentLike {
  subscribe(subscriber: AGUISubscriber): { unsubscribe(): void };
  runAgent(parameters?: { tools?: AGUITool[]; resume?: AGUIResumeEntry[] }, subscriber?: AGUISubscriber): Promise<unknown>;
  abortRun(): void;
  /**
   * The conversation the next run sends (`HttpAgent` keeps it): an answer goes out only while it
   * still holds the tool call as the page showed it.
   */
  readonly messages?: readonly unknown[];
  addMessage(message: { id: string; role: 'tool'; toolCallId: string; content: string; error?: string }): void;
}

