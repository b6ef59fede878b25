/**
 * The MCP Apps host bridge (`AppBridge` of `@modelcontextprotocol/ext-apps`, an optional peer),
 * loaded when the first app frame mounts: an app that never shows an MCP App never loads it, and
 * importing `toolgate/mcp-apps` does no work (the SDK builds its schemas when it loads).
 *
 * The bridge speaks the protocol (initialisation, host context, tool input and results, size and
 * link requests); the page's own rules (which messages, which links, approvals before any tool
 * call) are applied around it: the frame transport screens what reaches it, and its handlers ask
 * the approvals. See docs/protocol.md, "MCP Apps".
 */
import type { FrameTransport } from './frame-transport';
import type { McpCallToolResult } from './app-tool-calls';

/** The host context the page gives its apps (the protocol's `McpUiHostContext`, the parts used here). */
export type HostContext = {
  theme: 'light' | 'dark';
  displayMode: 'inline';
  availableDisplayModes: ['inline'];
  platform: 'web';
  /** Flexible height and width, up to these (the spec's `maxHeight` and `maxWidth`). */
  containerDimensions: { maxHeight: number; maxWidth?: number };
  locale?: string;
};

/** The handlers the frame sets on the bridge. Each may throw: the app then receives a JSON-RPC error. */
export interface BridgeHandlers {
  callTool: (params: { name: string; arguments?: Record<string, unknown> | undefined }, signal: AbortSignal) => Promise<McpCallToolResult>;
  openLink: (url: string) => void;
  message: ((params: { role: string; content: unknown[] }) => void) | undefined;
  modelContext: ((params: Record<string, unknown>) => void) | undefined;
  sizeChanged: (size: { width?: number | undefined; height?: number | undefined }) => void;
  initialized: () => void;
  teardownRequested: () => void;
  log: (params: { level: string; data: unknown }) => void;
}

/** The bridge as the frame uses it. */
export interface HostBridge {
  setHostContext(context: HostContext): void;
  sendToolInput(args: Record<string, unknown>): Promise<void>;
  sendToolResult(result: McpCallToolResult): Promise<void>;
  close(): Promise<void>;
}

/**
 * Load the SDK and connect a bridge over `transport`. Rejects with a readable error when the
 * optional peer is not installed.
 */
export async function connectAppBridge(options: {
  transport: FrameTransport;
  hostInfo: { name: string; version: string };
  context: HostContext;
  handlers: () => BridgeHandlers;
  /** The origins the frame's policy grants, told to the app as the host's approved CSP domains. */
  sandboxCsp?: { readonly [list: string]: readonly string[] };
}): Promise<HostBridge> {
  let sdk: typeof import('@modelcontextprotocol/ext-apps/app-bridge');
  try {
    sdk = await import('@modelcontextprotocol/ext-apps/app-bridge');
  } catch (error) {
    throw new Error(
      `toolgate/mcp-apps needs @modelcontextprotocol/ext-apps 2 (and its peers @modelcontextprotocol/client and zod): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const on = options.handlers;
  const capabilities = {
    openLinks: {},
    serverTools: {},
    logging: {},
    ...(options.sandboxCsp === undefined ? {} : { sandbox: { csp: Object.fromEntries(Object.entries(options.sandboxCsp).filter(([, list]) => list.length > 0).map(([k, list]) => [k, [...list]])) } }),
    ...(on().message === undefined ? {} : { message: { text: {} } }),
    ...(on().modelContext === undefined ? {} : { updateModelContext: { text: {} } }),
  };
  const bridge = new sdk.AppBridge(null, options.hostInfo, capabilities, { hostContext: options.context });
  bridge.oncalltool = async (params, context) => {
    const result = await on().callTool({ name: params.name, arguments: params.arguments }, context.mcpReq.signal);
    return result as Awaited<ReturnType<NonNullable<typeof bridge.oncalltool>>>;
  };
  bridge.onopenlink = async (params) => {
    on().openLink(params.url);
    return {};
  };
  if (on().message !== undefined) {
    bridge.onmessage = async (params) => {
      on().message?.(params as { role: string; content: unknown[] });
      return {};
    };
  }
  if (on().modelContext !== undefined) {
    bridge.onupdatemodelcontext = async (params) => {
      on().modelContext?.(params as Record<string, unknown>);
      return {};
    };
  }
  bridge.onsizechange = (size) => on().sizeChanged(size);
  bridge.oninitialized = () => on().initialized();
  bridge.onrequestteardown = () => on().teardownRequested();
  bridge.onloggingmessage = (params) => on().log({ level: String(params.level), data: params.data });
  // The SDK's transport type is its own; the frame transport has the same members.
  await bridge.connect(options.transport as unknown as Parameters<typeof bridge.connect>[0]);
  return {
    setHostContext: (context) => bridge.setHostContext(context),
    sendToolInput: (args) => bridge.sendToolInput({ arguments: args }),
    sendToolResult: (result) => bridge.sendToolResult(result as Parameters<typeof bridge.sendToolResult>[0]),
    close: () => bridge.close(),
  };
}
