/**
 * Test helpers: read a recording from test/fixtures/real-streams and replay it through an
 * adapter, grouping the events by call. Node only (reads files).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ToolStreamEvent } from 'toolgate/core';
import type { AdapterOptions, ToolStreamAdapter } from 'toolgate/adapters';

export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/real-streams/', import.meta.url));

export function recordingFiles(): string[] {
  return readdirSync(FIXTURES_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort();
}

/** One original chunk per line, parsed. */
export function readRecording(file: string): unknown[] {
  return readFileSync(FIXTURES_DIR + file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

export interface ReplayedCall {
  callId: string;
  name: string;
  turnId: string;
  location: string | undefined;
  deltas: string[];
  /** Every event of the call, in order. */
  events: ToolStreamEvent[];
  /** How the call's arguments ended (or `open` when nothing ended them). */
  outcome: 'complete' | 'failed' | 'open';
  arguments: unknown;
  message: string | undefined;
}

export interface Replay {
  events: ToolStreamEvent[];
  calls: ReplayedCall[];
  errors: string[];
  /** Events for a callId that never started. */
  orphans: ToolStreamEvent[];
}

export type AdapterFactory = (options?: AdapterOptions) => ToolStreamAdapter;

export function replay(factory: AdapterFactory, chunks: readonly unknown[], options: AdapterOptions = {}): Replay {
  const errors: string[] = [];
  const adapter = factory({ ...options, onError: (reason) => errors.push(reason) });
  const events: ToolStreamEvent[] = [];
  for (const chunk of chunks) events.push(...adapter.push(chunk));
  events.push(...adapter.end());
  return { ...group(events), errors };
}

export function group(events: ToolStreamEvent[]): Omit<Replay, 'errors'> {
  const byId = new Map<string, ReplayedCall>();
  const orphans: ToolStreamEvent[] = [];
  for (const e of events) {
    if (e.phase === 'start') {
      byId.set(e.callId, {
        callId: e.callId,
        name: e.name,
        turnId: e.turnId,
        location: e.location,
        deltas: [],
        events: [e],
        outcome: 'open',
        arguments: undefined,
        message: undefined,
      });
      continue;
    }
    const call = byId.get(e.callId);
    if (call === undefined) {
      orphans.push(e);
      continue;
    }
    call.events.push(e);
    if (e.phase === 'arguments-delta') call.deltas.push(e.delta);
    if (e.phase === 'arguments-complete') {
      call.outcome = 'complete';
      call.arguments = e.arguments;
    }
    if (e.phase === 'failed' && call.outcome === 'open') {
      call.outcome = 'failed';
      call.message = e.message;
    }
  }
  return { events, calls: [...byId.values()], orphans };
}

/** Count Unicode code points, as INDEX.md does. */
export const codePoints = (text: string): number => [...text].length;

/** A fragment that ends inside a string escape: an odd run of trailing backslashes. */
export function endsInsideEscape(fragment: string): boolean {
  const run = /\\+$/.exec(fragment);
  return run !== null && run[0].length % 2 === 1;
}
