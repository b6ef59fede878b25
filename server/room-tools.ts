/**
 * The room's own tools (handlers as docs/protocol.md, "Rooms" describes them, each validating its own arguments) over a small
 * in-memory customer book: read a customer, add a note, send an invoice, delete a customer.
 */
import type { ReferenceRoomErrorCode } from '../src/client/protocol';
import type { ToolRisk } from './protocol';
import { validateAgainstSchema, type JsonSchema } from './schema';

export type RoomErrorCode = ReferenceRoomErrorCode;

export class RoomError extends Error {
  override readonly name = 'RoomError';
  constructor(
    readonly code: RoomErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** docs/protocol.md, "Rooms": name, input schema, read/write effect, required action, confirmation requirement. */
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

/** The room's `ToolHandler`: the handler owns the operation and its argument validation. */
export interface RoomToolHandler {
  descriptor: RoomToolDescriptor;
  invoke(args: unknown, context: RoomToolContext): unknown;
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
