/**
 * For tests only: how much a running server holds, read from its own maps, so a test can check
 * that sessions, confirmations and records are really gone after their time (not merely hidden).
 */
import type { ReferenceServer } from './server';

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

const footprints = new WeakMap<ReferenceServer, () => ServerFootprint>();

export function registerIntrospection(server: ReferenceServer, read: () => ServerFootprint): void {
  footprints.set(server, read);
}

/** What `server` holds now. */
export function inspectReferenceServer(server: ReferenceServer): ServerFootprint {
  const read = footprints.get(server);
  if (!read) throw new Error('not a server started by startReferenceServer');
  return read();
}
