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

// Standing grants: the rules a person makes from the dialog (the client makes and keeps them; these build them elsewhere)
export {
  allowGrantRefusal,
  createToolGrants,
  type AllowGrantRefusal,
  type ToolGrantsOptions,
  type ToolGrantsRestore,
  type ToolGrantsSnapshot,
} from '../approval/tool-grants';

// Policies in the approvals: `createToolgate({ policy })` takes what `createApprovalPolicy` makes
// (docs/architecture.md, "Policies"); the dialog offers these scoped grants
export { ruleOfGrant } from '../approval/tool-grants';
export { scopedGrantCandidates, type ScopedGrantCandidate } from '../approval/approval-policy';
export type { ApprovalPolicy, PolicyDecisionReport, PolicyEvaluator } from '../approval/confirmation-controller-types';
