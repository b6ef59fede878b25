/**
 * Test helpers: read a recording from test/fixtures/real-streams and replay it through an
 * adapter, grouping the events by call. Node only (reads files).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ToolStreamEvent } from 'toolgate/core';
import type { AdapterOptions, ToolStreamAdapter } from 'toolgate/adapters';
import { group, type Grouped } from './group';

export { group, type ReplayedCall } from './group';

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

export interface Replay extends Grouped {
  errors: string[];
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

/** Count Unicode code points, as INDEX.md does. */
export const codePoints = (text: string): number => [...text].length;

/** A fragment that ends inside a string escape: an odd run of trailing backslashes. */
export function endsInsideEscape(fragment: string): boolean {
  const run = /\\+$/.exec(fragment);
  return run !== null && run[0].length % 2 === 1;
}
