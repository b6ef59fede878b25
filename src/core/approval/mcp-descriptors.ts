/**
 * Tool descriptors from MCP tool annotations (what a descriptor is: docs/protocol.md, "Rooms"). MCP's annotations are hints a server gives about its own tools; the specification says a
 * client must not trust them from a server it does not trust. So they become a descriptor only for
 * a server the application marks trusted; any other server's tools are described as declaring
 * nothing, which means: a write, risk not declared, confirmed by a person every time it is asked.
 */

import { resolveToolDescriptor, type ToolDescriptor, type ToolDescriptorField } from './tool-descriptor';

/**
 * The annotations of an MCP tool (`tools/list`), each optional; other keys are ignored.
 *
 * @example
 * const hints: McpToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
 */
export interface McpToolAnnotations {
  title?: string;
  /** The tool does not change its environment. */
  readOnlyHint?: boolean;
  /** A write that may destroy or overwrite (meaningful when not read-only). */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** It reaches an open world of entities (the web), not a closed domain. */
  openWorldHint?: boolean;
}

/**
 * An MCP tool as `tools/list` gives it: the fields read here.
 *
 * @example
 * const tool: McpToolLike = { name: 'delete_repo', annotations: { destructiveHint: true } };
 */
export interface McpToolLike {
  name: string;
  title?: string;
  description?: string;
  annotations?: McpToolAnnotations | null;
}

/**
 * Options of {@link descriptorFromMcpTool}.
 *
 * @example
 * descriptorFromMcpTool(tool, { trusted: servers[serverName]?.trusted === true } satisfies McpDescriptorOptions);
 */
export interface McpDescriptorOptions {
  /**
   * The application trusts the server that lists this tool: its annotations become the
   * descriptor. Without it (the default) they are ignored.
   */
  trusted?: boolean;
  /** The authority a room checks before invoking, e.g. `tool:invoke:NAME`. */
  requiredAction?: string;
}

const flag = (annotations: McpToolAnnotations | null | undefined, key: keyof McpToolAnnotations): boolean | undefined => {
  if (typeof annotations !== 'object' || annotations === null || !Object.hasOwn(annotations, key)) return undefined;
  const value = annotations[key];
  return typeof value === 'boolean' ? value : undefined;
};

/**
 * The descriptor of an MCP tool. For a trusted server:
 * - `readOnlyHint: true` → effect `read` (and risk `low`); `false` → effect `write`;
 * - `destructiveHint: true` → risk `high`; `false` on a write → risk `medium`;
 * - `idempotentHint: true` → `retrySafe` (after an unknown outcome it may be tried again without a check);
 * - `openWorldHint` → `openWorld`.
 * What the annotations leave out stays undeclared: the dialog says "risk not declared", the flow
 * takes the cautious default (a high-risk write), and a person confirms it. A server that is not
 * trusted gives only the name, title and description, and every field is undeclared.
 * Confirmation is always required: a descriptor that skips review is the application's own choice.
 *
 * @example
 * descriptorFromMcpTool({ name: 'search', annotations: { readOnlyHint: true } }, { trusted: true });
 * // { effect: 'read', risk: 'low', requiresConfirmation: true, title: 'search' }
 * descriptorFromMcpTool({ name: 'search', annotations: { readOnlyHint: true } });
 * // { effect: 'write', risk: 'high', requiresConfirmation: true, undeclared: ['effect', 'risk'], title: 'search' }
 */
export function descriptorFromMcpTool(tool: McpToolLike, options: McpDescriptorOptions = {}): Readonly<ToolDescriptor> {
  const annotations = options.trusted === true ? tool.annotations : undefined;
  const readOnly = flag(annotations, 'readOnlyHint');
  const destructive = flag(annotations, 'destructiveHint');
  const idempotent = flag(annotations, 'idempotentHint');
  const openWorld = flag(annotations, 'openWorldHint');
  const out: Partial<ToolDescriptor> = { requiresConfirmation: true };
  const undeclared: ToolDescriptorField[] = [];
  if (readOnly === true) {
    out.effect = 'read';
    out.risk = 'low';
  } else if (readOnly === false) {
    out.effect = 'write';
    if (destructive === true) out.risk = 'high';
    else if (destructive === false) out.risk = 'medium';
    else undeclared.push('risk');
  } else {
    undeclared.push('effect');
    // A destructive hint says how risky a write is, even when the tool did not say it writes.
    if (destructive === true) out.risk = 'high';
    else undeclared.push('risk');
  }
  if (idempotent === true) out.retrySafe = true;
  if (openWorld !== undefined) out.openWorld = openWorld;
  const title = typeof annotations?.title === 'string' ? annotations.title : typeof tool.title === 'string' ? tool.title : undefined;
  out.title = title ?? tool.name;
  if (typeof tool.description === 'string') out.description = tool.description;
  if (typeof options.requiredAction === 'string') out.requiredAction = options.requiredAction;
  if (undeclared.length > 0) out.undeclared = undeclared;
  return resolveToolDescriptor(out);
}
