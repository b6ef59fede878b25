/**
 * The descriptors a bridge reads from what the library already says of its tools: a tool's
 * description and title, an MCP server's annotations (only for servers the application trusts,
 * through `descriptorFromMcpTool`), and the AI SDK's `needsApproval`. An explicit `describe`
 * wins over all of it (docs/guarantees.md, "Bridges").
 */
import { descriptorFromMcpTool, type McpToolAnnotations } from '../../core/approval/mcp-descriptors';
import type { ToolDescriptor } from '../../core';

/**
 * What a library says of one tool, as far as a descriptor is read from it (an AI SDK `tool()`
 * fits, and so does a plain object).
 *
 * @example
 * const tools: Record<string, LibraryTool> = { deleteFile: { description: 'Delete a file', needsApproval: true } };
 */
export interface LibraryTool {
  description?: unknown;
  title?: unknown;
  /** The AI SDK's flag: the application asks a person before the tool runs. */
  needsApproval?: unknown;
  /** The AI SDK's tool metadata; `@ai-sdk/mcp` puts `{ clientName, title, annotations }` there. */
  metadata?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export interface DerivedDescriptors {
  /** Learn what the library says of a tool (a later word replaces an earlier one). */
  learn(name: string, tool: LibraryTool): void;
  /** The descriptor: the explicit one when `describe` gives one, else the derived one. */
  describe(name: string): Partial<ToolDescriptor> | undefined;
}

export function createDerivedDescriptors(
  explicit: ((name: string) => Partial<ToolDescriptor> | undefined) | undefined,
  trustedMcpClients: readonly string[] = [],
): DerivedDescriptors {
  const derived = new Map<string, Partial<ToolDescriptor>>();
  return {
    learn(name, tool) {
      const meta = isObject(tool.metadata) ? tool.metadata : undefined;
      const title = typeof tool.title === 'string' ? tool.title : typeof meta?.title === 'string' ? meta.title : undefined;
      const description = typeof tool.description === 'string' ? tool.description : undefined;
      const fromMcp = meta !== undefined && typeof meta.clientName === 'string' && isObject(meta.annotations);
      const before = derived.get(name) ?? {};
      const out: Partial<ToolDescriptor> = { ...before };
      if (fromMcp) {
        // MCP annotations are a server's word about its own tools: read only for a trusted client.
        const trusted = trustedMcpClients.includes(meta.clientName as string);
        const { title: _name, ...mcp } = descriptorFromMcpTool({ name, annotations: meta.annotations as McpToolAnnotations }, { trusted });
        Object.assign(out, mcp);
      }
      if (title !== undefined) out.title = title;
      if (description !== undefined) out.description = description;
      if (tool.needsApproval === true) out.requiresConfirmation = true;
      derived.set(name, out);
    },
    describe: (name) => explicit?.(name) ?? derived.get(name),
  };
}
