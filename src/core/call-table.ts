/**
 * The calls of a session's state, kept so that changing one call costs the same with ten calls
 * or ten thousand.
 *
 * Copying a `Record` of every call on each event cost O(calls) per fragment (and far more once
 * V8 turns a record with many unique keys into a dictionary): a long session slowed down with
 * every call. Here calls sit in chunks of 32 by arrival position, and an update copies one
 * chunk and the short list of chunks. Ids and their positions are shared by every state of a
 * line (they are only ever appended); a state reduced again from an older point, which would
 * append a different id, gets its own copy first. The `calls` record a reader sees is built from
 * the table when first read, once per state.
 */
import { defineOwn } from './json-value';
import type { ToolCall } from './tool-call';

const CHUNK_BITS = 5;
const CHUNK = 1 << CHUNK_BITS;

/** Where a state keeps its table: a symbol, so it stays out of keys and JSON. */
export const TABLE: unique symbol = Symbol('toolgate.calls');

/** Ids in arrival order and their positions: append-only, shared along a line of tables. */
interface CallIndex {
  readonly positions: Map<string, number>;
  readonly ids: string[];
}

/**
 * An immutable table of calls (the record is built on first read and cached on it).
 *
 * @example
 * let table = emptyCallTable();
 * table = setCall(table, call);
 * getCall(table, call.callId) === call; // true
 */
export interface CallTable {
  readonly index: CallIndex;
  /** How many ids of `index` this table holds. */
  readonly count: number;
  readonly chunks: readonly (readonly ToolCall[])[];
  /** The `calls` record, once read. */
  record: Readonly<Record<string, ToolCall>> | undefined;
}

/**
 * A table with no call.
 *
 * @example
 * const table = emptyCallTable();
 */
export function emptyCallTable(): CallTable {
  return { index: { positions: new Map(), ids: [] }, count: 0, chunks: [], record: undefined };
}

/**
 * The call with this id in `table`, or `undefined` (never anything inherited: a map, not an object).
 *
 * @example
 * const call = getCall(table, 'c1');
 */
export function getCall(table: CallTable, callId: string): ToolCall | undefined {
  const at = table.index.positions.get(callId);
  if (at === undefined || at >= table.count) return undefined;
  return table.chunks[at >> CHUNK_BITS]?.[at & (CHUNK - 1)];
}

/**
 * A new table with `call` in it: in its place if its id is known, else at the end.
 *
 * @example
 * const next = setCall(table, updatedCall); // `table` is unchanged
 */
export function setCall(table: CallTable, call: ToolCall): CallTable {
  let { index, count } = table;
  let at = getCall(table, call.callId) === undefined ? -1 : (index.positions.get(call.callId) as number);
  if (at < 0) {
    if (index.ids.length !== count) {
      // This table's line has grown in another direction: branch with a copy of what it holds.
      const ids = index.ids.slice(0, count);
      index = { ids, positions: new Map(ids.map((id, i) => [id, i])) };
    }
    at = count++;
    index.ids.push(call.callId);
    index.positions.set(call.callId, at);
  }
  const c = at >> CHUNK_BITS;
  const chunk = (table.chunks[c] ?? []).slice();
  chunk[at & (CHUNK - 1)] = call;
  const chunks = table.chunks.slice();
  chunks[c] = chunk;
  return { index, count, chunks, record: undefined };
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
    for (let i = 0; i < table.count; i++) {
      const call = table.chunks[i >> CHUNK_BITS]?.[i & (CHUNK - 1)] as ToolCall;
      // An own property even for '__proto__' (a plain assignment would set the prototype).
      defineOwn(record, call.callId, call);
    }
    table.record = Object.freeze(record);
  }
  return table.record;
}

/**
 * The call with id `callId`, or `undefined`: never a property inherited from Object.prototype.
 * On a store's state it reads the table, without building the `calls` record.
 *
 * @example
 * const call = callOf(state, callIdFromUrl); // never Object.prototype's 'constructor'
 */
export function callOf<C = ToolCall>(state: { readonly calls: Readonly<Record<string, C>> }, callId: string): C | undefined {
  const table = (state as { [TABLE]?: CallTable })[TABLE];
  if (table !== undefined) return getCall(table, callId) as C | undefined;
  return Object.prototype.hasOwnProperty.call(state.calls, callId) ? state.calls[callId] : undefined;
}
