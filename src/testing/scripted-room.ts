/**
 * An in-memory room for tests, stories and users' own tests: grants, confirmations bound to the
 * tool and the hash of the canonical arguments and consumed once, a record of every call and
 * effect, and injectable faults.
 *
 * It behaves as docs/protocol.md, "Rooms" describes a room: `confirmTool` needs `tool:confirm:NAME` and returns
 * an id bound to room, tool and argument hash; `invokeTool` checks the required action, then
 * checks and consumes the confirmation. Like the reference server it never silently
 * deduplicates: an invoke with a consumed confirmation is refused and recorded as refused.
 */

import { fingerprintJson, type FingerprintOptions } from '../core/json/fingerprint';
import { snapshotJson, type JsonValue } from '../core/json/json-value';
import { ToolRoomError, ToolRoomUnknownOutcomeError, reasonOf, type ToolRoom } from '../core/session/room';
import type { ToolDescriptor } from '../core/approval/tool-descriptor';

/**
 * A tool the scripted room hosts: its descriptor and what it does.
 *
 * @example
 * const transfer: ScriptedRoomTool = { effect: 'write', risk: 'high', requiresConfirmation: true, run: (args) => ({ sent: args }) };
 */
export interface ScriptedRoomTool extends Partial<ToolDescriptor> {
  /** The tool's effect; returns its output. Throwing is a definite failure (nothing happened). */
  run?: (args: JsonValue, context: { readonly confirmationId: string | undefined; readonly effect: number }) => unknown;
}

/**
 * A fault the room injects into the next matching call (once, or `times` times).
 *
 * @example
 * room.fault({ kind: 'lose-response', toolName: 'transfer' });
 */
export type ScriptedRoomFault = (
  | /** confirmTool rejects definitely, as a room without the right authority would. */
  { kind: 'refuse-confirm'; reason?: string }
  | /** invokeTool rejects definitely; nothing takes effect (the confirmation is consumed). */
  { kind: 'fail-invoke'; reason?: string }
  | /** invokeTool takes effect, then the response is lost: the promise rejects with an unknown outcome. */
  { kind: 'lose-response'; reason?: string }
  | /** invokeTool is lost on the way there: the room never handles it (nothing checked, consumed or done), but the caller cannot know (unknown outcome). */
  { kind: 'lose-request'; reason?: string }
  | /** The call waits `ms` (divided by `speed`) before the room handles it. */
  { kind: 'delay'; ms: number; method?: 'confirmTool' | 'invokeTool' }
) & {
  /** Only calls of this tool. */
  toolName?: string;
  /** How many matching calls it affects (1 by default). */
  times?: number;
};

/**
 * Options of {@link createScriptedRoom}.
 *
 * @example
 * createScriptedRoom({ grants: ['tool:invoke:*'], delayMs: 400, speed }); // no tool:confirm: confirmations are refused
 */
export interface ScriptedRoomOptions {
  /** Authority held by the caller, e.g. `tool:confirm:transfer`; `*` at the end matches any rest. Default: `tool:invoke:*`, `tool:confirm:*`. */
  grants?: readonly string[];
  /** The tools. Without this map every name is a write that needs confirmation and returns `{ ok: true, effect }`. */
  tools?: Readonly<Record<string, ScriptedRoomTool>>;
  faults?: readonly ScriptedRoomFault[];
  /** Every call waits this long (divided by `speed`) first. Default 0. */
  delayMs?: number;
  /** Divides every delay: 2 is twice as fast, `Infinity` waits for nothing. Default 1. */
  speed?: number;
  /** How to wait; `setTimeout` by default. Inject a fake clock's sleep in tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Where the room's own hashing finds Web Crypto (`globalThis.crypto` by default). */
  crypto?: FingerprintOptions['crypto'];
}

/**
 * One call as the room saw it.
 *
 * @example
 * room.calls.filter((call: ScriptedRoomCall) => call.method === 'invokeTool').length // 1
 */
export interface ScriptedRoomCall {
  readonly seq: number;
  readonly method: 'confirmTool' | 'invokeTool';
  readonly toolName: string;
  /** The very value passed in (to check that the same frozen snapshot was passed). */
  readonly received: unknown;
  /** The room's own copy of the arguments (`null` when they were not JSON). */
  readonly arguments: JsonValue;
  /** SHA-256 hex of the canonical arguments (`''` when they were not JSON). */
  readonly hash: string;
  /** For invokeTool: the confirmation id given, if any. For confirmTool: the id issued. */
  readonly confirmationId: string | undefined;
  /** `ok`; `refused` (authority, confirmation); `failed` (definite); `lost` (unknown to the caller). */
  readonly result: 'ok' | 'refused' | 'failed' | 'lost';
  readonly reason?: string;
}

/**
 * An effect that took place (whether or not its response reached the caller).
 *
 * @example
 * room.effects.every((effect: ScriptedRoomEffect) => effect.answered) // false after a lost response
 */
export interface ScriptedRoomEffect {
  readonly seq: number;
  readonly toolName: string;
  readonly arguments: JsonValue;
  readonly hash: string;
  readonly confirmationId: string | undefined;
  readonly output: unknown;
  /** `false` when the response was lost on the way back. */
  readonly answered: boolean;
}

/**
 * A confirmation the room issued.
 *
 * @example
 * room.confirmations.every((c: ScriptedRoomConfirmation) => c.consumed)
 */
export interface ScriptedRoomConfirmation {
  readonly id: string;
  readonly toolName: string;
  readonly hash: string;
  readonly consumed: boolean;
}

/**
 * The scripted room: a {@link ToolRoom} with its record and controls.
 *
 * @example
 * const room: ScriptedRoom = createScriptedRoom();
 * room.revoke('tool:confirm:*'); // from now on, confirmations are refused
 */
export interface ScriptedRoom extends ToolRoom {
  /** Every call, in order. */
  readonly calls: readonly ScriptedRoomCall[];
  /** Every effect that took place, in order. */
  readonly effects: readonly ScriptedRoomEffect[];
  readonly confirmations: readonly ScriptedRoomConfirmation[];
  /** Calls still in flight. */
  readonly pending: number;
  grant(action: string): void;
  revoke(action: string): void;
  /** Add a fault for the next matching call. */
  fault(fault: ScriptedRoomFault): void;
}

const DEFAULT_GRANTS = ['tool:invoke:*', 'tool:confirm:*'];

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Create a scripted room.
 *
 * @example
 * const room = createScriptedRoom({
 *   tools: { transfer: { effect: 'write', risk: 'high', requiresConfirmation: true, run: (args) => ({ sent: args }) } },
 *   faults: [{ kind: 'lose-response', toolName: 'transfer' }],
 * });
 * const confirmations = createConfirmationController({ room });
 * // … approve; the transfer happens once, its response is lost, the outcome is `uncertain`.
 * room.effects.length // 1
 */
export function createScriptedRoom(options: ScriptedRoomOptions = {}): ScriptedRoom {
  const grants = new Set(options.grants ?? DEFAULT_GRANTS);
  const faults: { fault: ScriptedRoomFault; left: number }[] = (options.faults ?? []).map((fault) => ({
    fault,
    left: fault.times ?? 1,
  }));
  const calls: ScriptedRoomCall[] = [];
  const effects: ScriptedRoomEffect[] = [];
  const confirmations = new Map<string, { id: string; toolName: string; hash: string; consumed: boolean }>();
  const speed = options.speed ?? 1;
  const sleep = options.sleep ?? defaultSleep;
  const fingerprintOptions: FingerprintOptions = 'crypto' in options ? { crypto: options.crypto } : {};
  let seq = 0;
  let confirmationCounter = 0;
  let effectCounter = 0;
  let pending = 0;

  const allowed = (action: string): boolean => {
    for (const grant of grants) {
      if (grant === action || grant === '*') return true;
      if (grant.endsWith('*') && action.startsWith(grant.slice(0, -1))) return true;
    }
    return false;
  };

  const toolOf = (name: string): ScriptedRoomTool | undefined =>
    options.tools === undefined ? {} : Object.prototype.hasOwnProperty.call(options.tools, name) ? options.tools[name] : undefined;

  const takeFault = (method: ScriptedRoomCall['method'], toolName: string, kinds: readonly ScriptedRoomFault['kind'][]) => {
    for (let i = 0; i < faults.length; i++) {
      const slot = faults[i] as { fault: ScriptedRoomFault; left: number };
      const { fault } = slot;
      if (!kinds.includes(fault.kind)) continue;
      if (fault.toolName !== undefined && fault.toolName !== toolName) continue;
      if (fault.kind === 'delay' && fault.method !== undefined && fault.method !== method) continue;
      slot.left -= 1;
      if (slot.left <= 0) faults.splice(i, 1);
      return fault;
    }
    return undefined;
  };

  const wait = async (method: ScriptedRoomCall['method'], toolName: string): Promise<void> => {
    let ms = options.delayMs ?? 0;
    const delay = takeFault(method, toolName, ['delay']);
    if (delay?.kind === 'delay') ms += delay.ms;
    const scaled = ms / speed;
    if (scaled > 0 && Number.isFinite(scaled)) await sleep(scaled);
    else await Promise.resolve();
  };

  const record = (call: Omit<ScriptedRoomCall, 'seq'>): void => {
    calls.push(Object.freeze({ seq: ++seq, ...call }));
  };

  /** The room's own copy and hash of what it was given; a definite refusal when it is not JSON. */
  const receive = async (received: unknown): Promise<{ args: JsonValue; hash: string } | { problem: string }> => {
    const copy = snapshotJson(received);
    if (!copy.ok) return { problem: `arguments are not JSON: ${copy.reason}` };
    try {
      return { args: copy.value, hash: (await fingerprintJson(copy.value, fingerprintOptions)).hex };
    } catch (error) {
      return { problem: reasonOf(error) };
    }
  };

  const tracked = async <T>(work: () => Promise<T>): Promise<T> => {
    pending++;
    try {
      return await work();
    } finally {
      pending--;
    }
  };

  const confirmTool = (toolName: string, received: unknown): Promise<string> =>
    tracked(async () => {
      await wait('confirmTool', toolName);
      const got = await receive(received);
      const args = 'args' in got ? got.args : null;
      const hash = 'hash' in got ? got.hash : '';
      const refuse = (reason: string, code: string): never => {
        record({ method: 'confirmTool', toolName, received, arguments: args, hash, confirmationId: undefined, result: 'refused', reason });
        throw new ToolRoomError(reason, { code });
      };
      if ('problem' in got) refuse(got.problem, 'invalid-arguments');
      if (toolOf(toolName) === undefined) refuse(`unknown tool "${toolName}"`, 'unknown-tool');
      // Obtaining a confirmation requires tool:confirm on the tool name (docs/protocol.md, "Rooms").
      if (!allowed(`tool:confirm:${toolName}`)) refuse(`missing tool:confirm:${toolName}`, 'forbidden');
      const fault = takeFault('confirmTool', toolName, ['refuse-confirm']);
      if (fault) refuse(('reason' in fault ? fault.reason : undefined) ?? 'confirmation refused (scripted)', 'refused');
      const id = `confirmation-${++confirmationCounter}`;
      confirmations.set(id, { id, toolName, hash, consumed: false });
      record({ method: 'confirmTool', toolName, received, arguments: args, hash, confirmationId: id, result: 'ok' });
      return id;
    });

  const invokeTool = (toolName: string, received: unknown, confirmationId?: string): Promise<unknown> =>
    tracked(async () => {
      await wait('invokeTool', toolName);
      const got = await receive(received);
      const args = 'args' in got ? got.args : null;
      const hash = 'hash' in got ? got.hash : '';
      const note = (result: ScriptedRoomCall['result'], reason?: string): void =>
        record({
          method: 'invokeTool',
          toolName,
          received,
          arguments: args,
          hash,
          confirmationId,
          result,
          ...(reason === undefined ? {} : { reason }),
        });
      const refuse = (reason: string, code: string): never => {
        note('refused', reason);
        throw new ToolRoomError(reason, { code });
      };
      // Lost on the way there: the room never handled it, so nothing is checked or consumed.
      const lost = takeFault('invokeTool', toolName, ['lose-request']);
      if (lost) {
        const reason = ('reason' in lost ? lost.reason : undefined) ?? 'no response (scripted: the request was lost)';
        note('lost', reason);
        throw new ToolRoomUnknownOutcomeError(reason, { code: 'lost-request' });
      }
      if ('problem' in got) refuse(got.problem, 'invalid-arguments');
      const tool = toolOf(toolName);
      if (tool === undefined) return refuse(`unknown tool "${toolName}"`, 'unknown-tool');
      // The room checks the descriptor's required action against the tool name (docs/protocol.md, "Rooms").
      const action = tool.requiredAction ?? `tool:invoke:${toolName}`;
      if (!allowed(action)) refuse(`missing ${action}`, 'forbidden');
      if (tool.requiresConfirmation !== false || confirmationId !== undefined) {
        // The room checks and consumes a confirmation bound to the room, tool and argument hash.
        if (confirmationId === undefined) refuse(`"${toolName}" needs a confirmation`, 'confirmation-required');
        const confirmation = confirmations.get(confirmationId as string);
        if (confirmation === undefined) refuse(`unknown confirmation ${String(confirmationId)}`, 'confirmation-unknown');
        const bound = confirmation as { id: string; toolName: string; hash: string; consumed: boolean };
        if (bound.consumed) refuse(`confirmation ${bound.id} was already used`, 'confirmation-consumed');
        if (bound.toolName !== toolName || bound.hash !== hash) {
          refuse(`confirmation ${bound.id} was given for other arguments or another tool`, 'confirmation-mismatch');
        }
        bound.consumed = true;
      }
      const fault = takeFault('invokeTool', toolName, ['fail-invoke', 'lose-response']);
      const faultReason = fault && 'reason' in fault ? fault.reason : undefined;
      if (fault?.kind === 'fail-invoke') {
        note('failed', faultReason ?? 'the tool failed (scripted)');
        throw new ToolRoomError(faultReason ?? 'the tool failed (scripted)', { code: 'failed' });
      }
      const effect = ++effectCounter;
      let output: unknown;
      try {
        output = tool.run ? await tool.run(args as JsonValue, { confirmationId, effect }) : { ok: true, effect };
      } catch (error) {
        note('failed', reasonOf(error));
        throw new ToolRoomError(reasonOf(error, 'the tool failed'), { code: 'failed', cause: error });
      }
      const answered = fault?.kind !== 'lose-response';
      effects.push(
        Object.freeze({ seq: seq + 1, toolName, arguments: args as JsonValue, hash, confirmationId, output, answered }),
      );
      if (!answered) {
        note('lost', faultReason ?? 'response lost (scripted)');
        throw new ToolRoomUnknownOutcomeError(faultReason ?? 'no response (scripted: the response was lost)', { code: 'lost-response' });
      }
      note('ok');
      return output;
    });

  return {
    confirmTool,
    invokeTool,
    get calls() {
      return calls.slice();
    },
    get effects() {
      return effects.slice();
    },
    get confirmations() {
      return [...confirmations.values()].map((c) => Object.freeze({ ...c }));
    },
    get pending() {
      return pending;
    },
    grant(action) {
      grants.add(action);
    },
    revoke(action) {
      grants.delete(action);
    },
    fault(fault) {
      faults.push({ fault, left: fault.times ?? 1 });
    },
  };
}
