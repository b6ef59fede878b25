// @vitest-environment node
/**
 * Bad input on real streams: every recording cut after each of its chunks, as a dropped
 * connection leaves it, and the same streams with broken chunks between their own. Once the
 * stream ends (`end()`, as `adaptStream` calls it), no call is left writing its arguments, the
 * store takes every event the adapter sends, and nothing throws.
 */
import { describe, expect, it } from 'vitest';
import { PROVIDER_ADAPTERS } from 'toolgate/adapters';
import { createToolStreamStore } from 'toolgate/core';
import { providerOfRecording } from './providers';
import { readRecording, recordingFiles } from './replay';

/** Feed `chunks` to a fresh adapter and store, end the stream, and say what is left. */
function play(file: string, chunks: readonly unknown[]) {
  const adapterIssues: string[] = [];
  const storeIssues: string[] = [];
  const adapter = PROVIDER_ADAPTERS[providerOfRecording(file)].create({ onError: (_reason, _chunk, code) => adapterIssues.push(code) });
  const store = createToolStreamStore({ onError: (reason) => storeIssues.push(reason) });
  for (const chunk of chunks) for (const event of adapter.push(chunk)) store.getState().dispatch(event);
  for (const event of adapter.end()) store.getState().dispatch(event);
  const { calls, order } = store.getState();
  const writing = order.filter((id) => calls[id]!.status === 'pending' || calls[id]!.status === 'streaming');
  return { adapterIssues, storeIssues, writing };
}

describe.each(recordingFiles())('%s', (file) => {
  const chunks = readRecording(file);

  it('cut after any chunk, leaves no call writing its arguments once the stream ends, and nothing throws', () => {
    // Every cut of a short recording; about 100 of a long one, spread over it at varying phases.
    const step = Math.max(1, Math.ceil(chunks.length / 100));
    for (let i = 0, cut = 0; cut <= chunks.length; i++, cut = i * step + (i % step)) {
      const left = play(file, chunks.slice(0, cut));
      expect(left.writing, `cut after ${cut} of ${chunks.length} chunks`).toEqual([]);
      expect(left.storeIssues, `cut after ${cut} of ${chunks.length} chunks`).toEqual([]);
    }
  });

  it('with broken chunks between its own, reports each through onError with its code and shows the same calls', () => {
    const broken = [null, 42, 'data: {"half', { type: 17 }, { type: 'from.a.newer.api', toolCallId: 'x' }, ['a']];
    const mixed = chunks.flatMap((chunk, i) => [chunk, broken[i % broken.length]]);
    const clean = play(file, chunks);
    const dirty = play(file, mixed);
    expect(dirty.writing).toEqual([]);
    expect(dirty.storeIssues).toEqual([]);
    expect(dirty.adapterIssues.length).toBeGreaterThan(0);
    expect(new Set(dirty.adapterIssues)).not.toContain('adapter-failed');
    expect(dirty.adapterIssues.every((code) => ['not-an-object', 'not-json', 'malformed-chunk', 'ignored-chunk'].includes(code))).toBe(true);
    expect(clean.adapterIssues).toEqual([]);
  });
});
