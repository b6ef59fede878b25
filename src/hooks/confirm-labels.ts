import type { ConfirmationStatus } from '../core/confirmation-machine';
import type { ToolEffect } from '../core/tool-descriptor';

/**
 * The strings of the confirmation dialog: `labels.confirm` of {@link ToolgateLabels}, overridable
 * in part with `<ToolgateLabelsProvider labels={{ confirm: { approve: 'Yes, send it' } }}>` or the
 * dialog's own `labels` prop. Functions receive counts already formatted through `Intl`.
 *
 * @example
 * const labels: Partial<ConfirmToolLabels> = { approve: 'Send', deny: 'Cancel' };
 * <ConfirmToolDialog labels={labels} />
 */
export interface ConfirmToolLabels {
  /** The button that approves ("Approve" by default). */
  approve: string;
  /** The button that denies ("Deny" by default). */
  deny: string;
  /** The dialog's title: the proposed action (the descriptor's title, or the tool's name). */
  title: (action: string, toolName: string) => string;
  /** Said under the title while a person reviews. */
  description: string;
  /** Said under the title for a read tool. */
  descriptionRead: string;
  /** The term before the tool's name. */
  tool: string;
  effect: Record<ToolEffect, string>;
  /** The authority the room checks (`tool:invoke:NAME`). */
  requiredAction: string;
  /** The term before the short fingerprint. */
  fingerprint: string;
  /** Said to screen readers after the short fingerprint. */
  fingerprintHint: string;
  /** How many requests wait behind the one shown. */
  waiting: (count: number, formatted: string) => string;
  /** A request of this dialog that waits behind others in a shared queue. */
  queued: (count: number, formatted: string) => string;
  /** What the status line says in each state. */
  status: Record<ConfirmationStatus, string>;
  /** The heading of the alert for each unhappy outcome. */
  problem: Record<'refused' | 'failed' | 'uncertain', string>;
  /** After an unknown outcome, when the application can check. */
  uncertainCheck: string;
  /** After an unknown outcome, when it cannot (or its check could not tell). */
  uncertainRetry: string;
  /** The button that runs the application's check after an unknown outcome. */
  check: string;
  /** A plain retry (a read tool, or a write known not to have happened). */
  retry: string;
  /** A deliberate retry of a write whose outcome is unknown: it takes a new confirmation. */
  retryUncertain: string;
  close: string;
  /** The optional reason field of deny-with-reason. */
  denyReason: string;
  /** The typed-name confirm step: the field's label (`approve` is the Approve button's label). */
  typeToConfirm: (toolName: string, approve: string) => string;
  /** The press-and-hold confirm step: how to use it, by pointer and by keyboard. */
  holdHint: (approve: string) => string;
  /** The press-and-hold confirm step: said while holding. */
  holding: string;
}

/**
 * The default (English) strings of the confirmation dialog.
 *
 * @example
 * defaultConfirmLabels.approve // 'Approve'
 */
export const defaultConfirmLabels: ConfirmToolLabels = {
  approve: 'Approve',
  deny: 'Deny',
  title: (action) => action,
  description: 'Check the exact arguments before you approve. Nothing runs until you do.',
  descriptionRead: 'This tool only reads. Check the exact arguments before you approve.',
  tool: 'Tool',
  effect: { read: 'Reads only', write: 'Makes changes' },
  requiredAction: 'Needs',
  fingerprint: 'Fingerprint',
  fingerprintHint: '(compare it with the fingerprint of what ran)',
  waiting: (count, formatted) => `${formatted} more waiting`,
  queued: (count, formatted) => (count === 1 ? 'Waiting for 1 earlier request' : `Waiting for ${formatted} earlier requests`),
  status: {
    idle: 'Preparing…',
    reviewing: 'Waiting for your decision',
    confirming: 'Getting a confirmation…',
    invoking: 'Running… this cannot be cancelled now',
    checking: 'Checking whether it took effect…',
    done: 'Done',
    denied: 'Denied',
    refused: 'Refused',
    failed: 'Failed',
    uncertain: 'Outcome unknown',
    withdrawn: 'Withdrawn',
  },
  problem: {
    refused: 'Not allowed',
    failed: 'It failed',
    uncertain: 'The outcome is unknown',
  },
  uncertainCheck: 'It may or may not have taken effect. Check first: trying again blindly could do it twice.',
  uncertainRetry: 'It may or may not have taken effect. Find out before you try again: a second run could do it twice.',
  check: 'Check whether it happened',
  retry: 'Try again',
  retryUncertain: 'Try again with a new confirmation',
  close: 'Close',
  denyReason: 'Reason for denying (optional)',
  typeToConfirm: (toolName, approve) => `Type ${toolName} to enable ${approve}`,
  holdHint: (approve) => `Press and hold ${approve} until it fills (or hold Enter or Space on it).`,
  holding: 'Keep holding…',
};

/**
 * Any part of the dialog's strings; the records (`status`, `effect`, `problem`) may be given in part.
 *
 * @example
 * const labels: ConfirmToolLabelsOverride = { approve: 'Send', status: { invoking: 'Sending…' } };
 */
export type ConfirmToolLabelsOverride = {
  [K in keyof ConfirmToolLabels]?: ConfirmToolLabels[K] extends (...args: never[]) => unknown
    ? ConfirmToolLabels[K]
    : ConfirmToolLabels[K] extends object
      ? Partial<ConfirmToolLabels[K]>
      : ConfirmToolLabels[K];
};

const isRecord = (value: unknown): value is object => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `base` with `override` laid over it, records (`status`, `effect`, `problem`) merged one level
 * down. A `__proto__` key, at either level (as `JSON.parse` makes it from a locale file), is
 * skipped: it never reaches a prototype, as in `mergeLabels`.
 *
 * @example
 * mergeConfirmLabels(defaultConfirmLabels, { status: { invoking: 'Sending…' } }).status.done // 'Done': the rest is kept
 */
export function mergeConfirmLabels(base: ConfirmToolLabels, override: ConfirmToolLabelsOverride | Partial<ConfirmToolLabels> | undefined): ConfirmToolLabels {
  if (!override || override === base) return base;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined || key === '__proto__') continue;
    const prior = merged[key];
    merged[key] = isRecord(value) && isRecord(prior) ? layer(prior, value) : value;
  }
  return merged as unknown as ConfirmToolLabels;
}

function layer(prior: object, value: object): Record<string, unknown> {
  const out: Record<string, unknown> = { ...prior };
  for (const [key, entry] of Object.entries(value)) if (key !== '__proto__' && entry !== undefined) out[key] = entry;
  return out;
}
