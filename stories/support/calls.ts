/**
 * The event lists behind the stories: one per visible state of a call, built with the public
 * builders of toolgate/testing, with pauses for realistic durations.
 */
import { argumentDeltas, callEvents, pause, toolEvents as e } from 'toolgate/testing';

export const flightArgs = { from: 'LHR', to: 'SFO', date: '2025-03-14', passengers: 2, cabin: 'economy', flexible: true };

export const flightSchema = {
  type: 'object',
  properties: {
    from: { type: 'string', title: 'From', description: 'IATA code' },
    to: { type: 'string', title: 'To', description: 'IATA code' },
    date: { type: 'string', title: 'Departure date' },
    passengers: { type: 'integer', title: 'Passengers' },
    cabin: { type: 'string', title: 'Cabin' },
    flexible: { type: 'boolean', title: 'Flexible dates' },
  },
  required: ['from', 'to', 'date', 'passengers'],
} as const;

const start = (callId = 'c1', name = 'search_flights', turnId = 'turn-1') => e.start(callId, { name, turnId, location: 'server', risk: 'low' });

/** The first `chars` characters of `value`'s JSON, as fragments of 4. */
export const partial = (callId: string, value: unknown, chars: number) => [...argumentDeltas(callId, JSON.stringify(value).slice(0, chars))];

/** A call issued with `args` after `writeMs`, then `after` (progress, outcome…) after `runMs`. */
const issued = (callId: string, name: string, args: unknown, writeMs = 400, runMs = 1200, turnId = 'turn-1') => [
  e.start(callId, { name, turnId, location: 'server', risk: 'low' }),
  ...argumentDeltas(callId, JSON.stringify(args)),
  pause(writeMs),
  e.complete(callId, args),
  pause(runMs),
];

export const longArgs = {
  path: 'notes/meeting.md',
  content: Array.from({ length: 120 }, (_, i) => `Line ${i + 1}: agreed to ship the tool-call timeline before the review.`).join('\n'),
};

export const states = {
  pending: [start(), pause(800)],
  streamingShort: [start(), pause(300), ...partial('c1', flightArgs, 42)],
  streamingLong: [e.start('c1', { name: 'write_file', location: 'app', risk: 'medium' }), pause(300), ...partial('c1', longArgs, 4000)],
  issued: issued('c1', 'search_flights', flightArgs),
  progressDeterminate: [...issued('c1', 'index_documents', { folder: 'contracts/' }), e.progress('c1', { done: 37, total: 120, message: 'contracts/2024' })],
  progressIndeterminate: [...issued('c1', 'index_documents', { folder: 'contracts/' }), e.progress('c1', 'Scanning folders…')],
  settledOk: [...issued('c1', 'search_flights', flightArgs), e.settled('c1', true)],
  ...Object.fromEntries(
    (['INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED'] as const).map((code) => [code, [...issued('c1', 'send_email', { to: 'ada@example.test', subject: 'Q3' }), e.settled('c1', false, code)]]),
  ),
  cancelledByServer: [...issued('c1', 'book_flight', flightArgs, 400, 900), e.cancelled('c1')],
  failed: [start(), ...partial('c1', flightArgs, 40), pause(700), e.failed('c1', 'The model reached its output limit before finishing the arguments.')],
} as Record<string, unknown[]>;

/** Open calls of one turn, for the interrupt stories. */
export const openTurn = [
  ...issued('c1', 'book_flight', flightArgs, 300, 600),
  e.start('c2', { name: 'send_email', turnId: 'turn-1', location: 'app', risk: 'high' }),
  ...partial('c2', { to: 'ada@example.test', subject: 'Your flight' }, 30),
];

/** A whole session: two turns, parallel calls, progress, every kind of ending. */
export function sessionEvents() {
  return [
    ...callEvents('w1', { name: 'get_weather', turnId: 'turn-1', arguments: { city: 'Lisbon', unit: 'celsius' }, outcome: 'open' }),
    pause(300),
    e.progress('w1', 0.5),
    pause(300),
    e.settled('w1', true),
    ...callEvents('f1', { name: 'search_flights', turnId: 'turn-1', arguments: flightArgs, outcome: 'open', chunk: 6 }),
    pause(400),
    e.progress('f1', { done: 2, total: 3 }),
    pause(400),
    e.settled('f1', false, 'TIMEOUT'),
    pause(200),
    ...callEvents('m1', { name: 'send_email', turnId: 'turn-2', arguments: { to: 'ada@example.test', subject: 'Trip' }, outcome: { ok: false, code: 'REJECTED' } }),
    pause(200),
    ...callEvents('n1', { name: 'write_file', turnId: 'turn-2', arguments: { path: 'trip.md', content: 'Lisbon, then SFO.' } }),
  ];
}

/** Space argument fragments `ms` apart, so a person watching sees them stream (pauses cost nothing when instant). */
export function paced(items: readonly unknown[], ms = 40): unknown[] {
  return items.flatMap((item) => ((item as { phase?: string }).phase === 'arguments-delta' ? [item, pause(ms)] : [item]));
}

/** The same events for another call id (to put several states side by side in one store). */
export function withId(items: readonly unknown[], callId: string, turnId = 'turn-1'): unknown[] {
  return items.map((item) => {
    if (!item || typeof item !== 'object' || !('callId' in item)) return item;
    return 'turnId' in item ? { ...item, callId, turnId } : { ...item, callId };
  });
}

/** A legacy session: only `tool.preview`, each carrying the argument text received so far. */
export function legacyEvents(): unknown[] {
  const text = JSON.stringify({ city: 'Lisbon', days: 3, units: 'metric' });
  const second = JSON.stringify({ query: 'pastel de nata' });
  const grow = (callId: string, name: string, full: string) =>
    Array.from({ length: Math.ceil(full.length / 5) }, (_, i) => [e.preview(callId, full.slice(0, (i + 1) * 5), { name }), pause(60)]).flat();
  return [...grow('p1', 'get_forecast', text), ...grow('p2', 'search_recipes', second)];
}

/**
 * A research call whose sub-agent makes three calls (the search makes one of its own), then a
 * later turn: calls nest under the call that made them by `parentCallId`.
 */
export function nestedEvents(): unknown[] {
  return [
    e.start('research', { name: 'research', turnId: 'turn-1' }),
    e.complete('research', { topic: 'tides in Lisbon' }),
    pause(200),
    e.start('search', { name: 'web_search', turnId: 'turn-1', parentCallId: 'research' }),
    e.complete('search', { q: 'Lisbon tide table' }),
    pause(300),
    e.start('fetch', { name: 'fetch_page', turnId: 'turn-1', parentCallId: 'search' }),
    e.complete('fetch', { url: 'https://tides.example.test/lisbon' }),
    pause(400),
    e.settled('fetch', true),
    e.settled('search', true),
    e.start('notes', { name: 'write_notes', turnId: 'turn-1', parentCallId: 'research' }),
    e.complete('notes', { path: 'notes/tides.md' }),
    e.start('mail', { name: 'send_email', turnId: 'turn-1', parentCallId: 'research' }),
    e.delta('mail', '{"to":"ada@'),
    pause(300),
    e.start('summary', { name: 'summarise', turnId: 'turn-2' }),
    e.complete('summary', { length: 'short' }),
    pause(200),
    e.settled('summary', true),
  ];
}
