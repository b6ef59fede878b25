/**
 * `<McpAppFrame>` as an app sees it (docs/protocol.md, "MCP Apps"): the test plays the app's side
 * of the protocol by hand, posting JSON-RPC messages from the frame's window to the page and
 * reading what the page posts back, with the real host bridge of the MCP Apps SDK in between.
 */
import { StrictMode, useState } from 'react';
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolgateProvider, createToolgate } from 'toolgate';
import { DEFAULT_APP_CSP, McpAppFrame, type McpAppError, type McpAppFrameOptions, type McpAppResource, type McpCallToolResult } from 'toolgate/mcp-apps';

const html = '<!doctype html><p>app</p>';

type Posted = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown };

/** The app's side: what the page posted to the frame, and a way to post as the frame. */
function appSide(frame: HTMLIFrameElement) {
  const view = frame.contentWindow!;
  const posted: Posted[] = [];
  view.postMessage = ((message: Posted) => {
    posted.push(message);
  }) as Window['postMessage'];
  const post = (message: Posted) => {
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data: message, source: view, origin: 'null' }));
    });
  };
  let nextId = 1;
  const request = async (method: string, params: Record<string, unknown>): Promise<Posted> => {
    const id = nextId++;
    post({ jsonrpc: '2.0', id, method, params });
    return waitFor(() => {
      const found = posted.find((m) => m.id === id);
      if (found === undefined) throw new Error(`no answer to ${method} yet`);
      return found;
    });
  };
  return {
    /** A round trip: whatever the page sent before answering it has been posted. */
    ping: () => request('ping', {}),
    posted,
    post,
    notifications: (method: string) => posted.filter((m) => m.method === method),
    /** `ui/initialize`, then `ui/notifications/initialized`, as the SDK's `App.connect` does; returns the host context. */
    async initialize(): Promise<Record<string, unknown>> {
      const answer = await request('ui/initialize', { appCapabilities: {}, appInfo: { name: 'test app', version: '1' }, protocolVersion: '2026-01-26' });
      post({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
      return answer.result!['hostContext'] as Record<string, unknown>;
    },
  };
}

type PageProps = Partial<McpAppFrameOptions> & { resource?: McpAppResource };

function Page({ resource, ...props }: PageProps) {
  const [client] = useState(createToolgate);
  return (
    <ToolgateProvider client={client}>
      {resource === undefined ? <McpAppFrame title="An app" html={html} {...props} /> : <McpAppFrame title="An app" resource={resource} {...props} />}
    </ToolgateProvider>
  );
}

async function mountApp(props: PageProps = {}) {
  const view = render(<Page {...props} />);
  const frame = view.getByTitle('An app') as HTMLIFrameElement;
  // The document is set once the bridge listens: from then on the app may speak.
  await waitFor(() => expect(frame.getAttribute('srcdoc')).not.toBeNull());
  return { view, frame, app: appSide(frame) };
}

const sunny: McpCallToolResult = { content: [{ type: 'text', text: 'Sunny' }], structuredContent: { city: 'Lyon' } };
const rainy: McpCallToolResult = { content: [{ type: 'text', text: 'Rain' }], structuredContent: { city: 'Brest' } };

describe('McpAppFrame tells the app the result of its tool call', () => {
  it('sends toolResult once the app is initialized, not before, and again when it changes', async () => {
    const { view, app } = await mountApp({ toolResult: sunny });
    // Before `ui/notifications/initialized` the page sends the app nothing of its own.
    await app.initialize();
    await waitFor(() => expect(app.notifications('ui/notifications/tool-result')).toHaveLength(1));
    expect(app.notifications('ui/notifications/tool-result')[0]!.params).toEqual(sunny);
    view.rerender(<Page toolResult={rainy} />);
    await waitFor(() => expect(app.notifications('ui/notifications/tool-result')).toHaveLength(2));
    expect(app.notifications('ui/notifications/tool-result')[1]!.params).toEqual(rainy);
    // The same result on a render that changes nothing else is not sent again.
    view.rerender(<Page toolResult={rainy} />);
    await app.ping();
    expect(app.notifications('ui/notifications/tool-result')).toHaveLength(2);
  });

  it('sends no result before the app says it is initialized', async () => {
    const { app } = await mountApp({ toolResult: sunny, toolInput: { city: 'Lyon' } });
    const id = 'init-only';
    app.post({ jsonrpc: '2.0', id, method: 'ui/initialize', params: { appCapabilities: {}, appInfo: { name: 'test app', version: '1' }, protocolVersion: '2026-01-26' } });
    await waitFor(() => expect(app.posted.some((m) => m.id === id)).toBe(true));
    expect(app.notifications('ui/notifications/tool-result')).toHaveLength(0);
    expect(app.notifications('ui/notifications/tool-input')).toHaveLength(0);
    app.post({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    await waitFor(() => expect(app.notifications('ui/notifications/tool-result')).toHaveLength(1));
    expect(app.notifications('ui/notifications/tool-input')).toHaveLength(1);
  });
});

describe('McpAppFrame and the app’s size', () => {
  // jsdom lays nothing out: the frame's container is given a width here, as a browser would measure it.
  const described = Object.getOwnPropertyDescriptor(Element.prototype, 'clientWidth')!;
  beforeEach(() => {
    Object.defineProperty(Element.prototype, 'clientWidth', {
      configurable: true,
      get(this: Element) {
        return this.classList.contains('toolgate-mcp-app') ? 600 : 0;
      },
    });
  });
  afterEach(() => {
    Object.defineProperty(Element.prototype, 'clientWidth', described);
  });

  const sizeChanged = (app: ReturnType<typeof appSide>, params: Record<string, unknown>) => app.post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params });

  it('tells the app its container: flexible height up to maxHeight, flexible width up to the container’s width', async () => {
    const { app } = await mountApp({ maxHeight: 400 });
    const context = await app.initialize();
    expect(context['containerDimensions']).toEqual({ maxHeight: 400, maxWidth: 600 });
  });

  it('honours a width request up to the container, and a width at or over it fills the container', async () => {
    const { app, frame } = await mountApp({ maxHeight: 400 });
    await app.initialize();
    sizeChanged(app, { width: 320.2, height: 200 });
    await waitFor(() => expect(frame.style.width).toBe('321px'));
    expect(frame.style.height).toBe('200px');
    // Never wider than the container, even once it narrows below what the app asked for.
    expect(frame.style.maxWidth).toBe('100%');
    sizeChanged(app, { width: 5000, height: 5000 });
    await waitFor(() => expect(frame.style.width).toBe('100%'));
    expect(frame.style.height).toBe('400px');
    sizeChanged(app, { width: 320 });
    await waitFor(() => expect(frame.style.width).toBe('320px'));
    // The width the SDK's auto-resize reports when the frame fills its container: it keeps filling.
    sizeChanged(app, { width: 600 });
    await waitFor(() => expect(frame.style.width).toBe('100%'));
    // Requests that are not sizes change nothing.
    sizeChanged(app, { width: -5, height: Number.NaN });
    sizeChanged(app, { width: 'wide' });
    await app.ping();
    expect(frame.style.width).toBe('100%');
    expect(frame.style.height).toBe('400px');
  });
});

describe('McpAppFrame and the resource’s own policy', () => {
  const meta = { ui: { csp: { connectDomains: ['https://api.example.com', 'https://tracker.example'] } } };
  const srcdoc = (frame: HTMLIFrameElement) => frame.getAttribute('srcdoc') ?? '';

  it('builds the frame’s policy from the resource’s _meta.ui.csp within what the page allows, and reports what it left out once', async () => {
    const errors: McpAppError[] = [];
    const view = render(
      <StrictMode>
        <Page resource={{ uri: 'ui://app', mimeType: 'text/html;profile=mcp-app', text: html, _meta: meta }} allowedDomains={{ connectDomains: ['https://api.example.com'] }} onError={(e) => errors.push(e)} />
      </StrictMode>,
    );
    const frame = view.getByTitle('An app') as HTMLIFrameElement;
    await waitFor(() => expect(srcdoc(frame)).toContain('connect-src https://api.example.com;'));
    expect(srcdoc(frame)).not.toContain('tracker.example');
    expect(srcdoc(frame)).toContain('<p>app</p>');
    expect(errors).toEqual([{ code: 'domain-not-allowed', list: 'connectDomains', domain: 'https://tracker.example', reason: 'the app declared https://tracker.example in connectDomains, which this page does not allow' }]);
    // A page that builds the resource inline on each render keeps its app, and is not told again.
    view.rerender(
      <StrictMode>
        <Page resource={{ uri: 'ui://app', mimeType: 'text/html;profile=mcp-app', text: html, _meta: structuredClone(meta) }} allowedDomains={{ connectDomains: ['https://api.example.com'] }} onError={(e) => errors.push(e)} />
      </StrictMode>,
    );
    expect(view.getByTitle('An app')).toBe(frame);
    expect(errors).toHaveLength(1);
    // The app is told which origins the host approved.
    const app = appSide(frame);
    const answer = await app.initialize().then(() => app.posted.find((m) => m.result !== undefined));
    expect(answer!.result!['hostCapabilities']).toMatchObject({ sandbox: { csp: { connectDomains: ['https://api.example.com'] } } });
  });

  it('allows nothing by default, whatever the resource declares', async () => {
    const { frame } = await mountApp({ resource: { text: html, _meta: meta } });
    expect(srcdoc(frame)).toContain(`content="${DEFAULT_APP_CSP.replace(/'/g, "'")}"`);
    expect(srcdoc(frame)).toContain("connect-src 'none'");
  });

  it('uses the application’s own policy as it is, without reading the resource’s', async () => {
    const { frame } = await mountApp({ resource: { text: html, _meta: meta }, allowedDomains: { connectDomains: ['https://api.example.com'] }, contentSecurityPolicy: "default-src 'none'" });
    expect(srcdoc(frame)).toContain(`content="default-src 'none'"`);
    expect(srcdoc(frame)).not.toContain('api.example.com');
  });

  it('reads a resource given as a base64 blob of UTF-8, and refuses one it cannot read', async () => {
    const bytes = new TextEncoder().encode('<p>caf\u00e9</p>');
    const blob = btoa(String.fromCharCode(...bytes));
    const { frame } = await mountApp({ resource: { blob } });
    expect(srcdoc(frame)).toContain('<p>caf\u00e9</p>');
    cleanup();
    const errors: McpAppError[] = [];
    const view = render(<Page resource={{ blob: '%%%' }} onError={(e) => errors.push(e)} />);
    await waitFor(() => expect(errors).toEqual([{ code: 'resource-unreadable', reason: 'the resource\u2019s blob is not base64 of UTF-8 text' }]));
    expect(view.container.querySelector('.toolgate-mcp-app')).toHaveAttribute('data-state', 'failed');
    expect(view.container.querySelector('iframe')).toBeNull();
  });
});
