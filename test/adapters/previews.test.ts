// @vitest-environment node
/**
 * What a user sees: every recording's adapter events fed to the kit's incremental arguments
 * parser and to the reducer. Previews must grow, never contradict the final arguments, and
 * end at the provider's final value.
 */
import { describe, expect, it } from 'vitest';
import * as core from 'toolgate/core';
import { createArgumentsParser, type ToolStreamEvent } from 'toolgate/core';
import {
  createAISDKAdapter,
  createAnthropicAdapter,
  createCohereAdapter,
  createGeminiAdapter,
  createOpenAIChatAdapter,
  createOpenAIRealtimeAdapter,
  createOpenAIResponsesAdapter,
} from 'toolgate/adapters';
import { isConsistentPreview } from '../core/preview-consistency';
import { readRecording, recordingFiles, replay, type AdapterFactory } from './replay';

function adapterFor(file: string): AdapterFactory {
  if (file.startsWith('anthropic')) return createAnthropicAdapter;
  if (file.startsWith('gemini')) return createGeminiAdapter;
  if (file.startsWith('cohere')) return createCohereAdapter;
  if (file.startsWith('aisdk')) return createAISDKAdapter;
  if (file.includes('realtime')) return createOpenAIRealtimeAdapter;
  if (file.includes('responses')) return createOpenAIResponsesAdapter;
  return createOpenAIChatAdapter;
}

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

// The reducer and store are written alongside the adapters; this part runs once
// `toolgate/core` exports them (DESIGN "Names other code relies on").
type Reduce = (state: unknown, event: unknown, meta?: { now?: number }) => unknown;
type Verdict = { outcome: string; reason?: string; warning?: string };
type Step = (state: unknown, event: unknown, meta?: { now?: number }) => { state: unknown; verdict: Verdict };
const exported = core as Record<string, unknown>;
const reduceToolEvent = exported.reduceToolEvent as Reduce | undefined;
const stepToolEvent = exported.stepToolEvent as Step | undefined;
const initialToolStreamState = exported.initialToolStreamState as (() => unknown) | undefined;

interface CallView {
  name: string;
  status: string;
  partialArguments: unknown;
  arguments: unknown;
}
type StateView = { calls: Record<string, CallView>; order: string[] };

describe.skipIf(reduceToolEvent === undefined || initialToolStreamState === undefined)(
  'the recordings through the reducer',
  () => {
    it.each(recordingFiles())('%s: previews grow, never contradict, and end at the final arguments', (file) => {
      const { events, calls } = replay(adapterFor(file), readRecording(file));
      let state = initialToolStreamState!() as StateView;
      const seen = new Map<string, unknown[]>();
      events.forEach((event: ToolStreamEvent, i) => {
        if (stepToolEvent) {
          // Every adapter event is one the reducer applies: no rejection, no warning.
          const { verdict } = stepToolEvent(state, event, { now: i });
          expect(verdict, `${file}: event ${i} (${event.phase})`).toEqual({ outcome: 'applied' });
        }
        state = reduceToolEvent!(state, event, { now: i }) as StateView;
        const view = state.calls[event.callId];
        expect(view, `${file}: event ${i} reached the call`).toBeDefined();
        const list = seen.get(event.callId) ?? [];
        list.push(view!.partialArguments);
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
        const settled = call.events.some((e) => e.phase === 'settled');
        expect(view.status).toBe(settled ? 'settled' : 'issued');
        expect(view.arguments).toEqual(call.arguments);
        const previews = seen.get(call.callId)!.filter((p) => p !== undefined);
        for (let i = 1; i < previews.length; i++) expect(isConsistentPreview(previews[i - 1], previews[i])).toBe(true);
        for (const preview of previews) expect(isConsistentPreview(preview, call.arguments)).toBe(true);
      }
    });
  },
);
