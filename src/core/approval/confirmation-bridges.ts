/**
 * The path without a room: bridges from the confirmation controller to the two places that
 * wait on a person's answer without a room of their own.
 * - the server's before-tool-call gate: `tool.approval-request` answered by `tool.approval`
 *   (docs/protocol.md, "The session"; docs/protocol.md, "The agent's side");
 * - the app-tool host's `requestApproval` option (docs/protocol.md, "App tools": `REJECTED` when declined).
 *
 * docs/protocol.md, "Confirmation": "Deny yields REJECTED where an app-tool call or the server's gate waits
 * on the dialog."
 */

import { isTerminalStatus, type ToolCallStatus } from '../stream/call-lifecycle';
import { callOf as readCall } from '../stream/call-table';
import type { ApprovalContext, ConfirmationEditing, ConfirmationOutcome, ConfirmationView } from './confirmation-types';
import type { ConfirmationController } from './confirmation-controller-types';
import type { ErrorReporter } from '../external-store';
import type { ToolSession } from '../session/tool-session';
import type { ApprovalMark } from '../stream/local-events';
import type { ToolDescriptor } from './tool-descriptor';
import type { JsonValue } from '../json/json-value';
import type { ClientMessage, ToolApprovalRequestMessage } from '../wire';
import { APPROVAL_MISMATCH, type HeldCall } from './approval-binding';
import { approvalMarkOf } from './approval-record';
import { selectApprovalRecord } from './approval-records';
import { mirrorApprovalRecords } from './approval-mirror';
import type { ToolDefinition } from './tool-definition';

const RISKS: readonly unknown[] = ['low', 'medium', 'high'];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Whether `value` is a well-formed `tool.approval-request`.
 *
 * @example
 * session.subscribe((event) => { if (isToolApprovalRequest(event)) answerToolApprovalRequest(confirmations, event, send) });
 */
export function isToolApprovalRequest(value: unknown): value is ToolApprovalRequestMessage {
  return explainApprovalRequest(value) === undefined;
}

/** Why `value` is not a well-formed `tool.approval-request`, or `undefined` when it is. */
function explainApprovalRequest(value: unknown): string | undefined {
  if (!isRecord(value) || value.type !== 'tool.approval-request') return 'not a tool.approval-request';
  if (typeof value.requestId !== 'string' || value.requestId === '') return 'requestId is not a non-empty string';
  if (typeof value.callId !== 'string' || value.callId === '') return 'callId is not a non-empty string';
  if (typeof value.name !== 'string' || value.name === '') return 'name is not a non-empty string';
  if (!('arguments' in value)) return 'arguments are missing';
  if (!RISKS.includes(value.risk)) return 'risk is not low, medium or high';
  if (value.effect !== undefined && value.effect !== 'read' && value.effect !== 'write') return 'effect is not read or write';
  if (value.editable !== undefined && typeof value.editable !== 'boolean') return 'editable is not a boolean';
  if (value.expiresAt !== undefined && (typeof value.expiresAt !== 'number' || !Number.isFinite(value.expiresAt))) return 'expiresAt is not a time in ms';
  if (value.parentCallId !== undefined && (typeof value.parentCallId !== 'string' || value.parentCallId === '')) return 'parentCallId is not a non-empty string';
  if (value.parentCallId === value.callId) return 'parentCallId names the call itself';
  if (value.description !== undefined && typeof value.description !== 'string') return 'description is not a string';
  if (value.parameters !== undefined && (!isRecord(value.parameters) || Array.isArray(value.parameters))) return 'parameters is not a JSON Schema object';
  if (value.outputSchema !== undefined && (!isRecord(value.outputSchema) || Array.isArray(value.outputSchema))) return 'outputSchema is not a JSON Schema object';
  return undefined;
}

/** Why an outcome is no approval, in words (the reason given, else its status). */
export function reasonOfOutcome(outcome: ConfirmationOutcome): string {
  return 'reason' in outcome && typeof outcome.reason === 'string' ? outcome.reason : outcome.status;
}

/**
 * The server's `error` codes that refuse an answer the page sent, and the mark the call then gets:
 * too late (`expired`), or not an approval of what was asked (`refused`). Nothing ran either way.
 */
const SERVER_REFUSALS = Object.freeze({
  APPROVAL_EXPIRED: 'expired',
  FINGERPRINT_MISMATCH: 'refused',
  EDIT_REFUSED: 'refused',
  // docs/protocol.md "Signed approvals": a decision whose token was refused ran nothing.
  APPROVAL_TOKEN_INVALID: 'refused',
  RESPONSE_REFUSED: 'refused',
} as const);

/** Report through `onError`, which may itself throw: nothing safer is left to tell then, and the listener goes on. */
function tell(onError: ErrorReporter | undefined, reason: string, detail: unknown, code: string): void {
  try {
    onError?.(reason, detail, code);
  } catch {
    // The reporter threw.
  }
}

/**
 * Options of {@link answerToolApprovalRequest}.
 *
 * @example
 * answerToolApprovalRequest(confirmations, message, send, { signal: sessionClosed.signal });
 */
export interface ApprovalRequestOptions {
  /** Aborting it withdraws the request while it waits (e.g. the session closed); nothing is sent then. */
  signal?: AbortSignal;
  /** The JSON Schema of an editable request's arguments, by tool name: its editor is then a form. */
  schemaOf?: (toolName: string) => Record<string, unknown> | undefined;
  /** Told where the call stands with its approval: approved (with what runs), denied (with why) or expired. */
  mark?: (mark: ApprovalMark) => void;
  /** The tool name of a call, by id: a nested call's request names its parent with it. */
  toolNameOf?: (callId: string) => string | undefined;
  /**
   * The call as the page holds it now (its card's tool name), read when the request is approved:
   * a call that names another tool than the request is not answered (`approval-mismatch`).
   */
  currentCall?: () => HeldCall | undefined;
}

/**
 * Queue a `tool.approval-request` (the server's before-tool-call gate) with the controller and
 * answer it exactly once through `send`:
 * `{ type: 'tool.approval', requestId, approved, reason?, fingerprint, arguments?, automatic? }`.
 *
 * - Approve sends `approved: true` with the full SHA-256 hex of the canonical arguments approved,
 *   so the server can check that what it runs is what the person saw.
 * - An `editable` request may be edited first: then `arguments` carries the edited snapshot and
 *   `fingerprint` is its own (the server validates them, checks the fingerprint, runs exactly them).
 * - A request answered by a standing grant is sent with `automatic: true`.
 * - Deny sends `approved: false` with the reason (the server answers the call `REJECTED`, and the
 *   model hears the reason).
 * - Every answer names its `decision`: `approve`, `deny`, `respond` (with the person's `output`,
 *   which the call settles with instead of running) or `cancel` (withdrawn, not rejected).
 * - A request with an `approvalToken` gets it back with the answer, unchanged.
 * - A request with `expiresAt` that nobody decided in time ends `expired`, and nothing is sent:
 *   the server ends it at that time and refuses a late decision.
 * - Arguments that cannot be shown (not JSON, no Web Crypto) are refused: `approved: false`,
 *   with `fingerprint: ''` when none could be computed.
 * - The descriptor is `{ effect: message.effect, risk: message.risk, requiresConfirmation: true }`
 *   (an effect the gate does not give is not declared, and counts as a write): the gate only asks
 *   when it wants a person's answer.
 *
 * Resolves with the request's outcome; rejects with the signal's reason when withdrawn.
 *
 * @example
 * session.subscribe((event) => {
 *   if (isToolApprovalRequest(event)) void answerToolApprovalRequest(confirmations, event, session.send);
 * });
 */
export function answerToolApprovalRequest(
  controller: ConfirmationController,
  message: ToolApprovalRequestMessage,
  send: (message: ClientMessage) => void,
  options: ApprovalRequestOptions = {},
): Promise<ConfirmationOutcome> {
  let answered = false;
  // The gate waits on one answer: whatever happens later (a failed send, a repeated event),
  // at most one `tool.approval` leaves for this requestId.
  const answer = (reply: Omit<Extract<ClientMessage, { type: 'tool.approval' }>, 'type' | 'requestId'>): void => {
    if (answered) return;
    answered = true;
    // A signed request's token goes back as it came: the server verifies it before anything runs.
    const token = typeof message.approvalToken === 'string' ? { approvalToken: message.approvalToken } : {};
    send({ type: 'tool.approval', requestId: message.requestId, ...reply, ...token });
  };
  // Told from the call's approval record, which the controller wrote before this callback ran.
  const mark = (): void => {
    const record = options.mark === undefined ? undefined : selectApprovalRecord(controller.records.getState(), message.callId);
    if (record !== undefined) options.mark?.(approvalMarkOf(record));
  };
  const descriptor: Partial<ToolDescriptor> = {
    ...(message.effect === undefined ? {} : { effect: message.effect }),
    risk: message.risk,
    requiresConfirmation: true,
  };
  const schema = message.editable === true ? options.schemaOf?.(message.name) : undefined;
  // The tool as the server declares it here: a grant given for another definition does not answer it.
  const definition: ToolDefinition = {
    name: message.name,
    ...(message.description === undefined ? {} : { description: message.description }),
    ...(message.parameters === undefined ? {} : { parameters: message.parameters }),
    descriptor,
  };
  const editable: boolean | ConfirmationEditing = message.editable === true ? (schema === undefined ? true : { schema }) : false;
  return controller.request({
    toolName: message.name,
    arguments: message.arguments,
    descriptor,
    callId: message.callId,
    ...(typeof message.turnId === 'string' ? { turnId: message.turnId } : {}),
    editable,
    // A person answering in the tool's place fills a form of what the tool would return.
    ...(message.outputSchema === undefined ? {} : { outputSchema: message.outputSchema }),
    ...(message.expiresAt === undefined ? {} : { expiresAt: message.expiresAt }),
    // A sub-agent's call: the person sees which tool's work it is part of.
    ...(message.parentCallId === undefined ? {} : { parent: { callId: message.parentCallId, toolName: options.toolNameOf?.(message.parentCallId) } }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    definition,
    ...(options.currentCall === undefined ? {} : { currentCall: options.currentCall }),
    onApprove: (args, context) => {
      answer({
        approved: true,
        toolName: context.toolName,
        ...(context.definition === null ? {} : { definitionFingerprint: context.definition.hex }),
        decision: 'approve',
        fingerprint: context.fingerprint.hex,
        // Only an edit travels: the server runs the arguments it asked about unless the person changed them.
        ...(context.edited ? { arguments: args } : {}),
        ...(context.automatic ? { automatic: true } : {}),
      });
      mark();
      return null;
    },
    onResult: (outcome, request) => {
      if (outcome.status === 'done') return;
      mark();
      // The server ends an expired request itself, at its own time, and refuses a late answer.
      if (outcome.status === 'expired') return;
      // The call names another tool than the one shown: nothing is answered for it (docs/guarantees.md).
      if (outcome.status === 'refused' && outcome.code === APPROVAL_MISMATCH) return;
      const bound = { toolName: request.toolName, ...(request.definition === null ? {} : { definitionFingerprint: request.definition.hex }) };
      if (outcome.status === 'responded') {
        // The person's answer is the call's result: the tool does not run (docs/protocol.md "Decisions").
        answer({ approved: false, decision: 'respond', output: outcome.output, ...bound, fingerprint: request.fingerprint?.hex ?? '' });
        return;
      }
      if (outcome.status === 'cancelled') {
        answer({ approved: false, decision: 'cancel', ...(outcome.reason === undefined ? {} : { reason: outcome.reason }), ...bound, fingerprint: request.fingerprint?.hex ?? '' });
        return;
      }
      answer({
        approved: false,
        decision: 'deny',
        toolName: request.toolName,
        reason: reasonOfOutcome(outcome),
        fingerprint: request.fingerprint?.hex ?? '',
        ...(request.definition === null ? {} : { definitionFingerprint: request.definition.hex }),
        ...(request.decidedBy?.by === 'rule' ? { automatic: true } : {}),
      });
    },
  });
}

/**
 * Options of {@link connectApprovalGate}.
 *
 * @example
 * connectApprovalGate(session, confirmations, { onError: (reason, event, code) => console.warn(code, reason, event) });
 */
export interface ApprovalGateOptions {
  /**
   * Told of a `tool.approval-request` that is malformed, as `(reason, event, 'malformed-approval-request')`;
   * it is answered `approved: false` when it has a requestId.
   */
  onError?: ErrorReporter;
  /** The JSON Schema of a server tool's arguments, by name: an editable request's editor is then a form of its fields. */
  schemaOf?: (toolName: string) => Record<string, unknown> | undefined;
  /**
   * The session's tool-call store (or anything shaped like it). A request whose call has ended
   * there (`settled`, `cancelled`, `failed`: e.g. its turn was interrupted here) is withdrawn
   * from the queue unanswered: nobody waits for that answer any more, and a person must not be
   * asked to approve a call that can no longer run. With the store's `markApproval`, the call
   * shows where its approval stands, mirrored from the controller's approval record:
   * `awaiting` while the request waits, then `approved` (with the request's arguments, what runs:
   * the gate may have rewritten the model's), or `denied`.
   */
  calls?: ApprovalGateCalls;
}

/**
 * What {@link connectApprovalGate} reads of the tool-call store (a `ToolStreamStore` fits).
 *
 * @example
 * connectApprovalGate(session, confirmations, { calls: store satisfies ApprovalGateCalls });
 */
export interface ApprovalGateCalls {
  getState(): {
    readonly calls: Readonly<Record<string, { readonly status: ToolCallStatus; readonly name?: string }>>;
    /** The store's action: where the call stands with its approval. */
    markApproval?(callId: string, mark: ApprovalMark): void;
  };
  subscribe(listener: () => void): () => void;
}

/**
 * Listen to a session's `tool.approval-request` events and queue each with the controller,
 * answering through `session.send`. A repeated request (same requestId, e.g. after a resume) is
 * answered once; `closed` withdraws the requests still waiting, and so does the end of a request's
 * call in `options.calls`. Returns an unsubscribe function, which stops listening but leaves
 * queued requests to be answered.
 *
 * @example
 * useEffect(() => connectApprovalGate(session, confirmations), [session, confirmations]);
 */
export function connectApprovalGate(
  session: Pick<ToolSession, 'subscribe' | 'send' | 'onFrame'>,
  controller: ConfirmationController,
  options: ApprovalGateOptions = {},
): () => void {
  const waiting = new Map<string, AbortController>();
  const seen = new Set<string>();
  const calls = options.calls;
  /** The call ids of the waiting requests, watched in `calls` only while there are some. */
  const callOf = new Map<string, string>();
  let stopWatching: (() => void) | undefined;
  const ended = (callId: string): boolean => {
    // One call, read without building the whole `calls` record: this runs on every store change
    // while a request waits.
    const call = calls === undefined ? undefined : readCall(calls.getState(), callId);
    return call !== undefined && isTerminalStatus(call.status);
  };
  const sweep = (): void => {
    for (const [requestId, callId] of callOf) {
      if (!ended(callId)) continue;
      callOf.delete(requestId);
      waiting.get(requestId)?.abort(new DOMException(`The tool call ${callId} ended before it was approved`, 'AbortError'));
    }
    if (callOf.size === 0 && stopWatching) {
      stopWatching();
      stopWatching = undefined;
    }
  };
  // Each call shows its approval record (the controller writes it; the mirror derives the call's fields).
  if (calls !== undefined) mirrorApprovalRecords(controller.records, calls);
  const forget = (requestId: string): void => {
    waiting.delete(requestId);
    callOf.delete(requestId);
    if (callOf.size === 0 && stopWatching) {
      stopWatching();
      stopWatching = undefined;
    }
  };
  /** The calls of the requests this page answered, by request id: the server may still refuse an answer. */
  const answeredCall = new Map<string, string>();
  const stopFrames = session.onFrame?.((frame) => {
    if (frame.type !== 'error' || typeof frame.requestId !== 'string') return;
    const callId = answeredCall.get(frame.requestId);
    const code = frame.code;
    if (callId === undefined || typeof code !== 'string' || !(code in SERVER_REFUSALS)) return;
    answeredCall.delete(frame.requestId);
    // The server's last word: it refused the answer and nothing ran (docs/guarantees.md).
    const message = typeof frame.message === 'string' ? frame.message : code;
    controller.noteAnswer(callId, { status: SERVER_REFUSALS[code as keyof typeof SERVER_REFUSALS], reason: `${code}: ${message}` });
  });
  const stopEvents = session.subscribe((event) => {
    if (!isRecord(event)) return;
    if (event.type === 'closed') {
      // `closed` is final; nobody is left to answer to (docs/protocol.md, "App tools").
      for (const pending of waiting.values()) pending.abort(new DOMException('The session closed', 'AbortError'));
      waiting.clear();
      seen.clear();
      callOf.clear();
      stopWatching?.();
      stopWatching = undefined;
      return;
    }
    if (event.type !== 'tool.approval-request') return;
    const problem = explainApprovalRequest(event);
    if (problem !== undefined) {
      tell(options.onError, `malformed tool.approval-request: ${problem}`, event, 'malformed-approval-request');
      const requestId = event.requestId;
      if (typeof requestId === 'string' && requestId !== '' && !seen.has(requestId)) {
        // Deny what cannot be shown, so the gate does not wait for ever.
        seen.add(requestId);
        session.send({ type: 'tool.approval', requestId, approved: false, reason: `malformed approval request: ${problem}`, fingerprint: '' });
      }
      return;
    }
    const message = event as unknown as ToolApprovalRequestMessage;
    if (seen.has(message.requestId)) return;
    seen.add(message.requestId);
    // Its call already ended here (e.g. the turn was interrupted before the request arrived): never shown.
    if (calls !== undefined && ended(message.callId)) return;
    const pending = new AbortController();
    waiting.set(message.requestId, pending);
    if (calls !== undefined) {
      callOf.set(message.requestId, message.callId);
      stopWatching ??= calls.subscribe(sweep);
    }
    answerToolApprovalRequest(controller, message, (reply) => session.send(reply), {
      signal: pending.signal,
      // The server may still refuse an approval this page sent: its error frame names the request.
      mark: (value) => {
        if (value.approval === 'approved') answeredCall.set(message.requestId, message.callId);
      },
      toolNameOf: (callId) => (calls === undefined ? undefined : readCall(calls.getState(), callId)?.name),
      // The card's call, read again when the request is approved: it must name the tool the dialog showed.
      ...(calls === undefined ? {} : { currentCall: () => heldCallOf(calls, message.callId) }),
      ...(options.schemaOf === undefined ? {} : { schemaOf: options.schemaOf }),
    }).then(
      () => forget(message.requestId),
      () => forget(message.requestId),
    );
  });
  return () => {
    stopEvents();
    stopFrames?.();
    answeredCall.clear();
    stopWatching?.();
    stopWatching = undefined;
  };
}

/** The call as the store holds it (its tool name), or `undefined` for a call it does not show. */
function heldCallOf(calls: ApprovalGateCalls, callId: string): HeldCall | undefined {
  const call = readCall(calls.getState(), callId);
  return call === undefined || typeof call.name !== 'string' ? undefined : { toolName: call.name };
}

/**
 * What the app-tool host asks when a tool has `confirm` (structurally its `requestApproval` argument).
 *
 * @example
 * const query: AppToolApprovalQuery = { callId: 'c1', turnId: 't1', toolName: 'insert_text', arguments: { text: 'hi' } };
 */
export interface AppToolApprovalQuery {
  readonly callId: string;
  readonly turnId: string;
  readonly toolName: string;
  readonly arguments: unknown;
  readonly signal?: AbortSignal;
  /** The tool lets a person edit its arguments first: its schema and its own validator check the edit. */
  readonly editable?: ConfirmationEditing;
  /** The call this one is part of (a sub-agent's call): the request names it. */
  readonly parent?: { readonly callId: string; readonly toolName?: string | undefined };
  /** The tool as it was registered (name, description, parameters): with its descriptor, its definition. */
  readonly definition?: Omit<ToolDefinition, 'descriptor'>;
  /** The tool's output schema: a person's answer in its place ("Respond instead") is a form of it. */
  readonly outputSchema?: Record<string, unknown>;
}

/**
 * The answer the app-tool host expects: `approved: false` becomes `REJECTED`.
 *
 * @example
 * const answer: AppToolApprovalAnswer = { approved: false, reason: 'declined' };
 */
export interface AppToolApprovalAnswer {
  approved: boolean;
  reason?: string;
  /** `respond`: `output` is the call's result and the tool does not run; `cancel`: withdrawn, not rejected (docs/protocol.md "Decisions"). */
  decision?: 'respond' | 'cancel';
  output?: JsonValue;
  /** The person's edited arguments, checked by the tool's validator: what runs instead of those asked about. */
  arguments?: JsonValue;
}

/**
 * Options of {@link createAppToolApprovalHandler}.
 *
 * @example
 * createAppToolApprovalHandler(confirmations, { describe: (name) => descriptors[name] });
 */
export interface AppToolApprovalHandlerOptions {
  /** The descriptor of an app tool; without one, a write that needs confirmation. */
  describe?: (toolName: string) => Partial<ToolDescriptor> | undefined;
  /**
   * The session's tool-call store (or anything with its `markApproval`): each call shows where its
   * approval stands, mirrored from the controller's approval record: `awaiting`, then `approved`
   * (with what runs), `denied` (with why) or `expired`; and an approval is bound to the tool the
   * store holds the call as.
   */
  calls?: ApprovalGateCalls;
}

/**
 * Adapt the controller to the app-tool host's `requestApproval({ callId, turnId, toolName, arguments, signal, editable? })`.
 * Approve resolves `{ approved: true }` (with `arguments` when the person edited them: what runs);
 * deny (or refused arguments) resolves `{ approved: false, reason? }`, which the host answers
 * `REJECTED` with the reason. It answers at the first outcome, before a person dismisses it. A
 * withdrawn request (its signal aborted: interrupt, close) leaves the queue and the promise
 * rejects with the signal's reason; the host has already answered the call `INTERRUPTED`.
 *
 * @example
 * const host = createAppToolHost({ requestApproval: createAppToolApprovalHandler(confirmations) });
 */
export function createAppToolApprovalHandler(
  controller: ConfirmationController,
  options: AppToolApprovalHandlerOptions = {},
): (query: AppToolApprovalQuery) => Promise<AppToolApprovalAnswer> {
  // Each call shows its approval record (the controller writes it; the mirror derives the call's fields).
  if (options.calls !== undefined) mirrorApprovalRecords(controller.records, options.calls);
  return (query) =>
    new Promise<AppToolApprovalAnswer>((resolve, reject) => {
      const descriptor = options.describe?.(query.toolName);
      let edit: JsonValue | undefined;
      controller
        .request({
          toolName: query.toolName,
          arguments: query.arguments,
          ...(descriptor === undefined ? {} : { descriptor }),
          callId: query.callId,
          turnId: query.turnId,
          ...(query.editable === undefined ? {} : { editable: query.editable }),
          ...(query.outputSchema === undefined ? {} : { outputSchema: query.outputSchema }),
          ...(query.parent === undefined ? {} : { parent: { callId: query.parent.callId, toolName: query.parent.toolName } }),
          ...(query.signal === undefined ? {} : { signal: query.signal }),
          definition: { ...query.definition, name: query.toolName, descriptor: descriptor ?? null },
          // The card's call, read again when the request is approved: it must name the tool the dialog showed.
          ...(options.calls === undefined ? {} : { currentCall: ((calls) => () => heldCallOf(calls, query.callId))(options.calls) }),
          // The approval is the whole effect here: the host runs the tool once it hears yes.
          onApprove: (args, context) => {
            if (context.edited) edit = args;
            return null;
          },
          // The first outcome answers the host at once, even one held on screen for a person to read.
          onResult: (outcome, view) => {
            if (outcome.status === 'done') {
              resolve(edit === undefined ? { approved: true } : { approved: true, arguments: edit });
              return;
            }
            if (outcome.status === 'responded') return resolve({ approved: false, decision: 'respond', output: outcome.output });
            if (outcome.status === 'cancelled') return resolve({ approved: false, decision: 'cancel', ...(outcome.reason === undefined ? {} : { reason: outcome.reason }) });
            resolve('reason' in outcome && outcome.reason !== undefined ? { approved: false, reason: outcome.reason } : { approved: false });
          },
        })
        .catch(reject);
    });
}
