/**
 * The messages of the reference server. The kit's wire (`src/core/wire.ts`) fixes the tool
 * events and the session messages of docs/protocol.md; the rest (welcome, resume, turns, the room over
 * the socket, faults) is written once, as types, in `src/client/protocol.ts`, which the client
 * shares: this file only checks and narrows what arrives (documented in server/README.md).
 */
import type {
  ReferenceConnectionFrame,
  ReferenceErrorCode,
  ReferenceFault,
  ReferenceMalformedFrame,
  ReferenceOfferedTool,
  ReferenceResume,
  ReferenceRoomMethod,
} from '../src/client/protocol';
import type { ToolDeclaration, ToolResult, ToolResultCode, ToolRisk, ToolLocation, ToolStreamEvent, ToolStreamPhase } from '../src/core/wire';

export type { ToolDeclaration, ToolResult, ToolResultCode, ToolRisk, ToolLocation };
export type FaultSpec = ReferenceFault;
export type MalformedFrame = ReferenceMalformedFrame;
export type OfferedTool = ReferenceOfferedTool;
export type RoomMethod = ReferenceRoomMethod;
export type ErrorCode = ReferenceErrorCode;
/** Every frame the server sends outside the event log. */
export type ConnectionFrame = ReferenceConnectionFrame;

export const TOOL_STREAM_V1 = 'tool-stream-v1';

/**
 * The fields of one `tool.stream` phase beside `type`, `phase`, `callId` and `seq` (which the
 * session adds): what `emitStream` takes, typed from the wire so a phase cannot be misspelled nor
 * a required field left out.
 */
export type StreamFields<P extends ToolStreamPhase> = Omit<Extract<ToolStreamEvent, { phase: P }>, 'type' | 'phase' | 'callId' | 'seq'>;

/** `emitStream`'s fields argument: optional only for a phase whose fields are all optional. */
export type StreamFieldsArgument<P extends ToolStreamPhase> = Record<string, never> extends StreamFields<P> ? [fields?: StreamFields<P>] : [fields: StreamFields<P>];
export const RESULT_CODES: readonly ToolResultCode[] = ['INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED'];

/** Holds only when `List` names every member of `Union`: a new member must be listed here too. */
type Exhaustive<Union, List extends readonly Union[]> = [Exclude<Union, List[number]>] extends [never] ? List : never;

const ROOM_METHOD_LIST = ['describeTools', 'confirmTool', 'invokeTool', 'listEffects'] as const;
export const ROOM_METHODS: Exhaustive<RoomMethod, typeof ROOM_METHOD_LIST> = ROOM_METHOD_LIST;

const MALFORMED_LIST = ['invalid-json', 'unknown-phase', 'missing-call-id', 'unknown-type', 'not-an-object', 'repeat-seq', 'local-event'] as const;
export const MALFORMED_FRAMES: Exhaustive<MalformedFrame, typeof MALFORMED_LIST> = MALFORMED_LIST;

const FAULT_LIST = [
  'drop-invoke-response',
  'drop-confirm-response',
  'drop-tool-result',
  'delay-responses',
  'disconnect',
  'close-session',
  'malformed',
  'reset',
] as const;
export const FAULT_NAMES: Exhaustive<FaultSpec['fault'], typeof FAULT_LIST> = FAULT_LIST;

export type ClientFrame =
  | {
      type: 'hello';
      capabilities: string[];
      tools: ToolDeclaration[];
      /** A resume: the session, the token its welcome carried, the last event the page has. */
      resume?: ReferenceResume;
      /** A resume without a token (an older client): always refused. */
      sessionId?: string;
      /** The page's nonce: a resume with the nonce of the socket the session holds is that page reconnecting. */
      page?: string;
    }
  | { type: 'tools.update'; tools: ToolDeclaration[] }
  | { type: 'turn.start'; prompt: string; turnId?: string; speed?: number; params?: Record<string, unknown> }
  | { type: 'turn.interrupt'; turnId: string }
  | { type: 'tool.result'; callId: string; epoch: number; result: unknown }
  | {
      type: 'tool.approval';
      requestId: string;
      approved: boolean;
      /** approve | deny | respond | cancel; derived from `approved` when the page sends none. */
      decision: 'approve' | 'deny' | 'respond' | 'cancel';
      reason?: string;
      fingerprint?: unknown;
      arguments?: unknown;
      automatic?: boolean;
      /** A `respond` decision's answer: checked for size by the gate's wait, never trusted here. */
      output?: unknown;
      approvalToken?: unknown;
      /** The tool the page approved: it must name the call's tool. */
      toolName?: string;
    }
  | { type: 'room.request'; id: string | number; method: string; params: Record<string, unknown> }
  | { type: 'session.close' }
  | ({ type: 'fault' } & FaultSpec);

export type ParseResult = { ok: true; frame: ClientFrame } | { ok: false; code: 'BAD_MESSAGE' | 'UNKNOWN_MESSAGE'; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

function bad(message: string): ParseResult {
  return { ok: false, code: 'BAD_MESSAGE', message };
}

const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function parseResume(v: unknown): ReferenceResume | string {
  if (!isRecord(v)) return '`resume` must be { sessionId, token, lastSeq }';
  if (!nonEmpty(v.sessionId)) return '`resume.sessionId` must be a string';
  if (!isString(v.token)) return '`resume.token` must be a string';
  if (!isSeq(v.lastSeq)) return '`resume.lastSeq` must be an integer >= 0';
  return { sessionId: v.sessionId, token: v.token, lastSeq: v.lastSeq };
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

/** The decisions a `tool.approval` may name (docs/protocol.md "Decisions"). */
const DECISIONS: readonly string[] = ['approve', 'deny', 'respond', 'cancel'];

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
      if (m.lastSeq !== undefined && !isSeq(m.lastSeq)) return bad('`lastSeq` must be an integer >= 0');
      if (m.sessionId !== undefined && !nonEmpty(m.sessionId)) return bad('`sessionId` must be a string');
      const resume = m.resume === undefined ? undefined : parseResume(m.resume);
      if (typeof resume === 'string') return bad(resume);
      if (m.page !== undefined && (!nonEmpty(m.page) || m.page.length > 128)) return bad('`page` must be a string of 1 to 128 characters');
      return {
        ok: true,
        frame: {
          type: 'hello',
          capabilities: caps,
          tools,
          ...(resume !== undefined ? { resume } : {}),
          ...(m.sessionId !== undefined ? { sessionId: m.sessionId } : {}),
          ...(m.page !== undefined ? { page: m.page } : {}),
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
      if (m.automatic !== undefined && typeof m.automatic !== 'boolean') return bad('`automatic` must be a boolean');
      if (m.toolName !== undefined && !nonEmpty(m.toolName)) return bad('`toolName` must be a non-empty string');
      if (m.decision !== undefined && !DECISIONS.includes(m.decision as string)) return bad('`decision` must be approve, deny, respond or cancel');
      // The older shape has no decision: `approved` says approve or deny.
      const decision = (m.decision ?? (m.approved ? 'approve' : 'deny')) as 'approve' | 'deny' | 'respond' | 'cancel';
      if ((decision === 'approve') !== m.approved) return bad('`approved` is true exactly for an approve decision');
      if (decision === 'respond' && !('output' in m)) return bad('a respond decision needs the `output` that answers the call');
      return {
        ok: true,
        frame: {
          type: 'tool.approval',
          requestId: m.requestId,
          approved: m.approved,
          decision,
          ...(decision === 'respond' ? { output: m.output } : {}),
          ...(m.approvalToken !== undefined ? { approvalToken: m.approvalToken } : {}),
          ...(m.reason !== undefined ? { reason: m.reason } : {}),
          fingerprint: m.fingerprint,
          // The person's edit: checked by the gate's wait (editable requests only), never trusted here.
          ...(m.arguments !== undefined ? { arguments: m.arguments } : {}),
          ...(m.automatic === true ? { automatic: true } : {}),
          // The tool the person decided about: checked against the call's by the gate's wait.
          ...(m.toolName !== undefined ? { toolName: m.toolName } : {}),
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
      return bad(`fault needs \`fault\`: ${FAULT_NAMES.slice(0, -1).join(', ')} or ${FAULT_NAMES.at(-1)}`);
  }
}

/** A tool result as docs/protocol.md, "App tools" defines it: `{ ok: true, output }` or `{ ok: false, code, message? }`. */
export function isToolResult(v: unknown): v is ToolResult {
  if (!isRecord(v)) return false;
  if (v.ok === true) return Object.hasOwn(v, 'output');
  if (v.ok === false) {
    return RESULT_CODES.includes(v.code as ToolResultCode) && (v.message === undefined || isString(v.message));
  }
  return false;
}
