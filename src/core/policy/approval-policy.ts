/**
 * `createApprovalPolicy`: the app's rules made into what the confirmation controller and
 * `createToolgate({ policy })` take. It is here, in `toolgate/policy`, because it brings
 * `evaluatePolicy` (and with it the shell parser): `toolgate/core` only calls the function it is
 * given, so an app without rules never loads the parser (docs/architecture.md, "Policies").
 */
import type { ApprovalPolicy, PolicyDecisionReport } from '../approval/confirmation-controller-types';
import { evaluatePolicy } from './evaluate-policy';
import { createPolicyRule, type PolicyRuleContext } from './policy-rule';
import type { PolicyRule } from './policy-types';

/**
 * Options of {@link createApprovalPolicy}.
 *
 * @example
 * const options: ApprovalPolicyOptions = { rules: [readDocs], mode: 'shadow', onDecision: (report) => console.info(report.result) };
 */
export interface ApprovalPolicyOptions {
  /** The app's rules, plain data: each is checked by `createPolicyRule` (with `describe`) and refused with its reason. */
  rules?: readonly unknown[];
  /** `enforce` (the default) answers by the rules; `shadow` reports what they would decide and still asks. */
  mode?: 'enforce' | 'shadow';
  /** Told of every request the policy decided, or would have in shadow mode. */
  onDecision?: (report: PolicyDecisionReport) => void;
  /** The tools' descriptors by name: an `allow` for a high-risk or confirm-every-time tool is refused when made. */
  describe?: PolicyRuleContext['describe'];
}

/**
 * Make a policy for the approvals: checks each rule (throws a TypeError naming every refused rule
 * and why, so a rule that could never hold is found at start-up, not at the first request), and
 * bundles `evaluatePolicy` and `createPolicyRule` for the controller.
 *
 * @example
 * import { createApprovalPolicy } from 'toolgate/policy';
 * const policy = createApprovalPolicy({
 *   rules: [{ id: 'no-rm', decision: 'deny', tools: ['shell'], when: [{ pointer: '/command', command: { program: 'rm' } }], scope: { kind: 'session' }, origin: 'app' }],
 * });
 * const client = createToolgate({ policy });
 */
export function createApprovalPolicy(options: ApprovalPolicyOptions = {}): ApprovalPolicy {
  const context: PolicyRuleContext = options.describe === undefined ? {} : { describe: options.describe };
  const rules: PolicyRule[] = [];
  const refused: string[] = [];
  const ids = new Set<string>();
  for (const rule of options.rules ?? []) {
    const made = createPolicyRule(rule, context);
    if (!made.ok) refused.push(made.reason);
    else if (ids.has(made.rule.id)) refused.push(`rule ${made.rule.id}: another rule has this id`);
    else {
      ids.add(made.rule.id);
      rules.push(made.rule);
    }
  }
  if (refused.length > 0) throw new TypeError(`The policy's rules were refused: ${refused.join('; ')}`);
  if (options.mode !== undefined && options.mode !== 'enforce' && options.mode !== 'shadow') throw new TypeError("mode must be 'enforce' or 'shadow'");
  return Object.freeze({
    rules: Object.freeze(rules),
    mode: options.mode ?? 'enforce',
    evaluate: evaluatePolicy,
    check: createPolicyRule,
    ...(options.onDecision === undefined ? {} : { onDecision: options.onDecision }),
  });
}
