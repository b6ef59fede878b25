/**
 * What both bridges do with the kit: fill its store, run the page's app tools through its host,
 * ask a person through its confirmation queue, and stop everything in flight at once. Each
 * bridge plays the part a session plays with the reference server: it is where the chat's or the
 * agent's tool calls come from and where their answers go.
 */
import { createAppToolApprovalHandler } from '../../core/approval/confirmation-bridges';
import { fingerprintJson } from '../../core/json/fingerprint';
import {
  createToolgate,
  type AppToolHost,
  type ConfirmationController,
  type ErrorReporter,
  type JsonValue,
  type ToolDescriptor,
  type ToolResult,
  type ToolStreamEvent,
  type ToolStreamStore,
  type ToolgateClient,
} from '../../core';
import { describeThrown } from '../../core/external-store';
import { snapshotJson } from '../../core/json/json-value';
import { createDerivedDescriptors, type LibraryTool } from './descriptors';

/**
 * What every bridge takes: the kit's client, or its parts (a client is made from them with
 * `createToolgate` when no `client` is given), and where problems go.
 *
 * @example
 * const options: BridgeOptions = { client: createToolgate(), onError: (reason, detail, code) => console.warn(code, reason) };
 */
export interface BridgeOptions {
  /**
   * The client whose store the calls fill, whose host runs the page's app tools and whose queue
   * asks a person (give the same client to `<ToolgateProvider client>`). When given, `store`,
   * `host` and `confirmations` are not read.
   */
  client?: ToolgateClient;
  /** The store the calls fill; by default the client's (pass it to `<ToolgateProvider store>`). */
  store?: ToolStreamStore;
  /** The host that runs the page's app tools (`useAppTool` registers there); by default the client's. */
  host?: AppToolHost;
  /** The queue of approvals a person answers (`<ConfirmToolDialog />`); by default the client's. */
  confirmations?: ConfirmationController;
  /**
   * Each tool's descriptor (effect, risk, title) for the approval dialog; an approval is always
   * asked. It wins over what the bridge reads from the library (a tool's title and description,
   * trusted MCP servers' annotations); without either, a tool reads as a write of undeclared risk.
   */
  describe?: (toolName: string) => Partial<ToolDescriptor> | undefined;
  /**
   * The MCP clients (the `name` given to `@ai-sdk/mcp`'s `createMCPClient`, which its tools carry
   * as `metadata.clientName`) whose servers' tool annotations become descriptors; others' are ignored.
   */
  trustedMcpClients?: readonly string[];
  /**
   * Told of everything the bridge skipped or refused, in the kit's one shape: a sentence, the
   * thing concerned (the chunk, the event, the call) and a code. Nothing the bridge is given
   * makes it throw.
   */
  onError?: ErrorReporter;
}

/**
 * The person's answer to an approval, bound to what they saw: the tool's name, the frozen
 * snapshot of the arguments shown and its fingerprint (SHA-256 of the canonical JSON). A later
 * edit would carry the edited snapshot here, with its own fingerprint.
 *
 * @example
 * const decision: ApprovalDecision = { approved: true, toolName: 'deleteFile', arguments: { path: '/tmp/x' }, fingerprint: '3f2a…' };
 */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
  /** The tool the person was shown: an answer goes out only for a call still of this tool. */
  toolName: string;
  /** What was approved: the snapshot shown to the person. */
  arguments: JsonValue;
  /** 64 hex digits; empty when no fingerprint could be computed (no Web Crypto). */
  fingerprint: string;
  /**
   * A decision that is neither approve nor deny (docs/protocol.md "Decisions"): `respond` (the
   * person's `output` replaces running the tool) or `cancel` (withdrawn, not rejected).
   */
  instead?: 'respond' | 'cancel';
  /** A `respond` decision's answer. */
  output?: JsonValue;
}

/** A call the page runs or a person reviews. */
export interface KitCall {
  callId: string;
  turnId: string;
  name: string;
  arguments: unknown;
}

export interface BridgeKit {
  /** The client the bridge fills and answers through: the one given, or one made from the options. */
  readonly client: ToolgateClient;
  readonly store: ToolStreamStore;
  readonly host: AppToolHost;
  readonly confirmations: ConfirmationController;
  report: ErrorReporter;
  /** Events into the store, in order. */
  dispatch(events: readonly ToolStreamEvent[]): void;
  /** What the library says of a tool (title, description, MCP annotations, `needsApproval`): the dialog's descriptor unless `describe` gives one. */
  learn(name: string, tool: LibraryTool): void;
  /** Whether the page has an app tool of this name (registered with `useAppTool` or `host.register`). */
  hasTool(name: string): boolean;
  /**
   * Run a call through the host (one at a time, validation, time limit, approval). Resolves with
   * its result, or `undefined` when the run was interrupted here: the store already shows the
   * call cancelled, and nothing is to be answered.
   */
  run(call: KitCall): Promise<ToolResult | undefined>;
  /**
   * Ask a person; `undefined` when the request was withdrawn (the chat or run was stopped). The
   * call's card says "Awaiting approval" meanwhile.
   */
  approve(call: KitCall): Promise<ApprovalDecision | undefined>;
  /** The answer went out: the card shows it (approved, with the snapshot that runs, or denied with why). */
  answered(callId: string, decision: ApprovalDecision): void;
  /**
   * Stop everything in flight at once, without waiting for anyone: every open call in the store
   * cancelled, every app-tool run aborted (its epoch passed), every waiting approval withdrawn.
   */
  interrupt(): void;
}

/** The `settled` event that shows an app tool's result on its card. */
export function settledBy(callId: string, result: ToolResult): ToolStreamEvent & { phase: 'settled' } {
  if (result.ok) return { type: 'tool.stream', phase: 'settled', callId, ok: true, output: result.output };
  const settled: ToolStreamEvent & { phase: 'settled' } = { type: 'tool.stream', phase: 'settled', callId, ok: false, code: result.code };
  if (result.message !== undefined) settled.message = result.message;
  return settled;
}

export function createBridgeKit(options: BridgeOptions): BridgeKit {
  const report: ErrorReporter = (reason, detail, code) => {
    try {
      options.onError?.(reason, detail, code);
    } catch (error) {
      console.error('toolgate: an onError handler threw', error);
    }
  };
  const client =
    options.client ??
    createToolgate({
      ...(options.store === undefined ? {} : { calls: options.store }),
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(options.confirmations === undefined ? {} : { approvals: options.confirmations }),
      onError: report,
    });
  const { calls: store, host, approvals: confirmations } = client;
  const descriptors = createDerivedDescriptors(options.describe, options.trustedMcpClients);
  // The library asked for a person's answer: whatever the descriptor says, it is asked.
  // Each call shows its approval record through the client, which mirrors its approvals' records into its store.
  const ask = createAppToolApprovalHandler(confirmations, {
    describe: (name) => ({ ...descriptors.describe(name), requiresConfirmation: true }),
  });
  const waiting = new Set<AbortController>();

  const approve = async (call: KitCall): Promise<ApprovalDecision | undefined> => {
    const snapshot = snapshotJson(call.arguments);
    if (!snapshot.ok) {
      return { approved: false, reason: `the arguments cannot be shown: ${snapshot.reason}`, toolName: call.name, arguments: null, fingerprint: '' };
    }
    const fingerprint = fingerprintJson(snapshot.value).then(
      (f) => f.hex,
      (error: unknown) => {
        report(`no fingerprint for ${call.name}'s arguments: ${describeThrown(error)}`, call, 'no-fingerprint');
        return '';
      },
    );
    const controller = new AbortController();
    waiting.add(controller);
    try {
      // A sub-agent's call (its start named a parent): the request says whose work it is part of.
      const parentCallId = store.getState().calls[call.callId]?.parentCallId;
      const parent = parentCallId === undefined ? undefined : { callId: parentCallId, toolName: store.getState().calls[parentCallId]?.name };
      const answer = await ask({ callId: call.callId, turnId: call.turnId, toolName: call.name, arguments: snapshot.value, signal: controller.signal, ...(parent === undefined ? {} : { parent }) });
      const decision: ApprovalDecision = { approved: answer.approved, toolName: call.name, arguments: snapshot.value, fingerprint: await fingerprint };
      if (answer.reason !== undefined) decision.reason = answer.reason;
      if (answer.decision === 'cancel') decision.instead = 'cancel';
      if (answer.decision === 'respond' && answer.output !== undefined) {
        decision.instead = 'respond';
        decision.output = answer.output;
      }
      return decision;
    } catch (error) {
      if (controller.signal.aborted) return undefined;
      report(`the approval of ${call.name} failed: ${describeThrown(error)}`, call, 'approval-failed');
      return { approved: false, reason: 'the approval could not be asked', toolName: call.name, arguments: snapshot.value, fingerprint: await fingerprint };
    } finally {
      waiting.delete(controller);
    }
  };

  const run = async (call: KitCall): Promise<ToolResult | undefined> => {
    const result = await host.call({ callId: call.callId, turnId: call.turnId, epoch: host.epoch, name: call.name, arguments: call.arguments });
    return !result.ok && result.code === 'INTERRUPTED' ? undefined : result;
  };

  return {
    client,
    store,
    host,
    confirmations,
    report,
    dispatch: (events) => {
      const { dispatch } = store.getState();
      for (const event of events) dispatch(event);
    },
    learn: descriptors.learn,
    hasTool: (name) => host.declarations().some((d) => d.name === name),
    run,
    approve,
    answered: (callId, decision) => {
      // The queue recorded its own outcome; what is left to record is a denial the bridge sent in
      // its place (the call changed after it was shown) or one given without asking (docs/architecture.md, "The approval record").
      if (decision.approved || decision.instead !== undefined) return;
      confirmations.noteAnswer(callId, { status: 'denied', toolName: decision.toolName, ...(decision.reason === undefined ? {} : { reason: decision.reason }) });
    },
    interrupt: () => {
      store.getState().interrupt();
      host.interrupt();
      for (const controller of [...waiting]) controller.abort(new DOMException('The tool calls were stopped', 'AbortError'));
      waiting.clear();
    },
  };
}
