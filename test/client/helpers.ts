/**
 * The real reference server on a free port with instant pacing, and the client under test over
 * the `ws` package (Node 20 has no global WebSocket). Tests wait on state, never on time.
 */
import { vi } from 'vitest';
import WebSocket from 'ws';
import { connectReferenceSession, type ReferenceSession, type ReferenceSessionOptions } from 'toolgate/client';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../server/server';

export function startServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  return startReferenceServer({ port: 0, speed: Infinity, ...options });
}

export interface Recorded {
  session: ReferenceSession;
  /** Every event delivered to `subscribe`, in order. */
  events: Record<string, unknown>[];
  /** Every `onError` report. */
  errors: { reason: string; detail: unknown }[];
  /** Every status the session went through. */
  statuses: string[];
}

/** Connect with fast reconnects and record what the session delivers. */
export function connect(url: string, options: ReferenceSessionOptions = {}): Recorded {
  const errors: Recorded['errors'] = [];
  const session = connectReferenceSession(url, {
    WebSocket,
    reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    ...options,
    onError: (reason, detail) => {
      errors.push({ reason, detail });
      options.onError?.(reason, detail);
    },
  });
  const events: Record<string, unknown>[] = [];
  const statuses: string[] = [session.status];
  session.subscribe((event) => events.push(event as Record<string, unknown>));
  session.onStatusChange((status) => statuses.push(status));
  return { session, events, errors, statuses };
}

/** Wait (polling state, 5 s at most) until `check` passes; returns its value. */
export function until<T>(check: () => T, timeout = 5000): Promise<Exclude<T, false | undefined | null>> {
  return vi.waitFor(
    () => {
      const value = check();
      if (value === false || value === undefined || value === null) throw new Error('not yet');
      return value as Exclude<T, false | undefined | null>;
    },
    { timeout, interval: 5 },
  );
}

/** The `turn.ended` event of a turn, once it came. */
export function turnEnded(events: Record<string, unknown>[], turnId: string): Record<string, unknown> | undefined {
  return events.find((e) => e.type === 'turn.ended' && e.turnId === turnId);
}

export const APP_TOOLS = [
  { name: 'set_title', description: 'Set the document title.', parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } },
  {
    name: 'insert_text',
    description: 'Insert text into the document.',
    parameters: { type: 'object', properties: { text: { type: 'string' }, position: { type: 'string' } }, required: ['text'] },
  },
];

export const INVOICE = { customerId: 'c_101', amount: 1250, currency: 'EUR', memo: 'Consulting, March' };
