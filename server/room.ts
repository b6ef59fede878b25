/**
 * A room (docs/protocol.md, "Rooms"): tools registered with descriptors, authority granted per
 * session, confirmations bound to room + tool + SHA-256 of the canonical arguments and
 * consumed once, and a record of every invocation. It never deduplicates: a second invoke
 * with a consumed confirmation is refused, and the refusal is recorded.
 */
import { randomBytes } from 'node:crypto';
import { canonicalize, sha256Hex, CanonicalJsonError } from './jcs';
import type { EffectRecord, Records } from './records';
import { RoomError, builtInRoomTools, type RoomToolHandler, type RoomToolDescriptor } from './room-tools';
import { checkValueShape, type ShapeLimits } from './shape';

export interface Confirmation {
  id: string;
  roomId: string;
  toolName: string;
  argumentsHash: string;
  /** The session that made it: the only one that may use it. */
  sessionId: string;
  createdAt: number;
  /** Unused at this time, it expires. */
  expiresAt: number;
  consumedAt?: number;
  consumedBy?: string;
  /** Set once it expired unused; an invoke with it is then refused (CONFIRMATION_EXPIRED). */
  expiredAt?: number;
}

/**
 * What a caller may hand the room with arguments whose depth and size it has already checked:
 * their hash (computed in slices, so a large value never stalls the server), and whether the room
 * may pass the value itself to the handler (it was parsed for this call alone: no copy is needed).
 */
export interface PreparedArguments {
  argumentsHash: string;
  owned?: boolean;
}

export interface ConfirmResult {
  confirmationId: string;
  roomId: string;
  toolName: string;
  argumentsHash: string;
}

export type InvokeOutcome =
  | { ok: true; result: unknown; record: EffectRecord }
  | { ok: false; error: RoomError; record: EffectRecord | undefined };

/** What the server knows of a session when it grants it authority. */
export interface SessionGrantInfo {
  /** The page's origin (absent for a client that is not a browser). */
  origin?: string;
}

export interface RoomOptions {
  id?: string;
  /**
   * Grants every new session gets, or a function of the session (its id, and its page's origin):
   * a deployment that knows who is behind a session grants per person here.
   */
  grants?: readonly string[] | ((sessionId: string, info: SessionGrantInfo) => readonly string[]);
  /** Tools registered besides (or, with `replaceTools`, instead of) the built-in ones. */
  tools?: readonly RoomToolHandler[];
  replaceTools?: boolean;
  /** How long a confirmation stays usable. Default 300000 (5 minutes). */
  confirmationTtlMs?: number;
  /** Unused confirmations one session may hold at once. Default 100. */
  maxUnusedConfirmations?: number;
  /** Depth and size of arguments, checked before canonical JSON. Default 32 levels, 10000 values. */
  argumentLimits?: ShapeLimits;
}

/**
 * What a session holds unless told otherwise: the least the demo needs, which is to confirm
 * and invoke `send_invoice`. Everything else (reading or deleting customers, notes) takes a grant
 * of its own (`grants`, `room.grant()`, `room.setGrants()`).
 */
export const DEFAULT_GRANTS: readonly string[] = ['tool:invoke:send_invoice', 'tool:confirm:send_invoice'];

export const DEFAULT_CONFIRMATION_TTL_MS = 300_000;
export const DEFAULT_ARGUMENT_LIMITS: ShapeLimits = { maxDepth: 32, maxNodes: 10_000 };

/** What the room keeps of one session. */
interface RoomSession {
  grants: Set<string>;
  /** Its confirmations' ids, oldest first. */
  confirmations: string[];
}

export class Room {
  readonly id: string;
  private readonly tools = new Map<string, RoomToolHandler>();
  private readonly sessions = new Map<string, RoomSession>();
  private readonly confirmations = new Map<string, Confirmation>();
  private readonly defaultGrants: NonNullable<RoomOptions['grants']>;
  private readonly ttlMs: number;
  private readonly maxUnused: number;
  /** Depth and size of arguments the room (and the gate) accepts. */
  readonly argumentLimits: ShapeLimits;
  private nextInvocation = 1;

  constructor(
    private readonly records: Records,
    private readonly now: () => number,
    options: RoomOptions = {},
  ) {
    this.id = options.id ?? 'room-1';
    this.defaultGrants = options.grants ?? DEFAULT_GRANTS;
    this.ttlMs = options.confirmationTtlMs ?? DEFAULT_CONFIRMATION_TTL_MS;
    this.maxUnused = options.maxUnusedConfirmations ?? 100;
    this.argumentLimits = options.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS;
    if (!options.replaceTools) for (const tool of builtInRoomTools()) this.register(tool);
    for (const tool of options.tools ?? []) this.register(tool);
  }

  /** Register a handler. Its required action must name the tool (docs/protocol.md, "Rooms"). */
  register(handler: RoomToolHandler): void {
    const d = handler.descriptor;
    if (d.requiredAction !== `tool:invoke:${d.name}`) {
      throw new Error(`descriptor of ${d.name} requires ${d.requiredAction}, not tool:invoke:${d.name}`);
    }
    this.tools.set(d.name, handler);
  }

  /** A new session: its grants, from the defaults or the `grants` function. */
  openSession(sessionId: string, info: SessionGrantInfo = {}): void {
    const initial = typeof this.defaultGrants === 'function' ? this.defaultGrants(sessionId, info) : this.defaultGrants;
    this.sessions.set(sessionId, { grants: new Set(initial), confirmations: this.sessions.get(sessionId)?.confirmations ?? [] });
  }

  /** Drop everything the room keeps of a session the server forgot: grants and confirmations. */
  forgetSession(sessionId: string): void {
    const state = this.sessions.get(sessionId);
    if (!state) return;
    for (const id of state.confirmations) this.confirmations.delete(id);
    this.sessions.delete(sessionId);
  }

  /** Sessions and confirmations the room keeps (the server's own accounting, for tests). */
  counts(): { sessions: number; confirmations: number } {
    return { sessions: this.sessions.size, confirmations: this.confirmations.size };
  }

  private stateOf(sessionId: string): RoomSession {
    let state = this.sessions.get(sessionId);
    if (!state) {
      this.openSession(sessionId);
      state = this.sessions.get(sessionId)!;
    }
    return state;
  }

  /** The session's grants (the defaults for a session the room has not seen yet). */
  grantsOf(sessionId: string): Set<string> {
    return this.stateOf(sessionId).grants;
  }

  setGrants(sessionId: string, grants: readonly string[]): void {
    this.stateOf(sessionId).grants = new Set(grants);
  }

  grant(sessionId: string, action: string): void {
    this.grantsOf(sessionId).add(action);
  }

  revoke(sessionId: string, action: string): void {
    this.grantsOf(sessionId).delete(action);
  }

  /** `tool:invoke:NAME` is held exactly or through `tool:invoke:*`. */
  holds(sessionId: string, action: string): boolean {
    const set = this.grantsOf(sessionId);
    return set.has(action) || set.has(action.replace(/:[^:]*$/, ':*'));
  }

  describeTools(sessionId: string): { roomId: string; tools: RoomToolDescriptor[]; authority: string[] } {
    return {
      roomId: this.id,
      tools: [...this.tools.values()].map((t) => structuredClone(t.descriptor)),
      authority: [...this.grantsOf(sessionId)],
    };
  }

  /** A confirmation as it is now (`expiredAt` set once its time passed unused). */
  confirmation(id: string): Readonly<Confirmation> | undefined {
    const confirmation = this.confirmations.get(id);
    if (confirmation) this.expireIfDue(confirmation);
    return confirmation;
  }

  /** Record a confirmation that outlived its time unused as expired (on the room's clock). */
  private expireIfDue(confirmation: Confirmation): boolean {
    if (confirmation.expiredAt !== undefined) return true;
    if (confirmation.consumedAt !== undefined || this.now() < confirmation.expiresAt) return false;
    confirmation.expiredAt = confirmation.expiresAt;
    return true;
  }

  /**
   * Expire what is due, and keep the used and expired ones (kept so that a second use is refused
   * as what it is) to ten times the unused limit: one session's confirmations stay bounded.
   */
  private sweep(state: RoomSession): number {
    let unused = 0;
    const spent: string[] = [];
    for (const id of state.confirmations) {
      const c = this.confirmations.get(id)!;
      if (this.expireIfDue(c) || c.consumedAt !== undefined) spent.push(id);
      else unused++;
    }
    const excess = spent.length - this.maxUnused * 10;
    if (excess > 0) {
      const dropped = new Set(spent.slice(0, excess));
      for (const id of dropped) this.confirmations.delete(id);
      state.confirmations = state.confirmations.filter((id) => !dropped.has(id));
    }
    return unused;
  }

  /**
   * Obtaining a confirmation requires `tool:confirm` on the tool name. The id is
   * bound to this room, the tool and the SHA-256 of the canonical arguments.
   */
  confirmTool(sessionId: string, toolName: unknown, args: unknown, prepared?: PreparedArguments): ConfirmResult {
    const handler = this.lookup(toolName);
    if (!this.holds(sessionId, `tool:confirm:${handler.descriptor.name}`)) {
      throw new RoomError(
        'FORBIDDEN',
        `this session may not confirm ${handler.descriptor.name}: it lacks tool:confirm:${handler.descriptor.name}`,
      );
    }
    const argumentsHash = this.hashOf(args, prepared);
    const state = this.stateOf(sessionId);
    if (this.sweep(state) >= this.maxUnused) {
      throw new RoomError(
        'TOO_MANY_CONFIRMATIONS',
        `this session holds ${this.maxUnused} unused confirmations; use them or let them expire first`,
      );
    }
    const id = `conf_${randomBytes(12).toString('hex')}`;
    const createdAt = this.now();
    this.confirmations.set(id, {
      id,
      roomId: this.id,
      toolName: handler.descriptor.name,
      argumentsHash,
      sessionId,
      createdAt,
      expiresAt: createdAt + this.ttlMs,
    });
    state.confirmations.push(id);
    return { confirmationId: id, roomId: this.id, toolName: handler.descriptor.name, argumentsHash };
  }

  /**
   * `room.invokeTool(toolName, args, confirmationId?)`: checks authority, then the
   * confirmation (consumed before the handler runs), then lets the handler validate and act.
   * Every attempt that names a registered tool is recorded, refused ones with their reason.
   */
  invokeTool(sessionId: string, toolName: unknown, args: unknown, confirmationId?: unknown, prepared?: PreparedArguments): InvokeOutcome {
    const name = typeof toolName === 'string' ? toolName : String(toolName);
    const handler = typeof toolName === 'string' ? this.tools.get(toolName) : undefined;
    let argumentsHash: string | undefined;
    let hashProblem = 'the arguments are not a JSON value';
    try {
      argumentsHash = this.hashOf(args, prepared);
    } catch (e) {
      if (e instanceof Error) hashProblem = e.message;
    }
    const base = {
      source: 'room' as const,
      sessionId,
      toolName: name,
      effect: handler?.descriptor.effect ?? ('write' as const),
      arguments: args,
      ...(argumentsHash !== undefined ? { argumentsHash } : {}),
      ...(typeof confirmationId === 'string' ? { confirmationId } : {}),
    };
    const refuse = (error: RoomError): InvokeOutcome => ({
      ok: false,
      error,
      record: this.records.addEffect({ ...base, outcome: 'refused', code: error.code, reason: error.message }),
    });

    if (!handler) return refuse(new RoomError('UNKNOWN_TOOL', `no tool named ${JSON.stringify(name)} in ${this.id}`));
    const d = handler.descriptor;
    if (!this.holds(sessionId, d.requiredAction)) {
      return refuse(new RoomError('FORBIDDEN', `this session may not invoke ${d.name}: it lacks ${d.requiredAction}`));
    }
    if (argumentsHash === undefined) {
      return refuse(new RoomError('INVALID_ARGUMENTS', hashProblem));
    }
    if (confirmationId !== undefined && confirmationId !== null && typeof confirmationId !== 'string') {
      return refuse(new RoomError('CONFIRMATION_INVALID', 'a confirmation id is a string'));
    }
    let confirmation: Confirmation | undefined;
    if (d.requiresConfirmation || typeof confirmationId === 'string') {
      const checked = this.usableConfirmation(sessionId, d, argumentsHash, confirmationId);
      if (checked instanceof RoomError) return refuse(checked);
      confirmation = checked;
    }

    const invocationId = `inv_${this.nextInvocation++}`;
    if (confirmation) {
      confirmation.consumedAt = this.now();
      confirmation.consumedBy = invocationId;
    }
    let result: unknown;
    try {
      // The handler gets a value of its own: the caller's, when it was parsed for this call alone.
      result = handler.invoke(prepared?.owned ? args : structuredClone(args), { roomId: this.id, sessionId, invocationId });
    } catch (e) {
      const error =
        e instanceof RoomError ? e : new RoomError('TOOL_FAILED', e instanceof Error ? e.message : String(e));
      const record = this.records.addEffect({
        ...base,
        outcome: error.code === 'INVALID_ARGUMENTS' ? 'refused' : 'failed',
        code: error.code,
        reason: error.message,
      });
      this.records.addTrace({ type: 'tool.failed', roomId: this.id, toolName: d.name, invocationId, sessionId, effectId: record.id, ok: false });
      return { ok: false, error, record };
    }
    const record = this.records.addEffect({ ...base, outcome: 'accepted', result });
    // The room also publishes internal traces; they are not receipts (docs/protocol.md, "Rooms").
    this.records.addTrace({ type: 'tool.invoked', roomId: this.id, toolName: d.name, invocationId, sessionId, effectId: record.id });
    this.records.addTrace({ type: 'tool.completed', roomId: this.id, toolName: d.name, invocationId, sessionId, effectId: record.id, ok: true });
    return { ok: true, result, record };
  }

  /**
   * The confirmation this invoke may consume (docs/protocol.md, "Rooms": bound to this room, this tool, these
   * arguments, and here to the session that made it; unused and unexpired), or why not. A refusal
   * leaves it as it was.
   */
  private usableConfirmation(sessionId: string, d: RoomToolDescriptor, argumentsHash: string, confirmationId: unknown): Confirmation | RoomError {
    if (typeof confirmationId !== 'string') {
      return new RoomError('CONFIRMATION_REQUIRED', `${d.name} needs a confirmation: call confirmTool with these arguments`);
    }
    const confirmation = this.confirmations.get(confirmationId);
    // Another session's confirmation is answered as an unknown one: it is not this session's to use.
    if (!confirmation || confirmation.sessionId !== sessionId) {
      return new RoomError('CONFIRMATION_INVALID', `no confirmation ${confirmationId} for this session in ${this.id}`);
    }
    if (confirmation.roomId !== this.id || confirmation.toolName !== d.name) {
      return new RoomError(
        'CONFIRMATION_INVALID',
        `confirmation ${confirmationId} was given for ${confirmation.toolName} in ${confirmation.roomId}, not ${d.name} in ${this.id}`,
      );
    }
    if (confirmation.argumentsHash !== argumentsHash) {
      return new RoomError(
        'CONFIRMATION_INVALID',
        `confirmation ${confirmationId} was given for other arguments (sha256 ${confirmation.argumentsHash.slice(0, 12)}…, these are ${argumentsHash.slice(0, 12)}…); nothing ran`,
      );
    }
    if (confirmation.consumedAt !== undefined) {
      return new RoomError('CONFIRMATION_CONSUMED', `confirmation ${confirmationId} was already used; a new invoke needs a new confirmation`);
    }
    if (this.expireIfDue(confirmation)) {
      return new RoomError('CONFIRMATION_EXPIRED', `confirmation ${confirmationId} expired unused after ${Math.round(this.ttlMs / 1000)} s; confirm again`);
    }
    return confirmation;
  }

  /** The arguments' hash: the prepared one, or computed here after their shape is checked. */
  private hashOf(args: unknown, prepared: PreparedArguments | undefined): string {
    if (prepared === undefined || args === undefined) return hashArguments(args, this.argumentLimits);
    return prepared.argumentsHash;
  }

  private lookup(toolName: unknown): RoomToolHandler {
    const handler = typeof toolName === 'string' ? this.tools.get(toolName) : undefined;
    if (!handler) throw new RoomError('UNKNOWN_TOOL', `no tool named ${JSON.stringify(toolName)} in ${this.id}`);
    return handler;
  }
}

/** SHA-256 of the canonical arguments, after their depth and size are checked (never a RangeError). */
function hashArguments(args: unknown, limits: ShapeLimits): string {
  if (args === undefined) throw new RoomError('INVALID_ARGUMENTS', 'arguments are required');
  const problem = checkValueShape(args, limits);
  if (problem) throw new RoomError('INVALID_ARGUMENTS', `the arguments have ${problem.message}`);
  try {
    return sha256Hex(canonicalize(args));
  } catch (e) {
    if (e instanceof CanonicalJsonError) throw new RoomError('INVALID_ARGUMENTS', e.message);
    throw e;
  }
}

export { RoomError, builtInRoomTools };
export type { RoomErrorCode, RoomToolContext, RoomToolDescriptor, RoomToolHandler } from './room-tools';
