/**
 * Reading rules without the shell parser: precedence, tools, scopes, definitions and every
 * condition but shell commands, which the caller matches (`evaluatePolicy` in evaluate-policy.ts
 * brings the parser). The confirmation controller reads the rules a person gave (standing and
 * scoped grants) with it when the app gives no policy, so `toolgate/core` never loads the parser
 * (docs/architecture.md, "Policies"); with a policy, the policy's own function reads them all.
 */
import { sameJson } from '../json/json-diff';
import type { JsonValue } from '../json/json-value';
import { resolveToolDescriptor } from '../approval/tool-descriptor';
import { allowGrantRefusal } from '../approval/tool-grants';
import { readJsonPointer } from './json-pointer';
import type { CommandMatch, Policy, PolicyCondition, PolicyDecision, PolicyRequest, PolicyResult, PolicyRule } from './policy-types';

const PRECEDENCE: readonly PolicyDecision[] = ['deny', 'ask', 'allow'];

/** Why an `allow` may not answer a tool, in words. */
export const NEVER_ALLOWED_WHY = {
  'high-risk': 'a high-risk tool is never allowed automatically: a person decides',
  'risk-not-declared': 'a tool whose risk is not declared is treated as high risk: a person decides',
  'every-time': 'this tool must be confirmed by a person every time',
} as const;

/** Whether a shell-command condition holds of a value; without one, no command condition holds. */
export type CommandHolds = (match: CommandMatch, value: unknown) => boolean;

const NO_COMMANDS: CommandHolds = () => false;

/** A policy's decision on a request, with `commandHolds` for shell-command conditions (see `evaluatePolicy`). */
export function evaluateRules(policy: Policy | readonly PolicyRule[], request: PolicyRequest, commandHolds: CommandHolds = NO_COMMANDS): PolicyResult {
  const rules = Array.isArray(policy) ? (policy as readonly PolicyRule[]) : (policy as Policy).rules;
  const shadow = !Array.isArray(policy) && (policy as Policy).mode === 'shadow';
  const result = decide(rules, request, commandHolds);
  if (!shadow) return result;
  return { decision: 'ask', why: 'the policy is in shadow mode: a person decides', wouldDecide: result };
}

function decide(rules: readonly PolicyRule[], request: PolicyRequest, commandHolds: CommandHolds): PolicyResult {
  const matching = rules.filter((rule) => applies(rule, request, commandHolds));
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

/** Whether `rule` speaks of `request`: its tool, its scope, its tool definition and every condition. */
export function applies(rule: PolicyRule, request: PolicyRequest, commandHolds: CommandHolds = NO_COMMANDS): boolean {
  if (!rule.tools.includes('*') && !rule.tools.includes(request.toolName)) return false;
  if (!inScope(rule, request)) return false;
  // A rule made for one definition of a tool does not answer for another.
  if (rule.definitionFingerprint !== undefined && rule.definitionFingerprint !== request.definitionFingerprint) return false;
  return (rule.when ?? []).every((condition) => holds(condition, request.arguments, commandHolds));
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

/** Whether one condition holds of the arguments. Nothing found at the pointer never holds. */
export function holds(condition: PolicyCondition, args: unknown, commandHolds: CommandHolds = NO_COMMANDS): boolean {
  const read = readJsonPointer(args, condition.pointer);
  if (!read.found) return false;
  const value = read.value;
  if ('equals' in condition) return isJson(value) && sameJson(value, condition.equals);
  if ('oneOf' in condition) return isJson(value) && condition.oneOf.some((option) => sameJson(value, option));
  if ('prefix' in condition) return typeof value === 'string' && value.startsWith(condition.prefix);
  if ('pattern' in condition) return typeof value === 'string' && anchored(condition.pattern)?.test(value) === true;
  if ('command' in condition) return commandHolds(condition.command, value);
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

function isJson(value: unknown): value is JsonValue {
  return value === null || ['string', 'number', 'boolean', 'object'].includes(typeof value);
}
