/**
 * What a tool says about itself before it runs: its effect, its risk, the action its caller
 * needs, and whether a person must confirm it.
 *
 * (docs/protocol.md, "Rooms"): "The descriptor includes the tool name, input schema, read/write effect,
 * required action, and confirmation requirement."
 * docs/protocol.md, "Confirmation": "a missing descriptor counts as a write that needs confirmation".
 */

import type { ToolRisk } from '../wire';

/**
 * `read` leaves the world as it was; `write` changes something.
 *
 * @example
 * const effect: ToolEffect = 'write';
 */
export type ToolEffect = 'read' | 'write';

/**
 * A tool's descriptor as the confirmation flow reads it.
 *
 * @example
 * const transfer: ToolDescriptor = {
 *   title: 'Transfer money',
 *   effect: 'write',
 *   risk: 'high',
 *   requiredAction: 'tool:invoke:transfer',
 *   requiresConfirmation: true,
 * };
 */
export interface ToolDescriptor {
  effect: ToolEffect;
  risk: ToolRisk;
  /** The authority the room checks before invoking, e.g. `tool:invoke:transfer`. */
  requiredAction?: string;
  /** `false`: invoked directly, without a confirmation id and without review. */
  requiresConfirmation: boolean;
  /** What the tool does, in words a person reads before approving. */
  description?: string;
  /** The proposed action's title in the dialog; the tool's name when absent. */
  title?: string;
  /**
   * Every call must be confirmed by a person, one at a time: "Allow for this session" is not
   * offered and no standing grant answers it (a high-risk tool is treated so whatever this says).
   */
  confirmEveryTime?: boolean;
  /** Running it twice does no more than running it once: after an unknown outcome it may be tried again without a check. */
  retrySafe?: boolean;
  /** It reaches beyond the application (the web, other services), as an MCP tool's `openWorldHint` says. */
  openWorld?: boolean;
  /**
   * The fields the tool did not declare, which took their cautious default (effect `write`, risk
   * `high`): the dialog says "risk not declared" rather than "High risk". Filled in by
   * {@link resolveToolDescriptor}.
   */
  undeclared?: readonly ToolDescriptorField[];
}

/**
 * A field of a descriptor a tool may leave undeclared.
 *
 * @example
 * const field: ToolDescriptorField = 'risk';
 */
export type ToolDescriptorField = 'effect' | 'risk';

/**
 * The descriptor used when a tool has none: a high-risk write that needs confirmation.
 * docs/protocol.md, "Rooms" fixes "write" and "needs confirmation"; the risk is not given, and a tool nobody
 * described is assumed to be as risky as any (`high`).
 *
 * @example
 * resolveToolDescriptor(undefined) === MISSING_TOOL_DESCRIPTOR // true
 */
export const MISSING_TOOL_DESCRIPTOR: Readonly<ToolDescriptor> = Object.freeze({
  effect: 'write',
  risk: 'high',
  requiresConfirmation: true,
  undeclared: Object.freeze(['effect', 'risk'] as const),
});

const RISKS: readonly string[] = ['low', 'medium', 'high'];

/**
 * The descriptor the flow acts on: a frozen copy of `descriptor`, or
 * {@link MISSING_TOOL_DESCRIPTOR} when there is none. A field that is missing or not one of
 * its values takes the cautious default of the missing-descriptor rule, field by field (effect
 * `write`, risk `high`, confirmation required), so a descriptor built in plain JavaScript
 * cannot skip review by leaving `requiresConfirmation` out.
 *
 * @example
 * resolveToolDescriptor(undefined).requiresConfirmation // true
 * resolveToolDescriptor({ effect: 'read', risk: 'low', requiresConfirmation: false }).effect // 'read'
 */
export function resolveToolDescriptor(descriptor?: Partial<ToolDescriptor> | null): Readonly<ToolDescriptor> {
  if (descriptor === undefined || descriptor === null) return MISSING_TOOL_DESCRIPTOR;
  const effectDeclared = descriptor.effect === 'read' || descriptor.effect === 'write';
  const riskDeclared = typeof descriptor.risk === 'string' && RISKS.includes(descriptor.risk);
  const out: ToolDescriptor = {
    effect: descriptor.effect === 'read' ? 'read' : 'write',
    risk: riskDeclared ? (descriptor.risk as ToolRisk) : 'high',
    requiresConfirmation: descriptor.requiresConfirmation !== false,
  };
  if (typeof descriptor.requiredAction === 'string') out.requiredAction = descriptor.requiredAction;
  if (typeof descriptor.description === 'string') out.description = descriptor.description;
  if (typeof descriptor.title === 'string') out.title = descriptor.title;
  if (descriptor.confirmEveryTime === true) out.confirmEveryTime = true;
  if (descriptor.retrySafe === true) out.retrySafe = true;
  if (typeof descriptor.openWorld === 'boolean') out.openWorld = descriptor.openWorld;
  // A field defaulted here, or one an earlier resolution (or the MCP mapping) already found undeclared.
  const given = Array.isArray(descriptor.undeclared) ? descriptor.undeclared : [];
  const undeclared = FIELDS.filter((field) => given.includes(field) || (field === 'effect' ? !effectDeclared : !riskDeclared));
  if (undeclared.length > 0) out.undeclared = Object.freeze(undeclared);
  return Object.freeze(out);
}

const FIELDS: readonly ToolDescriptorField[] = ['effect', 'risk'];

/**
 * Whether the descriptor leaves `field` undeclared (its value is the cautious default, not the tool's word).
 *
 * @example
 * isUndeclared(resolveToolDescriptor({ effect: 'write' }), 'risk') // true: shown as "risk not declared"
 */
export function isUndeclared(descriptor: Readonly<ToolDescriptor>, field: ToolDescriptorField): boolean {
  return descriptor.undeclared?.includes(field) === true;
}

/**
 * Whether a call of a tool with this descriptor must be confirmed by a person first.
 *
 * @example
 * needsConfirmation(undefined) // true: a missing descriptor counts as a write that needs confirmation
 */
export function needsConfirmation(descriptor?: Partial<ToolDescriptor> | null): boolean {
  return resolveToolDescriptor(descriptor).requiresConfirmation;
}
