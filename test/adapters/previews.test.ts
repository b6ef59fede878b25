// @vitest-environment node
/**
 * What a user sees: every recording's adapter events fed to the kit's incremental arguments
 * parser and to the reducer. Previews must grow, never contradict the final arguments, and
 * end at the provider's final value.
 */
import { describe, expect, it } from 'vitest';
import { createToolStreamStore, type ToolStreamEvent } from 'toolgate/core';
import { createArgumentsParser } from 'toolgate/json';
import { initialToolStreamState } from 'toolgate/testing';
import { stepToolEvent } from '../../src/core/stream/reducer';
import { PROVIDER_ADAPTERS } from 'toolgate/adapters';
import { isConsistentPreview } from '../core/preview-consistency';
import { providerOfRecording } from './providers';
import { readRecording, recordingFiles, replay, type AdapterFactory } from './replay';

/** The adapter of the provider list that reads a recording. */
const adapterFor = (file: string): AdapterFactory => PROVIDER_ADAPTERS[providerOfRecording(file)].create;

describe.each(recordingFiles())('previews of %s', (file) => {
  const result = replay(adapterFor(file), readRecording(file));

  it('grow fragment by fragment and never contradict the final arguments (kit parser)', () => {
    for (const call of result.calls) {
      const parser = createArgumentsParser();
      const previews: unknown[] = [];
      for (const delta of call.deltas) previews.push(parser.push(delta));
      if (call.outcome === 'failed') {
        // The max_tokens cut: the text never becomes JSON, the preview stays what it was.
        expect(parser.error).toBeUndefined();
        parser.end();
        expect(parser.error, call.name).toBeDefined();
        continue;
      }
      expect(call.outcome).toBe('complete');
      for (let i = 1; i < previews.length; i++) {
        expect(isConsistentPreview(previews[i - 1], previews[i]), `${call.name} preview ${i}`).toBe(true);
      }
      for (const preview of previews) expect(isConsistentPreview(preview, call.arguments), call.name).toBe(true);
      if (call.deltas.length > 0) expect(parser.end()).toEqual(call.arguments);
    }
  });
});

describe.each(recordingFiles())('%s through the reducer', (file) => {
  const { events, calls } = replay(adapterFor(file), readRecording(file));

  it('applies every event: previews grow, never contradict, and end at the final arguments', () => {
    let state = initialToolStreamState();
    const seen = new Map<string, unknown[]>();
    events.forEach((event: ToolStreamEvent, i) => {
      const step = stepToolEvent(state, event, { now: i });
      // No rejection and no warning: the reducer takes every adapter event as it is.
      expect(step.verdict, `event ${i} (${event.phase})`).toEqual({ outcome: 'applied' });
      state = step.state;
      const list = seen.get(event.callId) ?? [];
      list.push(state.calls[event.callId]!.partialArguments);
      seen.set(event.callId, list);
    });
    expect(state.order).toEqual(calls.map((c) => c.callId));
    for (const call of calls) {
      const view = state.calls[call.callId]!;
      expect(view.name).toBe(call.name);
      if (call.outcome === 'failed') {
        expect(view.status).toBe('failed');
        continue;
      }
      // The AI SDK stream also carries the tool outputs, which settle its calls.
      const settled = call.events.find((e) => e.phase === 'settled');
      expect(view.status).toBe(settled ? 'settled' : 'issued');
      // The card shows the result the stream carried.
      if (settled && 'output' in settled) expect(view.output).toEqual(settled.output);
      expect(view.arguments).toEqual(call.arguments);
      const previews = seen.get(call.callId)!.filter((p) => p !== undefined);
      for (let i = 1; i < previews.length; i++) expect(isConsistentPreview(previews[i - 1], previews[i])).toBe(true);
      for (const preview of previews) expect(isConsistentPreview(preview, call.arguments)).toBe(true);
    }
  });

  it('fills a store without a single onError, as docs/adapters.md shows', () => {
    const reasons: string[] = [];
    const store = createToolStreamStore({ onError: (reason) => reasons.push(reason), now: () => 0 });
    const { dispatch } = store.getState();
    const adapter = adapterFor(file)();
    for (const chunk of readRecording(file)) for (const e of adapter.push(chunk)) dispatch(e);
    for (const e of adapter.end()) dispatch(e);
    expect(reasons).toEqual([]);
    expect(store.getState().order).toHaveLength(calls.length);
  });
});
