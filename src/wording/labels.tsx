import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { isTerminalStatus, type ToolCallStatus } from '../core/stream/call-lifecycle';
import type { AppCallStatus } from '../core/app-tools/types';
import type { ToolCall } from '../core/stream/tool-call';
import type { ToolLocation, ToolResultCode, ToolRisk } from '../core/wire';
import { defaultConfirmLabels, type ConfirmToolLabels } from './confirm-labels';

/**
 * Every string the kit shows, in one object. Plain strings, or functions where a string holds
 * data (a count, a name, a duration); numbers, dates and durations arrive already formatted
 * through `Intl` for `locale`. Override any part with `<ToolgateLabelsProvider>`.
 *
 * @example
 * const french: ToolgateLabels = mergeLabels(defaultLabels, { locale: 'fr', status: { issued: 'En cours', settled: 'Terminé' } });
 */
export interface ToolgateLabels {
  /** BCP 47 locale for `Intl` (numbers, times, durations); the runtime's default when undefined. */
  locale: string | undefined;
  status: Record<ToolCallStatus, string>;
  /** A settled call that failed, by result code. */
  codes: Record<ToolResultCode, string>;
  /** A failure code the kit does not know. */
  unknownCode: (code: string) => string;
  /** What each failure code means, in a sentence a person understands (the card's result line). */
  explain: Record<ToolResultCode, string>;
  /** What a person can do next after each failure code (empty: nothing to suggest). */
  next: Record<ToolResultCode, string>;
  /** The sentence for a failure code the kit does not know. */
  explainUnknown: (code: string) => string;
  /** Before the result's own message (a person's reason, the tool's error). */
  resultMessage: string;
  /** Before the machine code, kept small after the words for whoever reports the problem. */
  resultCode: string;
  location: Record<ToolLocation, string>;
  risk: Record<ToolRisk, string>;
  cancelledBy: Record<'local' | 'server', string>;
  /** What a cancel means, after `cancelledBy`: who stopped it, and that what it already did stays done. */
  cancelledWhy: Record<'local' | 'server', string>;
  /** A `settled` that came after a local cancel: the effect may have happened anyway. */
  lateOutcome: (outcome: string) => string;
  /** Before the server's reason when the model stopped writing the arguments. */
  modelStopped: string;
  /** After the model's reason: what "Stopped" means for the call (it never ran). */
  stoppedWhy: string;
  /** A call built only from legacy `tool.preview` events. */
  legacyPreview: string;
  calls: string;
  empty: string;
  closed: string;
  /** The heading of a turn's group: `index` counts from 1. */
  turn: (index: number, turnId: string) => string;
  noTurn: string;
  arguments: string;
  result: string;
  took: (duration: string) => string;
  elapsed: (duration: string) => string;
  waitingForArguments: string;
  /** Read out after the value being written while arguments stream. */
  writing: string;
  /** A required field (from the tool's schema) not yet written, or missing from complete arguments. */
  pendingField: string;
  missingField: string;
  notJson: string;
  rawText: string;
  items: (count: number, formatted: string) => string;
  fields: (count: number, formatted: string) => string;
  characters: (count: number, formatted: string) => string;
  /** The name of the button that opens or closes a value: the field it belongs to, then what it shows ("note: 1 field"). */
  toggleOf: (field: string, summary: string) => string;
  showMore: (more: string, left: string) => string;
  showAll: string;
  showLess: string;
  progress: string;
  progressOf: (done: string, total: string) => string;
  timeline: string;
  phaseWriting: string;
  phaseRunning: string;
  /** The text equivalent of one timeline bar. */
  timelineRow: (row: { name: string; status: string; start: string; writing?: string; running?: string }) => string;
  /** What the live region says when a call's status changes. */
  announce: (name: string, status: string) => string;
  /** A call waiting for a person's approval (its card shows Approve and Deny, `labels.confirm`). */
  awaitingApproval: string;
  /** An app tool's call in this page before it runs: behind another call of the page (`queued`), or while its arguments are checked (`validating`). */
  appCall: { queued: string; validating: string };
  /** A call whose approval waits behind others shown first (Approve works once it is shown). */
  approvalQueued: (count: number, formatted: string) => string;
  /** A call's output: the result its runtime sent, or the answer of an app tool this page ran. */
  output: string;
  /** Marks an output sent while the call still runs (a preliminary result, replaced by the next). */
  outputPreliminary: string;
  /** Final arguments that contradict the text streamed before them (the final ones are kept and shown). */
  argumentsMismatch: string;
  /** A key the argument text wrote twice in one object: `path` is where (`amount`, `legs[0].from`). */
  duplicateKey: (path: string) => string;
  /** The heading of the arguments that ran, where they differ from the model's. */
  ranArguments: string;
  /** A call whose approval ended without running: `refused` by the server, or `expired` before it was answered (in time). */
  approvalEnded: Record<'refused' | 'expired', string>;
  /** A call a person answered in the tool's place (a `respond` decision): the tool did not run. */
  answeredByPerson: string;
  /** A call whose request a person withdrew (a `cancel` decision): its status, and what it means. */
  withdrawn: string;
  withdrawnWhy: string;
  /** Marks those arguments: a person edited them, or the server's check changed them before they ran. */
  argumentsEdited: string;
  argumentsRewritten: string;
  /** A tool's own view that failed to render: the error card's heading. */
  renderFailed: (toolName: string) => string;
  /** The group around the input a person gives an app tool (a form, a choice). */
  personInput: (toolName: string) => string;
  /** `<ToolCallList>`'s filter and the calls nested in a call. */
  list: {
    /** The filter's field for the tool name, and its status choice. */
    filterName: string;
    filterStatus: string;
    anyStatus: string;
    /** How many calls match the filter, of all the session's calls. */
    matching: (shown: string, total: string, count: number) => string;
    noMatch: string;
    /** The button that shows or hides the calls a sub-agent made inside a call. */
    inside: (count: number, formatted: string) => string;
    /** A call row's name for a screen reader: the tool and what its status says. */
    row: (name: string, status: string) => string;
  };
  /** The confirmation dialog (`ConfirmToolDialog`). */
  confirm: ConfirmToolLabels;
}

/**
 * The kit's English strings: the base every override is laid over.
 *
 * @example
 * const labels = mergeLabels(defaultLabels, { status: { settled: 'Finished' } });
 */
export const defaultLabels: ToolgateLabels = {
  locale: undefined,
  status: {
    pending: 'Waiting',
    streaming: 'Writing arguments',
    issued: 'Running',
    settled: 'Done',
    cancelled: 'Cancelled',
    failed: 'Stopped',
  },
  codes: {
    INTERRUPTED: 'Interrupted',
    REJECTED: 'Rejected',
    INVALID: 'Invalid arguments',
    TIMEOUT: 'Timed out',
    FAILED: 'Failed',
  },
  unknownCode: (code) => `Failed (${code})`,
  explain: {
    INTERRUPTED: 'Interrupted: the turn was stopped before this call finished.',
    REJECTED: 'Not run: the request was refused.',
    INVALID: 'Not run: the arguments did not match what the tool accepts.',
    TIMEOUT: 'Timed out: no result came in time, so the call was stopped.',
    FAILED: 'Failed: the tool ran and reported an error.',
  },
  next: {
    INTERRUPTED: 'Ask again to run it.',
    REJECTED: 'Change the request, or ask again if it should run.',
    INVALID: 'The model can try again with corrected arguments.',
    TIMEOUT: 'It may have had an effect: check before trying again.',
    FAILED: 'Try again once the cause is fixed.',
  },
  explainUnknown: (code) => `Failed with a result the kit does not know (${code}).`,
  resultMessage: 'Reason:',
  resultCode: 'Code',
  location: { server: 'Server tool', app: 'App tool' },
  risk: { low: 'Low risk', medium: 'Medium risk', high: 'High risk' },
  cancelledBy: { local: 'Cancelled here', server: 'Cancelled by the server' },
  cancelledWhy: {
    local: 'This page stopped the call before it finished; anything it already did stays done.',
    server: 'The server stopped the call before it finished; anything it already did stays done.',
  },
  lateOutcome: (outcome) => `Still cancelled, but the tool reported after the cancel: ${outcome}`,
  modelStopped: 'The model stopped:',
  stoppedWhy: 'The call never ran: its arguments were not finished.',
  legacyPreview: 'Preview',
  calls: 'Tool calls',
  empty: 'No tool calls yet',
  closed: 'Session closed',
  turn: (index) => `Turn ${index}`,
  noTurn: 'Other calls',
  arguments: 'Arguments',
  result: 'Result',
  took: (duration) => `Took ${duration}`,
  elapsed: (duration) => `${duration} so far`,
  waitingForArguments: 'Waiting for arguments…',
  writing: '(being written)',
  pendingField: 'pending',
  missingField: 'missing',
  notJson: 'Not valid JSON',
  rawText: 'Raw argument text',
  items: (count, formatted) => (count === 1 ? '1 item' : `${formatted} items`),
  fields: (count, formatted) => (count === 1 ? '1 field' : `${formatted} fields`),
  characters: (count, formatted) => (count === 1 ? '1 character' : `${formatted} characters`),
  toggleOf: (field, summary) => `${field}: ${summary}`,
  showMore: (more, left) => `Show ${more} more (${left} left)`,
  showAll: 'Show all',
  showLess: 'Show less',
  progress: 'Progress',
  progressOf: (done, total) => `${done} of ${total}`,
  timeline: 'Timeline',
  phaseWriting: 'Writing arguments',
  phaseRunning: 'Running',
  timelineRow: ({ name, status, start, writing, running }) =>
    [`${name}: ${status}`, `started ${start}`, writing && `arguments ${writing}`, running && `ran ${running}`].filter(Boolean).join(', '),
  announce: (name, status) => `${name}: ${status}`,
  awaitingApproval: 'Awaiting approval',
  appCall: { queued: 'Waiting its turn', validating: 'Checking arguments' },
  approvalQueued: (count, formatted) => (count === 1 ? 'After 1 earlier request' : `After ${formatted} earlier requests`),
  output: 'Output',
  outputPreliminary: 'Preliminary',
  argumentsMismatch: 'The final arguments differ from the text streamed before them. The final arguments are shown.',
  duplicateKey: (path) => `The key ${path} is written twice: the last value counts, not the first one shown.`,
  ranArguments: 'Arguments that ran',
  approvalEnded: {
    refused: 'The server refused this approval: nothing ran.',
    expired: 'The approval request expired before the answer counted: nothing ran.',
  },
  answeredByPerson: 'Answered by a person: the tool did not run, and this answer is its result.',
  withdrawn: 'Withdrawn',
  withdrawnWhy: 'The request was withdrawn before it ran. It was not rejected.',
  argumentsEdited: 'Edited before approval',
  argumentsRewritten: 'Changed before it ran',
  renderFailed: (toolName) => `The view of ${toolName} failed`,
  personInput: (toolName) => `Your answer for ${toolName}`,
  list: {
    filterName: 'Tool name',
    filterStatus: 'Status',
    anyStatus: 'Any status',
    matching: (shown, total, count) => (count === 1 ? `1 call of ${total}` : `${shown} calls of ${total}`),
    noMatch: 'No calls match the filter',
    inside: (count, formatted) => (count === 1 ? '1 call inside' : `${formatted} calls inside`),
    row: (name, status) => `${name}, ${status}`,
  },
  confirm: defaultConfirmLabels,
};

type Override<T> = { [K in keyof T]?: T[K] extends (...args: never[]) => unknown ? T[K] : T[K] extends object ? Override<T[K]> : T[K] };

/**
 * Any part of the labels, at any depth: groups (`status`, `confirm.status`, …) may be given in part.
 *
 * @example
 * const labels: ToolgateLabelsOverride = { status: { settled: 'OK' }, confirm: { approve: 'Send' } };
 * <ToolgateLabelsProvider labels={labels}>…</ToolgateLabelsProvider>
 */
export type ToolgateLabelsOverride = Override<ToolgateLabels>;

/**
 * `base` with `override` laid over it, group by group at every depth (so `{ status: { settled: 'OK' } }`
 * keeps the other statuses, and `{ confirm: { status: { done: 'OK' } } }` the dialog's other strings).
 *
 * @example
 * mergeLabels(defaultLabels, { status: { settled: 'OK' } }).status.issued // 'Running': the rest is kept
 */
export function mergeLabels(base: ToolgateLabels, override: ToolgateLabelsOverride | undefined): ToolgateLabels {
  return override ? (deepMerge(base, override) as ToolgateLabels) : base;
}

const isGroup = (value: unknown): value is object => typeof value === 'object' && value !== null && !Array.isArray(value);

function deepMerge(base: object, override: object): object {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if ((value === undefined && key !== 'locale') || key === '__proto__') continue;
    const prior = merged[key];
    merged[key] = isGroup(value) && isGroup(prior) ? deepMerge(prior, value) : value;
  }
  return merged;
}

const LabelsContext = createContext<ToolgateLabels>(defaultLabels);

/**
 * Props of {@link ToolgateLabelsProvider}.
 *
 * @example
 * const labels = { locale: 'de', status: { issued: 'Läuft' } }; // hoisted: one object for every render
 * <ToolgateLabelsProvider labels={labels}><App /></ToolgateLabelsProvider>
 */
export interface ToolgateLabelsProviderProps {
  /** Labels laid over those of the nearest provider above (or `defaultLabels`). Hoist the object: a new one re-renders every consumer. */
  labels?: ToolgateLabelsOverride;
  children?: ReactNode;
}

/**
 * Override the kit's strings (and its locale) below this point. Providers nest: each lays its
 * `labels` over the one above, so a locale pack and a per-tool tweak compose.
 *
 * @example
 * <ToolgateLabelsProvider labels={{ locale: 'fr', status: { settled: 'Terminé' } }}>
 *   <ToolCallList />
 * </ToolgateLabelsProvider>
 */
export function ToolgateLabelsProvider({ labels, children }: ToolgateLabelsProviderProps) {
  const parent = useContext(LabelsContext);
  const value = useMemo(() => mergeLabels(parent, labels), [parent, labels]);
  return <LabelsContext.Provider value={value}>{children}</LabelsContext.Provider>;
}

/**
 * The labels in effect here.
 *
 * @example
 * const labels = useLabels();
 * return <span>{labels.status[call.status]}</span>;
 */
export function useLabels(): ToolgateLabels {
  return useContext(LabelsContext);
}

/**
 * What a call's status says to a person: "Awaiting approval" while it waits for one (never
 * "Running"), and a settled failure says its code, not just "Done".
 *
 * @example
 * statusText(useLabels(), call) // 'Running', 'Awaiting approval', or 'Rejected' for a settled call with code REJECTED
 */
export function statusText(
  labels: ToolgateLabels,
  call: Pick<ToolCall, 'status' | 'ok' | 'code'> & { readonly approval?: ToolCall['approval']; readonly appStatus?: AppCallStatus | undefined },
): string {
  // A call that waits for a person is not running: it says so until they decide (or it ends).
  if (call.approval === 'awaiting' && !isTerminalStatus(call.status)) return labels.awaitingApproval;
  // A person withdrew the request: not a rejection, and not a cancel by the page or the server.
  if (call.approval === 'cancelled') return labels.withdrawn;
  // Nor is an app tool's call that waits its turn in the page, or whose arguments are being checked.
  if (!isTerminalStatus(call.status) && (call.appStatus === 'queued' || call.appStatus === 'validating')) return labels.appCall[call.appStatus];
  if (call.status !== 'settled' || call.ok !== false) return labels.status[call.status];
  return outcomeText(labels, false, call.code);
}

/**
 * The text of a settled outcome (also used for a late outcome).
 *
 * @example
 * outcomeText(defaultLabels, false, 'TIMEOUT') // 'Timed out'
 */
export function outcomeText(labels: ToolgateLabels, ok: boolean, code: string | undefined): string {
  if (ok) return labels.status.settled;
  const c = code ?? 'FAILED';
  return Object.hasOwn(labels.codes, c) ? labels.codes[c as ToolResultCode] : labels.unknownCode(c);
}

/**
 * `ok`, `error`, `cancelled`, `failed` or `open`: the colour a call's outcome takes.
 *
 * @example
 * const tone: ToolCallOutcome = callOutcome(call); // 'error' for a settled call with ok: false
 */
export type ToolCallOutcome = 'open' | 'ok' | 'error' | 'cancelled' | 'failed';

/**
 * The outcome a call shows: `open` until it ends, then `ok`, `error` (settled with `ok: false`), `cancelled` or `failed`.
 *
 * @example
 * <li data-outcome={callOutcome(call)}>{call.name}</li>
 */
export function callOutcome(call: Pick<ToolCall, 'status' | 'ok'>): ToolCallOutcome {
  switch (call.status) {
    case 'settled':
      return call.ok === false ? 'error' : 'ok';
    case 'cancelled':
    case 'failed':
      return call.status;
    default:
      return 'open';
  }
}

const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let format = formats.get(key) as T | undefined;
  if (!format) formats.set(key, (format = make()));
  return format;
}

/**
 * A count, through `Intl.NumberFormat`.
 *
 * @example
 * formatNumber(12345, 'de') // '12.345'
 */
export function formatNumber(value: number, locale?: string): string {
  return remembered(`n${locale}|${value}`, () => cached(`n${locale}`, () => new Intl.NumberFormat(locale)).format(value));
}

// Formatting through Intl costs tens of µs (units most), and every card formats its time and
// counts on each render while its call streams: the same few texts, so the latest are kept.
const texts = new Map<string, string>();
function remembered(key: string, make: () => string): string {
  let text = texts.get(key);
  if (text === undefined) {
    if (texts.size >= 1024) texts.clear();
    texts.set(key, (text = make()));
  }
  return text;
}

/**
 * A duration in ms as `350 ms`, `1.2 s` or `2.5 min`, through `Intl.NumberFormat` units.
 *
 * @example
 * formatDuration(1234, 'en') // '1.2 sec' (the unit's wording is Intl's)
 */
export function formatDuration(ms: number, locale?: string): string {
  return remembered(`d${locale}|${ms}`, () => {
    const [value, unit, digits] = ms < 1000 ? [ms, 'millisecond', 0] : ms < 60_000 ? [ms / 1000, 'second', 1] : [ms / 60_000, 'minute', 1];
    const format = cached(`d${locale}${unit}`, () => new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: digits }));
    return format.format(Math.max(0, value));
  });
}

/**
 * A time of day (to the second), through `Intl.DateTimeFormat`.
 *
 * @example
 * formatTime(call.startedAt ?? Date.now(), labels.locale) // '3:07:12 PM'
 */
export function formatTime(at: number, locale?: string): string {
  return cached(`t${locale}`, () => new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', second: '2-digit' })).format(at);
}
