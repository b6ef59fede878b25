/**
 * Standing grants (docs/protocol.md, "Edits, grants and batches"): besides approving one request, a person may
 * allow a tool for the rest of the session, or deny it for the rest of the session. A standing grant
 * is kept as the policy rule it is (origin `grant`, scope `session`), beside the scoped grants a
 * person makes in the dialog, in a small external store of its own: plain data that is listed,
 * revoked, saved and restored (a page that resumes its session after a reload restores them). The
 * confirmation controller evaluates these rules with the app's own (docs/architecture.md,
 * "Policies"): one path answers every request that nobody looks at, and revoking a grant removes
 * its rule, so it answers nothing more.
 */

import { isRuleShaped } from './policy-rule-shape';
import { createExternalStore, type ErrorReporter } from '../external-store';
import { formatFingerprint } from '../json/fingerprint';
import { deepFreeze } from '../json/json-value';
import type { PolicyRule } from '../policy/policy-types';
import type { ToolDescriptor } from './tool-descriptor';
import { isDefinitionFingerprint, type DefinitionFingerprint } from './tool-definition';

/**
 * What a standing grant says to every later request of its tool: approve it, or deny it.
 *
 * @example
 * const decision: ToolGrantDecision = 'deny';
 */
export type ToolGrantDecision = 'allow' | 'deny';

/**
 * One standing grant: plain, frozen data (it survives `JSON.stringify` and `JSON.parse` unchanged).
 *
 * @example
 * const grant: ToolGrant = { id: 'grant-1', toolName: 'search_docs', decision: 'allow', grantedAt: Date.now() };
 */
export interface ToolGrant {
  readonly id: string;
  readonly toolName: string;
  readonly decision: ToolGrantDecision;
  /** When it was given, in ms since the epoch. */
  readonly grantedAt: number;
  /**
   * The tool's definition fingerprint when the grant was given, where the definition was known: the
   * grant answers only requests of that same definition (a changed description, schema or
   * descriptor is asked about again). Without it the grant is bound to the tool's name only.
   */
  readonly definition?: DefinitionFingerprint;
}

/**
 * The grants as plain data, to keep where the application chooses and give back to
 * {@link ToolGrants.restore}: every grant as its rule. `version` lets a later format read an older
 * one (a version 1 set, with its standing grants listed apart, is still read).
 *
 * @example
 * sessionStorage.setItem('grants', JSON.stringify(grants.save() satisfies ToolGrantsSnapshot));
 */
export interface ToolGrantsSnapshot {
  readonly version: 2;
  /** The standing grants (origin `grant`) and the scoped grants a person made in the dialog, as policy rules. */
  readonly rules: readonly PolicyRule[];
}

/**
 * What {@link ToolGrants.restore} took back, and what it refused (each with why).
 *
 * @example
 * const { restored, refused }: ToolGrantsRestore = grants.restore(saved);
 */
export interface ToolGrantsRestore {
  readonly restored: number;
  readonly refused: readonly string[];
}

/**
 * The grants store's state. A new object on every change.
 *
 * @example
 * const { grants, rules }: ToolGrantsState = toolGrants.getState();
 */
export interface ToolGrantsState {
  /** The standing grants, oldest first: the rules of origin `grant`, read as grants (for lists that name the tool). */
  readonly grants: readonly ToolGrant[];
  /** Every rule a person gave, oldest first: the standing grants' and the scoped grants' (see {@link ToolGrants.keepRule}). */
  readonly rules: readonly PolicyRule[];
}

/**
 * The standing grants of one session, as an external store. One standing grant per tool: a new
 * decision for a tool replaces the one before.
 *
 * @example
 * const grants: ToolGrants = createToolGrants();
 * grants.allow('search_docs');
 * grants.revoke(grants.find('search_docs')!.id);
 */
export interface ToolGrants {
  /**
   * Allow `toolName` for the rest of the session, bound to its `definition` fingerprint when given:
   * kept as a rule of origin `grant`, named `label` where it answers ("Allowed by …"; by default
   * the tool's name and "for this session"). Whether a request takes it is the request's own
   * matter (see {@link allowGrantRefusal}).
   */
  allow(toolName: string, definition?: DefinitionFingerprint, label?: string): ToolGrant;
  /** Deny `toolName` for the rest of the session, bound to its `definition` fingerprint when given (kept as a rule, as `allow`). */
  deny(toolName: string, definition?: DefinitionFingerprint, label?: string): ToolGrant;
  /** Remove a standing grant, and so its rule; later requests of its tool are asked again. Returns whether it existed. */
  revoke(id: string): boolean;
  /** Remove every grant and every kept rule; returns how many there were. */
  revokeAll(): number;
  /**
   * Keep a scoped grant: a policy rule made in the dialog (copied and frozen; one with the same id
   * is replaced). The confirmation controller evaluates it with its policy's rules. Throws a
   * TypeError for a value that is not shaped as a rule.
   */
  keepRule(rule: PolicyRule): PolicyRule;
  /** Remove a kept rule (revoked, or a `once` rule used up). Returns whether it existed. */
  dropRule(id: string): boolean;
  /** The standing grant of `toolName`, if there is one. */
  find(toolName: string): ToolGrant | undefined;
  /** The grants as plain data: every one as its rule. */
  save(): ToolGrantsSnapshot;
  /**
   * Replace the grants with saved ones. Each entry is checked (a rule's shape; in a version 1 set, a
   * grant's tool name, decision and time); one that is not well formed is refused and named in
   * `refused`, never half taken.
   */
  restore(saved: unknown): ToolGrantsRestore;
  subscribe(listener: (state: ToolGrantsState, previous: ToolGrantsState) => void): () => void;
  getState(): ToolGrantsState;
  getInitialState(): ToolGrantsState;
}

/**
 * Options of {@link createToolGrants}.
 *
 * @example
 * createToolGrants({ saved: JSON.parse(sessionStorage.getItem('grants') ?? 'null') } satisfies ToolGrantsOptions);
 */
export interface ToolGrantsOptions {
  /** Grants to start with (what {@link ToolGrants.save} gave); checked like {@link ToolGrants.restore}. */
  saved?: unknown;
  /** The wall clock, in ms since the epoch (default `Date.now`). */
  now?: () => number;
  /** Told of listeners that throw (`listener-threw`) and of saved grants that were refused (`invalid-grant`). */
  onError?: ErrorReporter;
}

const EMPTY: ToolGrantsState = Object.freeze({ grants: Object.freeze([]) as readonly ToolGrant[], rules: Object.freeze([]) as readonly PolicyRule[] });

/** Whether a kept rule is a standing grant: one tool, for the session, given from the dialog's "… for this session". */
const isGrantRule = (rule: PolicyRule): boolean => rule.origin === 'grant' && rule.tools.length === 1 && rule.scope.kind === 'session' && rule.decision !== 'ask';

/**
 * Create the standing grants of a session. The confirmation controller makes one for itself unless
 * it is given one (`createConfirmationController({ grants })`); read it as `controller.grants`.
 *
 * @example
 * const grants = createToolGrants();
 * const confirmations = createConfirmationController({ grants });
 * grants.allow('search_docs'); // answers the queued requests of search_docs, and later ones
 */
export function createToolGrants(options: ToolGrantsOptions = {}): ToolGrants {
  const store = createExternalStore<ToolGrantsState>(EMPTY, { onError: options.onError });
  const now = options.now ?? Date.now;
  let counter = 0;
  const publish = (rules: readonly PolicyRule[]): void =>
    store.setState(Object.freeze({ grants: Object.freeze(rules.filter(isGrantRule).map(grantOfRule)), rules: Object.freeze([...rules]) }), true);
  const nextId = (): string => {
    const taken = new Set(store.getState().rules.map((rule) => rule.id));
    let id: string;
    do id = `grant-${++counter}`;
    while (taken.has(id));
    return id;
  };
  const give = (toolName: string, decision: ToolGrantDecision, definition: DefinitionFingerprint | undefined, label: string | undefined): ToolGrant => {
    if (typeof toolName !== 'string' || toolName === '') throw new TypeError('A grant needs a tool name (a non-empty string)');
    if (definition !== undefined && !isDefinitionFingerprint(definition)) throw new TypeError('A grant\'s definition must be a definition fingerprint (fingerprintToolDefinition)');
    if (label !== undefined && (typeof label !== 'string' || label === '')) throw new TypeError('A grant\'s label must be a non-empty string');
    const grant: ToolGrant = Object.freeze({ id: nextId(), toolName, decision, grantedAt: now(), ...(definition === undefined ? {} : { definition }) });
    const rule = ruleOfGrant(grant, label);
    // One standing grant per tool: the new one replaces the one before, wherever it stood.
    publish([...store.getState().rules.filter((r) => !(isGrantRule(r) && r.tools[0] === toolName)), rule]);
    return grantOfRule(rule);
  };
  const drop = (id: string): boolean => {
    const before = store.getState().rules;
    const after = before.filter((rule) => rule.id !== id);
    if (after.length === before.length) return false;
    publish(after);
    return true;
  };

  const grants: ToolGrants = {
    allow: (toolName, definition, label) => give(toolName, 'allow', definition, label),
    deny: (toolName, definition, label) => give(toolName, 'deny', definition, label),
    revoke: (id) => store.getState().grants.some((grant) => grant.id === id) && drop(id),
    revokeAll() {
      const count = store.getState().rules.length;
      if (count > 0) publish([]);
      return count;
    },
    keepRule(rule) {
      if (!isRuleShaped(rule)) throw new TypeError('keepRule takes a policy rule (id, decision, tools, scope, origin)');
      const kept = copyRule(rule);
      if (kept === undefined) throw new TypeError('A rule is plain data');
      publish([...store.getState().rules.filter((r) => r.id !== kept.id), kept]);
      return kept;
    },
    dropRule: drop,
    find: (toolName) => store.getState().grants.find((grant) => grant.toolName === toolName),
    save: () => Object.freeze({ version: 2 as const, rules: store.getState().rules }),
    restore(saved) {
      const { rules, refused } = readSaved(saved);
      publish(rules);
      for (const reason of refused) {
        try {
          options.onError?.(`A saved grant was refused: ${reason}`, saved, 'invalid-grant');
        } catch {
          // The reporter threw: the grants are restored all the same.
        }
      }
      return Object.freeze({ restored: rules.length, refused: Object.freeze(refused) });
    },
    subscribe: store.subscribe,
    getState: store.getState,
    getInitialState: store.getInitialState,
  };
  if (options.saved !== undefined && options.saved !== null) grants.restore(options.saved);
  return grants;
}

/**
 * Check saved grants entry by entry: what is taken is a fresh object, so nothing of the input (a
 * getter, `__proto__`) comes along. Version 2 lists rules; version 1 listed standing grants apart
 * (each becomes its rule) and scoped grants as rules.
 */
function readSaved(saved: unknown): { rules: PolicyRule[]; refused: string[] } {
  const refused: string[] = [];
  const version = typeof saved === 'object' && saved !== null && !Array.isArray(saved) ? read(() => (saved as { version?: unknown }).version) : undefined;
  const byId = new Map<string, PolicyRule>();
  if (version === 1) {
    const list = read(() => (saved as { grants?: unknown }).grants);
    if (!Array.isArray(list)) return { rules: [], refused: ['not a saved set of grants (version 1 with a list of grants)'] };
    for (const grant of readSavedGrants(list, refused)) byId.set(grant.id, ruleOfGrant(grant));
  } else if (version !== 2) {
    return { rules: [], refused: ['not a saved set of grants (version 2 with a list of rules)'] };
  }
  const list = read(() => (saved as { rules?: unknown }).rules);
  if (list === undefined && version === 1) return { rules: [...byId.values()], refused };
  if (!Array.isArray(list)) return { rules: [...byId.values()], refused: [...refused, 'rules is not a list'] };
  list.forEach((entry: unknown, index) => {
    const rule = isRuleShaped(entry) ? copyRule(entry) : undefined;
    if (rule === undefined) return void refused.push(`rules[${index}] is not a policy rule`);
    // A standing grant's rule bound to a definition is never taken unbound: that would widen what it answers.
    if (rule.origin === 'grant' && rule.definitionParts !== undefined && !isDefinitionFingerprint(definitionOfRule(rule))) {
      return void refused.push(`rules[${index}] has a definition that is not a definition fingerprint`);
    }
    byId.delete(rule.id);
    byId.set(rule.id, rule);
  });
  // One standing grant per tool: the later one in the list wins, as it would have when it was given.
  const rules = [...byId.values()];
  return { rules: rules.filter((rule, index) => !isGrantRule(rule) || !rules.slice(index + 1).some((later) => isGrantRule(later) && later.tools[0] === rule.tools[0])), refused };
}

/** The standing grants of a version 1 set, each checked field by field. */
function readSavedGrants(list: unknown[], refused: string[]): ToolGrant[] {
  const byTool = new Map<string, ToolGrant>();
  const ids = new Set<string>();
  list.forEach((entry: unknown, index) => {
    const field = (key: string): unknown => (typeof entry === 'object' && entry !== null ? read(() => (entry as Record<string, unknown>)[key]) : undefined);
    const id = field('id');
    const toolName = field('toolName');
    const decision = field('decision');
    const grantedAt = field('grantedAt');
    const definition = field('definition');
    if (typeof id !== 'string' || id === '' || ids.has(id)) return void refused.push(`grants[${index}] has no id of its own`);
    if (typeof toolName !== 'string' || toolName === '') return void refused.push(`grants[${index}] names no tool`);
    if (decision !== 'allow' && decision !== 'deny') return void refused.push(`grants[${index}] is neither allow nor deny`);
    if (typeof grantedAt !== 'number' || !Number.isFinite(grantedAt)) return void refused.push(`grants[${index}] has no time`);
    // A grant bound to a definition is never taken unbound: that would widen what it answers.
    if (definition !== undefined && !isDefinitionFingerprint(definition)) return void refused.push(`grants[${index}] has a definition that is not a definition fingerprint`);
    ids.add(id);
    byTool.delete(toolName);
    byTool.set(toolName, { id, toolName, decision, grantedAt, ...(definition === undefined ? {} : { definition }) });
  });
  return [...byTool.values()];
}

/** A rule as a fresh, frozen copy through JSON: nothing of the input (a getter, a prototype) comes along. */
function copyRule(rule: PolicyRule): PolicyRule | undefined {
  try {
    return deepFreeze(JSON.parse(JSON.stringify(rule)) as PolicyRule);
  } catch {
    return undefined;
  }
}

/**
 * A standing grant as the policy rule it is kept as: its decision for its tool, for the session,
 * with origin `grant`, the time it was given, and the tool's definition (its fingerprint and its
 * parts' fingerprints) when the grant is bound to one. `label` names it where it answers ("Allowed
 * by …"): the tool's name and "for this session" unless given.
 *
 * @example
 * const rule: PolicyRule = ruleOfGrant(grants.find('search_docs')!);
 * // { id: 'grant-1', decision: 'allow', tools: ['search_docs'], scope: { kind: 'session' }, origin: 'grant', label: 'search_docs for this session', madeAt: … }
 */
export function ruleOfGrant(grant: ToolGrant, label: string = `${grant.toolName} for this session`): PolicyRule {
  return deepFreeze({
    id: grant.id,
    decision: grant.decision,
    tools: [grant.toolName],
    scope: { kind: 'session' as const },
    origin: 'grant' as const,
    label,
    madeAt: grant.grantedAt,
    ...(grant.definition === undefined ? {} : { definitionFingerprint: grant.definition.hex, definitionParts: { ...grant.definition.parts } }),
  });
}

/** A standing grant's rule read back as the grant (for lists, and for the dialog's "the definition changed since you allowed it"). */
function grantOfRule(rule: PolicyRule): ToolGrant {
  const definition = definitionOfRule(rule);
  return Object.freeze({
    id: rule.id,
    toolName: rule.tools[0] as string,
    decision: rule.decision as ToolGrantDecision,
    grantedAt: rule.madeAt ?? 0,
    ...(definition === undefined ? {} : { definition }),
  });
}

/** The definition fingerprint a rule is bound to, with its parts when the rule keeps them. */
function definitionOfRule(rule: PolicyRule): DefinitionFingerprint | undefined {
  const hex = rule.definitionFingerprint;
  if (hex === undefined) return undefined;
  return Object.freeze({ hex, short: formatFingerprint(hex), parts: Object.freeze({ ...(rule.definitionParts ?? {}) }) as DefinitionFingerprint['parts'] });
}

function read(get: () => unknown): unknown {
  try {
    return get();
  } catch {
    return undefined;
  }
}

/**
 * Why a request of a tool with this descriptor never takes an allow grant, or `undefined` when it
 * may: a high-risk tool (`high-risk`), one whose risk is not declared and so is assumed high
 * (`risk-not-declared`), or one that must be confirmed every time (`every-time`). A deny grant may
 * answer any request: saying no is always safe.
 *
 * @example
 * allowGrantRefusal({ effect: 'write', risk: 'high', requiresConfirmation: true }) // 'high-risk'
 * allowGrantRefusal({ effect: 'read', risk: 'low', requiresConfirmation: true })   // undefined
 */
export function allowGrantRefusal(descriptor: Readonly<ToolDescriptor>): AllowGrantRefusal | undefined {
  if (descriptor.confirmEveryTime === true) return 'every-time';
  if (descriptor.undeclared?.includes('risk') === true) return 'risk-not-declared';
  if (descriptor.risk === 'high') return 'high-risk';
  return undefined;
}

/**
 * Why a request does not take an allow grant (see {@link allowGrantRefusal}).
 *
 * @example
 * const why: AllowGrantRefusal = 'every-time';
 */
export type AllowGrantRefusal = 'high-risk' | 'risk-not-declared' | 'every-time';
