/**
 * The standing grants where a person can see and revoke them: a thin view over `useToolGrants`.
 */
import { forwardRef, useId, useMemo, useRef, useState, type ComponentPropsWithoutRef } from 'react';
import type { ConfirmationController } from '../core/approval/confirmation-controller-types';
import { defaultConfirmLabels, mergeConfirmLabels } from '../wording/confirm-labels';
import { useLabels } from '../wording/labels';
import { useIsomorphicLayoutEffect } from '../hooks/use-isomorphic-layout-effect';
import { useToolGrants } from '../hooks/use-tool-grants';
import { cx } from './cx';

/**
 * Props of {@link ToolGrantList}.
 *
 * @example
 * const props: ToolGrantListProps = { controller: confirmations };
 */
export interface ToolGrantListProps extends Omit<ComponentPropsWithoutRef<'section'>, 'children'> {
  /** Default: the provider's confirmation controller. */
  controller?: ConfirmationController;
}

/**
 * The standing grants of the session, each with a Revoke button reachable by keyboard (its name
 * says which grant it revokes). Revoking takes effect at once: later requests of that tool are
 * asked again; a status line shows (and politely says) what was revoked, and focus moves to the
 * next grant's Revoke, or to that line when none is left, with a visible focus ring either way.
 * Says so when there is none.
 *
 * @example
 * <ToolgateProvider session={session}>
 *   <ConfirmToolDialog />
 *   <ToolGrantList />
 * </ToolgateProvider>
 */
export const ToolGrantList = forwardRef<HTMLElement, ToolGrantListProps>(function ToolGrantList({ controller, className, ...rest }, ref) {
  const { grants, revoke, rules, revokeRule } = useToolGrants(controller);
  const all = useLabels();
  const labels = useMemo(() => mergeConfirmLabels(defaultConfirmLabels, all.confirm), [all.confirm]);
  const heading = useId();
  const [said, setSaid] = useState('');
  const list = useRef<HTMLElement | null>(null);
  const result = useRef<HTMLParagraphElement | null>(null);
  const refs = (element: HTMLElement | null): void => {
    list.current = element;
    if (typeof ref === 'function') ref(element);
    else if (ref) ref.current = element;
  };
  const onRevoke = (index: number): void => {
    const grant = grants[index];
    if (grant === undefined || !revoke(grant.id)) return;
    setSaid(labels.revoked(grant.decision, grant.toolName));
    refocus.current = index;
  };
  // Scoped grants follow the standing ones: their Revoke buttons come after, in the same order of focus.
  const onRevokeRule = (index: number): void => {
    const rule = rules[index];
    if (rule === undefined || !revokeRule(rule.id)) return;
    setSaid(labels.ruleRevoked(rule.label ?? rule.id));
    refocus.current = grants.length + index;
  };
  // The pressed button is gone: focus the next grant's Revoke, else the previous one's, else the
  // line that says what was revoked (the list itself would show no ring, and say nothing new).
  const refocus = useRef<number | null>(null);
  useIsomorphicLayoutEffect(() => {
    const index = refocus.current;
    if (index === null) return;
    refocus.current = null;
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('.toolgate-grants-revoke');
    const next = buttons === undefined || buttons.length === 0 ? undefined : buttons[Math.min(index, buttons.length - 1)];
    (next ?? result.current ?? list.current)?.focus();
  }, [grants, rules]);
  return (
    <section {...rest} ref={refs} tabIndex={-1} aria-labelledby={heading} className={cx('toolgate-grants', className)}>
      <p id={heading} className="toolgate-grants-title">
        {labels.grants}
      </p>
      {grants.length === 0 && rules.length === 0 ? (
        <p className="toolgate-grants-empty">{labels.noGrants}</p>
      ) : (
        <ul>
          {grants.map((grant, index) => (
            <li key={grant.id} data-decision={grant.decision} data-grant={grant.id}>
              <span>{labels.grant(grant.decision, grant.toolName)}</span>
              <button type="button" className="toolgate-button toolgate-grants-revoke" aria-label={labels.revokeGrant(grant.decision, grant.toolName)} onClick={() => onRevoke(index)}>
                {labels.revoke}
              </button>
            </li>
          ))}
          {rules.map((rule, index) => (
            <li key={rule.id} data-decision={rule.decision} data-rule={rule.id}>
              <span>{labels.keptRule(rule.label ?? rule.id)}</span>
              <button type="button" className="toolgate-button toolgate-grants-revoke" aria-label={labels.revokeRule(rule.label ?? rule.id)} onClick={() => onRevokeRule(index)}>
                {labels.revoke}
              </button>
            </li>
          ))}
        </ul>
      )}
      {/* Hidden only while it has nothing to say (no empty row in the layout); the live region stays in place. */}
      <p ref={result} role="status" tabIndex={said === '' ? undefined : -1} className={said === '' ? 'toolgate-sr-only' : 'toolgate-grants-result'}>
        {said}
      </p>
    </section>
  );
});
