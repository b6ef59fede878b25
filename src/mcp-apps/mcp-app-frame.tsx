/**
 * `<McpAppFrame>`: an MCP App (a tool's `ui://` resource) in a sandboxed frame, spoken to through
 * the MCP Apps host bridge, with the page's rules around it (docs/protocol.md, "MCP Apps"):
 * - the frame is `sandbox="allow-scripts"` only (no same-origin: the app cannot reach the page,
 *   its storage or its cookies) with a Content-Security-Policy that lets it load nothing and
 *   connect nowhere, but for the origins its resource declares (`_meta.ui.csp`) that the page
 *   also allows (`allowedDomains`), or the application's own policy;
 * - every message it posts is screened (its source, size, method, and for links the origin), and
 *   one the page does not allow is answered with a JSON-RPC error that gives the reason, and
 *   reported through `onError`;
 * - every `tools/call` it asks for waits for a person in the client's approvals, and only the
 *   approved arguments reach the application's `callTool`;
 * - it is told the kit's theme and its container's dimensions (`containerDimensions`: flexible
 *   height up to `maxHeight`, flexible width up to the container's width, as the MCP Apps spec
 *   says of `maxHeight` and `maxWidth`), told again when they change, and its
 *   `ui/notifications/size-changed` resizes it within them.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type HTMLAttributes, type RefObject } from 'react';
import { useIsomorphicLayoutEffect } from '../hooks/use-isomorphic-layout-effect';
import type { ConfirmationController } from '../core/approval/confirmation-controller-types';
import { cx } from '../components/cx';
import { useConfirmationController } from '../provider/context';
import { APP_METHODS, DEFAULT_MAX_MESSAGE_BYTES, type AppMessagePolicy, type AppMessageRefusal } from './app-message-policy';
import { approveAppToolCall, type McpAppCallTool, type McpAppServer, type McpCallToolResult } from './app-tool-calls';
import { connectAppBridge, type BridgeHandlers, type HostBridge, type HostContext } from './app-bridge';
import { createFrameTransport } from './frame-transport';
import { useResolvedColorScheme } from './color-scheme';
import { withContentSecurityPolicy } from './app-document';
import { appContentSecurityPolicy, resourceCsp, type McpAppCsp, type McpAppCspList } from './app-csp';

/**
 * Something that went wrong around an app: a refused message (see {@link AppMessageRefusal}),
 * `bridge-failed` (the MCP Apps SDK could not be loaded or connected), `domain-not-allowed` (an
 * origin the resource declares in its `_meta.ui.csp` that the page does not allow, left out of the
 * frame's policy), or `resource-unreadable` (a `resource` with neither HTML text nor a base64 blob
 * of UTF-8 HTML; nothing is shown).
 *
 * @example
 * const onError = (error: McpAppError) => console.warn(`${error.code}: ${error.reason}`);
 */
export type McpAppError =
  | AppMessageRefusal
  | { readonly code: 'bridge-failed'; readonly reason: string }
  | { readonly code: 'domain-not-allowed'; readonly reason: string; readonly list: McpAppCspList; readonly domain: string }
  | { readonly code: 'resource-unreadable'; readonly reason: string };

/**
 * A `ui://` resource's content as `resources/read` gives it: its HTML as `text` or as a base64
 * `blob`, and its `_meta` (the frame reads `_meta.ui.csp`).
 *
 * @example
 * const { contents } = await mcp.readResource({ uri: 'ui://weather/view.html' });
 * const resource: McpAppResource = contents[0];
 */
export interface McpAppResource {
  uri?: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: unknown;
}

/**
 * A message the app asks the page to add to the conversation (`ui/message`).
 *
 * @example
 * const onMessage = (message: McpAppMessage) => chat.append(message);
 */
export interface McpAppMessage {
  role: string;
  content: unknown[];
}

/**
 * Props of {@link McpAppFrame}: the app as `html` (its resource's text), or as the `resource`
 * itself (whose `_meta.ui.csp` is then read), and the rest.
 *
 * @example
 * const props: McpAppFrameProps = { html, title: 'Weather', server: { name: 'weather' }, callTool };
 * const withMeta: McpAppFrameProps = { resource: contents[0], allowedDomains: { connectDomains: ['https://api.weather.example'] }, title: 'Weather' };
 */
export type McpAppFrameProps = McpAppFrameOptions &
  (
    | {
        /** The app's HTML: the text of its `ui://` resource, as the MCP server's `resources/read` gave it. */
        html: string;
        resource?: undefined;
      }
    | {
        /** The app's `ui://` resource as `resources/read` gave it: its HTML (text or blob) and its `_meta`, whose `ui.csp` is read. */
        resource: McpAppResource;
        html?: undefined;
      }
  );

/**
 * The props of {@link McpAppFrame} other than the app itself.
 *
 * @example
 * const options: McpAppFrameOptions = { title: 'Weather', maxHeight: 480 };
 */
export interface McpAppFrameOptions extends Omit<HTMLAttributes<HTMLDivElement>, 'onError' | 'children' | 'title' | 'resource'> {
  /** The frame's accessible name. */
  title: string;
  /**
   * Calls a tool on the app's MCP server (the application's MCP client). Called only after a
   * person approved the call; without it the app may not call tools.
   */
  callTool?: McpAppCallTool;
  /** The app's MCP server: its name, whether the application trusts its tool annotations, and its tools. */
  server?: McpAppServer;
  /** The approvals the app's tool calls wait in; the provider's by default (`client.approvals`). */
  approvals?: ConfirmationController;
  /** The arguments of the tool call this app shows, sent once the app is ready and again on change. */
  toolInput?: Record<string, unknown>;
  /** The result of the tool call this app shows, sent once the app is ready and again on change. */
  toolResult?: McpCallToolResult;
  /** The theme told to the app; by default the kit's, as resolved where the frame is (`data-theme`, the page's `color-scheme`). */
  theme?: 'light' | 'dark';
  /** Origins `ui/open-link` may open (exact origins, such as `https://docs.example.com`); none by default. */
  linkOrigins?: readonly string[];
  /** Opens an allowed link; by default a new window without opener or referrer. */
  onOpenLink?: (url: string) => void;
  /** The app's `ui/message` requests; without it the app may not send any. */
  onMessage?: (message: McpAppMessage) => void;
  /** The app's `ui/update-model-context` requests; without it the app may not send any. */
  onModelContext?: (context: Record<string, unknown>) => void;
  /** A refused message, or a bridge that failed. */
  onError?: (error: McpAppError) => void;
  /** The app asked to be closed (`ui/notifications/request-teardown`). */
  onTeardownRequest?: () => void;
  /** The frame's height before the app says its own, in CSS pixels (default 160). */
  initialHeight?: number;
  /**
   * The app's height requests are clamped to these, in CSS pixels (defaults 48 and 720). Its width
   * requests are clamped to the container's width (the frame's wrapper), which the app is told.
   */
  minHeight?: number;
  maxHeight?: number;
  /** The longest message the app may post, in bytes of JSON (default 256 KiB). */
  maxMessageBytes?: number;
  /**
   * The frame document's Content-Security-Policy. By default it is built: inline code and data
   * only, no network, widened by the origins the `resource` declares in `_meta.ui.csp` that
   * `allowedDomains` allows. A string is used as it is (the resource's declaration is then not
   * read); `false` sets none.
   */
  contentSecurityPolicy?: string | false;
  /**
   * The origins this page lets an app's resource ask for, per list (`connectDomains`,
   * `resourceDomains`, `frameDomains`, `baseUriDomains`; `https://*.example.com` covers its
   * subdomains). None by default: the frame's policy is never wider than this, whatever the resource
   * declares; each declared origin left out is reported to `onError` (`domain-not-allowed`).
   */
  allowedDomains?: McpAppCsp;
  /** How the page names itself to the app (`ui/initialize`). */
  hostInfo?: { name: string; version: string };
}

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));
const openInNewWindow = (url: string): void => {
  window.open(url, '_blank', 'noopener,noreferrer');
};

/**
 * An MCP App in a sandboxed frame. Each `tools/call` the app asks for is shown to a person in the
 * approvals (`<ConfirmToolDialog>` renders it), and only what the person approved reaches
 * `callTool`. A new `html` starts a new app.
 *
 * @example
 * <ToolgateProvider client={client}>
 *   <McpAppFrame
 *     title="Weather"
 *     html={resource.text}
 *     server={{ name: 'weather', trusted: false, tools }}
 *     toolInput={{ city: 'Lyon' }}
 *     callTool={(call, { signal }) => mcp.callTool(call, undefined, { signal })}
 *     onError={(error) => console.warn(error.reason)}
 *   />
 *   <ConfirmToolDialog />
 * </ToolgateProvider>
 */
export function McpAppFrame(props: McpAppFrameProps) {
  const source = useMemo(() => readAppSource(props.html, props.resource), [props.html, props.resource]);
  // A new document is a new app: a new bridge and a fresh `ui/initialize`. Keyed by the HTML's
  // text, not by the resource object: a page that builds the resource inline on each render keeps its app.
  const text = source.ok ? source.html : null;
  const generation = useMemo(() => ({ html: text }), [text]);
  if (!source.ok) return <UnreadableApp {...props} reason={source.reason} />;
  return <AppFrame key={generationKey(generation)} {...(props as McpAppFrameOptions)} resource={props.resource} html={source.html} />;
}

/** `value` as JSON text, or `null`'s for a value that has none (a cycle): such a declaration grants nothing. */
function jsonKey(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return 'null';
  }
}

/** The app's HTML, from `html` or from its resource's `text` or base64 `blob` (UTF-8). */
function readAppSource(html: string | undefined, resource: McpAppResource | undefined): { ok: true; html: string } | { ok: false; reason: string } {
  if (typeof html === 'string') return { ok: true, html };
  if (resource === undefined || resource === null || typeof resource !== 'object') return { ok: false, reason: 'no app was given: neither html nor a resource' };
  if (typeof resource.text === 'string') return { ok: true, html: resource.text };
  if (typeof resource.blob === 'string') {
    try {
      const bytes = Uint8Array.from(atob(resource.blob), (c) => c.charCodeAt(0));
      return { ok: true, html: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
    } catch {
      return { ok: false, reason: 'the resource\u2019s blob is not base64 of UTF-8 text' };
    }
  }
  return { ok: false, reason: 'the resource has neither text nor a blob' };
}

/** A resource that cannot be shown: an empty wrapper in the failed state, and one report. */
function UnreadableApp({ reason, onError, className, style, title }: McpAppFrameProps & { reason: string }) {
  const reported = useRef<string | null>(null);
  const report = useRef(onError);
  report.current = onError;
  useEffect(() => {
    if (reported.current === reason) return;
    reported.current = reason;
    report.current?.({ code: 'resource-unreadable', reason });
  }, [reason]);
  return <div className={cx('toolgate-mcp-app', 'toolgate-theme', className)} style={style} data-state="failed" aria-label={title} />;
}

const keys = new WeakMap<object, string>();
let nextKey = 0;
function generationKey(generation: object): string {
  let key = keys.get(generation);
  if (key === undefined) {
    key = `app-${++nextKey}`;
    keys.set(generation, key);
  }
  return key;
}

type Phase = 'loading' | 'ready' | 'failed';

/** The frame once the app's HTML is read (from `html` or from the resource, which is kept for its `_meta`). */
type AppFrameProps = McpAppFrameOptions & { html: string; resource?: McpAppResource | undefined };

function AppFrame(props: AppFrameProps) {
  const {
    html,
    title,
    callTool,
    server,
    approvals: explicitApprovals,
    toolInput,
    toolResult,
    theme: themeProp,
    linkOrigins,
    onOpenLink,
    onMessage,
    onModelContext,
    onError,
    onTeardownRequest,
    initialHeight = 160,
    minHeight = 48,
    maxHeight = 720,
    maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
    contentSecurityPolicy,
    allowedDomains,
    resource,
    hostInfo,
    className,
    style,
    ...rest
  } = props;
  const approvals = useConfirmationController(explicitApprovals);
  const wrapper = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const resolved = useResolvedColorScheme(wrapper);
  const theme = themeProp ?? resolved;
  const [phase, setPhase] = useState<Phase>('loading');
  const [initialized, setInitialized] = useState(false);
  const [height, setHeight] = useState(() => clamp(initialHeight, minHeight, maxHeight));
  // `undefined`: the frame fills its container's width (and follows it).
  const [width, setWidth] = useState<number | undefined>(undefined);
  const containerWidth = useContainerWidth(wrapper);
  const bridge = useRef<HostBridge | null>(null);

  // The bridge reads the latest props through this, so it is made once per app.
  const latest = useRef({ props, approvals, theme, containerWidth });
  latest.current = { props, approvals, theme, containerWidth };

  const report = useCallback((error: McpAppError) => latest.current.props.onError?.(error), []);

  // The policy the frame's document carries: the application's own, or built from what the
  // resource declares within what the page allows (docs/protocol.md, "MCP Apps").
  // Keyed by content, so objects built inline on each render neither rebuild the grant nor report it again.
  const allowedKey = jsonKey(allowedDomains ?? {});
  const declaredKey = jsonKey(resourceCsp(resource?._meta) ?? null);
  const grant = useMemo(
    () => (contentSecurityPolicy === undefined ? appContentSecurityPolicy(JSON.parse(declaredKey), JSON.parse(allowedKey) as McpAppCsp) : null),
    [contentSecurityPolicy, declaredKey, allowedKey],
  );
  const policy = contentSecurityPolicy ?? grant!.policy;
  // Each left-out origin is reported once per grant (StrictMode runs effects twice; the ref stays).
  const reportedGrant = useRef<typeof grant>(null);
  useEffect(() => {
    if (grant === null || reportedGrant.current === grant) return;
    reportedGrant.current = grant;
    for (const left of grant.refused) report({ code: 'domain-not-allowed', reason: left.reason, list: left.list, domain: left.domain });
  }, [grant, report]);
  const sandboxCsp = grant?.granted;
  const latestGrant = useRef(sandboxCsp);
  latestGrant.current = sandboxCsp;

  useEffect(() => {
    const life = new AbortController();
    const policy = (): AppMessagePolicy => {
      const p = latest.current.props;
      const methods = new Set<string>(APP_METHODS);
      if (p.callTool === undefined) methods.delete('tools/call');
      if (p.onMessage === undefined) methods.delete('ui/message');
      if (p.onModelContext === undefined) methods.delete('ui/update-model-context');
      return { methods, maxMessageBytes: p.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, linkOrigins: p.linkOrigins ?? [] };
    };
    const transport = createFrameTransport({
      target: () => frame.current?.contentWindow ?? null,
      host: window,
      policy,
      onRefused: report,
    });
    const handlers = (): BridgeHandlers => {
      const { props: p, approvals: a } = latest.current;
      return {
        callTool: async (params, signal) => {
          const run = p.callTool;
          // The policy refuses tools/call without a handler; this is the same rule, said again.
          if (run === undefined) throw new Error('this page does not let the app call tools');
          const both = AbortSignal.any([signal, life.signal]);
          return approveAppToolCall(a, p.server, params, run, both);
        },
        openLink: p.onOpenLink ?? openInNewWindow,
        message: p.onMessage === undefined ? undefined : (message) => latest.current.props.onMessage?.(message),
        modelContext: p.onModelContext === undefined ? undefined : (context) => latest.current.props.onModelContext?.(context),
        sizeChanged: (size) => {
          const q = latest.current.props;
          if (typeof size.height === 'number' && Number.isFinite(size.height)) setHeight(clamp(Math.ceil(size.height), q.minHeight ?? 48, q.maxHeight ?? 720));
          if (typeof size.width === 'number' && Number.isFinite(size.width) && size.width >= 1) setWidth(widthFor(size.width, wrapper.current?.clientWidth ?? 0));
        },
        initialized: () => setInitialized(true),
        teardownRequested: () => latest.current.props.onTeardownRequest?.(),
        log: () => {},
      };
    };
    const p = latest.current.props;
    connectAppBridge({
      transport,
      hostInfo: p.hostInfo ?? { name: 'toolgate', version: '1' },
      context: hostContext(latest.current.theme, p.maxHeight ?? 720, latest.current.containerWidth),
      ...(latestGrant.current === undefined ? {} : { sandboxCsp: latestGrant.current }),
      handlers,
    }).then(
      (connected) => {
        if (life.signal.aborted) {
          void connected.close();
          return;
        }
        bridge.current = connected;
        setPhase('ready');
      },
      (error: unknown) => {
        if (life.signal.aborted) return;
        setPhase('failed');
        report({ code: 'bridge-failed', reason: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      life.abort(new Error('the app was closed'));
      const connected = bridge.current;
      bridge.current = null;
      if (connected !== null) void connected.close();
      else void transport.close();
    };
  }, [report]);

  useEffect(() => {
    if (phase === 'ready') bridge.current?.setHostContext(hostContext(theme, maxHeight, containerWidth));
  }, [phase, theme, maxHeight, containerWidth]);

  useEffect(() => {
    if (initialized && toolInput !== undefined) void bridge.current?.sendToolInput(toolInput).catch(() => {});
  }, [initialized, toolInput]);

  useEffect(() => {
    if (initialized && toolResult !== undefined) void bridge.current?.sendToolResult(toolResult).catch(() => {});
  }, [initialized, toolResult]);

  const document = useMemo(() => (policy === false ? html : withContentSecurityPolicy(html, policy)), [html, policy]);
  // `max-width` keeps a width the app asked for inside a container that has since narrowed.
  const frameStyle: CSSProperties = { display: 'block', width: width ?? '100%', maxWidth: '100%', height, border: 0 };

  return (
    <div
      {...rest}
      ref={wrapper}
      className={cx('toolgate-mcp-app', 'toolgate-theme', className)}
      style={style}
      data-state={phase === 'ready' ? (initialized ? 'ready' : 'starting') : phase}
      data-theme-told={theme}
    >
      <iframe
        ref={frame}
        title={title}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        // Only once the bridge listens: the app's first message is its `ui/initialize`.
        {...(phase === 'ready' ? { srcDoc: document } : {})}
        style={frameStyle}
      />
    </div>
  );
}

/**
 * The frame's width for an app's width request, given its container's width (0 when unknown): the
 * request in whole pixels, or `undefined` (fill the container, and follow it) for a request at or
 * over the container's width. An app that sizes itself to its window (the SDK's auto-resize
 * reports the frame's own width) thus keeps following its container as it grows or narrows,
 * instead of staying pinned at the width it happened to report.
 */
function widthFor(requested: number, container: number): number | undefined {
  const wanted = Math.ceil(requested);
  return container > 0 && wanted >= container ? undefined : wanted;
}

/** The width of `ref`'s element in whole CSS pixels, kept current; `undefined` before it is measured (or where nothing can measure it). */
function useContainerWidth(ref: RefObject<HTMLElement | null>): number | undefined {
  const [width, setWidth] = useState<number | undefined>(undefined);
  useIsomorphicLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const measure = () => setWidth(element.clientWidth > 0 ? element.clientWidth : undefined);
    measure();
    const view = element.ownerDocument.defaultView;
    if (view === null || typeof view.ResizeObserver !== 'function') return;
    const observer = new view.ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

function hostContext(theme: 'light' | 'dark', maxHeight: number, containerWidth: number | undefined): HostContext {
  const locale = typeof navigator === 'undefined' ? undefined : navigator.language;
  return {
    theme,
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    platform: 'web',
    // Both flexible (the app sizes itself up to these); a width not yet measured is left unbounded.
    containerDimensions: { maxHeight, ...(containerWidth === undefined ? {} : { maxWidth: containerWidth }) },
    ...(locale === undefined ? {} : { locale }),
  };
}
