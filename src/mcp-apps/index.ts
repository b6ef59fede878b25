'use client';
/**
 * `toolgate/mcp-apps`: MCP Apps (a tool's `ui://` resource) in a sandboxed frame, with every tool
 * call the app asks for sent through the page's approvals. In an entry of its own, so that an app
 * that shows no MCP App never loads the MCP Apps SDK (an optional peer, loaded when a frame mounts).
 */
export { McpAppFrame, type McpAppFrameProps, type McpAppFrameOptions, type McpAppResource, type McpAppError, type McpAppMessage } from './mcp-app-frame';
export { appContentSecurityPolicy, resourceCsp, type McpAppCsp, type McpAppCspList, type McpAppCspRefusal, type McpAppCspGrant } from './app-csp';
export { approveAppToolCall, type McpAppServer, type McpAppTool, type McpAppToolCall, type McpAppCallTool, type McpCallToolResult } from './app-tool-calls';
export {
  screenAppMessage,
  checkAppLink,
  refusalResponse,
  APP_METHODS,
  DEFAULT_MAX_MESSAGE_BYTES,
  type AppMessagePolicy,
  type AppMessageRefusal,
  type AppMessageRefusalCode,
  type AppMessageVerdict,
  type AppJsonRpcMessage,
} from './app-message-policy';
export { DEFAULT_APP_CSP, withContentSecurityPolicy } from './app-document';
