/**
 * A `tools/call` an MCP App asks for goes through the page's approvals before anything runs
 * (docs/protocol.md, "MCP Apps"): the request is queued in the client's confirmation controller,
 * so a person reviews the exact arguments in `<ConfirmToolDialog>`, and only the approved snapshot
 * reaches the application's `callTool`. The tool's risk comes from its MCP annotations only when
 * the application marks its server trusted (`descriptorFromMcpTool`); otherwise it is a write whose
 * risk is not declared, confirmed every time.
 */
import type { ConfirmationController } from '../core/approval/confirmation-controller-types';
import type { JsonValue } from '../core/json/json-value';
import { descriptorFromMcpTool, type McpToolLike } from '../core/approval/mcp-descriptors';

/**
 * A tool of the app's MCP server, as its `tools/list` gives it: the name, and what the page reads of
 * the rest (the annotations, only from a trusted server; the input schema, for the dialog).
 *
 * @example
 * const tool: McpAppTool = { name: 'forecast', description: 'The weather', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };
 */
export interface McpAppTool extends McpToolLike {
  inputSchema?: Record<string, unknown>;
}

/**
 * The app's MCP server: its name, whether the application trusts its annotations, and its tools.
 *
 * @example
 * const server: McpAppServer = { name: 'weather', trusted: true, tools: [{ name: 'forecast', annotations: { readOnlyHint: true } }] };
 */
export interface McpAppServer {
  name: string;
  /** The application trusts this server's tool annotations (risk, effect). Without it they are ignored. */
  trusted?: boolean;
  tools?: readonly McpAppTool[];
}

/**
 * What an approved call is forwarded with: the tool's name and the arguments a person approved
 * (a deep-frozen snapshot).
 *
 * @example
 * const call: McpAppToolCall = { name: 'forecast', arguments: { city: 'Lyon' } };
 */
export interface McpAppToolCall {
  name: string;
  arguments: { readonly [key: string]: JsonValue };
}

/**
 * An MCP `CallToolResult`, as the application's `callTool` returns it (from its MCP client).
 *
 * @example
 * const result: McpCallToolResult = { content: [{ type: 'text', text: 'Sunny, 21 °C' }] };
 */
export interface McpCallToolResult {
  content: readonly unknown[];
  structuredContent?: unknown;
  isError?: boolean;
  [key: string]: unknown;
}

/**
 * The application's handler: calls the tool on the MCP server (`client.callTool`). It is called
 * only after a person approved the call, and at most once per approval.
 *
 * @example
 * const callTool: McpAppCallTool = (call, { signal }) => mcpClient.callTool(call, undefined, { signal });
 */
export type McpAppCallTool = (call: McpAppToolCall, context: { signal: AbortSignal }) => Promise<McpCallToolResult>;

const text = (message: string): McpCallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/**
 * Ask the person about one `tools/call` of an app, then forward the approved arguments: what
 * `<McpAppFrame>` does with each call, for a page that builds its own frame. A call the person
 * denies, that expires or is withdrawn does not run: the app receives a tool error
 * (`isError: true`) that says so, which it can show; so does a call whose arguments are not JSON.
 * The descriptor comes from the tool's annotations only when `server.trusted` is set.
 *
 * @example
 * bridge.oncalltool = (params, context) =>
 *   approveAppToolCall(client.approvals, { name: 'weather', tools }, params, (call, { signal }) => mcp.callTool(call, undefined, { signal }), context.mcpReq.signal);
 */
export async function approveAppToolCall(
  approvals: ConfirmationController,
  server: McpAppServer | undefined,
  params: { name: string; arguments?: unknown },
  callTool: McpAppCallTool,
  signal: AbortSignal,
): Promise<McpCallToolResult> {
  const tool = server?.tools?.find((t) => t.name === params.name);
  const descriptor = descriptorFromMcpTool(tool ?? { name: params.name }, { trusted: server?.trusted === true });
  let approved: JsonValue | undefined;
  const outcome = await approvals
    .request({
      toolName: params.name,
      arguments: params.arguments ?? {},
      descriptor,
      definition: {
        name: params.name,
        ...(tool?.description === undefined ? {} : { description: tool.description }),
        ...(tool?.inputSchema === undefined ? {} : { parameters: tool.inputSchema }),
        descriptor,
      },
      signal,
      // The approval is the whole effect here: the call runs below, once, with what was approved.
      onApprove: (args) => {
        approved = args;
        return null;
      },
    })
    .catch((error: unknown) => ({ status: 'withdrawn' as const, reason: error instanceof Error ? error.message : String(error) }));
  if (outcome.status === 'done' && approved !== undefined) {
    // The arguments of a tools/call are an object; anything else is refused before it could run.
    if (typeof approved !== 'object' || approved === null || Array.isArray(approved)) return text(`${params.name} was not run: its arguments are not an object.`);
    return callTool({ name: params.name, arguments: approved as McpAppToolCall['arguments'] }, { signal });
  }
  switch (outcome.status) {
    case 'denied':
      return text(`The person denied ${params.name}${outcome.reason === undefined ? '' : `: ${outcome.reason}`}.`);
    case 'refused':
    case 'failed':
      return text(`${params.name} was not run: ${outcome.reason}`);
    case 'expired':
      return text(`Nobody approved ${params.name} in time.`);
    case 'cancelled':
    case 'withdrawn':
      return text(`The request to run ${params.name} was withdrawn${outcome.reason === undefined ? '' : `: ${outcome.reason}`}.`);
    case 'responded':
      // A person answered in the tool's place: that answer is the result, and nothing ran.
      return { content: [{ type: 'text', text: JSON.stringify(outcome.output) }], structuredContent: { answeredByPerson: outcome.output } };
    default:
      return text(`${params.name} was not run.`);
  }
}
