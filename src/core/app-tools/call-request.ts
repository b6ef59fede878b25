/**
 * Taking a call request in: each field read once (a getter may answer differently on a second
 * read), nothing of it ever throwing, and the arguments copied, deep-frozen, the one time the
 * caller's object is read. A request that cannot be a call answers `INVALID` with the reason; a
 * repeat gets the answer of the first; the epoch gate comes before anything else about the call.
 */

import type { JsonValue } from '../json/json-value';
import { describeThrown } from '../external-store';
import type { ToolResult } from '../wire';
import type { AnswerLedger } from './answer-ledger';
import { failure, snapshotJsonSafely } from './answer-wording';
import type { CallQueue } from './call-queue';
import { describeEpoch, isEpoch, type EpochGate } from './epoch-gate';
import type { AppToolCallRequest } from './types';

/** What taking a call in needs of the host. */
export interface CallIntake {
  readonly ledger: AnswerLedger;
  readonly gate: EpochGate;
  readonly queue: CallQueue;
  closed(): boolean;
}

/**
 * Take a call request in: answer it at once (refused, a repeat, a dead turn, malformed) or queue
 * it. Resolves with its one result; never throws, never rejects.
 *
 * @example
 * const result = await receiveCall({ callId: 'c1', turnId: 't1', epoch: 0, name: 'set_title', arguments: {} }, intake);
 */
export function receiveCall(request: AppToolCallRequest, intake: CallIntake): Promise<ToolResult> {
  const { ledger, gate, queue } = intake;
  const read = readCallFields(request);
  if (!read.ok) return Promise.resolve(read.result);
  const { fields } = read;
  if (intake.closed()) return Promise.resolve(failure('INTERRUPTED', 'the app-tool host is closed'));
  // docs/protocol.md, "App tools": exactly one result per call. A repeat (a resend after a lost response) gets the
  // same answer instead of a second run or a contradicting FAILED.
  const repeat = ledger.repeat(fields.callId);
  if (repeat) return repeat;
  // The epoch gate (docs/protocol.md, "App tools"): a call of a dead turn
  // answers INTERRUPTED before anything else about it is looked at, even its bad arguments.
  const refusal = gate.refusal(fields.turnId, fields.epoch);
  if (refusal !== undefined) return ledger.answerAtOnce(fields.callId, failure('INTERRUPTED', refusal));
  const checked = checkCall(fields);
  if (!checked.ok) return ledger.answerAtOnce(fields.callId, checked.result);

  const { callId, turnId, epoch, name, received } = checked.call;
  gate.admit(turnId, epoch);
  const promise = ledger.open(callId);
  queue.enqueue({
    callId,
    turnId,
    epoch,
    name,
    received,
    args: received,
    controller: new AbortController(),
    status: 'queued',
    progress: undefined,
    result: undefined,
    deadline: undefined,
    view: undefined,
  });
  return promise;
}

/** A request's fields as read, not yet checked. */
export interface CallFields {
  readonly callId: string;
  readonly turnId: unknown;
  readonly epoch: unknown;
  readonly name: unknown;
  readonly args: unknown;
}

/** A request that is a call: its fields checked and its arguments copied. */
export interface CheckedCall {
  readonly callId: string;
  readonly turnId: string;
  readonly epoch: number;
  readonly name: string;
  /** A deep-frozen copy of the arguments; the caller's object is never read again. */
  readonly received: JsonValue;
}

type Refused = { readonly ok: false; readonly result: ToolResult };

/**
 * Read a request's fields once. Refused (not remembered by call id) when it has no usable call id.
 *
 * @example
 * const read = readCallFields({ callId: 'c1', turnId: 't1', epoch: 0, name: 'set_title', arguments: {} });
 */
export function readCallFields(request: AppToolCallRequest): { readonly ok: true; readonly fields: CallFields } | Refused {
  if (typeof request !== 'object' || request === null) return { ok: false, result: failure('INVALID', 'the call must be an object') };
  let fields: { callId: unknown; turnId: unknown; epoch: unknown; name: unknown; args: unknown };
  try {
    const { callId, turnId, epoch, name, arguments: args } = request;
    fields = { callId, turnId, epoch, name, args };
  } catch (error) {
    return { ok: false, result: failure('INVALID', `the call could not be read: ${describeThrown(error)}`) };
  }
  const { callId } = fields;
  if (typeof callId !== 'string' || callId === '') {
    return { ok: false, result: failure('INVALID', 'the call has no callId (a non-empty string)') };
  }
  return { ok: true, fields: { ...fields, callId } };
}

/**
 * Check what a call needs (turn, epoch, tool name, arguments that are a JSON object) and copy its
 * arguments. Runs after the epoch gate: a call of a dead turn is refused as such, not as bad input.
 *
 * @example
 * const checked = checkCall(fields);
 * if (!checked.ok) return answer(checked.result);
 */
export function checkCall(fields: CallFields): { readonly ok: true; readonly call: CheckedCall } | Refused {
  const { callId, turnId, epoch, name, args } = fields;
  if (typeof turnId !== 'string' || turnId === '') return refuse('the call has no turnId (a non-empty string)');
  // The gate compares epochs exactly, so it takes only safe integers. Such a call is malformed
  // (INVALID), not interrupted: nothing says its turn was.
  if (!isEpoch(epoch)) return refuse(`the call's epoch must be a safe integer, got ${describeEpoch(epoch)}`);
  if (typeof name !== 'string' || name === '') return refuse('the call has no tool name (a non-empty string)');
  const got = kindOfArguments(args);
  if (got !== 'an object') return refuse(`arguments must be a JSON object, got ${got}`);
  // The one read of the caller's object: from here on the call holds its own frozen copy, so
  // what the caller changes later reaches neither the state, nor the person, nor `run`.
  const received = snapshotJsonSafely(args, 'arguments');
  if (!received.ok) return refuse(received.reason);
  return { ok: true, call: { callId, turnId, epoch, name, received: received.value } };
}

function refuse(message: string): Refused {
  return { ok: false, result: failure('INVALID', message) };
}

/** What the arguments are, for the message that refuses them; never throws (a revoked Proxy is no array). */
function kindOfArguments(args: unknown): string {
  if (args === null) return 'null';
  if (typeof args !== 'object') return typeof args;
  try {
    return Array.isArray(args) ? 'an array' : 'an object';
  } catch {
    return 'a revoked Proxy';
  }
}
