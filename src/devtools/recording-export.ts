/**
 * From recorded entries to a recording `replayEvents` (in `toolgate/testing`) plays back: the
 * session's events as they came, the page's own events in their JSON form, a pause wherever the
 * clock moved, and the page's answers beside them.
 */
import type { RecordedAnswer, RecordedRefusal, ToolgateRecording } from '../testing';
import type { DevtoolsEntry } from './recorder';

/**
 * Make a recording of `entries` (a recorder's, in order). The events are kept as they came, so
 * the recording holds what the session sent, refused frames included (a replay refuses them again).
 *
 * @example
 * recorder.flush();
 * const { entries, length } = recorder.getState();
 * const recording = toRecording(entries.slice(0, length));
 * download(JSON.stringify(recording));
 */
export function toRecording(entries: readonly DevtoolsEntry[]): ToolgateRecording {
  const events: unknown[] = [];
  const answers: RecordedAnswer[] = [];
  const refused: RecordedRefusal[] = [];
  const startedAt = entries[0]?.at ?? 0;
  let clock = startedAt;
  for (const entry of entries) {
    if (entry.source === 'tool-call' || entry.source === 'error') continue;
    if (entry.source === 'answer') {
      answers.push({ after: events.length, at: entry.at, message: entry.payload as RecordedAnswer['message'] });
      continue;
    }
    // The store stamps calls with its clock: a pause before each event moves a replay's clock there.
    if (entry.at > clock) {
      events.push({ type: 'toolgate.pause', ms: entry.at - clock });
      clock = entry.at;
    }
    if (entry.verdict?.outcome === 'rejected') refused.push({ index: events.length, issue: entry.verdict.issue, reason: entry.verdict.reason });
    events.push(entry.source === 'page' ? { type: 'toolgate.page', event: entry.payload } : entry.payload);
  }
  return { format: 'toolgate.recording', version: 1, startedAt, events, answers, refused };
}

/**
 * A recording as JSON text, or why it cannot be written (an event that is not JSON: a cycle, a
 * BigInt). Never throws.
 *
 * @example
 * const written = recordingToJson(toRecording(entries));
 * if (written.ok) save(written.text); else alert(written.reason);
 */
export function recordingToJson(recording: ToolgateRecording): { ok: true; text: string } | { ok: false; reason: string } {
  try {
    return { ok: true, text: JSON.stringify(recording, null, 2) };
  } catch (error) {
    return { ok: false, reason: `the recording is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}
