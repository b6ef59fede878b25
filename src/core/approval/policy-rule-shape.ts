/**
 * The shape of a policy rule, checked without the policy entry (no shell parser): what the standing
 * grants take back after a reload. The policy's own check (`createPolicyRule`) runs again before a
 * rule is kept from the dialog, where a policy is given.
 */
import type { PolicyRule } from '../policy/policy-types';

/** Whether `value` has the shape of a rule (id, decision, tools, scope, origin), checked field by field. */
export function isRuleShaped(value: unknown): value is PolicyRule {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const rule = value as Record<string, unknown>;
  const scope = rule['scope'] as Record<string, unknown> | null | undefined;
  if (typeof rule['id'] !== 'string' || rule['id'] === '') return false;
  if (!['allow', 'deny', 'ask'].includes(rule['decision'] as string)) return false;
  if (!['app', 'person', 'grant'].includes(rule['origin'] as string)) return false;
  if (!Array.isArray(rule['tools']) || rule['tools'].length === 0 || !rule['tools'].every((t) => typeof t === 'string' && t !== '')) return false;
  if (rule['when'] !== undefined && !Array.isArray(rule['when'])) return false;
  if (rule['label'] !== undefined && typeof rule['label'] !== 'string') return false;
  if (rule['definitionFingerprint'] !== undefined && typeof rule['definitionFingerprint'] !== 'string') return false;
  if (rule['madeAt'] !== undefined && (typeof rule['madeAt'] !== 'number' || !Number.isFinite(rule['madeAt']))) return false;
  if (scope === null || typeof scope !== 'object') return false;
  switch (scope['kind']) {
    case 'once':
    case 'session':
      return true;
    case 'turn':
      return typeof scope['turnId'] === 'string';
    case 'until':
      return typeof scope['until'] === 'number' && Number.isFinite(scope['until']);
    default:
      return false;
  }
}
