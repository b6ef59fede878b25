import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ConfirmToolDialog, ToolgateProvider, createToolgate, type ToolgateClient } from 'toolgate';
import { McpAppFrame, type McpAppCsp, type McpAppError, type McpAppResource, type McpAppServer, type McpCallToolResult } from 'toolgate/mcp-apps';
import { fetchingApp, overreachingApp, sizingApp, weatherApp } from './apps';

/**
 * MCP Apps: a tool's `ui://` resource (a real app, built on the app side of the MCP Apps SDK) in a
 * sandboxed frame. The page lists what the app told it (messages, model context), the calls that
 * reached its MCP server, and every message it refused, so the play functions check the end state
 * on both sides of the frame.
 */
const meta = {
  title: 'MCP Apps/McpAppFrame',
  parameters: { layout: 'padded' },
} satisfies Meta;
export default meta;
type Story = StoryObj;

/** The app's MCP server: not trusted, so its annotations (read-only, it says) are not believed. */
const weatherServer: McpAppServer = {
  name: 'weather',
  tools: [{ name: 'forecast', description: 'The forecast for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, annotations: { readOnlyHint: true } }],
};

interface PageProps {
  html: string;
  /** Give the app as its resource, with this `_meta` (whose `ui.csp` the frame reads), instead of as bare HTML. */
  resourceMeta?: unknown;
  allowedDomains?: McpAppCsp;
  title: string;
  maxHeight?: number;
  /**
   * A button that mounts another window of the page, which posts a tools/call as if it were the
   * app. It is a button, not a frame mounted at once: the page listens to its app's frame only
   * once the MCP Apps bridge has loaded, and a message posted before that is heard by nobody.
   */
  intruder?: boolean;
  /** A button that gives the frame's panel the other theme (`data-theme` on the panel). */
  themeSwitch?: boolean;
  /** The result of the tool call the app shows, given from the first render (a call that already finished). */
  result?: McpCallToolResult;
  /** A button that gives the app a newer result of its tool call. */
  nextResult?: McpCallToolResult;
  /** Buttons that give the app other tool inputs. */
  inputs?: readonly { label: string; input: Record<string, unknown> }[];
  /** A button that narrows the frame's panel to 300 px. */
  narrowSwitch?: boolean;
}

function AppPage({ html, resourceMeta, allowedDomains, title, maxHeight, intruder, themeSwitch, result: firstResult, nextResult, inputs = [], narrowSwitch }: PageProps) {
  const [result, setResult] = useState(firstResult);
  const [narrow, setNarrow] = useState(false);
  const [panelTheme, setPanelTheme] = useState<'light' | 'dark'>();
  const [client] = useState<ToolgateClient>(() => createToolgate());
  const [input, setInput] = useState<Record<string, unknown>>();
  const [messages, setMessages] = useState<string[]>([]);
  const [context, setContext] = useState('');
  const [ran, setRan] = useState<string[]>([]);
  const [errors, setErrors] = useState<McpAppError[]>([]);
  const [intruderShown, setIntruderShown] = useState(false);
  const callTool = async (call: { name: string; arguments: unknown }): Promise<McpCallToolResult> => {
    setRan((list) => [...list, `${call.name} ${JSON.stringify(call.arguments)}`]);
    return { content: [{ type: 'text', text: 'Sunny, 21 °C in Lyon' }] };
  };
  return (
    <ToolgateProvider client={client}>
      <div style={{ display: 'grid', gap: 12, maxWidth: 640 }}>
        <button type="button" className="toolgate-button" onClick={() => setInput({ city: 'Lyon' })}>
          Show the forecast for Lyon
        </button>
        {inputs.map(({ label, input: next }) => (
          <button key={label} type="button" className="toolgate-button" onClick={() => setInput(next)}>
            {label}
          </button>
        ))}
        {narrowSwitch === true ? (
          <button type="button" className="toolgate-button" onClick={() => setNarrow(true)}>
            Narrow the app’s panel to 300 px
          </button>
        ) : null}
        {nextResult === undefined ? null : (
          <button type="button" className="toolgate-button" onClick={() => setResult(nextResult)}>
            Show the newer result
          </button>
        )}
        {themeSwitch === true ? (
          <button
            type="button"
            className="toolgate-button"
            onClick={() => setPanelTheme(document.documentElement.getAttribute('data-theme') === 'dark' ? 'light' : 'dark')}
          >
            Give the app’s panel the other theme
          </button>
        ) : null}
        <div data-theme={panelTheme} style={narrow ? { width: 300 } : undefined}>
          <McpAppFrame
            title={title}
            {...(resourceMeta === undefined ? { html } : { resource: { uri: 'ui://story/app', mimeType: 'text/html;profile=mcp-app', text: html, _meta: resourceMeta } satisfies McpAppResource })}
            {...(allowedDomains === undefined ? {} : { allowedDomains })}
            server={weatherServer}
            toolInput={input}
            toolResult={result}
            callTool={callTool}
            {...(maxHeight === undefined ? {} : { maxHeight })}
            onMessage={(message) => setMessages((list) => [...list, message.content.map((part) => (part as { text?: string }).text ?? '').join(' ')])}
            onModelContext={(value) => setContext(((value['content'] as { text?: string }[] | undefined) ?? []).map((part) => part.text ?? '').join('\n'))}
            onError={(error) => setErrors((list) => [...list, error])}
          />
        </div>
        {intruder === true ? (
          <button type="button" className="toolgate-button" onClick={() => setIntruderShown(true)}>
            Open another frame that posts as if it were the app
          </button>
        ) : null}
        {intruderShown ? (
          <iframe
            title="Another frame"
            sandbox="allow-scripts"
            style={{ height: 40, border: 0 }}
            srcDoc={`<!doctype html><p>Another frame</p><script>parent.postMessage({ jsonrpc: '2.0', id: 'intruder-1', method: 'tools/call', params: { name: 'forecast', arguments: { city: 'Nowhere' } } }, '*');</script>`}
          />
        ) : null}
        <section aria-label="What the app told the page">
          <h2 style={{ fontSize: '1em' }}>What the app told the page</h2>
          <ul aria-label="Messages">
            {messages.map((text, index) => (
              <li key={index}>{text}</li>
            ))}
          </ul>
          <pre aria-label="Model context" style={{ whiteSpace: 'pre-wrap' }}>
            {context}
          </pre>
        </section>
        <section aria-label="What reached the server">
          <ul aria-label="Calls that ran">
            {ran.map((text, index) => (
              <li key={index}>{text}</li>
            ))}
          </ul>
        </section>
        <section aria-label="Refused">
          <ul aria-label="Refused messages">
            {errors.map((error, index) => (
              <li key={index}>
                {error.code}: {error.reason}
              </li>
            ))}
          </ul>
        </section>
      </div>
      <ConfirmToolDialog />
    </ToolgateProvider>
  );
}

const page = (canvasElement: HTMLElement) => within(canvasElement.ownerDocument.body);
const frameOf = (canvasElement: HTMLElement, title: string) => within(canvasElement).getByTitle(title).closest('.toolgate-mcp-app') as HTMLElement;
const themeOfPage = (canvasElement: HTMLElement) => (canvasElement.ownerDocument.documentElement.getAttribute('data-theme') === 'dark' ? 'dark' : 'light');

/**
 * The page sends the app its tool input; the app asks for the `forecast` tool; the person sees the
 * request in the dialog (risk not declared: the server is not trusted), approves it by keyboard,
 * and only then does the call reach the server; the app receives the result and says so. The app
 * was told the page's theme, and its frame took the app's own height.
 */
export const ToolCallApproved: Story = {
  render: () => <AppPage html={weatherApp} title="Weather app" />,
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    const wrapper = frameOf(canvasElement, 'Weather app');
    await waitFor(() => expect(wrapper).toHaveAttribute('data-state', 'ready'));
    const theme = themeOfPage(canvasElement);
    await waitFor(() => expect(within(canvasElement).getByLabelText('Model context')).toHaveTextContent(`theme: ${theme}`));
    // The SDK's auto-resize: the frame is as tall as the app's content, not its initial 160 px.
    const frame = within(canvasElement).getByTitle('Weather app');
    await waitFor(() => expect(frame.getBoundingClientRect().height).toBeGreaterThan(200));

    const show = body.getByRole('button', { name: 'Show the forecast for Lyon' });
    show.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await body.findByRole('dialog');
    await expect(dialog).toHaveTextContent('forecast');
    await expect(dialog).toHaveTextContent('Lyon');
    // The server is not trusted: its read-only hint is not believed, so the call is a write of undeclared risk.
    await expect(dialog).toHaveTextContent('Makes changes');
    await expect(dialog).toHaveTextContent('the tool does not declare its risk');
    // Nothing reached the server while the person decides.
    await expect(within(canvasElement).getByLabelText('Calls that ran')).toBeEmptyDOMElement();
    const approve = await within(dialog).findByRole('button', { name: 'Approve' });
    await waitFor(() => expect(approve).toBeEnabled());
    approve.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(within(canvasElement).getByLabelText('Messages')).toHaveTextContent('The app received: Sunny, 21 °C in Lyon'));
    await expect(within(canvasElement).getByLabelText('Calls that ran')).toHaveTextContent('forecast {"city":"Lyon"}');
    await expect(within(canvasElement).getByLabelText('Calls that ran').children).toHaveLength(1);
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await expect(within(canvasElement).getByLabelText('Refused messages')).toBeEmptyDOMElement();
  },
};

/** Denied by keyboard (Escape): nothing reaches the server, and the app is told it was denied. */
export const ToolCallDenied: Story = {
  render: () => <AppPage html={weatherApp} title="Weather app" />,
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    await waitFor(() => expect(frameOf(canvasElement, 'Weather app')).toHaveAttribute('data-state', 'ready'));
    const show = body.getByRole('button', { name: 'Show the forecast for Lyon' });
    show.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await body.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Deny' })).toBeEnabled());
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(within(canvasElement).getByLabelText('Messages')).toHaveTextContent('The app was told: The person denied forecast'));
    await expect(within(canvasElement).getByLabelText('Calls that ran')).toBeEmptyDOMElement();
  },
};

/**
 * An app that asks for a link to an origin the page does not allow, a method the page does not
 * offer, a message over the size limit, and 3,000 px of height; and another frame that posts a
 * `tools/call` as if it were the app. Each is refused with a reason the app receives (as a
 * JSON-RPC error) and the page hears (`onError`); no dialog opens, nothing runs, and the frame
 * stops at its maximum height.
 */
export const RefusedMessages: Story = {
  render: () => <AppPage html={overreachingApp} title="Overreaching app" maxHeight={300} intruder />,
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(frameOf(canvasElement, 'Overreaching app')).toHaveAttribute('data-state', 'ready'));
    const context = within(canvasElement).getByLabelText('Model context');
    await waitFor(() => expect(context).toHaveTextContent('big message refused'));
    await expect(context).toHaveTextContent('open-link refused: the app asked to open a link to https://exfiltrate.example, which is not an allowed origin');
    await expect(context).toHaveTextContent('secrets/read refused: -32601 the app asked for "secrets/read", which this page does not offer');
    await expect(context).toHaveTextContent('big message refused: -32600 the message is larger than 262144 bytes');
    const open = page(canvasElement).getByRole('button', { name: 'Open another frame that posts as if it were the app' });
    open.focus();
    await userEvent.keyboard('{Enter}');
    const refused = within(canvasElement).getByLabelText('Refused messages');
    await waitFor(() => expect(refused).toHaveTextContent('wrong-source: the message came from a window other than the app’s frame'));
    await expect(refused).toHaveTextContent('link-not-allowed');
    await expect(refused).toHaveTextContent('method-not-allowed');
    await expect(refused).toHaveTextContent('too-large');
    const frame = within(canvasElement).getByTitle('Overreaching app');
    await waitFor(() => expect(frame.getBoundingClientRect().height).toBe(300));
    await expect(page(canvasElement).queryByRole('dialog')).toBeNull();
    await expect(within(canvasElement).getByLabelText('Calls that ran')).toBeEmptyDOMElement();
  },
};

/**
 * The app follows the kit's theme where its frame is: a panel given the other theme (its own
 * `data-theme`) tells the app at once (`ui/notifications/host-context-changed`), and the app says
 * which theme it now shows.
 */
export const FollowsTheTheme: Story = {
  render: () => <AppPage html={weatherApp} title="Weather app" themeSwitch />,
  play: async ({ canvasElement }) => {
    const context = within(canvasElement).getByLabelText('Model context');
    const theme = themeOfPage(canvasElement);
    const other = theme === 'dark' ? 'light' : 'dark';
    await waitFor(() => expect(context).toHaveTextContent(`theme: ${theme}`));
    const button = page(canvasElement).getByRole('button', { name: 'Give the app’s panel the other theme' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(context).toHaveTextContent(`theme: ${other}`));
    await expect(frameOf(canvasElement, 'Weather app')).toHaveAttribute('data-theme-told', other);
  },
};

const brestResult: McpCallToolResult = { content: [{ type: 'text', text: 'Rain, 12 °C' }], structuredContent: { city: 'Brest' } };
const nantesResult: McpCallToolResult = { content: [{ type: 'text', text: 'Clouds, 15 °C' }], structuredContent: { city: 'Nantes' } };

/**
 * The page shows a tool call that already finished: it gives the app the call's result
 * (`toolResult`) from the first render, and the app receives it once it is ready
 * (`ui/notifications/tool-result`), shows it and says what it shows. A newer result, chosen by
 * keyboard, reaches the app too. Nothing asked for a tool call: no dialog opens, nothing runs.
 */
export const ShowsTheToolResult: Story = {
  render: () => <AppPage html={weatherApp} title="Weather app" result={brestResult} nextResult={nantesResult} />,
  play: async ({ canvasElement }) => {
    const messages = within(canvasElement).getByLabelText('Messages');
    await waitFor(() => expect(frameOf(canvasElement, 'Weather app')).toHaveAttribute('data-state', 'ready'));
    await waitFor(() => expect(messages).toHaveTextContent('The app shows the result for Brest: Rain, 12 °C'));
    const next = page(canvasElement).getByRole('button', { name: 'Show the newer result' });
    next.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(messages).toHaveTextContent('The app shows the result for Nantes: Clouds, 15 °C'));
    // Each result once: the first was not sent again when the second came.
    await expect(messages.children).toHaveLength(2);
    await expect(page(canvasElement).queryByRole('dialog')).toBeNull();
    await expect(within(canvasElement).getByLabelText('Calls that ran')).toBeEmptyDOMElement();
    await expect(within(canvasElement).getByLabelText('Refused messages')).toBeEmptyDOMElement();
  },
};

/**
 * The app is told its container (`containerDimensions`: its height up to `maxHeight`, its width
 * up to the panel's), and its size requests are honoured within it: a width narrower than the
 * panel is the frame's width, a wider one is the panel's. When the panel narrows, the app is told
 * at once and the frame never overflows it.
 */
export const SizeWithinTheContainer: Story = {
  render: () => (
    <AppPage
      html={sizingApp}
      title="Sizing app"
      maxHeight={300}
      inputs={[
        { label: 'Ask for 320 by 200 px', input: { width: 320, height: 200 } },
        { label: 'Ask for 5,000 by 5,000 px', input: { width: 5000, height: 5000 } },
      ]}
      narrowSwitch
    />
  ),
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    const wrapper = frameOf(canvasElement, 'Sizing app');
    const frame = within(canvasElement).getByTitle('Sizing app');
    const context = within(canvasElement).getByLabelText('Model context');
    await waitFor(() => expect(wrapper).toHaveAttribute('data-state', 'ready'));
    const room = wrapper.clientWidth;
    await waitFor(() => expect(context).toHaveTextContent(`container: maxWidth=${room} maxHeight=300`));

    const press = async (name: string) => {
      body.getByRole('button', { name }).focus();
      await userEvent.keyboard('{Enter}');
    };
    await press('Ask for 320 by 200 px');
    await waitFor(() => expect(frame.getBoundingClientRect().width).toBe(320));
    await expect(frame.getBoundingClientRect().height).toBe(200);
    await press('Ask for 5,000 by 5,000 px');
    await waitFor(() => expect(frame.getBoundingClientRect().height).toBe(300));
    await expect(frame.getBoundingClientRect().width).toBe(wrapper.getBoundingClientRect().width);

    await press('Narrow the app’s panel to 300 px');
    await waitFor(() => expect(context).toHaveTextContent('container: maxWidth=300 maxHeight=300'));
    await expect(frame.getBoundingClientRect().width).toBe(300);
    await expect(within(canvasElement).getByLabelText('Refused messages')).toBeEmptyDOMElement();
  },
};

/**
 * The app's resource declares the origins it connects to (`_meta.ui.csp.connectDomains`): the
 * page's own, which the page allows, and another, which it does not. The frame's policy lets the
 * app fetch the first only: a fetch to the origin the page did not allow, and one to an origin the
 * resource never declared, are both blocked by `connect-src`, and the page is told which declared
 * origin it left out.
 */
export const ConnectsOnlyWhereDeclaredAndAllowed: Story = {
  render: () => {
    const own = window.location.origin;
    return (
      <AppPage
        html={fetchingApp}
        title="Fetching app"
        resourceMeta={{ ui: { csp: { connectDomains: [own, 'https://declared-only.example'] } } }}
        allowedDomains={{ connectDomains: [own] }}
        inputs={[
          {
            label: 'Fetch three addresses',
            input: { urls: { allowed: `${own}/?from-app`, 'declared-not-allowed': 'https://declared-only.example/x', undeclared: 'https://undeclared.example/x' } },
          },
        ]}
      />
    );
  },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(frameOf(canvasElement, 'Fetching app')).toHaveAttribute('data-state', 'ready'));
    const refused = within(canvasElement).getByLabelText('Refused messages');
    await waitFor(() => expect(refused).toHaveTextContent('domain-not-allowed: the app declared https://declared-only.example in connectDomains, which this page does not allow'));
    const press = page(canvasElement).getByRole('button', { name: 'Fetch three addresses' });
    press.focus();
    await userEvent.keyboard('{Enter}');
    const context = within(canvasElement).getByLabelText('Model context');
    await waitFor(() => expect(context).toHaveTextContent('undeclared:'));
    await expect(context).toHaveTextContent('allowed: fetched');
    await expect(context).toHaveTextContent('declared-not-allowed: blocked by connect-src');
    await expect(context).toHaveTextContent('undeclared: blocked by connect-src');
    await expect(refused.children).toHaveLength(1);
  },
};
