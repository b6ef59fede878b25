/**
 * An imported recording, made into the same entries a live recorder makes, so the panel shows a
 * bug report exactly as it showed the session: the events are reduced again in a fresh store
 * (with the recording's clock), and the page's answers are put back where they were sent.
 */
import { createToolStreamStore } from '../core/stream/store';
import type { ToolgateEvent, ToolgateEventListener } from '../core/toolgate-client';
import type { LocalToolEvent } from '../core/stream/local-events';
import type { ToolgateRecording } from '../testing/recording';
import { createDevtoolsRecorder, type DevtoolsEntry } from './recorder';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The entries of a recording (see {@link toRecording}), as `createDevtoolsRecorder` would have
 * made them live: each event reduced in a fresh store, with its verdict and the call's state after
 * it. Pure: it touches no client.
 *
 * @example
 * const read = parseRecording(await file.text());
 * if (read.ok) setEntries(inspectRecording(read.recording));
 */
export function inspectRecording(recording: ToolgateRecording): DevtoolsEntry[] {
  let now = recording.startedAt;
  const store = createToolStreamStore({ now: () => now });
  let tell: ToolgateEventListener = () => {};
  const recorder = createDevtoolsRecorder(
    {
      onEvent(listener) {
        tell = listener;
        return store.tap(listener);
      },
    },
    { limit: Infinity, scheduleFrame: (flush) => flush() },
  );
  const answers = [...recording.answers].sort((a, b) => a.after - b.after);
  let next = 0;
  const answerUpTo = (index: number) => {
    for (; next < answers.length && (answers[next]?.after ?? Infinity) <= index; next++) {
      const answer = answers[next];
      if (answer !== undefined) tell({ source: 'answer', message: answer.message, at: answer.at } satisfies ToolgateEvent);
    }
  };
  recording.events.forEach((item, index) => {
    answerUpTo(index);
    if (isObject(item) && item['type'] === 'toolgate.pause' && typeof item['ms'] === 'number') {
      now += item['ms'];
      return;
    }
    if (isObject(item) && item['type'] === 'toolgate.page' && isObject(item['event'])) {
      const event = item['event'] as unknown as LocalToolEvent;
      if (event.type === 'interrupt') store.getState().interrupt(event.turnId);
      else if (event.type === 'approval') store.getState().markApproval(event.callId, event.mark);
      return;
    }
    store.getState().dispatch(item);
  });
  answerUpTo(Infinity);
  recorder.stop();
  recorder.flush();
  const { entries, length } = recorder.getState();
  return entries.slice(0, length);
}
