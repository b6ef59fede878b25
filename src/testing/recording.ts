/**
 * A recording of a session, as JSON: what `toolgate/devtools` exports and `replayEvents` plays
 * back, so that a bug seen in a page becomes a test. Its `events` are exactly the items
 * `replayEvents` takes (events, and pauses and the page's own events in a JSON form), and
 * `answers` are what the page sent back, for a test to compare with. docs/protocol.md says which
 * events a session may send and which only the page makes.
 */
import type { LocalToolEvent } from '../core/stream/local-events';
import type { ClientMessage } from '../core/wire';

/**
 * A pause in a recording's `events` (JSON's form of `pause(ms)`): the clock moves by `ms`.
 *
 * @example
 * const gap: RecordedPause = { type: 'toolgate.pause', ms: 120 };
 */
export interface RecordedPause {
  readonly type: 'toolgate.pause';
  readonly ms: number;
}

/**
 * One of the page's own events in a recording's `events` (a local interrupt, an approval mark):
 * replayed through the store's own actions (`interrupt`, `markApproval`), never through
 * `dispatch`, which refuses it as a session frame would be refused.
 *
 * @example
 * const stop: RecordedPageEvent = { type: 'toolgate.page', event: { type: 'interrupt', turnId: 't1' } };
 */
export interface RecordedPageEvent {
  readonly type: 'toolgate.page';
  readonly event: LocalToolEvent;
}

/**
 * A message the page sent to the session, and after how many of the recording's `events` it went.
 *
 * @example
 * const answer: RecordedAnswer = { after: 3, at: 1_700_000_000_120, message: { type: 'turn.interrupt', turnId: 't1' } };
 */
export interface RecordedAnswer {
  readonly after: number;
  readonly at: number;
  readonly message: ClientMessage;
}

/**
 * A session event the store refused while recording: its index in `events`, the code and why.
 *
 * @example
 * const refused: RecordedRefusal = { index: 4, issue: 'unknown-call', reason: 'progress for unknown call c9' };
 */
export interface RecordedRefusal {
  readonly index: number;
  readonly issue: string;
  readonly reason: string;
}

/**
 * A session as JSON: `events` to replay (session events, {@link RecordedPause}s and
 * {@link RecordedPageEvent}s, in order), the page's `answers`, and the frames the store refused.
 * `startedAt` is the store's clock at the first event: a replay whose clock starts there stamps
 * the same times.
 *
 * @example
 * const recording: ToolgateRecording = JSON.parse(await file.text());
 * const clock = createManualClock({ start: recording.startedAt });
 * await replayEvents(createToolStreamStore({ now: clock.now }), recording, { clock });
 */
export interface ToolgateRecording {
  readonly format: 'toolgate.recording';
  readonly version: 1;
  readonly startedAt: number;
  readonly events: readonly unknown[];
  readonly answers: readonly RecordedAnswer[];
  readonly refused: readonly RecordedRefusal[];
}

/**
 * What {@link parseRecording} gives: the recording, or why the text is not one.
 *
 * @example
 * const read: RecordingRead = parseRecording(text);
 * if (!read.ok) alert(read.reason);
 */
export type RecordingRead = { readonly ok: true; readonly recording: ToolgateRecording } | { readonly ok: false; readonly reason: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether `value` is a recording (its format, version and lists; the events themselves are
 * whatever the session sent, checked by the store when replayed).
 *
 * @example
 * if (isToolgateRecording(json)) await replayEvents(store, json);
 */
export function isToolgateRecording(value: unknown): value is ToolgateRecording {
  return recordingProblem(value) === undefined;
}

function recordingProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'a recording is a JSON object';
  if (value['format'] !== 'toolgate.recording') return 'its "format" is not "toolgate.recording"';
  if (value['version'] !== 1) return `its version ${JSON.stringify(value['version'])} is not one this kit reads (1)`;
  if (typeof value['startedAt'] !== 'number' || !Number.isFinite(value['startedAt'])) return 'its "startedAt" is not a time';
  if (!Array.isArray(value['events'])) return 'its "events" is not a list';
  if (!Array.isArray(value['answers'])) return 'its "answers" is not a list';
  if (!Array.isArray(value['refused'])) return 'its "refused" is not a list';
  const answer = (value['answers'] as unknown[]).findIndex((a) => !isObject(a) || typeof a['after'] !== 'number' || typeof a['at'] !== 'number' || !isObject(a['message']));
  if (answer >= 0) return `answer ${answer} is not { after, at, message }`;
  const refusal = (value['refused'] as unknown[]).findIndex((r) => !isObject(r) || typeof r['index'] !== 'number' || typeof r['reason'] !== 'string');
  if (refusal >= 0) return `refusal ${refusal} is not { index, issue, reason }`;
  const pauseAt = (value['events'] as unknown[]).findIndex((item) => isObject(item) && item['type'] === 'toolgate.pause' && !(typeof item['ms'] === 'number' && item['ms'] >= 0));
  if (pauseAt >= 0) return `event ${pauseAt} is a pause without a duration`;
  return undefined;
}

/**
 * Read a recording from JSON text (a file a person exported from the devtools). Never throws:
 * text that is not a recording gives the reason.
 *
 * @example
 * const read = parseRecording(await file.text());
 * if (read.ok) await replayEvents(store, read.recording);
 */
export function parseRecording(text: string): RecordingRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const problem = recordingProblem(value);
  return problem === undefined ? { ok: true, recording: value as ToolgateRecording } : { ok: false, reason: `not a toolgate recording: ${problem}` };
}
