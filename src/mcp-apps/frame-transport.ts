/**
 * The postMessage channel between the page and one app frame, screened by the message policy
 * (docs/protocol.md, "MCP Apps"). It has the shape of an MCP SDK transport, so the MCP Apps host
 * bridge (`AppBridge` of `@modelcontextprotocol/ext-apps`) runs over it unchanged; unlike the
 * SDK's own `PostMessageTransport`, which drops what it does not expect without a word, it answers
 * every refused request with a JSON-RPC error that says why, and reports each refusal.
 */
import { refusalResponse, screenAppMessage, type AppJsonRpcMessage, type AppMessagePolicy, type AppMessageRefusal } from './app-message-policy';

/**
 * The windows of every mounted app frame on this page: a message from one of them belongs to that
 * frame's channel, and another channel leaves it alone instead of refusing it.
 */
const frameWindows = new Set<Window>();

/** Options of {@link createFrameTransport}. */
export interface FrameTransportOptions {
  /** The frame's window once it exists (`iframe.contentWindow`). */
  target: () => Window | null;
  /** The window that receives the app's messages (the page's). */
  host: Window;
  policy: () => AppMessagePolicy;
  onRefused: (refusal: AppMessageRefusal) => void;
}

/** The MCP SDK's transport, as far as the bridge uses it. */
export interface FrameTransport {
  start(): Promise<void>;
  send(message: unknown): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: AppJsonRpcMessage) => void) | undefined;
}

/** Whether a message looks meant for an MCP App host at all (other libraries post messages too). */
const isJsonRpc = (data: unknown): boolean => typeof data === 'object' && data !== null && (data as { jsonrpc?: unknown }).jsonrpc === '2.0';

export function createFrameTransport(options: FrameTransportOptions): FrameTransport {
  let registered: Window | null = null;
  const refuse = (refusal: AppMessageRefusal, replyTo: MessageEventSource | null): void => {
    const answer = refusalResponse(refusal);
    // Never answer the page itself: its own answer would come back as one more stray message.
    if (answer !== null && replyTo !== null && replyTo !== options.host && 'postMessage' in replyTo) {
      try {
        (replyTo as Window).postMessage(answer, '*');
      } catch {
        // A window that is gone cannot be told; the refusal is still reported below.
      }
    }
    options.onRefused(refusal);
  };
  const register = (): Window | null => {
    const target = options.target();
    if (target !== null && registered !== target) {
      if (registered !== null) frameWindows.delete(registered);
      registered = target;
      frameWindows.add(target);
    }
    return target;
  };
  const listener = (event: MessageEvent): void => {
    const target = register();
    const fromFrame = target !== null && event.source === target;
    if (!fromFrame) {
      // Another frame's app, or a message of some other library: not this channel's to judge.
      if ((event.source !== null && frameWindows.has(event.source as Window)) || !isJsonRpc(event.data)) return;
      const verdict = screenAppMessage(event.data, options.policy(), { fromApp: false });
      if (!verdict.ok) refuse(verdict.refusal, event.source);
      return;
    }
    // A sandboxed document (no allow-same-origin) has the opaque origin "null": any other origin
    // means the frame navigated away from the app's own document.
    const verdict = screenAppMessage(event.data, options.policy(), { fromApp: event.origin === 'null' });
    if (!verdict.ok) {
      refuse(verdict.refusal, event.source);
      return;
    }
    transport.onmessage?.(verdict.message);
  };
  const transport: FrameTransport = {
    start: async () => {
      register();
      options.host.addEventListener('message', listener);
    },
    send: async (message) => {
      // The frame's origin is opaque ("null"), so no narrower target origin can name it.
      options.target()?.postMessage(message, '*');
    },
    close: async () => {
      options.host.removeEventListener('message', listener);
      if (registered !== null) frameWindows.delete(registered);
      registered = null;
      transport.onclose?.();
    },
  };
  return transport;
}
