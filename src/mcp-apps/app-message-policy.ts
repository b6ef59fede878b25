/**
 * What an MCP App in a frame may say to the page (docs/protocol.md, "MCP Apps"). The app is code
 * from an MCP server, run in a sandbox: every message it posts is screened here before the bridge
 * reads it, and a message the page does not allow is refused with a reason instead of being
 * dropped silently, so the app (and the page's `onError`) can tell why nothing happened.
 *
 * Pure: a page can unit-test its own policy with it.
 */

/**
 * Why a message from an app was refused.
 * - `wrong-source`: it came from a window that is not this frame's app (another frame, another
 *   tab, the page itself), or from the frame after it left its sandboxed document;
 * - `too-large`: its JSON text is longer than the policy allows;
 * - `not-json-rpc`: it is not a JSON-RPC 2.0 message (or not JSON at all);
 * - `method-not-allowed`: a method the page does not offer the app;
 * - `link-not-allowed`: `ui/open-link` to a URL outside the allowed origins.
 *
 * @example
 * const code: AppMessageRefusalCode = 'link-not-allowed';
 */
export type AppMessageRefusalCode = 'wrong-source' | 'too-large' | 'not-json-rpc' | 'method-not-allowed' | 'link-not-allowed';

/**
 * A refused message: its code, a sentence saying why, the JSON-RPC error code the app is answered
 * with, and the request's id and method where the message had them (a notification has no id, so
 * it cannot be answered; it is only reported).
 *
 * @example
 * const refusal: AppMessageRefusal = { code: 'method-not-allowed', reason: 'the app asked for "sampling/createMessage", which this page does not offer', errorCode: -32601, id: 4, method: 'sampling/createMessage' };
 */
export interface AppMessageRefusal {
  readonly code: AppMessageRefusalCode;
  readonly reason: string;
  /** JSON-RPC 2.0: -32601 for a method not offered, -32602 for a link not allowed, -32600 otherwise. */
  readonly errorCode: number;
  readonly id?: string | number;
  readonly method?: string;
}

/**
 * What a page allows an app to send.
 *
 * @example
 * const policy: AppMessagePolicy = { methods: new Set(['ui/initialize', 'tools/call']), maxMessageBytes: 256 * 1024, linkOrigins: ['https://docs.example.com'] };
 */
export interface AppMessagePolicy {
  /** The methods (requests and notifications) the app may send. Responses to the page's own requests are always let through. */
  readonly methods: ReadonlySet<string>;
  /** The longest message, counted in bytes of its UTF-8 JSON text. */
  readonly maxMessageBytes: number;
  /** Origins (`https://example.com`) that `ui/open-link` may open; none by default. */
  readonly linkOrigins: readonly string[];
}

/**
 * A JSON-RPC 2.0 message as the screen lets it through.
 *
 * @example
 * const request: AppJsonRpcMessage = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'forecast' } };
 */
export interface AppJsonRpcMessage {
  readonly jsonrpc: '2.0';
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

/**
 * The screen's answer: the message to hand to the bridge, or why it is refused.
 *
 * @example
 * const verdict: AppMessageVerdict = screenAppMessage(event.data, policy);
 * if (!verdict.ok) console.warn(verdict.refusal.reason);
 */
export type AppMessageVerdict = { readonly ok: true; readonly message: AppJsonRpcMessage } | { readonly ok: false; readonly refusal: AppMessageRefusal };

/**
 * What an app may send to a page that offers everything the frame implements (docs/protocol.md,
 * "MCP Apps"); a page leaves out what it does not handle.
 *
 * @example
 * const policy: AppMessagePolicy = { methods: new Set(APP_METHODS.filter((m) => m !== 'ui/message')), maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES, linkOrigins: [] };
 */
export const APP_METHODS = [
  'ui/initialize',
  'ui/notifications/initialized',
  'ui/notifications/size-changed',
  'ui/notifications/request-teardown',
  'ui/request-display-mode',
  'ui/open-link',
  'ui/message',
  'ui/update-model-context',
  'tools/call',
  'notifications/message',
  'notifications/cancelled',
  'ping',
] as const;

/**
 * The default size limit of an app's messages: 256 KiB, far above any request an app makes of
 * the page, far below what would stall it.
 *
 * @example
 * <McpAppFrame html={html} title="Chart" maxMessageBytes={DEFAULT_MAX_MESSAGE_BYTES * 4} />
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024;

const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string | number => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** Bytes of the UTF-8 encoding of `text`, counted without allocating it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The id and method of `data` where it has them, for a refusal that can be answered. */
function idAndMethod(data: unknown): { id?: string | number; method?: string } {
  if (!isRecord(data)) return {};
  const out: { id?: string | number; method?: string } = {};
  if (isId(data['id'])) out.id = data['id'];
  if (typeof data['method'] === 'string') out.method = data['method'];
  return out;
}

const refuse = (code: AppMessageRefusalCode, reason: string, errorCode: number, data: unknown): AppMessageVerdict => ({
  ok: false,
  refusal: { code, reason, errorCode, ...idAndMethod(data) },
});

/**
 * Whether `ui/open-link` may open `url`: an `http:` or `https:` URL whose origin is one of
 * `origins` (compared exactly, after the URL parser has normalised both). Returns `null` when it
 * may, or the reason it may not.
 *
 * @example
 * checkAppLink('https://docs.example.com/a', ['https://docs.example.com']); // null
 * checkAppLink('javascript:alert(1)', ['https://docs.example.com']); // 'the app asked to open "javascript:alert(1)", which is not an http(s) link'
 */
export function checkAppLink(url: unknown, origins: readonly string[]): string | null {
  if (typeof url !== 'string') return 'the app asked to open a link without a URL';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `the app asked to open ${JSON.stringify(url.slice(0, 200))}, which is not a URL`;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return `the app asked to open ${JSON.stringify(url.slice(0, 200))}, which is not an http(s) link`;
  const allowed = origins.some((origin) => {
    try {
      return new URL(origin).origin === parsed.origin;
    } catch {
      return false;
    }
  });
  return allowed ? null : `the app asked to open a link to ${parsed.origin}, which is not an allowed origin`;
}

/**
 * Screen one message from an app's frame against the page's policy: its source, its size, its
 * JSON-RPC shape, its method, and for `ui/open-link` its URL. `fromApp` says whether the message
 * came from this frame's own window and sandboxed document (the caller checks the event's
 * `source` and `origin`).
 *
 * @example
 * window.addEventListener('message', (event) => {
 *   const verdict = screenAppMessage(event.data, policy, { fromApp: event.source === frame.contentWindow && event.origin === 'null' });
 *   if (verdict.ok) bridge.receive(verdict.message);
 * });
 */
export function screenAppMessage(data: unknown, policy: AppMessagePolicy, context: { fromApp?: boolean } = {}): AppMessageVerdict {
  if (context.fromApp === false) return refuse('wrong-source', 'the message came from a window other than the app\u2019s frame', INVALID_REQUEST, data);
  let text: string | undefined;
  try {
    text = JSON.stringify(data);
  } catch {
    text = undefined;
  }
  if (text === undefined) return refuse('not-json-rpc', 'the message is not JSON', INVALID_REQUEST, data);
  // Counting needs no encoding unless the text could be over the limit at all.
  if (text.length > policy.maxMessageBytes / 3 && utf8Length(text) > policy.maxMessageBytes) {
    return refuse('too-large', `the message is larger than ${policy.maxMessageBytes} bytes`, INVALID_REQUEST, data);
  }
  if (!isRecord(data) || data['jsonrpc'] !== '2.0') return refuse('not-json-rpc', 'the message is not JSON-RPC 2.0', INVALID_REQUEST, data);
  const method = data['method'];
  const hasId = Object.hasOwn(data, 'id');
  if (hasId && !isId(data['id'])) return refuse('not-json-rpc', 'the message\u2019s id is neither a string nor a number', INVALID_REQUEST, data);
  if (method === undefined) {
    // A response to one of the page's own requests (teardown, ping): the bridge matches it by id.
    if (hasId && (Object.hasOwn(data, 'result') || Object.hasOwn(data, 'error'))) return { ok: true, message: data as unknown as AppJsonRpcMessage };
    return refuse('not-json-rpc', 'the message has neither a method nor a result', INVALID_REQUEST, data);
  }
  if (typeof method !== 'string') return refuse('not-json-rpc', 'the message\u2019s method is not a string', INVALID_REQUEST, data);
  if (!policy.methods.has(method)) {
    return refuse('method-not-allowed', `the app asked for ${JSON.stringify(method.slice(0, 100))}, which this page does not offer`, METHOD_NOT_FOUND, data);
  }
  if (method === 'ui/open-link') {
    const params = data['params'];
    const why = checkAppLink(isRecord(params) ? params['url'] : undefined, policy.linkOrigins);
    if (why !== null) return refuse('link-not-allowed', why, INVALID_PARAMS, data);
  }
  return { ok: true, message: data as unknown as AppJsonRpcMessage };
}

/**
 * The JSON-RPC error response that answers a refused request, or `null` for a message that cannot
 * be answered (a notification, or a message without a usable id).
 *
 * @example
 * const answer = refusalResponse(verdict.refusal);
 * if (answer) frame.contentWindow?.postMessage(answer, '*');
 */
export function refusalResponse(refusal: AppMessageRefusal): AppJsonRpcMessage | null {
  if (refusal.id === undefined) return null;
  return { jsonrpc: '2.0', id: refusal.id, error: { code: refusal.errorCode, message: refusal.reason, data: { reason: refusal.code } } };
}
