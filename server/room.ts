/**
 * A room after seed 002 (rmc): tools registered with descriptors, authority granted per
 * session, confirmations bound to room + tool + SHA-256 of the canonical arguments and
 * consumed once, and a record of every invocation. It never deduplicates: a second invoke
 * with a consumed confirmation is refused, and the refusal is recorded.
 */
import { randomBytes } from 'node:crypto';
import { canonicalize, sha256Hex, CanonicalJsonError } from './jcs';
import type { EffectRecord, Records } from './records';
import { validateAgainstSchema, type JsonSchema } from './schema';
import type { ToolRisk } from './protocol';

export type RoomErrorCode =
  | 'UNKNOWN_TOOL'
  | 'FORBIDDEN'
  | 'INVALID_ARGUMENTS'
  | 'CONFIRMATION_REQUIRED'
  | 'CONFIRMATION_INVALID'
  | 'CONFIRMATION_CONSUMED'
  | 'NOT_FOUND'
  | 'TOOL_FAILED'
  | 'UNKNOWN_METHOD';

export class RoomError extends Error {
  override readonly name = 'RoomError';
  constructor(
    readonly code: RoomErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** seed 002: name, input schema, read/write effect, required action, confirmation requirement. */
export interface RoomToolDescriptor {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  effect: 'read' | 'write';
  risk: ToolRisk;
  /** Always `tool:invoke:<name>`: the runtime checks the required action against the tool name. */
  requiredAction: string;
  requiresConfirmation: boolean;
}

export interface RoomToolContext {
  roomId: string;
  sessionId: string;
  invocationId: string;
}

/** seed 002 `ToolHandler`: the handler owns the operation and its argument validation. */
export interface RoomToolHandler {
  descriptor: RoomToolDescriptor;
  invoke(args: unknown, context: RoomToolContext): unknown;
}

export interface Confirmation {
  id: string;
  roomId: string;
  toolName: string;
  argumentsHash: string;
  sessionId: string;
  createdAt: number;
  consumedAt?: number;
  consumedBy?: string;
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

export interface RoomOptions {
  id?: string;
  /** Grants every new session gets, or a function of the session id. */
  grants?: readonly string[] | ((sessionId: string) => readonly string[]);
  /** Tools registered besides (or, with `replaceTools`, instead of) the built-in ones. */
  tools?: readonly RoomToolHandler[];
  replaceTools?: boolean;
}

/**
 * What a session holds unless told otherwise: invoke on every tool, confirm on all but
 * `delete_customer`, so the demo can show a confirmTool refused for want of authority.
 */
export const DEFAULT_GRANTS: readonly string[] = [
  'tool:invoke:*',
  'tool:confirm:lookup_customer',
  'tool:confirm:add_note',
  'tool:confirm:send_invoice',
];

export class Room {
  readonly id: string;
  private readonly tools = new Map<string, RoomToolHandler>();
  private readonly grants = new Map<string, Set<string>>();
  private readonly confirmations = new Map<string, Confirmation>();
  private readonly defaultGrants: RoomOptions['grants'];
  private nextInvocation = 1;

  constructor(
    private readonly records: Records,
    private readonly now: () => number,
    options: RoomOptions = {},
  ) {
    this.id = options.id ?? 'room-1';
    this.defaultGrants = options.grants ?? DEFAULT_GRANTS;
    if (!options.replaceTools) for (const tool of builtInRoomTools()) this.register(tool);
    for (const tool of options.tools ?? []) this.register(tool);
  }

  /** Register a handler. Its required action must name the tool (seed 002). */
  register(handler: RoomToolHandler): void {
    const d = handler.descriptor;
    if (d.requiredAction !== `tool:invoke:${d.name}`) {
      throw new Error(`descriptor of ${d.name} requires ${d.requiredAction}, not tool:invoke:${d.name}`);
    }
    this.tools.set(d.name, handler);
  }

  /** The session's grants, created from the defaults on first use. */
  grantsOf(sessionId: string): Set<string> {
    let set = this.grants.get(sessionId);
    if (!set) {
      const initial = typeof this.defaultGrants === 'function' ? this.defaultGrants(sessionId) : this.defaultGrants;
      set = new Set(initial);
      this.grants.set(sessionId, set);
    }
    return set;
  }

  setGrants(sessionId: string, grants: readonly string[]): void {
    this.grants.set(sessionId, new Set(grants));
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

  confirmation(id: string): Readonly<Confirmation> | undefined {
    return this.confirmations.get(id);
  }

  /**
   * seed 002: obtaining a confirmation requires `tool:confirm` on the tool name. The id is
   * bound to this room, the tool and the SHA-256 of the canonical arguments.
   */
  confirmTool(sessionId: string, toolName: unknown, args: unknown): ConfirmResult {
    const handler = this.lookup(toolName);
    if (!this.holds(sessionId, `tool:confirm:${handler.descriptor.name}`)) {
      throw new RoomError(
        'FORBIDDEN',
        `this session may not confirm ${handler.descriptor.name}: it lacks tool:confirm:${handler.descriptor.name}`,
      );
    }
    const argumentsHash = hashArguments(args);
    const id = `conf_${randomBytes(12).toString('hex')}`;
    this.confirmations.set(id, {
      id,
      roomId: this.id,
      toolName: handler.descriptor.name,
      argumentsHash,
      sessionId,
      createdAt: this.now(),
    });
    return { confirmationId: id, roomId: this.id, toolName: handler.descriptor.name, argumentsHash };
  }

  /**
   * seed 002 `room.invokeTool(toolName, args, confirmationId?)`: checks authority, then the
   * confirmation (consumed before the handler runs), then lets the handler validate and act.
   * Every attempt that names a registered tool is recorded, refused ones with their reason.
   */
  invokeTool(sessionId: string, toolName: unknown, args: unknown, confirmationId?: unknown): InvokeOutcome {
    const name = typeof toolName === 'string' ? toolName : String(toolName);
    const handler = typeof toolName === 'string' ? this.tools.get(toolName) : undefined;
    let argumentsHash: string | undefined;
    let hashProblem = 'the arguments are not a JSON value';
    try {
      argumentsHash = hashArguments(args);
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
      if (typeof confirmationId !== 'string') {
        return refuse(
          new RoomError('CONFIRMATION_REQUIRED', `${d.name} needs a confirmation: call confirmTool with these arguments`),
        );
      }
      confirmation = this.confirmations.get(confirmationId);
      if (!confirmation) {
        return refuse(new RoomError('CONFIRMATION_INVALID', `no confirmation ${confirmationId} in ${this.id}`));
      }
      if (confirmation.roomId !== this.id || confirmation.toolName !== d.name) {
        return refuse(
          new RoomError(
            'CONFIRMATION_INVALID',
            `confirmation ${confirmationId} was given for ${confirmation.toolName} in ${confirmation.roomId}, not ${d.name} in ${this.id}`,
          ),
        );
      }
      if (confirmation.argumentsHash !== argumentsHash) {
        return refuse(
          new RoomError(
            'CONFIRMATION_INVALID',
            `confirmation ${confirmationId} was given for other arguments (sha256 ${confirmation.argumentsHash.slice(0, 12)}…, these are ${argumentsHash.slice(0, 12)}…); nothing ran`,
          ),
        );
      }
      if (confirmation.consumedAt !== undefined) {
        return refuse(
          new RoomError(
            'CONFIRMATION_CONSUMED',
            `confirmation ${confirmationId} was already used; a new invoke needs a new confirmation`,
          ),
        );
      }
    }

    const invocationId = `inv_${this.nextInvocation++}`;
    if (confirmation) {
      confirmation.consumedAt = this.now();
      confirmation.consumedBy = invocationId;
    }
    let result: unknown;
    try {
      result = handler.invoke(structuredClone(args), { roomId: this.id, sessionId, invocationId });
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
    // seed 002: the runtime also attempts internal trace publications; they are not receipts.
    this.records.addTrace({ type: 'tool.invoked', roomId: this.id, toolName: d.name, invocationId, sessionId, effectId: record.id });
    this.records.addTrace({ type: 'tool.completed', roomId: this.id, toolName: d.name, invocationId, sessionId, effectId: record.id, ok: true });
    return { ok: true, result, record };
  }

  private lookup(toolName: unknown): RoomToolHandler {
    const handler = typeof toolName === 'string' ? this.tools.get(toolName) : undefined;
    if (!handler) throw new RoomError('UNKNOWN_TOOL', `no tool named ${JSON.stringify(toolName)} in ${this.id}`);
    return handler;
  }
}

function hashArguments(args: unknown): string {
  if (args === undefined) throw new RoomError('INVALID_ARGUMENTS', 'arguments are required');
  try {
    return sha256Hex(canonicalize(args));
  } catch (e) {
    if (e instanceof CanonicalJsonError) throw new RoomError('INVALID_ARGUMENTS', e.message);
    throw e;
  }
}

function validated(descriptor: RoomToolDescriptor, args: unknown): Record<string, unknown> {
  const problems = validateAgainstSchema(descriptor.inputSchema, args);
  if (problems.length > 0) throw new RoomError('INVALID_ARGUMENTS', problems.join('; '));
  return args as Record<string, unknown>;
}

function descriptor(
  name: string,
  fields: Omit<RoomToolDescriptor, 'name' | 'requiredAction'>,
): RoomToolDescriptor {
  return { name, requiredAction: `tool:invoke:${name}`, ...fields };
}

interface Customer {
  id: string;
  name: string;
  email: string;
  notes: string[];
}

/** The room's own tools, over a small in-memory customer book. Fresh state per room. */
export function builtInRoomTools(): RoomToolHandler[] {
  const customers = new Map<string, Customer>([
    ['c_100', { id: 'c_100', name: 'Ada Lovelace', email: 'ada@example.com', notes: [] }],
    ['c_101', { id: 'c_101', name: 'Grace Hopper', email: 'grace@example.com', notes: [] }],
    ['c_102', { id: 'c_102', name: 'Alan Turing', email: 'alan@example.com', notes: [] }],
  ]);
  const invoices: { invoiceId: string; customerId: string; amount: number; currency: string; memo: string }[] = [];
  const customer = (id: unknown): Customer => {
    const c = typeof id === 'string' ? customers.get(id) : undefined;
    if (!c) throw new RoomError('NOT_FOUND', `no customer ${JSON.stringify(id)}`);
    return c;
  };
  const customerId = { type: 'string', minLength: 1 } as const;

  const lookup = descriptor('lookup_customer', {
    description: 'Read a customer record.',
    inputSchema: { type: 'object', properties: { customerId }, required: ['customerId'], additionalProperties: false },
    effect: 'read',
    risk: 'low',
    requiresConfirmation: false,
  });
  const addNote = descriptor('add_note', {
    description: 'Append a note to a customer record.',
    inputSchema: {
      type: 'object',
      properties: { customerId, text: { type: 'string', minLength: 1, maxLength: 2000 } },
      required: ['customerId', 'text'],
      additionalProperties: false,
    },
    effect: 'write',
    risk: 'low',
    requiresConfirmation: false,
  });
  const sendInvoice = descriptor('send_invoice', {
    description: 'Send an invoice to a customer. Money moves: needs a confirmation.',
    inputSchema: {
      type: 'object',
      properties: {
        customerId,
        amount: { type: 'number', minimum: 0.01, maximum: 1_000_000 },
        currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'] },
        memo: { type: 'string', maxLength: 500 },
      },
      required: ['customerId', 'amount', 'currency'],
      additionalProperties: false,
    },
    effect: 'write',
    risk: 'medium',
    requiresConfirmation: true,
  });
  const deleteCustomer = descriptor('delete_customer', {
    description: 'Delete a customer record for good.',
    inputSchema: { type: 'object', properties: { customerId }, required: ['customerId'], additionalProperties: false },
    effect: 'write',
    risk: 'high',
    requiresConfirmation: true,
  });

  return [
    {
      descriptor: lookup,
      invoke(args) {
        const c = customer(validated(lookup, args).customerId);
        return { ...c, notes: [...c.notes] };
      },
    },
    {
      descriptor: addNote,
      invoke(args) {
        const a = validated(addNote, args);
        const c = customer(a.customerId);
        c.notes.push(a.text as string);
        return { customerId: c.id, notes: c.notes.length };
      },
    },
    {
      descriptor: sendInvoice,
      invoke(args) {
        const a = validated(sendInvoice, args);
        const c = customer(a.customerId);
        const invoice = {
          invoiceId: `inv-${String(invoices.length + 1001)}`,
          customerId: c.id,
          amount: a.amount as number,
          currency: a.currency as string,
          memo: typeof a.memo === 'string' ? a.memo : '',
        };
        invoices.push(invoice);
        return { ...invoice, status: 'sent', to: c.email };
      },
    },
    {
      descriptor: deleteCustomer,
      invoke(args) {
        const c = customer(validated(deleteCustomer, args).customerId);
        customers.delete(c.id);
        return { customerId: c.id, deleted: true };
      },
    },
  ];
}
