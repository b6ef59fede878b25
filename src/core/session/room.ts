/*
 * The room the kit confirms and invokes tools through, and what its errors mean.
 *
 * (docs/protocol.md, "Rooms"): "After the user approves, use
 * room.confirmTool(toolName, argumentsValue) to obtain the confirmation ID, then pass it with
 * those same arguments to invokeTool()." and ("Handle results and uncertain execution"): "If
 * the response is lost, determine whether the destination performed the operation before
 * blindly retrying a write."
 */

import { describeThrown } from '../external-store';

/**
 * A room, where tools run under its authority once a person approved them. `confirmTool` needs `tool:confirm:NAME` and returns an id bound to
 * the room, the tool and the hash of the arguments, consumed by one `invokeTool`.
 *
 * Errors: reject with a {@link ToolRoomError} whose `definite` is `true` when the room
 * answered no (nothing happened); anything else (a {@link ToolRoomUnknownOutcomeError}, a lost
 * connection, any other error) counts as an unknown outcome.
 *
 * @example
 * const room: ToolRoom = {
 *   confirmTool: (name, args) => runtime.room.confirmTool(name, args),
 *   invokeTool: (name, args, id) => runtime.room.invokeTool(name, args, id),
 * };
 */
export interface ToolRoom {
  confirmTool(toolName: string, args: unknown): Promise<string>;
  invokeTool(toolName: string, args: unknown, confirmationId?: string): Promise<unknown>;
}

/**
 * Options of a {@link ToolRoomError}.
 *
 * @example
 * new ToolRoomError('confirmation already used', { code: 'confirmation-consumed' } satisfies ToolRoomErrorOptions);
 */
export interface ToolRoomErrorOptions {
  /** `true` (the default): the room answered and nothing took effect. */
  definite?: boolean;
  /** A machine-readable reason, e.g. `forbidden`, `confirmation-consumed`, `lost-response`. */
  code?: string;
  cause?: unknown;
}

/**
 * An error from a room. `definite: true` means the room answered no: the call did not take
 * effect (no permission, unknown tool, bad or consumed confirmation, the tool failed before
 * its effect). `definite: false` means nobody knows whether it took effect.
 *
 * @example
 * throw new ToolRoomError('missing tool:confirm:transfer', { code: 'forbidden' }); // definite
 */
export class ToolRoomError extends Error {
  override name = 'ToolRoomError';
  readonly definite: boolean;
  readonly code: string | undefined;
  constructor(message: string, options: ToolRoomErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.definite = options.definite ?? true;
    this.code = options.code;
  }
}

/**
 * No answer came: the response was lost, the call timed out, the connection dropped. The
 * call may or may not have taken effect; a write must not be retried blindly, or it may happen twice.
 *
 * @example
 * throw new ToolRoomUnknownOutcomeError('response lost after 30 s', { code: 'timeout' });
 */
export class ToolRoomUnknownOutcomeError extends ToolRoomError {
  override name = 'ToolRoomUnknownOutcomeError';
  constructor(message: string, options: Omit<ToolRoomErrorOptions, 'definite'> = {}) {
    super(message, { ...options, definite: false });
  }
}

/**
 * `definite`: the room answered and nothing took effect; `unknown`: no answer, maybe it did.
 *
 * @example
 * const kind: RoomErrorKind = classifyRoomError(error);
 */
export type RoomErrorKind = 'definite' | 'unknown';

/**
 * Classifies an error from `invokeTool` (or from an `onApprove` handler). The rule:
 * - definite only when the error says so: an object whose `definite` property is `true`
 *   (every {@link ToolRoomError} made without `definite: false`);
 * - everything else is unknown: {@link ToolRoomUnknownOutcomeError}, `TimeoutError` and
 *   `AbortError` (a request that was sent and then given up), network `TypeError`s, and any
 *   error the room did not classify.
 *
 * Unclassified errors count as unknown on purpose: calling an unknown outcome definite could
 * invite a second run of a write that already happened, while the reverse only asks a person
 * to check (docs/protocol.md, "Confirmation": only an unknown outcome of a write is `uncertain`).
 *
 * @example
 * classifyRoomError(new ToolRoomError('no such tool')) // 'definite'
 * classifyRoomError(new Error('socket hang up'))      // 'unknown'
 */
export function classifyRoomError(error: unknown): RoomErrorKind {
  // Read defensively: the error is the room's (or `onApprove`'s) value, and a getter or a Proxy
  // trap that throws must not stop the flow. What cannot be read says nothing definite.
  try {
    if (typeof error === 'object' && error !== null && (error as { definite?: unknown }).definite === true) return 'definite';
  } catch {
    // unreadable: unknown
  }
  return 'unknown';
}

/**
 * A readable reason for an error of any kind (its message, or its text). Never throws: an error
 * whose `message` getter, `toString` or Proxy traps throw is described as well as it can be
 * (`describeThrown`), or by `fallback`.
 *
 * @example
 * reasonOf(new Error('missing tool:confirm:transfer')) // 'missing tool:confirm:transfer'
 */
export function reasonOf(error: unknown, fallback = 'unknown error'): string {
  try {
    if (error instanceof Error) return error.message !== '' ? error.message : error.name;
    if (typeof error === 'string' && error !== '') return error;
    if (typeof error === 'object' && error !== null) {
      const message = (error as { message?: unknown }).message;
      if (typeof message === 'string' && message !== '') return message;
    }
    return fallback;
  } catch {
    const described = describeThrown(error);
    return described === 'a value that cannot be described' ? fallback : described;
  }
}
