/*
 * The wire: the events a session sends about tool calls, and the messages the kit
 * exchanges with a session. Types only; validation lives in `validate-event.ts`.
 *
 * (docs/protocol.md, "Rules of the stream"): every call starts with `start` and ends with
 * exactly one of `settled`, `cancelled` or `failed`, unless the session ends first.
 */

import type { JsonValue } from './json/json-value';

/**
 * How much harm a call can do, as the start event or a descriptor says.
 *
 * @example
 * const risk: ToolRisk = call.risk ?? 'medium';
 */
export type ToolRisk = 'low' | 'medium' | 'high';
/**
 * Where a call runs: on the server, or in this page (an app tool).
 *
 * @example
 * if (call.location === 'app') showSpinnerInPage();
 */
export type ToolLocation = 'server' | 'app';

/**
 * The seven phases of a `tool.stream` event, in lifecycle order.
 *
 * @example
 * TOOL_STREAM_PHASES.indexOf('progress') // 3
 */
export const TOOL_STREAM_PHASES = [
  'start',
  'arguments-delta',
  'arguments-complete',
  'progress',
  'settled',
  'cancelled',
  'failed',
] as const;
/**
 * One phase of a `tool.stream` event.
 *
 * @example
 * const phase: ToolStreamPhase = 'arguments-delta';
 */
export type ToolStreamPhase = (typeof TOOL_STREAM_PHASES)[number];

/** Any event may carry `seq`, a number that rises through a session (repeats are dropped). */
interface Sequenced {
  seq?: number;
}

/**
 * A call begins: its id, turn and tool name (and where it runs, and its risk, when known).
 *
 * @example
 * const start: ToolStreamStartEvent = { type: 'tool.stream', phase: 'start', callId: 'c1', turnId: 't1', name: 'search', risk: 'low' };
 */
export interface ToolStreamStartEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'start';
  callId: string;
  turnId: string;
  name: string;
  location?: ToolLocation;
  risk?: ToolRisk;
  /** The call inside which a sub-agent made this one (never the call's own id). */
  parentCallId?: string;
}

/**
 * The next fragment of a call's argument JSON text, while the model writes it.
 *
 * @example
 * const delta: ToolStreamArgumentsDeltaEvent = { type: 'tool.stream', phase: 'arguments-delta', callId: 'c1', delta: '{"q":"ca' };
 */
export interface ToolStreamArgumentsDeltaEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'arguments-delta';
  callId: string;
  /** The next fragment of the arguments' JSON text. */
  delta: string;
}

/**
 * The final arguments: from here on the call is issued.
 *
 * @example
 * const complete: ToolStreamArgumentsCompleteEvent = { type: 'tool.stream', phase: 'arguments-complete', callId: 'c1', arguments: { q: 'cats' } };
 */
export interface ToolStreamArgumentsCompleteEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'arguments-complete';
  callId: string;
  /** The final arguments: a JSON value, or the complete JSON text as a string. */
  arguments: unknown;
}

/**
 * Progress of a running call: application data, shown but never trusted; and, where the runtime
 * has one, a preliminary output that replaces the last.
 *
 * @example
 * const progress: ToolStreamProgressEvent = { type: 'tool.stream', phase: 'progress', callId: 'c1', progress: { done: 3, total: 10 } };
 */
export interface ToolStreamProgressEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'progress';
  callId: string;
  /** Application data (JSON): render it, never trust its shape. */
  progress?: unknown;
  /** A preliminary result (JSON), replacing the last one. */
  output?: unknown;
}

/**
 * The call ended with a result. Some agent runtimes' tools report no output, only `ok` and a code;
 * other runtimes (provider bridges, the AI SDK, AG-UI) send the output and a message.
 *
 * @example
 * const settled: ToolStreamSettledEvent = { type: 'tool.stream', phase: 'settled', callId: 'c1', ok: false, code: 'REJECTED', message: 'declined by the user' };
 */
export interface ToolStreamSettledEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'settled';
  callId: string;
  ok: boolean;
  code?: string;
  /** What happened, in words (a failure's reason, a validator's message). */
  message?: string;
  /** The final result (JSON). */
  output?: unknown;
  /** `'person'`: a person's answer replaced running the tool (a `respond` decision); `output` is theirs. */
  answeredBy?: 'person';
}

/**
 * The server cancelled the call (a local interrupt is the store's `interrupt`, applied at once).
 *
 * @example
 * const cancelled: ToolStreamCancelledEvent = { type: 'tool.stream', phase: 'cancelled', callId: 'c1' };
 */
export interface ToolStreamCancelledEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'cancelled';
  callId: string;
}

/**
 * The model stopped the call before it could run.
 *
 * @example
 * const failed: ToolStreamFailedEvent = { type: 'tool.stream', phase: 'failed', callId: 'c1', message: 'the model stopped' };
 */
export interface ToolStreamFailedEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'failed';
  callId: string;
  message: string;
}

/**
 * Any `tool.stream` event; narrow it by `phase`.
 *
 * @example
 * if (event.phase === 'arguments-delta') preview.push(event.delta);
 */
export type ToolStreamEvent =
  | ToolStreamStartEvent
  | ToolStreamArgumentsDeltaEvent
  | ToolStreamArgumentsCompleteEvent
  | ToolStreamProgressEvent
  | ToolStreamSettledEvent
  | ToolStreamCancelledEvent
  | ToolStreamFailedEvent;

/**
 * Legacy preview (servers without tool-stream-v1). The source does not give its shape;
 * the kit assumes `arguments` is the JSON text received so far, and accepts a parsed value too.
 *
 * @example
 * const preview: ToolPreviewEvent = { type: 'tool.preview', callId: 'c1', name: 'search', arguments: '{"q":"ca' };
 */
export interface ToolPreviewEvent extends Sequenced {
  type: 'tool.preview';
  callId: string;
  name?: string;
  turnId?: string;
  arguments: unknown;
}

/**
 * Final session close: drop every call; later events change nothing.
 *
 * @example
 * store.getState().dispatch({ type: 'closed' } satisfies SessionClosedEvent);
 */
export interface SessionClosedEvent extends Sequenced {
  type: 'closed';
}

/**
 * Every session event the reducer acts on. (The page's own events, a local interrupt and an
 * approval mark, are `LocalToolEvent`s: they never come from a session.)
 *
 * @example
 * const state = reduceToolEvent(initialToolStreamState(), { type: 'closed' } satisfies ToolEvent);
 */
export type ToolEvent = ToolStreamEvent | ToolPreviewEvent | SessionClosedEvent;

/* ------------------------------------------------------------------ results */

/**
 * The five failure codes of a call's result.
 *
 * @example
 * const isCode = (s: string): s is ToolResultCode => (TOOL_RESULT_CODES as readonly string[]).includes(s);
 */
export const TOOL_RESULT_CODES = ['INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED'] as const;
/**
 * Why a call failed: interrupted, rejected by the person, invalid arguments, past its time limit, or failed.
 *
 * @example
 * const code: ToolResultCode = 'REJECTED';
 */
export type ToolResultCode = (typeof TOOL_RESULT_CODES)[number];

/**
 * A call's one result: its output, or a failure code (and a message).
 *
 * @example
 * const result: ToolResult = await host.call(request);
 * if (result.ok) show(result.output);
 * else showError(result.code, result.message);
 */
export type ToolResult =
  | { ok: true; output: unknown }
  | { ok: false; code: ToolResultCode; message?: string };

/* ------------------------------------------------------- session messages */

/**
 * What the client declares of an app tool: what the model sees.
 *
 * @example
 * const declaration: ToolDeclaration = { name: 'set_title', description: 'Set the title', parameters: { type: 'object', properties: { title: { type: 'string' } } } };
 */
export interface ToolDeclaration {
  name: string;
  description?: string;
  /** Plain JSON Schema of the arguments. */
  parameters?: Record<string, unknown>;
}

/**
 * The capability a client announces in `hello` to receive `tool.stream` events.
 *
 * @example
 * session.send({ type: 'hello', capabilities: [TOOL_STREAM_CAPABILITY], tools: [] });
 */
export const TOOL_STREAM_CAPABILITY = 'tool-stream-v1';

/**
 * A message from the page to the server.
 *
 * @example
 * const answer: ClientMessage = { type: 'tool.result', callId: 'c1', epoch: 3, result: { ok: true, output: null } };
 * session.send(answer);
 */
export type ClientMessage =
  | { type: 'hello'; capabilities: string[]; tools: ToolDeclaration[]; lastSeq?: number }
  | { type: 'tools.update'; tools: ToolDeclaration[] }
  | { type: 'tool.result'; callId: string; epoch: number; result: ToolResult }
  | { type: 'turn.interrupt'; turnId: string }
  | {
      type: 'tool.approval';
      requestId: string;
      approved: boolean;
      reason?: string;
      /** The SHA-256 hex of the canonical arguments approved (the edited ones, when `arguments` is given). */
      fingerprint: string;
      /** The person's edited arguments: only for a request the server marked `editable`. */
      arguments?: JsonValue;
      /** A standing grant answered the request, not a person looking at it. */
      automatic?: boolean;
      /** The tool the person approved (or denied): the server checks it names the call's tool. Optional on the wire. */
      toolName?: string;
      /** The fingerprint of the tool's definition the request was answered for, where the page knew it. Optional on the wire. */
      definitionFingerprint?: string;
      /**
       * The kind of decision (docs/protocol.md "Decisions"). Without it, `approved` says which:
       * approve or deny. `respond`: `output` is the call's result and the tool does not run;
       * `cancel`: the request is withdrawn, not rejected. `approved` is `true` only for `approve`.
       */
      decision?: ToolDecision;
      /** A `respond` decision's answer (JSON): the call settles with it, marked as answered by a person. */
      output?: JsonValue;
      /** The request's `approvalToken`, returned as it came: a server that signs its requests runs nothing without it. */
      approvalToken?: string;
    };

/**
 * The four kinds of a person's decision on an approval request.
 *
 * @example
 * const decision: ToolDecision = 'respond';
 */
export type ToolDecision = 'approve' | 'deny' | 'respond' | 'cancel';

/**
 * The server asks the page to run one of its app tools.
 *
 * @example
 * session.onToolCall(async (call: AppToolCallMessage) => {
 *   const result = await host.call(call);
 *   session.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result });
 * });
 */
export interface AppToolCallMessage {
  type: 'tool.call';
  callId: string;
  turnId: string;
  epoch: number;
  name: string;
  arguments: unknown;
}

/**
 * The before-tool-call gate: `arguments` are what will run (the hook may have rewritten them).
 *
 * @example
 * if (message.type === 'tool.approval-request') queue.request({ toolName: message.name, arguments: message.arguments });
 */
export interface ToolApprovalRequestMessage {
  type: 'tool.approval-request';
  requestId: string;
  callId: string;
  turnId?: string;
  name: string;
  arguments: unknown;
  risk: ToolRisk;
  effect?: 'read' | 'write';
  /** The person may edit the arguments before approving; the server validates the edit and runs exactly it. */
  editable?: boolean;
  /** When the server stops waiting (ms since the epoch): the request ends `expired`, and a later answer is refused. */
  expiresAt?: number;
  /** The call made by a sub-agent: the call of the tool that runs it (its `start` names the same parent). */
  parentCallId?: string;
  /** What the tool says it does, as the server declares it: part of its definition fingerprint. Optional. */
  description?: string;
  /** The JSON Schema of the tool's arguments, as the server declares it: part of its definition fingerprint. Optional. */
  parameters?: Record<string, unknown>;
  /** The JSON Schema of the tool's output: a person's answer in its place ("Respond instead") is a form of it. Not part of the definition fingerprint. Optional. */
  outputSchema?: Record<string, unknown>;
  /** The server's signature of this request: the page returns it with its decision, unchanged. */
  approvalToken?: string;
}

/**
 * A message from the server to the page; narrow it by `type`.
 *
 * @example
 * session.subscribe((raw) => {
 *   const message = raw as ServerMessage;
 *   if (message.type === 'tool.call') runAppTool(message);
 * });
 */
export type ServerMessage =
  | ToolStreamEvent
  | ToolPreviewEvent
  | SessionClosedEvent
  | AppToolCallMessage
  | ToolApprovalRequestMessage;
