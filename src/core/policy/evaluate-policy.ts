/**
 * `evaluatePolicy(policy, request)`: what a policy decides of one request, pure, so that an app
 * can unit-test its rules. Precedence: a matching `deny` wins, then `ask`, then `allow`; with no
 * matching rule a person decides (`ask`). An `allow` never answers a high-risk, undeclared-risk or
 * confirm-every-time tool: such a request is left to a person, whatever the rules say.
 * See docs/guarantees.md ("Policies").
 */
import { sameJson } from '../json/json-diff';
import type { JsonValue } from '../json/json-value';
import { resolveToolDescriptor } from '../approval/tool-descriptor';
import { allowGrantRefusal } from '../approval/tool-grants';
import { readJsonPointer } from './json-pointer';
import type { CommandMatch, Policy, PolicyCondition, PolicyDecision, PolicyRequest, PolicyResult, PolicyRule } from './policy-types';
import { parseShellCommand } from './shell-command';

const PRECEDENCE: readonly PolicyDecision[] = ['deny', 'ask', 'allow'];

/** Why an `allow` may not answer a tool, in words. */
export const NEVER_ALLOWED_WHY = {
  'high-risk': 'a high-risk tool is never allowed automatically: a person decides',
  'risk-not-declared': 'a tool whose risk is not declared is treated as high risk: a person decides',
  'every-time': 'this tool must be confirmed by a person every time',
} as const;

/**
 * Decides a request by a policy.
 *
 * @example
 * const policy: Policy = {
 *   rules: [{ id: 'mail-ada', decision: 'allow', tools: ['send_mail'], when: [{ pointer: '/to', equals: 'ada@example.test' }], scope: { kind: 'session' }, origin: 'app' }],
 * };
 * evaluatePolicy(policy, { toolName: 'send_mail', arguments: { to: 'ada@example.test' }, descriptor: { effect: 'write', risk: 'low', requiresConfirmation: true }, now: Date.now() });
 * // { decision: 'allow', ruleId: 'mail-ada', why: 'allowed by rule mail-ada' }
 */
export function evaluatePolicy(policy: Policy | readonly PolicyRule[], request: PolicyRequest): PolicyResult {
  const rules = Array.isArray(policy) ? (policy as readonly PolicyRule[]) : (policy as Policy).rules;
  const shadow = !Array.isArray(policy) && (policy as Policy).mode === 'shadow';
  const result = decide(rules, request);
  if (!shadow) return result;
  return { decision: 'ask', why: 'the policy is in shadow mode: a person decides', wouldDecide: result };
}

function decide(rules: readonly PolicyRule[], request: PolicyRequest): PolicyResult {
  const matching = rules.filter((rule) => applies(rule, request));
  for (const decision of PRECEDENCE) {
    const rule = matching.find((r) => r.decision === decision);
    if (rule === undefined) continue;
    if (decision === 'allow') {
      const refusal = allowGrantRefusal(resolveToolDescriptor(request.descriptor));
      if (refusal !== undefined) return { decision: 'ask', why: NEVER_ALLOWED_WHY[refusal] };
      return { decision, ruleId: rule.id, why: `allowed by rule ${rule.id}` };
    }
    return { decision, ruleId: rule.id, why: decision === 'deny' ? `denied by rule ${rule.id}` : `rule ${rule.id} asks a person` };
  }
  return { decision: 'ask', why: 'no rule matches: a person decides' };
}

/**
 * Whether `rule` speaks of `request`: its tool, its scope, its tool definition and every condition.
 *
 * @example
 * const speaks: boolean = ruleApplies(rule, { toolName: 'read_file', arguments: { path: 'docs/a.md' }, now: Date.now() });
 */
export function ruleApplies(rule: PolicyRule, request: PolicyRequest): boolean {
  return applies(rule, request);
}

function applies(rule: PolicyRule, request: PolicyRequest): boolean {
  if (!rule.tools.includes('*') && !rule.tools.includes(request.toolName)) return false;
  if (!inScope(rule, request)) return false;
  // A rule made for one definition of a tool does not answer for another.
  if (rule.definitionFingerprint !== undefined && rule.definitionFingerprint !== request.definitionFingerprint) return false;
  return (rule.when ?? []).every((condition) => holds(condition, request.arguments));
}

function inScope(rule: PolicyRule, request: PolicyRequest): boolean {
  const scope = rule.scope;
  switch (scope.kind) {
    case 'once':
    case 'session':
      return true;
    case 'turn':
      return request.turnId !== undefined && request.turnId === scope.turnId;
    case 'until':
      return request.now < scope.until;
    default:
      return scope satisfies never;
  }
}

/**
 * Whether one condition holds of the arguments. Nothing found at the pointer never holds.
 *
 * @example
 * conditionHolds({ pointer: '/amount', maximum: 100 }, { amount: 40 }) // true
 */
export function conditionHolds(condition: PolicyCondition, args: unknown): boolean {
  return holds(condition, args);
}

function holds(condition: PolicyCondition, args: unknown): boolean {
  const read = readJsonPointer(args, condition.pointer);
  if (!read.found) return false;
  const value = read.value;
  if ('equals' in condition) return isJson(value) && sameJson(value, condition.equals);
  if ('oneOf' in condition) return isJson(value) && condition.oneOf.some((option) => sameJson(value, option));
  if ('prefix' in condition) return typeof value === 'string' && value.startsWith(condition.prefix);
  if ('pattern' in condition) return typeof value === 'string' && anchored(condition.pattern)?.test(value) === true;
  if ('command' in condition) return commandMatches(condition.command, value);
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (condition.minimum !== undefined && value < condition.minimum) return false;
  if (condition.maximum !== undefined && value > condition.maximum) return false;
  return true;
}

/** A pattern that must match the whole string; `undefined` when it is not a valid expression. */
export function anchored(pattern: string): RegExp | undefined {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return undefined;
  }
}

function commandMatches(match: CommandMatch, value: unknown): boolean {
  const command = parseShellCommand(value);
  if (command === undefined || command.argv.length === 0) return false;
  if (command.compound && match.allowCompound !== true) return false;
  if (command.redirection && match.allowRedirection !== true) return false;
  if (command.substitution && match.allowSubstitution !== true) return false;
  const [program, ...rest] = command.argv;
  // A glob where the program's name should be is not that program.
  if (program !== match.program || command.globs.includes(0)) return false;
  const args = match.args ?? [];
  if (args.length > rest.length) return false;
  for (const [index, word] of args.entries()) {
    if (rest[index] !== word || command.globs.includes(index + 1)) return false;
  }
  return match.exact !== true || rest.length === args.length;
}

function isJson(value: unknown): value is JsonValue {
  return value === null || ['string', 'number', 'boolean', 'object'].includes(typeof value);
}
