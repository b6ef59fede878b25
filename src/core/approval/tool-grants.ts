/**
 * Standing grants (docs/protocol.md, "Edits, grants and batches"): besides approving one request, a person may
 * allow a tool for the rest of the session, or deny it for the rest of the session. A grant is
 * plain data (tool name, decision, when), kept in a small external store of its own so that it can
 * be listed, revoked, saved and restored (a page that resumes its session after a reload restores
 * them). The confirmation controller reads it: a grant answers the requests of its tool, each still
 * bound to its own snapshot and fingerprint; revoking it stops that at once.
 */

import { isRuleShaped } from './policy-rule-shape';
import { createExternalStore, type ErrorReporter } from '../external-store';
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
 * {@link ToolGrants.restore} (`version` lets a later format read an older one).
 *
 * @example
 * sessionStorage.setItem('grants', JSON.stringify(grants.save() satisfies ToolGrantsSnapshot));
 */
export interface ToolGrantsSnapshot {
  readonly version: 1;
  readonly grants: readonly ToolGrant[];
  /** The scoped grants a person made in the dialog (policy rules), when there are any. */
  readonly rules?: readonly PolicyRule[];
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
 * The grants store's state: every grant, oldest first. A new object on every change.
 *
 * @example
 * const { grants }: ToolGrantsState = toolGrants.getState();
 */
export interface ToolGrantsState {
  readonly grants: readonly ToolGrant[];
  /** Scoped grants a person made in the dialog: policy rules, oldest first (see {@link ToolGrants.keepRule}). */
  readonly rules: readonly PolicyRule[];
}

/**
 * The standing grants of one session, as an external store. One grant per tool: a new decision for
 * a tool replaces the one before.
 *
 * @example
 * const grants: ToolGrants = createToolGrants();
 * grants.allow('search_docs');
 * grants.revoke(grants.find('search_docs')!.id);
 */
export interface ToolGrants {
  /**
   * Allow `toolName` for the rest of the session, bound to its `definition` fingerprint when given.
   * Whether a request takes it is the request's own matter (see {@link allowGrantRefusal}).
   */
  allow(toolName: string, definition?: DefinitionFingerprint): ToolGrant;
  /** Deny `toolName` for the rest of the session, bound to its `definition` fingerprint when given. */
  deny(toolName: string, definition?: DefinitionFingerprint): ToolGrant;
  /** Remove a grant; later requests of its tool are asked again. Returns whether it existed. */
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
  /** The grant of `toolName`, if there is one. */
  find(toolName: string): ToolGrant | undefined;
  /** The grants as plain data. */
  save(): ToolGrantsSnapshot;
  /**
   * Replace the grants with saved ones. Each entry is checked (a tool name, a decision, a time);
   * one that is not well formed is refused and named in `refused`, never half taken.
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
  const publish = (grants: readonly ToolGrant[], rules: readonly PolicyRule[] = store.getState().rules): void =>
    store.setState(Object.freeze({ grants: Object.freeze([...grants]), rules: Object.freeze([...rules]) }), true);
  const nextId = (): string => {
    const taken = new Set(store.getState().grants.map((grant) => grant.id));
    let id: string;
    do id = `grant-${++counter}`;
    while (taken.has(id));
    return id;
  };
  const give = (toolName: string, decision: ToolGrantDecision, definition: DefinitionFingerprint | undefined): ToolGrant => {
    if (typeof toolName !== 'string' || toolName === '') throw new TypeError('A grant needs a tool name (a non-empty string)');
    if (definition !== undefined && !isDefinitionFingerprint(definition)) throw new TypeError('A grant\'s definition must be a definition fingerprint (fingerprintToolDefinition)');
    const bound = definition === undefined ? {} : { definition: Object.freeze({ hex: definition.hex, short: definition.short, parts: Object.freeze({ ...definition.parts }) }) };
    const grant: ToolGrant = Object.freeze({ id: nextId(), toolName, decision, grantedAt: now(), ...bound });
    publish([...store.getState().grants.filter((g) => g.toolName !== toolName), grant]);
    return grant;
  };

  const grants: ToolGrants = {
    allow: (toolName, definition) => give(toolName, 'allow', definition),
    deny: (toolName, definition) => give(toolName, 'deny', definition),
    revoke(id) {
      const before = store.getState().grants;
      const after = before.filter((grant) => grant.id !== id);
      if (after.length === before.length) return false;
      publish(after);
      return true;
    },
    revokeAll() {
      const count = store.getState().grants.length + store.getState().rules.length;
      if (count > 0) publish([], []);
      return count;
    },
    keepRule(rule) {
      if (!isRuleShaped(rule)) throw new TypeError('keepRule takes a policy rule (id, decision, tools, scope, origin)');
      const kept = copyRule(rule);
      if (kept === undefined) throw new TypeError('A rule is plain data');
      const state = store.getState();
      publish(state.grants, [...state.rules.filter((r) => r.id !== kept.id), kept]);
      return kept;
    },
    dropRule(id) {
      const state = store.getState();
      const after = state.rules.filter((rule) => rule.id !== id);
      if (after.length === state.rules.length) return false;
      publish(state.grants, after);
      return true;
    },
    find: (toolName) => store.getState().grants.find((grant) => grant.toolName === toolName),
    save: () => {
      const { grants: given, rules } = store.getState();
      return Object.freeze({ version: 1 as const, grants: given, ...(rules.length === 0 ? {} : { rules }) });
    },
    restore(saved) {
      const { taken, refused } = readSaved(saved);
      const rules = readSavedRules(saved, refused);
      publish(taken, rules);
      for (const reason of refused) {
        try {
          options.onError?.(`A saved grant was refused: ${reason}`, saved, 'invalid-grant');
        } catch {
          // The reporter threw: the grants are restored all the same.
        }
      }
      return Object.freeze({ restored: taken.length + rules.length, refused: Object.freeze(refused) });
    },
    subscribe: store.subscribe,
    getState: store.getState,
    getInitialState: store.getInitialState,
  };
  if (options.saved !== undefined && options.saved !== null) grants.restore(options.saved);
  return grants;
}

/** Check saved grants field by field: what is taken is a fresh object, so nothing of the input (a getter, `__proto__`) comes along. */
function readSaved(saved: unknown): { taken: ToolGrant[]; refused: string[] } {
  const refused: string[] = [];
  const list = typeof saved === 'object' && saved !== null && !Array.isArray(saved) ? read(() => (saved as { grants?: unknown }).grants) : undefined;
  const version = typeof saved === 'object' && saved !== null ? read(() => (saved as { version?: unknown }).version) : undefined;
  if (version !== 1 || !Array.isArray(list)) return { taken: [], refused: ['not a saved set of grants (version 1 with a list of grants)'] };
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
    // One grant per tool: the later one in the list wins, as it would have when it was given.
    byTool.delete(toolName);
    const bound = definition === undefined ? {} : { definition: Object.freeze({ hex: definition.hex, short: definition.short, parts: Object.freeze({ ...definition.parts }) }) };
    byTool.set(toolName, Object.freeze({ id, toolName, decision, grantedAt, ...bound }));
  });
  return { taken: [...byTool.values()], refused };
}

/** The saved scoped grants (rules), each checked for its shape and copied; what is not a rule is refused by index. */
function readSavedRules(saved: unknown, refused: string[]): PolicyRule[] {
  const list = typeof saved === 'object' && saved !== null ? read(() => (saved as { rules?: unknown }).rules) : undefined;
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    refused.push('rules is not a list');
    return [];
  }
  const byId = new Map<string, PolicyRule>();
  list.forEach((entry: unknown, index) => {
    const rule = isRuleShaped(entry) ? copyRule(entry) : undefined;
    if (rule === undefined) return void refused.push(`rules[${index}] is not a policy rule`);
    byId.set(rule.id, rule);
  });
  return [...byId.values()];
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
 * A standing grant as the policy rule it is: its decision for its tool, for the session, with
 * origin `grant` (bound to the tool's definition when the grant is).
 *
 * @example
 * const rule: PolicyRule = ruleOfGrant(grants.find('search_docs')!);
 * // { id: 'grant-1', decision: 'allow', tools: ['search_docs'], scope: { kind: 'session' }, origin: 'grant' }
 */
export function ruleOfGrant(grant: ToolGrant): PolicyRule {
  return Object.freeze({
    id: grant.id,
    decision: grant.decision,
    tools: Object.freeze([grant.toolName]),
    scope: Object.freeze({ kind: 'session' as const }),
    origin: 'grant' as const,
    ...(grant.definition === undefined ? {} : { definitionFingerprint: grant.definition.hex }),
  });
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
