/**
 * Policies as plain data: rules an app (or a person, from the dialog) writes, that survive JSON,
 * a reload and a unit test. How they are read is in evaluate-policy.ts; see docs/guarantees.md
 * ("Policies").
 */
import type { JsonValue } from '../json/json-value';
import type { ToolDescriptor } from '../approval/tool-descriptor';
import type { ToolDefinitionPart } from '../approval/tool-definition';

/**
 * What a rule says of a request: answer yes, answer no, or leave it to a person.
 *
 * @example
 * const decision: PolicyDecision = 'ask';
 */
export type PolicyDecision = 'allow' | 'deny' | 'ask';

/**
 * How long a rule holds: for one request (`once`: the app removes it once it has answered one),
 * the rest of a turn, the rest of the session, or until a time (ms since the epoch).
 *
 * @example
 * const scope: PolicyScope = { kind: 'until', until: Date.now() + 60 * 60 * 1000 };
 */
export type PolicyScope =
  | { kind: 'once' }
  | { kind: 'turn'; turnId: string }
  | { kind: 'session' }
  | { kind: 'until'; until: number };

/**
 * Who made a rule: the app's code, a person in the dialog (a scoped grant), or a standing grant.
 *
 * @example
 * const origin: PolicyOrigin = 'person';
 */
export type PolicyOrigin = 'app' | 'person' | 'grant';

/**
 * What a shell-command condition accepts. The command is parsed, never compared as text:
 * `program` must be its first word exactly, `args` (when given) the words right after it, and a
 * command that also runs another, redirects or substitutes does not match unless the rule says so.
 *
 * @example
 * const gitStatus: CommandMatch = { program: 'git', args: ['status'] };
 */
export interface CommandMatch {
  program: string;
  /** The words that must follow the program, in order (more may follow unless `exact`). */
  args?: readonly string[];
  /** No words beyond `args`. */
  exact?: boolean;
  allowCompound?: boolean;
  allowRedirection?: boolean;
  allowSubstitution?: boolean;
}

/**
 * One test of the arguments, at a JSON Pointer (RFC 6901, own properties only). Exactly one test
 * per condition: `equals` (same JSON value), `oneOf`, `prefix` (a string starting so), `minimum` /
 * `maximum` (a number within, inclusive), `pattern` (a regular expression that must match the
 * whole string: it is anchored for you), or `command` (a shell command, parsed).
 *
 * @example
 * const conditions: PolicyCondition[] = [
 *   { pointer: '/to', pattern: '[^@]+@example[.]test' },
 *   { pointer: '/amount', maximum: 100 },
 *   { pointer: '/command', command: { program: 'ls' } },
 * ];
 */
export type PolicyCondition =
  | { pointer: string; equals: JsonValue }
  | { pointer: string; oneOf: readonly JsonValue[] }
  | { pointer: string; prefix: string }
  | { pointer: string; minimum?: number; maximum?: number }
  | { pointer: string; pattern: string }
  | { pointer: string; command: CommandMatch };

/**
 * A rule: for these tools, when every condition holds, decide so, for this long.
 *
 * @example
 * const rule: PolicyRule = { id: 'read-docs', decision: 'allow', tools: ['read_file'], when: [{ pointer: '/path', prefix: 'docs/' }], scope: { kind: 'session' }, origin: 'app' };
 */
export interface PolicyRule {
  /** Unique in its policy: the card names it ("Allowed by …"), the audit log records it. */
  id: string;
  decision: PolicyDecision;
  /** Tool names the rule is about (`'*'` for any tool). */
  tools: readonly string[];
  /** Every condition must hold (none: every request of those tools). */
  when?: readonly PolicyCondition[];
  scope: PolicyScope;
  origin: PolicyOrigin;
  /** A person's words for the rule, shown where it is listed. */
  label?: string;
  /**
   * The tool's definition fingerprint when the rule was made: once the tool's definition
   * changes, the rule stops answering (a tool must not change meaning under a rule).
   */
  definitionFingerprint?: string;
  /**
   * The fingerprints of the definition's parts when the rule was made: once the definition
   * changes, the dialog can say which parts changed (a standing grant keeps them).
   */
  definitionParts?: Readonly<Record<ToolDefinitionPart, string>>;
  /** When the rule was made, in ms since the epoch (a standing grant: when it was given). */
  madeAt?: number;
}

/**
 * A policy: its rules, and whether it answers (`enforce`, the default) or only reports (`shadow`).
 *
 * @example
 * const trial: Policy = { rules: [], mode: 'shadow' };
 */
export interface Policy {
  rules: readonly PolicyRule[];
  /** `shadow`: the result is always `ask`, and `wouldDecide` says what the rules would have done. */
  mode?: 'enforce' | 'shadow';
}

/**
 * What a policy is asked about: a tool call waiting for an answer.
 *
 * @example
 * const request: PolicyRequest = { toolName: 'read_file', arguments: { path: 'docs/a.md' }, now: Date.now() };
 */
export interface PolicyRequest {
  toolName: string;
  arguments: unknown;
  /** The tool's descriptor: a high-risk, undeclared-risk or confirm-every-time tool is never allowed automatically. */
  descriptor?: Partial<ToolDescriptor> | null;
  turnId?: string;
  /** The tool's current definition fingerprint, compared with a rule's. */
  definitionFingerprint?: string;
  /** The time the request is evaluated at (ms since the epoch), for `until` scopes. */
  now: number;
}

/**
 * The answer: the decision, the rule that made it (none when nothing matched), and why, in words.
 *
 * @example
 * const result: PolicyResult = { decision: 'deny', ruleId: 'no-rm', why: 'denied by rule no-rm' };
 */
export interface PolicyResult {
  decision: PolicyDecision;
  ruleId?: string;
  why: string;
  /** In shadow mode: what the rules would have decided. */
  wouldDecide?: { decision: PolicyDecision; ruleId?: string; why: string };
}
