/**
 * `evaluatePolicy(policy, request)`: what a policy decides of one request, pure, so that an app
 * can unit-test its rules. Precedence: a matching `deny` wins, then `ask`, then `allow`; with no
 * matching rule a person decides (`ask`). An `allow` never answers a high-risk, undeclared-risk or
 * confirm-every-time tool: such a request is left to a person, whatever the rules say. The rules
 * are read in evaluate-rules.ts; this adds shell commands, parsed. See docs/guarantees.md ("Policies").
 */
import { applies, evaluateRules, holds } from './evaluate-rules';
import type { CommandMatch, Policy, PolicyCondition, PolicyRequest, PolicyResult, PolicyRule } from './policy-types';
import { parseShellCommand } from './shell-command';

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
  return evaluateRules(policy, request, commandMatches);
}

/**
 * Whether `rule` speaks of `request`: its tool, its scope, its tool definition and every condition.
 *
 * @example
 * const speaks: boolean = ruleApplies(rule, { toolName: 'read_file', arguments: { path: 'docs/a.md' }, now: Date.now() });
 */
export function ruleApplies(rule: PolicyRule, request: PolicyRequest): boolean {
  return applies(rule, request, commandMatches);
}

/**
 * Whether one condition holds of the arguments. Nothing found at the pointer never holds.
 *
 * @example
 * conditionHolds({ pointer: '/amount', maximum: 100 }, { amount: 40 }) // true
 */
export function conditionHolds(condition: PolicyCondition, args: unknown): boolean {
  return holds(condition, args, commandMatches);
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
