/**
 * The room over the socket: `room.request` → `room.response` with the same id. Each query answers
 * for the asking session only (its grants, its confirmations, its effects), and a response belongs
 * to the connection that asked: a lost connection loses it (an uncertain outcome: docs/protocol.md, "Rooms").
 */
import type { ReferenceRoomResponse } from '../../src/client/protocol';
import { fingerprintInSlices, fingerprintOf } from '../jcs';
import type { ClientFrame } from '../protocol';
import { RoomError, type PreparedArguments } from '../room';
import { checkValueShape } from '../shape';
import type { SessionFaults } from './faults';
import type { SessionCore } from './model';

type RoomRequest = Extract<ClientFrame, { type: 'room.request' }>;

/** What answering needs of the session besides its core. */
export interface RoomRequestHost {
  /** The connection now attached (compared, never used). */
  connection(): object | undefined;
  /** Remember a timer so that closing the session clears it. */
  delay(ms: number, send: () => void): void;
}

type MethodOutcome = { ok: true; result: unknown; effectId?: number } | { ok: false; error: RoomError; effectId?: number };

/** Effects `listEffects` returns at most (the newest), unless asked for fewer. */
const MAX_LISTED_EFFECTS = 100;

/** Run one room method for the session: its result, or the room's refusal. */
function runMethod(core: SessionCore, frame: RoomRequest, prepared: PreparedArguments | undefined): MethodOutcome {
  const { method, params } = frame;
  const { room, records } = core.config;
  try {
    switch (method) {
      case 'describeTools':
        return { ok: true, result: room.describeTools(core.id) };
      case 'confirmTool':
        return { ok: true, result: room.confirmTool(core.id, params.toolName, params.arguments, prepared) };
      case 'invokeTool': {
        const outcome = room.invokeTool(core.id, params.toolName, params.arguments, params.confirmationId, prepared);
        const effectId = outcome.record?.id;
        return outcome.ok ? { ok: true, result: outcome.result, effectId } : { ok: false, error: outcome.error, effectId };
      }
      case 'listEffects': {
        const limit = typeof params.limit === 'number' && params.limit >= 0 ? Math.min(params.limit, MAX_LISTED_EFFECTS) : MAX_LISTED_EFFECTS;
        const effects = records.effects
          .filter((e) => e.source === 'room' && e.sessionId === core.id)
          .filter((e) => params.toolName === undefined || e.toolName === params.toolName)
          .filter((e) => params.confirmationId === undefined || e.confirmationId === params.confirmationId);
        return { ok: true, result: { effects: effects.slice(Math.max(0, effects.length - limit)).map((e) => structuredClone(e)) } };
      }
      default:
        return { ok: false, error: new RoomError('UNKNOWN_METHOD', `no room method ${JSON.stringify(method)}`) };
    }
  } catch (error) {
    return { ok: false, error: error instanceof RoomError ? error : new RoomError('TOOL_FAILED', String(error)) };
  }
}

/** Arguments with no more values than this are hashed at once: a fraction of a millisecond. */
const HASH_AT_ONCE_NODES = 1000;

type Prepared = PreparedArguments | undefined;

/**
 * The hash of arguments to confirm or invoke, computed before the room sees them: at once when
 * the frame was small, in slices when it was large. `nodes` is the frame's count of values, taken
 * when its text was checked against the limits, so nothing here walks the value twice. Returns
 * `undefined` when the room is to refuse the arguments itself, with its own reason (missing, too
 * deep or too large, not JSON).
 */
function prepare(core: SessionCore, frame: RoomRequest, nodes: number): Prepared | Promise<Prepared> {
  if (frame.method !== 'confirmTool' && frame.method !== 'invokeTool') return undefined;
  const args = frame.params.arguments;
  if (args === undefined) return undefined;
  // A frame from the socket was checked before it was read; one handed over otherwise is checked here.
  if (!Number.isFinite(nodes) && checkValueShape(args, core.config.room.argumentLimits)) return undefined;
  try {
    if (nodes <= HASH_AT_ONCE_NODES) return { argumentsHash: fingerprintOf(args), owned: true };
  } catch {
    return undefined;
  }
  return fingerprintInSlices(args).then(
    (argumentsHash) => ({ argumentsHash, owned: true }),
    () => undefined,
  );
}

/** Answer one request: at once, or (large arguments) once they are hashed. */
export function answerRoomRequest(
  core: SessionCore,
  faults: SessionFaults,
  host: RoomRequestHost,
  frame: RoomRequest,
  nodes: number,
): void | Promise<void> {
  const asked = host.connection();
  const prepared = prepare(core, frame, nodes);
  if (!(prepared instanceof Promise)) return respond(core, faults, host, frame, prepared, asked);
  return prepared.then((ready) => {
    if (!core.closed) respond(core, faults, host, frame, ready, asked);
  });
}

function respond(core: SessionCore, faults: SessionFaults, host: RoomRequestHost, frame: RoomRequest, prepared: Prepared, asked: object | undefined): void {
  const { id, method } = frame;
  const outcome = runMethod(core, frame, prepared);
  const response: ReferenceRoomResponse = outcome.ok
    ? { type: 'room.response', id, ok: true, result: outcome.result }
    : { type: 'room.response', id, ok: false, error: { code: outcome.error.code, message: outcome.error.message } };
  if (faults.dropsRoomResponse(method, response)) {
    // The effect happened (or was refused and recorded); its answer never leaves.
    if (method === 'invokeTool') {
      const record = core.config.records.effects.find((e) => e.id === outcome.effectId);
      if (record) record.responseDropped = true;
    }
    return;
  }
  const send = () => {
    if (host.connection() === asked) core.sendDirect(response);
  };
  const delay = faults.responseDelayMs;
  if (delay > 0) host.delay(delay, send);
  else send();
}

/** Answer a room request refused before it was read (its arguments too deep or too large). */
export function refuseRoomRequest(id: string | number, message: string): ReferenceRoomResponse {
  return { type: 'room.response', id, ok: false, error: { code: 'INVALID_ARGUMENTS', message } };
}
