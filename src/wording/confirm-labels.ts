import type { ConfirmationStatus } from '../core/approval/confirmation-machine';
import type { ToolDescriptorField, ToolEffect } from '../core/approval/tool-descriptor';
import type { AllowGrantRefusal, ToolGrantDecision } from '../core/approval/tool-grants';
import type { ToolDefinitionPart } from '../core/approval/tool-definition';

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
  /** Under the title of a sub-agent's call: the tool whose work it is part of (its name when known) and that call's id. */
  partOf: (parentToolName: string | undefined, parentCallId: string) => string;
  effect: Record<ToolEffect, string>;
  /** Said instead of the effect or the risk when the tool did not declare it (the cautious default applies). */
  undeclared: Record<ToolDescriptorField, string>;
  /** A tool that reaches beyond the application (the web, other services). */
  openWorld: string;
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
  problem: Record<'refused' | 'failed' | 'uncertain' | 'expired', string>;
  /** Under the heading of an expired request. */
  expiredReason: string;
  /** The button that opens the editor of an editable request. */
  edit: string;
  /** Leaves the editor without changing the arguments. */
  cancelEdit: string;
  /** Submits the edited arguments, which are checked before they can be approved. */
  submitEdit: string;
  /** Goes back to the proposed arguments. */
  useProposed: string;
  /** The editor's group, and the JSON text field's label when there is no form. */
  editor: string;
  editorJson: string;
  /** Under the JSON text while it is not valid JSON: the parser's message. */
  invalidJson: (message: string) => string;
  /** Said once the edit is accepted: what happens next. */
  edited: string;
  /** The list of changes from the proposed arguments. */
  changes: string;
  noChanges: string;
  /** One change: `path` as a person reads it, values as JSON text. */
  changeAdded: (path: string, after: string) => string;
  changeRemoved: (path: string, before: string) => string;
  changeChanged: (path: string, before: string, after: string) => string;
  /** More changes than are listed. */
  changesCut: string;
  /** Approve and allow the tool for the rest of the session. */
  allowForSession: string;
  /** Deny and deny the tool for the rest of the session. */
  denyForSession: string;
  /** Why "Allow for this session" is not offered. */
  grantRefused: Record<AllowGrantRefusal, string>;
  /** The mark of arguments a person edited (beside the title, and on the request in a list). */
  editedMark: string;
  /** Under a form field whose text is not a number. */
  notANumber: string;
  /** Said after a form field's name when its value is written as JSON (a list, or a shape the form has no field for). */
  asJson: string;
  /** The heading of problems the form cannot place beside one field. */
  editIssues: string;
  /** The mark after the name of a required field (shown; screen readers hear `aria-required` instead). */
  requiredMark: string;
  /** The legend of that mark, above a form with a required field (`mark` is `requiredMark`). */
  requiredLegend: (mark: string) => string;
  /** Said before a field's error, so it is read as an error (hidden from sight: the colour and border show it). */
  errorPrefix: string;
  /** Said on a request (and its call's card) that a policy rule answered: "Allowed by …", naming the rule by its label or id. */
  answeredByRule: (decision: ToolGrantDecision, rule: string) => string;
  /** The heading of the scoped grants the dialog offers. */
  scopedGrants: string;
  /**
   * One scoped grant's button: allow `toolName` for the turn, an hour or the session, or only when
   * the argument `argument` has the value `value` (already written as JSON).
   */
  scopedGrant: (toolName: string, scope: 'turn' | 'session' | 'hour', argument?: string, value?: string) => string;
  /** A scoped grant's own words, kept as its rule's label: the grant list and the cards it answers name it so. */
  scopedGrantRule: (toolName: string, scope: 'turn' | 'session' | 'hour', argument?: string, value?: string) => string;
  /** A scoped grant in the grant list, by its label. */
  keptRule: (label: string) => string;
  /** Its Revoke button's name. */
  revokeRule: (label: string) => string;
  /** Said once a scoped grant is revoked. */
  ruleRevoked: (label: string) => string;
  /** What a scoped grant would also answer of the requests waiting: how many (and formatted), and their tool names joined. */
  scopedGrantPreview: (count: number, formatted: string, names: string) => string;
  /**
   * Said on a request that a standing grant did not answer because the tool's definition changed
   * since the grant was given: the grant's decision, and the parts that changed (named by
   * `definitionPart`, already joined into a list).
   */
  definitionChanged: (decision: ToolGrantDecision, parts: string) => string;
  /** A part of a tool's definition, as `definitionChanged` names it. */
  definitionPart: Record<ToolDefinitionPart, string>;
  /** Said on a request that "Approve all" or "Deny all" decided, with how many were decided together. */
  answeredByBatch: (count: number, formatted: string) => string;
  /** The list of standing grants (its name). */
  grants: string;
  /** When there is no standing grant. */
  noGrants: string;
  /** One grant, as the list shows it. */
  grant: (decision: ToolGrantDecision, toolName: string) => string;
  /** The button that revokes a grant. */
  revoke: string;
  /** Its accessible name, naming the grant. */
  revokeGrant: (decision: ToolGrantDecision, toolName: string) => string;
  /** Said once a grant is revoked. */
  revoked: (decision: ToolGrantDecision, toolName: string) => string;
  /** The list of requests decided together (its name). */
  batch: (count: number, formatted: string) => string;
  /** Nothing to decide together. */
  batchEmpty: string;
  /** Approve every request listed. */
  approveAll: (count: number, formatted: string) => string;
  /** Deny every request listed. */
  denyAll: (count: number, formatted: string) => string;
  /** Requests that arrived after the list was shown: they are not in it until a person asks. */
  batchArrived: (count: number, formatted: string) => string;
  /** Shows the list again with the requests that arrived. */
  batchShowArrived: string;
  /** Said once the list was decided: how many were approved and denied, formatted. */
  batchDecided: (approved: string, denied: string) => string;
  /** The requests a list leaves out because each must be reviewed alone (its heading). */
  batchAlone: (count: number, formatted: string) => string;
  /** Why a request must be reviewed alone, beside it in that list. */
  batchAloneReason: Record<AllowGrantRefusal, string>;
  /** Brings that request to the dialog, to be reviewed on its own (with its second step). */
  batchReview: string;
  /** How long a request has left (`time` formatted, e.g. `1:05`). */
  expiresIn: (time: string) => string;
  /** What the live region says as an expiry nears (at a few moments, never every second). */
  expiresSoon: (time: string) => string;
  /** Beside the time left: the deadline cannot be moved (the wire offers no extension). */
  expiryFixed: string;
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
  /** The optional field beside Deny: its text goes to the agent with the deny, so the label says who reads it. */
  denyReason: string;
  /** The typed-name confirm step: the field's label (`approve` is the Approve button's label). */
  typeToConfirm: (toolName: string, approve: string) => string;
  /** The typed-name step: said once, politely, when the typed name enables Approve. */
  typedNameReady: (approve: string) => string;
  /** The press-and-hold confirm step: how to use it, by pointer and by keyboard. */
  holdHint: (approve: string) => string;
  /** The press-and-hold confirm step: said while holding. */
  holding: string;
  /** Opens the answer a person gives in the tool's place (docs/protocol.md "Decisions"). */
  respond: string;
  /** The answer field (JSON text) and its hint. */
  respondEditor: string;
  respondHint: string;
  /** Sends the answer: the call settles with it, and the tool does not run. */
  submitRespond: string;
  /** Leaves the answer without sending it. */
  cancelRespond: string;
  /** Withdraws the request: not a rejection; the model is told it was cancelled. */
  withdraw: string;
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
  partOf: (parentToolName, parentCallId) => (parentToolName === undefined ? `Part of call ${parentCallId}` : `Part of ${parentToolName} (call ${parentCallId})`),
  effect: { read: 'Reads only', write: 'Makes changes' },
  undeclared: { effect: 'Effect not declared', risk: 'Risk not declared' },
  openWorld: 'Reaches outside this app',
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
    expired: 'Expired',
    responded: 'Answered by you',
    cancelled: 'Withdrawn',
    withdrawn: 'Withdrawn',
    editing: 'Editing the arguments',
    revising: 'Checking your edit…',
  },
  problem: {
    refused: 'Not allowed',
    failed: 'It failed',
    uncertain: 'The outcome is unknown',
    expired: 'The request expired',
  },
  expiredReason: 'Nobody decided in time, so nothing ran.',
  edit: 'Edit arguments',
  cancelEdit: 'Cancel editing',
  submitEdit: 'Save',
  useProposed: 'Use the proposed arguments',
  editor: 'Edit the arguments',
  editorJson: 'Arguments as JSON',
  invalidJson: (message) => `Not valid JSON: ${message}`,
  edited: 'You edited these arguments: they were checked again and have a fingerprint of their own. Approve runs exactly them.',
  changes: 'Changes from the proposed arguments',
  noChanges: 'No changes from the proposed arguments',
  changeAdded: (path, after) => `${path}: added ${after}`,
  changeRemoved: (path, before) => `${path}: removed (was ${before})`,
  changeChanged: (path, before, after) => `${path}: ${before} → ${after}`,
  changesCut: 'More changes are not listed.',
  allowForSession: 'Allow for this session',
  denyForSession: 'Deny for this session',
  grantRefused: {
    'high-risk': 'Allow for this session is not offered for a high-risk tool.',
    'risk-not-declared': 'Allow for this session is not offered: the tool does not declare its risk.',
    'every-time': 'Allow for this session is not offered: this tool is confirmed every time.',
  },
  editedMark: 'Edited',
  notANumber: 'Must be a number',
  asJson: '(JSON)',
  editIssues: 'These arguments were not accepted',
  requiredMark: '*',
  requiredLegend: (mark) => `${mark} Required field`,
  errorPrefix: 'Error:',
  definitionChanged: (decision, parts) => `The tool's definition changed since you ${decision === 'allow' ? 'allowed' : 'denied'} it: ${parts}`,
  definitionPart: { name: 'name', description: 'description', parameters: 'parameters', descriptor: 'descriptor' },
  answeredByRule: (decision, rule) => (decision === 'allow' ? `Allowed by ${rule}` : `Denied by ${rule}`),
  scopedGrants: 'Allow more like this',
  scopedGrant: (toolName, scope, argument, value) => {
    const span = scope === 'turn' ? 'for this turn' : scope === 'hour' ? 'for an hour' : 'for this session';
    return argument === undefined ? `Allow ${toolName} ${span}` : `Allow when ${argument} is ${value ?? ''}, ${span}`;
  },
  scopedGrantRule: (toolName, scope, argument, value) => {
    const span = scope === 'turn' ? 'for this turn' : scope === 'hour' ? 'for an hour' : 'for this session';
    return argument === undefined ? `${toolName} ${span}` : `${toolName} when ${argument} is ${value ?? ''}, ${span}`;
  },
  keptRule: (label) => `Allowed: ${label}`,
  revokeRule: (label) => `Revoke: ${label}`,
  ruleRevoked: (label) => `Revoked: ${label}. It answers nothing more.`,
  scopedGrantPreview: (count, formatted, names) =>
    count === 0 ? 'Answers no other waiting request' : count === 1 ? `Also answers 1 waiting request: ${names}` : `Also answers ${formatted} waiting requests: ${names}`,
  answeredByBatch: (count, formatted) => (count === 1 ? 'Decided in a list of 1 request' : `Decided together with the other requests of a list of ${formatted}`),
  grants: 'Standing grants',
  noGrants: 'No standing grants: every request is asked.',
  grant: (decision, toolName) => (decision === 'allow' ? `${toolName}: allowed for this session` : `${toolName}: denied for this session`),
  revoke: 'Revoke',
  revokeGrant: (decision, toolName) => `Revoke: ${toolName} ${decision === 'allow' ? 'allowed' : 'denied'} for this session`,
  revoked: (decision, toolName) => `Revoked: ${toolName} is asked again.`,
  batch: (count, formatted) => (count === 1 ? '1 request waiting' : `${formatted} requests waiting`),
  batchEmpty: 'No requests waiting.',
  approveAll: (count, formatted) => `Approve all ${formatted}`,
  denyAll: (count, formatted) => `Deny all ${formatted}`,
  batchArrived: (count, formatted) => (count === 1 ? '1 more request arrived: it is not in this list.' : `${formatted} more requests arrived: they are not in this list.`),
  batchShowArrived: 'Show them in the list',
  batchDecided: (approved, denied) => `Approved ${approved}, denied ${denied}.`,
  batchAlone: (count, formatted) => (count === 1 ? '1 request to review on its own' : `${formatted} requests to review one at a time`),
  batchAloneReason: {
    'high-risk': 'High risk: approved only in its own review.',
    'risk-not-declared': 'Risk not declared: approved only in its own review.',
    'every-time': 'Confirmed every time: approved only in its own review.',
  },
  batchReview: 'Review',
  respond: 'Respond instead',
  respondEditor: 'Your answer (JSON)',
  respondHint: 'Your answer is the result the model receives; the tool does not run.',
  submitRespond: 'Send answer',
  cancelRespond: 'Back',
  withdraw: 'Withdraw request',
  expiresIn: (time) => `Expires in ${time}`,
  expiresSoon: (time) => `This request expires in ${time}.`,
  expiryFixed: 'The deadline is fixed: it cannot be extended.',
  uncertainCheck: 'It may or may not have taken effect. Check first: trying again blindly could do it twice.',
  uncertainRetry: 'It may or may not have taken effect. Find out before you try again: a second run could do it twice.',
  check: 'Check whether it happened',
  retry: 'Try again',
  retryUncertain: 'Try again with a new confirmation',
  close: 'Close',
  denyReason: 'Reason for the agent (optional)',
  typeToConfirm: (toolName, approve) => `Type ${toolName} to enable ${approve}`,
  typedNameReady: (approve) => `${approve} is now enabled.`,
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
