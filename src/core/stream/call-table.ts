/**
 * The calls of a session's state, kept so that changing one call costs the same with ten calls
 * or a hundred thousand.
 *
 * Copying a `Record` of every call on each event cost O(calls) per fragment, and so did copying
 * `order` on each new call: a long session slowed down with every call. Here the calls sit in a
 * persistent vector by arrival position (a tree of 32-wide nodes, like Clojure's vector): an update
 * copies one node per level, about 32 pointers times log32(calls). Ids and their positions are
 * shared by every table of a line (they are only ever appended); a table reduced again from an
 * older point, which would append a different id, gets its own copy first.
 *
 * What a reader sees is built from the table when first read, once: the `calls` record (once per
 * table), and `order` (once per number of calls, shared by every table of a line that holds as many).
 * The table holds the reducer's own call records; readers get each call as a plain, frozen object
 * (`toCall`), made once per record.
 */
import { defineOwn } from '../json/json-value';
import type { CallRecord, ToolCall } from './tool-call';

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

/** Where a state keeps its table: a symbol, so it stays out of keys and JSON. */
export const TABLE: unique symbol = Symbol('toolgate.calls');

/** Ids in arrival order and their positions: append-only, shared along a line of tables. */
interface CallIndex {
  readonly positions: Map<string, number>;
  readonly ids: string[];
}

/** A node of the vector: calls at the leaves, nodes above. */
type Node = readonly (Node | CallRecord)[];

/** The `order` of every table of a line with the same number of calls, built when first read. */
interface OrderSlot {
  ids: readonly string[] | undefined;
}

/**
 * An immutable table of calls (the record is built on first read and cached on it).
 *
 * @example
 * let table = emptyCallTable();
 * table = setCall(table, record);
 * getCall(table, record.callId) === record; // true
 */
export interface CallTable {
  readonly index: CallIndex;
  /** How many ids of `index` this table holds. */
  readonly count: number;
  readonly root: Node;
  /** The bit shift of the root's level (0: the root is a leaf). */
  readonly shift: number;
  readonly order: OrderSlot;
  /** The `calls` record, once read. */
  record: Readonly<Record<string, ToolCall>> | undefined;
}

const EMPTY: Node = Object.freeze([]);

/**
 * A table with no call.
 *
 * @example
 * const table = emptyCallTable();
 */
export function emptyCallTable(): CallTable {
  return { index: { positions: new Map(), ids: [] }, count: 0, root: EMPTY, shift: 0, order: { ids: Object.freeze([]) }, record: undefined };
}

function leafAt(table: CallTable, at: number): readonly (Node | CallRecord)[] | undefined {
  let node: Node | undefined = table.root;
  for (let level = table.shift; level > 0 && node !== undefined; level -= BITS) node = node[(at >> level) & MASK] as Node | undefined;
  return node;
}

/**
 * The call record with this id in `table`, or `undefined` (never anything inherited: a map, not an object).
 *
 * @example
 * const record = getCall(table, 'c1');
 */
export function getCall(table: CallTable, callId: string): CallRecord | undefined {
  const at = table.index.positions.get(callId);
  if (at === undefined || at >= table.count) return undefined;
  return leafAt(table, at)?.[at & MASK] as CallRecord | undefined;
}

/** A copy of the path to `at` with `record` at its end. */
function assoc(node: Node | undefined, level: number, at: number, record: CallRecord): Node {
  const copy = node === undefined ? [] : node.slice();
  const i = (at >> level) & MASK;
  copy[i] = level === 0 ? record : assoc(copy[i] as Node | undefined, level - BITS, at, record);
  return copy;
}

/**
 * A new table with `record` in it: in its place if its id is known, else at the end.
 *
 * @example
 * const next = setCall(table, updatedRecord); // `table` is unchanged
 */
export function setCall(table: CallTable, record: CallRecord): CallTable {
  let { index, count, root, shift, order } = table;
  let at = getCall(table, record.callId) === undefined ? -1 : (index.positions.get(record.callId) as number);
  if (at < 0) {
    if (index.ids.length !== count) {
      // This table's line has grown in another direction: branch with a copy of what it holds.
      const ids = index.ids.slice(0, count);
      index = { ids, positions: new Map(ids.map((id, i) => [id, i])) };
    }
    at = count++;
    index.ids.push(record.callId);
    index.positions.set(record.callId, at);
    order = { ids: undefined };
    if (at === 1 << (shift + BITS)) {
      // The tree is full: a new root above it.
      root = [root];
      shift += BITS;
    }
  }
  return { index, count, root: assoc(root, shift, at, record), shift, order, record: undefined };
}

/**
 * Every call record of the table, in arrival order.
 *
 * @example
 * for (const record of recordsOf(table)) if (record.status === 'issued') open.push(record);
 */
export function* recordsOf(table: CallTable): Generator<CallRecord> {
  for (let at = 0; at < table.count; at += WIDTH) {
    const leaf = leafAt(table, at) as readonly CallRecord[];
    const end = Math.min(WIDTH, table.count - at);
    for (let i = 0; i < end; i++) yield leaf[i] as CallRecord;
  }
}

/**
 * The table as a frozen record of calls by id (built once per table, on first read).
 *
 * @example
 * const calls = callRecord(table); // { c1: call, … }
 */
export function callRecord(table: CallTable): Readonly<Record<string, ToolCall>> {
  if (table.record === undefined) {
    const record: Record<string, ToolCall> = {};
    // An own property even for '__proto__' (a plain assignment would set the prototype).
    for (const call of recordsOf(table)) defineOwn(record, call.callId, call.toCall());
    table.record = Object.freeze(record);
  }
  return table.record;
}

/**
 * The ids in the order their calls began: a frozen array, built on first read and shared by
 * every table of the line that holds as many calls.
 *
 * @example
 * const order = orderOf(table); // ['c1', 'c2']
 */
export function orderOf(table: CallTable): readonly string[] {
  const slot = table.order;
  if (slot.ids === undefined || slot.ids.length !== table.count) slot.ids = Object.freeze(table.index.ids.slice(0, table.count));
  return slot.ids;
}

/**
 * The call with id `callId` as readers see it (a plain, frozen object), or `undefined`: never a
 * property inherited from Object.prototype. On a state of the kit it reads the table, without
 * building the `calls` record.
 *
 * @example
 * const call = callOf(state, callIdFromUrl); // never Object.prototype's 'constructor'
 */
export function callOf<C = ToolCall>(state: { readonly calls: Readonly<Record<string, C>> }, callId: string): C | undefined {
  const table = (state as { [TABLE]?: CallTable })[TABLE];
  if (table !== undefined) return getCall(table, callId)?.toCall() as C | undefined;
  return Object.prototype.hasOwnProperty.call(state.calls, callId) ? state.calls[callId] : undefined;
}

/**
 * The reducer's own record of a call in a state of the kit (its table), or `undefined`.
 *
 * @example
 * const record = recordOf(state, 'c1');
 */
export function recordOf(state: object, callId: string): CallRecord | undefined {
  const table = (state as { [TABLE]?: CallTable })[TABLE];
  return table === undefined ? undefined : getCall(table, callId);
}
