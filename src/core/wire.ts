/**
 * The wire: the events a session sends about tool calls, and the messages the kit
 * exchanges with a session. Types only; validation lives in `validate-event.ts`.
 *
 * seed 000 ("Watching a call: tool streams"): every call starts with `start` and ends with
 * exactly one of `settled`, `cancelled` or `failed`, unless the session ends first.
 */

export type ToolRisk = 'low' | 'medium' | 'high';
export type ToolLocation = 'server' | 'app';

/** The seven phases of a `tool.stream` event, in lifecycle order. */
export const TOOL_STREAM_PHASES = [
  'start',
  'arguments-delta',
  'arguments-complete',
  'progress',
  'settled',
  'cancelled',
  'failed',
] as const;
export type ToolStreamPhase = (typeof TOOL_STREAM_PHASES)[number];

/** Any event may carry `seq`, a number that rises through a session (repeats are dropped). */
interface Sequenced {
  seq?: number;
}

export interface ToolStreamStartEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'start';
  callId: string;
  turnId: string;
  name: string;
  location?: ToolLocation;
  risk?: ToolRisk;
}

export interface ToolStreamArgumentsDeltaEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'arguments-delta';
  callId: string;
  /** The next fragment of the arguments' JSON text. */
  delta: string;
}

export interface ToolStreamArgumentsCompleteEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'arguments-complete';
  callId: string;
  /** The final arguments: a JSON value, or the complete JSON text as a string. */
  arguments: unknown;
}

export interface ToolStreamProgressEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'progress';
  callId: string;
  /** Application data: render it, never trust its shape. */
  progress: unknown;
}

export interface ToolStreamSettledEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'settled';
  callId: string;
  ok: boolean;
  code?: string;
}

export interface ToolStreamCancelledEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'cancelled';
  callId: string;
}

export interface ToolStreamFailedEvent extends Sequenced {
  type: 'tool.stream';
  phase: 'failed';
  callId: string;
  message: string;
}

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
 */
export interface ToolPreviewEvent extends Sequenced {
  type: 'tool.preview';
  callId: string;
  name?: string;
  turnId?: string;
  arguments: unknown;
}

/** Final session close: drop every call; later events change nothing. */
export interface SessionClosedEvent extends Sequenced {
  type: 'closed';
}

/**
 * A local event: the user interrupted a turn. The client cancels every open call of that
 * turn at once, without waiting for the server (seed 000, "Watching a call").
 */
export interface LocalInterruptEvent {
  type: 'toolgate.interrupt';
  /** The turn to interrupt; without it, every open call is cancelled. */
  turnId?: string;
}

/** Every event the reducer acts on. */
export type ToolEvent = ToolStreamEvent | ToolPreviewEvent | SessionClosedEvent | LocalInterruptEvent;

/* ------------------------------------------------------------------ results */

/** The failure codes of seed 000 ("Results"). */
export const TOOL_RESULT_CODES = ['INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED'] as const;
export type ToolResultCode = (typeof TOOL_RESULT_CODES)[number];

/** seed 000: every call gets exactly one result. */
export type ToolResult =
  | { ok: true; output: unknown }
  | { ok: false; code: ToolResultCode; message?: string };

/* ------------------------------------------------------- session messages */

/** What the client declares of an app tool: what the model sees. */
export interface ToolDeclaration {
  name: string;
  description?: string;
  /** Plain JSON Schema of the arguments. */
  parameters?: Record<string, unknown>;
}

export const TOOL_STREAM_CAPABILITY = 'tool-stream-v1';

export type ClientMessage =
  | { type: 'hello'; capabilities: string[]; tools: ToolDeclaration[]; lastSeq?: number }
  | { type: 'tools.update'; tools: ToolDeclaration[] }
  | { type: 'tool.result'; callId: string; epoch: number; result: ToolResult }
  | { type: 'turn.interrupt'; turnId: string }
  | { type: 'tool.approval'; requestId: string; approved: boolean; reason?: string; fingerprint: string };

/** The server asks the page to run one of its app tools. */
export interface AppToolCallMessage {
  type: 'tool.call';
  callId: string;
  turnId: string;
  epoch: number;
  name: string;
  arguments: unknown;
}

/** The before-tool-call gate: `arguments` are what will run (the hook may have rewritten them). */
export interface ToolApprovalRequestMessage {
  type: 'tool.approval-request';
  requestId: string;
  callId: string;
  name: string;
  arguments: unknown;
  risk: ToolRisk;
  effect?: 'read' | 'write';
}

export type ServerMessage =
  | ToolStreamEvent
  | ToolPreviewEvent
  | SessionClosedEvent
  | AppToolCallMessage
  | ToolApprovalRequestMessage;
