import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { ConfirmationController } from '../core/approval/confirmation-controller-types';
import type { PolicyRule } from '../core/policy/policy-types';
import type { ToolGrant, ToolGrants } from '../core/approval/tool-grants';
import { useConfirmationController } from '../provider/context';

/**
 * What {@link useToolGrants} returns: the standing grants and the ways to take them back.
 *
 * @example
 * const { grants, revoke }: ToolGrantsView = useToolGrants();
 */
export interface ToolGrantsView {
  /** Every standing grant, oldest first. */
  readonly grants: readonly ToolGrant[];
  /** Revoke one grant: from now on its tool is asked again. Returns whether it existed. */
  revoke(id: string): boolean;
  /** The scoped grants a person made in the dialog (policy rules), oldest first; the standing grants' own rules are listed as `grants`. */
  readonly rules: readonly PolicyRule[];
  /** Revoke one scoped grant: it answers nothing more. Returns whether it existed. */
  revokeRule(id: string): boolean;
  /** Revoke every grant; returns how many there were. */
  revokeAll(): number;
  /** The grants store itself (save, restore, find). */
  readonly store: ToolGrants;
}

/**
 * The standing grants of the session ("Allow for this session", "Deny for this session"), read
 * from the confirmation controller (the provider's, or the one given), with `revoke`: a revoked
 * grant answers nothing more from that moment, and later requests of its tool are asked again.
 * Re-renders when a grant is given or revoked.
 *
 * @example
 * function Grants() {
 *   const { grants, revoke } = useToolGrants();
 *   return (
 *     <ul>
 *       {grants.map((grant) => (
 *         <li key={grant.id}>
 *           {grant.toolName}: {grant.decision} <button onClick={() => revoke(grant.id)}>Revoke</button>
 *         </li>
 *       ))}
 *     </ul>
 *   );
 * }
 */
export function useToolGrants(controller?: ConfirmationController): ToolGrantsView {
  const store = useConfirmationController(controller).grants;
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getInitialState);
  const revoke = useCallback((id: string) => store.revoke(id), [store]);
  const revokeAll = useCallback(() => store.revokeAll(), [store]);
  const revokeRule = useCallback((id: string) => store.dropRule(id), [store]);
  return useMemo(() => {
    // Every grant is kept as a rule: a standing grant is listed once, as the grant it is.
    const standing = new Set(state.grants.map((grant) => grant.id));
    const rules = state.rules.filter((rule) => !standing.has(rule.id));
    return { grants: state.grants, rules, revoke, revokeRule, revokeAll, store };
  }, [state.grants, state.rules, revoke, revokeRule, revokeAll, store]);
}
