/**
 * Making a rule: `createPolicyRule` checks a rule given as data (from code, from the dialog, or
 * read back from storage after a reload) and returns it frozen, or refuses it with the reason.
 * An `allow` for a tool that may never be allowed automatically (high risk, risk not declared,
 * confirm every time) is refused here, when it is made, not silently ignored later.
 */
import { deepFreeze } from '../json/json-value';
import { resolveToolDescriptor, type ToolDescriptor } from '../approval/tool-descriptor';
import { allowGrantRefusal } from '../approval/tool-grants';
import { anchored, NEVER_ALLOWED_WHY } from './evaluate-rules';
import { parseJsonPointer } from './json-pointer';
import type { PolicyCondition, PolicyRule } from './policy-types';

/**
 * The result of {@link createPolicyRule}.
 *
 * @example
 * const made: PolicyRuleCheck = createPolicyRule(rule);
 * if (!made.ok) console.warn(made.reason);
 */
export type PolicyRuleCheck = { ok: true; rule: Readonly<PolicyRule> } | { ok: false; reason: string };

/**
 * What the check knows of the tools: their descriptors, by name (`undefined`: not known yet).
 *
 * @example
 * const context: PolicyRuleContext = { describe: (name) => descriptors[name] };
 */
export interface PolicyRuleContext {
  describe?: (toolName: string) => Partial<ToolDescriptor> | null | undefined;
}

const DECISIONS = ['allow', 'deny', 'ask'];
const ORIGINS = ['app', 'person', 'grant'];
const TESTS = ['equals', 'oneOf', 'prefix', 'pattern', 'command', 'minimum', 'maximum'] as const;

/**
 * Checks a rule and returns it frozen, or the reason it is refused.
 *
 * @example
 * const made = createPolicyRule(
 *   { id: 'no-deploy', decision: 'allow', tools: ['deploy'], scope: { kind: 'session' }, origin: 'app' },
 *   { describe: () => ({ effect: 'write', risk: 'high', requiresConfirmation: true }) },
 * );
 * // { ok: false, reason: 'rule no-deploy: deploy: a high-risk tool is never allowed automatically: a person decides' }
 */
export function createPolicyRule(rule: unknown, context: PolicyRuleContext = {}): PolicyRuleCheck {
  const problem = check(rule, context);
  if (problem !== undefined) {
    const id = isRecord(rule) && typeof rule['id'] === 'string' ? `rule ${rule['id']}: ` : 'rule: ';
    return { ok: false, reason: id + problem };
  }
  // A copy, so that the caller's object changing later cannot change the rule.
  return { ok: true, rule: deepFreeze(structuredClone(rule) as PolicyRule) };
}

function check(rule: unknown, context: PolicyRuleContext): string | undefined {
  if (!isRecord(rule)) return 'a rule is an object';
  if (typeof rule['id'] !== 'string' || rule['id'] === '') return 'id must be a non-empty string';
  if (!DECISIONS.includes(rule['decision'] as string)) return "decision must be 'allow', 'deny' or 'ask'";
  if (!ORIGINS.includes(rule['origin'] as string)) return "origin must be 'app', 'person' or 'grant'";
  const tools = rule['tools'];
  if (!Array.isArray(tools) || tools.length === 0 || !tools.every((t) => typeof t === 'string' && t !== '')) {
    return "tools must be a non-empty list of tool names ('*' for any)";
  }
  const scopeProblem = checkScope(rule['scope']);
  if (scopeProblem !== undefined) return scopeProblem;
  if (rule['when'] !== undefined) {
    if (!Array.isArray(rule['when'])) return 'when must be a list of conditions';
    for (const [index, condition] of (rule['when'] as unknown[]).entries()) {
      const problem = checkCondition(condition);
      if (problem !== undefined) return `when[${index}]: ${problem}`;
    }
  }
  if (rule['definitionFingerprint'] !== undefined && typeof rule['definitionFingerprint'] !== 'string') {
    return 'definitionFingerprint must be a string';
  }
  if (rule['label'] !== undefined && typeof rule['label'] !== 'string') return 'label must be a string';
  if (rule['decision'] === 'allow' && context.describe !== undefined) {
    for (const tool of tools as string[]) {
      if (tool === '*') continue;
      const refusal = allowGrantRefusal(resolveToolDescriptor(context.describe(tool)));
      if (refusal !== undefined) return `${tool}: ${NEVER_ALLOWED_WHY[refusal]}`;
    }
  }
  try {
    structuredClone(rule);
  } catch {
    return 'a rule is plain data';
  }
  return undefined;
}

function checkScope(scope: unknown): string | undefined {
  if (!isRecord(scope)) return "scope must be { kind: 'once' | 'turn' | 'session' | 'until' }";
  switch (scope['kind']) {
    case 'once':
    case 'session':
      return undefined;
    case 'turn':
      return typeof scope['turnId'] === 'string' && scope['turnId'] !== '' ? undefined : 'a turn scope names its turnId';
    case 'until':
      return typeof scope['until'] === 'number' && Number.isFinite(scope['until']) ? undefined : 'an until scope gives a time (ms since the epoch)';
    default:
      return "scope must be { kind: 'once' | 'turn' | 'session' | 'until' }";
  }
}

function checkCondition(condition: unknown): string | undefined {
  if (!isRecord(condition)) return 'a condition is an object';
  if (typeof condition['pointer'] !== 'string' || parseJsonPointer(condition['pointer']) === undefined) {
    return 'pointer must be a JSON Pointer such as /path/0/to';
  }
  const tests = TESTS.filter((test) => condition[test] !== undefined);
  const bounds = tests.filter((t) => t === 'minimum' || t === 'maximum');
  if (tests.length === 0) return 'a condition needs a test: equals, oneOf, prefix, pattern, command, minimum or maximum';
  if (tests.length !== bounds.length && tests.length > 1) return `one test per condition, not ${tests.join(' and ')}`;
  const c = condition as PolicyCondition & Record<string, unknown>;
  if ('oneOf' in c && !Array.isArray(c.oneOf)) return 'oneOf must be a list';
  if ('prefix' in c && typeof c.prefix !== 'string') return 'prefix must be a string';
  if ('pattern' in c && (typeof c.pattern !== 'string' || anchored(c.pattern) === undefined)) return 'pattern must be a valid regular expression';
  for (const bound of bounds) {
    if (typeof c[bound] !== 'number' || !Number.isFinite(c[bound])) return `${bound} must be a finite number`;
  }
  if ('command' in c) {
    const command = c.command as unknown;
    if (!isRecord(command) || typeof command['program'] !== 'string' || command['program'] === '') return 'command needs a program';
    const args = command['args'];
    if (args !== undefined && (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))) return 'command args must be a list of words';
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
