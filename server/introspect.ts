/**
 * For tests only: how much a running server holds, read from its own maps, so a test can check
 * that sessions, confirmations and records are really gone after their time (not merely hidden).
 */

export interface ServerFootprint {
  /** Live sessions. */
  live: number;
  /** Live and recently closed sessions the server still knows. */
  known: number;
  /** Closed sessions waiting to be forgotten. */
  forgetTimers: number;
  /** Open sockets. */
  sockets: number;
  /** Sessions and confirmations the room keeps. */
  room: { sessions: number; confirmations: number };
  /** Sessions that have records of each kind. */
  records: { effects: number; traces: number; ignored: number };
  /** Per live session: turns, calls and results kept, delayed answers, a running resume timer. */
  sessions: Record<string, { turns: number; calls: number; results: number; delayed: number; resumeTimer: boolean }>;
}

// Keyed by the server object itself: this module needs nothing of its type, so it does not import
// server.ts (which imports it).
const footprints = new WeakMap<object, () => ServerFootprint>();

export function registerIntrospection(server: object, read: () => ServerFootprint): void {
  footprints.set(server, read);
}

/** What `server` holds now. */
export function inspectReferenceServer(server: object): ServerFootprint {
  const read = footprints.get(server);
  if (!read) throw new Error('not a server started by startReferenceServer');
  return read();
}
