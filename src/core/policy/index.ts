/**
 * `toolgate/policy`: rules as plain data that answer approval requests automatically or leave
 * them to a person, and the pure function that reads them. No React; its own entry, so an app
 * that writes no rules never loads the shell parser.
 */
export { evaluatePolicy, conditionHolds, ruleApplies } from './evaluate-policy';
export { createApprovalPolicy, type ApprovalPolicyOptions } from './approval-policy';
export { createPolicyRule, type PolicyRuleCheck, type PolicyRuleContext } from './policy-rule';
export { parseShellCommand, type ShellCommand, type ShellCommandFeatures } from './shell-command';
export { readJsonPointer, type PointerRead } from './json-pointer';
export type {
  CommandMatch,
  Policy,
  PolicyCondition,
  PolicyDecision,
  PolicyOrigin,
  PolicyRequest,
  PolicyResult,
  PolicyRule,
  PolicyScope,
} from './policy-types';
