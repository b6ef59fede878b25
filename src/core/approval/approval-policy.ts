/**
 * The scoped grants the dialog offers from a request: candidate policy rules built from its tool,
 * turn and arguments. The policy the controller evaluates them with is `ApprovalPolicy`
 * (confirmation-types.ts).
 *
 * Why the evaluation is handed in rather than imported: `evaluatePolicy` lives in `toolgate/policy`
 * with the shell parser that rules over commands need. `toolgate/core` imports only the rule
 * *types* from there, so an app that writes no rules never loads the parser; an app that does
 * imports `toolgate/policy` anyway to write and check them, and `createApprovalPolicy` bundles
 * `evaluatePolicy` and `createPolicyRule` into the object given here. See docs/architecture.md
 * ("Policies").
 */
import type { ConfirmationView } from './confirmation-types';
import type { JsonValue } from '../json/json-value';
import type { PolicyRule } from '../policy/policy-types';

/**
 * One scoped grant the dialog offers for the request shown: the rule it would keep, and what it is
 * made of (for the words on its button).
 *
 * @example
 * const [first]: ScopedGrantCandidate[] = scopedGrantCandidates(view, Date.now());
 * controller.allowByRule(first.rule);
 */
export interface ScopedGrantCandidate {
  readonly rule: PolicyRule;
  /** The argument the rule binds (its top-level name and value), or `undefined` for any arguments of the tool. */
  readonly argument?: { readonly name: string; readonly value: JsonValue };
  readonly scope: 'turn' | 'session' | 'hour';
}

const HOUR = 60 * 60 * 1000;
/** How many arguments get a scoped grant of their own: a few buttons, not one per field. */
const ARGUMENTS_OFFERED = 2;

/**
 * The scoped grants worth offering for a request: this tool for the rest of the turn (when the
 * request names one), for an hour and for the session, then this tool when a top-level argument
 * has exactly this value, for an hour. None for a request that takes no allow grant (a high-risk
 * tool, risk not declared, confirmed every time), nor for an edited request. Each rule is bound to
 * the tool's definition when the request knows it.
 *
 * @example
 * scopedGrantCandidates(view, Date.now()).map((c) => c.rule.id);
 * // ['scoped-send_mail-turn-…', 'scoped-send_mail-hour-…', 'scoped-send_mail-session-…', 'scoped-send_mail-to-hour-…']
 */
export function scopedGrantCandidates(view: ConfirmationView, now: number): ScopedGrantCandidate[] {
  if (view.grantRefusal !== null || view.edited) return [];
  const stamp = String(now);
  const bound = view.definition === null ? {} : { definitionFingerprint: view.definition.hex };
  const base = { decision: 'allow' as const, tools: [view.toolName], origin: 'person' as const, ...bound };
  const out: ScopedGrantCandidate[] = [];
  if (view.turnId !== undefined) {
    out.push({ scope: 'turn', rule: { ...base, id: `scoped-${view.toolName}-turn-${stamp}`, scope: { kind: 'turn', turnId: view.turnId } } });
  }
  out.push({ scope: 'hour', rule: { ...base, id: `scoped-${view.toolName}-hour-${stamp}`, scope: { kind: 'until', until: now + HOUR } } });
  out.push({ scope: 'session', rule: { ...base, id: `scoped-${view.toolName}-session-${stamp}`, scope: { kind: 'session' } } });
  const args = view.arguments;
  if (args !== null && typeof args === 'object' && !Array.isArray(args)) {
    const scalars = Object.entries(args).filter(([, value]) => value !== null && ['string', 'number', 'boolean'].includes(typeof value));
    for (const [name, value] of scalars.slice(0, ARGUMENTS_OFFERED)) {
      out.push({
        scope: 'hour',
        argument: { name, value },
        rule: {
          ...base,
          id: `scoped-${view.toolName}-${name}-hour-${stamp}`,
          when: [{ pointer: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, equals: value }],
          scope: { kind: 'until', until: now + HOUR },
        },
      });
    }
  }
  return out;
}
