/**
 * `<McpAppFrame>`: an MCP App (a tool's `ui://` resource) in a sandboxed frame, spoken to through
 * the MCP Apps host bridge, with the page's rules around it (docs/protocol.md, "MCP Apps"):
 * - the frame is `sandbox="allow-scripts"` only (no same-origin: the app cannot reach the page,
 *   its storage or its cookies) with a Content-Security-Policy that lets it load nothing and
 *   connect nowhere unless the application says otherwise;
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
import type { ConfirmationController } from '../core/approval/confirmation-types';
import { cx } from '../components/cx';
import { useConfirmationController } from '../provider/context';
import { APP_METHODS, DEFAULT_MAX_MESSAGE_BYTES, type AppMessagePolicy, type AppMessageRefusal } from './app-message-policy';
import { approveAppToolCall, type McpAppCallTool, type McpAppServer, type McpCallToolResult } from './app-tool-calls';
import { connectAppBridge, type BridgeHandlers, type HostBridge, type HostContext } from './app-bridge';
import { createFrameTransport } from './frame-transport';
import { useResolvedColorScheme } from './color-scheme';
import { withContentSecurityPolicy, DEFAULT_APP_CSP } from './app-document';

/**
 * Something that went wrong around an app: a refused message (see {@link AppMessageRefusal}), or
 * `bridge-failed` (the MCP Apps SDK could not be loaded or connected).
 *
 * @example
 * const onError = (error: McpAppError) => console.warn(`${error.code}: ${error.reason}`);
 */
export type McpAppError = AppMessageRefusal | { readonly code: 'bridge-failed'; readonly reason: string };

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
 * Props of {@link McpAppFrame}.
 *
 * @example
 * const props: McpAppFrameProps = { html, title: 'Weather', server: { name: 'weather' }, callTool };
 */
export interface McpAppFrameProps extends Omit<HTMLAttributes<HTMLDivElement>, 'onError' | 'children' | 'title'> {
  /** The app's HTML: the text of its `ui://` resource, as the MCP server's `resources/read` gave it. */
  html: string;
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
  /** The frame document's Content-Security-Policy (default: inline code and data only, no network); `false` for none. */
  contentSecurityPolicy?: string | false;
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
  // A new document is a new app: a new bridge and a fresh `ui/initialize`.
  const generation = useMemo(() => ({ html: props.html }), [props.html]);
  return <AppFrame key={generationKey(generation)} {...props} />;
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

function AppFrame(props: McpAppFrameProps) {
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
    contentSecurityPolicy = DEFAULT_APP_CSP,
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

  const document = useMemo(() => (contentSecurityPolicy === false ? html : withContentSecurityPolicy(html, contentSecurityPolicy)), [html, contentSecurityPolicy]);
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
