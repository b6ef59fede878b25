/**
 * What a tool says about itself before it runs: its effect, its risk, the action its caller
 * needs, and whether a person must confirm it.
 *
 * seed 002 ("Tools"): "The descriptor includes the tool name, input schema, read/write effect,
 * required action, and confirmation requirement."
 * DESIGN "Confirmation": "a missing descriptor counts as a write that needs confirmation".
 */

import type { ToolRisk } from './wire';

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
}

/**
 * The descriptor used when a tool has none: a high-risk write that needs confirmation.
 * DESIGN fixes "write" and "needs confirmation"; the risk is not given, and a tool nobody
 * described is assumed to be as risky as any (`high`).
 *
 * @example
 * resolveToolDescriptor(undefined) === MISSING_TOOL_DESCRIPTOR // true
 */
export const MISSING_TOOL_DESCRIPTOR: Readonly<ToolDescriptor> = Object.freeze({
  effect: 'write',
  risk: 'high',
  requiresConfirmation: true,
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
  const out: ToolDescriptor = {
    effect: descriptor.effect === 'read' ? 'read' : 'write',
    risk: typeof descriptor.risk === 'string' && RISKS.includes(descriptor.risk) ? descriptor.risk : 'high',
    requiresConfirmation: descriptor.requiresConfirmation !== false,
  };
  if (typeof descriptor.requiredAction === 'string') out.requiredAction = descriptor.requiredAction;
  if (typeof descriptor.description === 'string') out.description = descriptor.description;
  if (typeof descriptor.title === 'string') out.title = descriptor.title;
  return Object.freeze(out);
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
