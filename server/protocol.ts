/**
 * The messages of the reference server. The kit's wire (`src/core/wire.ts`) fixes the tool
 * events and the session messages of DESIGN.md; the rest (welcome, turns, the room over the
 * socket, faults) is this server's and documented in server/README.md.
 */
import type { ToolDeclaration, ToolResult, ToolResultCode, ToolRisk, ToolLocation } from '../src/core/wire';

export type { ToolDeclaration, ToolResult, ToolResultCode, ToolRisk, ToolLocation };

export const TOOL_STREAM_V1 = 'tool-stream-v1';
export const RESULT_CODES: readonly ToolResultCode[] = ['INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED'];

export type RoomMethod = 'describeTools' | 'confirmTool' | 'invokeTool' | 'listEffects';
export const ROOM_METHODS: readonly RoomMethod[] = ['describeTools', 'confirmTool', 'invokeTool', 'listEffects'];

export type MalformedFrame =
  | 'invalid-json'
  | 'unknown-phase'
  | 'missing-call-id'
  | 'unknown-type'
  | 'not-an-object'
  | 'repeat-seq'
  /** A frame that names the page's own interrupt (`toolgate.interrupt`), which no session may send. */
  | 'local-event';
export const MALFORMED_FRAMES: readonly MalformedFrame[] = [
  'invalid-json',
  'unknown-phase',
  'missing-call-id',
  'unknown-type',
  'not-an-object',
  'repeat-seq',
  'local-event',
];

export type FaultSpec =
  /** The next `count` invokeTool responses are not sent; the effect still happens. */
  | { fault: 'drop-invoke-response'; count?: number }
  /** The next `count` confirmTool responses are not sent; the confirmation is made all the same and stays unconsumed. */
  | { fault: 'drop-confirm-response'; count?: number }
  /**
   * The next `count` tool.result messages from the page are lost on the way: the server never
   * acts on them. With `disconnect`, the socket drops right after each, as when a result is
   * written into a connection that is already gone (the page resumes and may send it again).
   */
  | { fault: 'drop-tool-result'; count?: number; disconnect?: boolean }
  /** Room responses wait `ms` before they are sent (0 turns the delay off). */
  | { fault: 'delay-responses'; ms: number }
  /** Drop the socket (now, or after `afterEvents` more events); the session stays resumable. */
  | { fault: 'disconnect'; afterEvents?: number }
  /** Close the session for good (now, or after `afterEvents` more events): `closed`. */
  | { fault: 'close-session'; afterEvents?: number }
  /** Send one malformed frame (now, or after `afterEvents` more events). */
  | { fault: 'malformed'; frame: MalformedFrame; afterEvents?: number }
  /** Disarm every fault of this session. */
  | { fault: 'reset' };

export type ClientFrame =
  | {
      type: 'hello';
      capabilities: string[];
      tools: ToolDeclaration[];
      lastSeq?: number;
      sessionId?: string;
    }
  | { type: 'tools.update'; tools: ToolDeclaration[] }
  | { type: 'turn.start'; prompt: string; turnId?: string; speed?: number; params?: Record<string, unknown> }
  | { type: 'turn.interrupt'; turnId: string }
  | { type: 'tool.result'; callId: string; epoch: number; result: unknown }
  | { type: 'tool.approval'; requestId: string; approved: boolean; reason?: string; fingerprint?: unknown }
  | { type: 'room.request'; id: string | number; method: string; params: Record<string, unknown> }
  | { type: 'session.close' }
  | ({ type: 'fault' } & FaultSpec);

/** What the model sees of one tool, as the welcome lists it. */
export interface OfferedTool {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  location: ToolLocation;
  risk?: ToolRisk;
  effect?: 'read' | 'write';
}

export type ParseResult = { ok: true; frame: ClientFrame } | { ok: false; code: string; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

function bad(message: string): ParseResult {
  return { ok: false, code: 'BAD_MESSAGE', message };
}

function parseTools(v: unknown): ToolDeclaration[] | string {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return '`tools` must be an array';
  const tools: ToolDeclaration[] = [];
  for (const [i, t] of v.entries()) {
    if (!isRecord(t) || !nonEmpty(t.name)) return `tools[${i}] needs a name`;
    if (t.description !== undefined && !isString(t.description)) return `tools[${i}].description must be a string`;
    if (t.parameters !== undefined && !isRecord(t.parameters)) return `tools[${i}].parameters must be an object`;
    tools.push({
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      ...(t.parameters !== undefined ? { parameters: t.parameters } : {}),
    });
  }
  return tools;
}

/** Check a decoded client message and narrow it; never throws. */
export function parseClientFrame(value: unknown): ParseResult {
  if (!isRecord(value) || !isString(value.type)) return bad('a message is a JSON object with a string `type`');
  const m = value;
  switch (m.type) {
    case 'hello': {
      const tools = parseTools(m.tools);
      if (typeof tools === 'string') return bad(tools);
      const caps = m.capabilities ?? [];
      if (!Array.isArray(caps) || !caps.every(isString)) return bad('`capabilities` must be an array of strings');
      if (m.lastSeq !== undefined && !(typeof m.lastSeq === 'number' && m.lastSeq >= 0)) {
        return bad('`lastSeq` must be a number >= 0');
      }
      if (m.sessionId !== undefined && !nonEmpty(m.sessionId)) return bad('`sessionId` must be a string');
      return {
        ok: true,
        frame: {
          type: 'hello',
          capabilities: caps,
          tools,
          ...(m.lastSeq !== undefined ? { lastSeq: m.lastSeq as number } : {}),
          ...(m.sessionId !== undefined ? { sessionId: m.sessionId } : {}),
        },
      };
    }
    case 'tools.update': {
      const tools = parseTools(m.tools);
      if (typeof tools === 'string') return bad(tools);
      return { ok: true, frame: { type: 'tools.update', tools } };
    }
    case 'turn.start': {
      if (!nonEmpty(m.prompt)) return bad('turn.start needs a `prompt` (a script name)');
      if (m.turnId !== undefined && !nonEmpty(m.turnId)) return bad('`turnId` must be a string');
      if (m.speed !== undefined && typeof m.speed !== 'number') return bad('`speed` must be a number');
      if (m.params !== undefined && !isRecord(m.params)) return bad('`params` must be an object');
      return {
        ok: true,
        frame: {
          type: 'turn.start',
          prompt: m.prompt,
          ...(m.turnId !== undefined ? { turnId: m.turnId } : {}),
          ...(m.speed !== undefined ? { speed: m.speed } : {}),
          ...(m.params !== undefined ? { params: m.params } : {}),
        },
      };
    }
    case 'turn.interrupt':
      if (!nonEmpty(m.turnId)) return bad('turn.interrupt needs a `turnId`');
      return { ok: true, frame: { type: 'turn.interrupt', turnId: m.turnId } };
    case 'tool.result':
      if (!nonEmpty(m.callId)) return bad('tool.result needs a `callId`');
      if (typeof m.epoch !== 'number') return bad('tool.result needs a numeric `epoch`');
      return { ok: true, frame: { type: 'tool.result', callId: m.callId, epoch: m.epoch, result: m.result } };
    case 'tool.approval':
      if (!nonEmpty(m.requestId)) return bad('tool.approval needs a `requestId`');
      if (typeof m.approved !== 'boolean') return bad('tool.approval needs a boolean `approved`');
      if (m.reason !== undefined && !isString(m.reason)) return bad('`reason` must be a string');
      return {
        ok: true,
        frame: {
          type: 'tool.approval',
          requestId: m.requestId,
          approved: m.approved,
          ...(m.reason !== undefined ? { reason: m.reason } : {}),
          fingerprint: m.fingerprint,
        },
      };
    case 'room.request': {
      if (!(nonEmpty(m.id) || typeof m.id === 'number')) return bad('room.request needs an `id`');
      if (!isString(m.method)) return bad('room.request needs a `method`');
      const params = m.params ?? {};
      if (!isRecord(params)) return bad('`params` must be an object');
      return { ok: true, frame: { type: 'room.request', id: m.id, method: m.method, params } };
    }
    case 'session.close':
      return { ok: true, frame: { type: 'session.close' } };
    case 'fault':
      return parseFault(m);
    default:
      return { ok: false, code: 'UNKNOWN_MESSAGE', message: `unknown message type ${JSON.stringify(m.type)}` };
  }
}

function optionalCount(v: unknown): number | undefined | false {
  if (v === undefined) return undefined;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : false;
}

function parseFault(m: Record<string, unknown>): ParseResult {
  const afterEvents = optionalCount(m.afterEvents);
  if (afterEvents === false) return bad('`afterEvents` must be an integer >= 0');
  const after = afterEvents !== undefined ? { afterEvents } : {};
  switch (m.fault) {
    case 'drop-invoke-response': {
      const count = optionalCount(m.count);
      if (count === false) return bad('`count` must be an integer >= 0');
      return { ok: true, frame: { type: 'fault', fault: 'drop-invoke-response', ...(count !== undefined ? { count } : {}) } };
    }
    case 'drop-confirm-response': {
      const count = optionalCount(m.count);
      if (count === false) return bad('`count` must be an integer >= 0');
      return { ok: true, frame: { type: 'fault', fault: 'drop-confirm-response', ...(count !== undefined ? { count } : {}) } };
    }
    case 'drop-tool-result': {
      const count = optionalCount(m.count);
      if (count === false) return bad('`count` must be an integer >= 0');
      if (m.disconnect !== undefined && typeof m.disconnect !== 'boolean') return bad('`disconnect` must be a boolean');
      return {
        ok: true,
        frame: {
          type: 'fault',
          fault: 'drop-tool-result',
          ...(count !== undefined ? { count } : {}),
          ...(m.disconnect !== undefined ? { disconnect: m.disconnect } : {}),
        },
      };
    }
    case 'delay-responses':
      if (!(typeof m.ms === 'number' && m.ms >= 0)) return bad('delay-responses needs `ms` >= 0');
      return { ok: true, frame: { type: 'fault', fault: 'delay-responses', ms: m.ms } };
    case 'disconnect':
      return { ok: true, frame: { type: 'fault', fault: 'disconnect', ...after } };
    case 'close-session':
      return { ok: true, frame: { type: 'fault', fault: 'close-session', ...after } };
    case 'malformed':
      if (!MALFORMED_FRAMES.includes(m.frame as MalformedFrame)) {
        return bad(`malformed needs \`frame\`: one of ${MALFORMED_FRAMES.join(', ')}`);
      }
      return { ok: true, frame: { type: 'fault', fault: 'malformed', frame: m.frame as MalformedFrame, ...after } };
    case 'reset':
      return { ok: true, frame: { type: 'fault', fault: 'reset' } };
    default:
      return bad(
        'fault needs `fault`: drop-invoke-response, drop-confirm-response, drop-tool-result, delay-responses, disconnect, close-session, malformed or reset',
      );
  }
}

/** A tool result as the seed defines it: `{ ok: true, output }` or `{ ok: false, code, message? }`. */
export function isToolResult(v: unknown): v is ToolResult {
  if (!isRecord(v)) return false;
  if (v.ok === true) return Object.hasOwn(v, 'output');
  if (v.ok === false) {
    return RESULT_CODES.includes(v.code as ToolResultCode) && (v.message === undefined || isString(v.message));
  }
  return false;
}
