import type { Meta, StoryObj } from '@storybook/react-vite';
import { TanStackDevtools, type TanStackDevtoolsReactPlugin } from '@tanstack/react-devtools';
import { useEffect, useMemo } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { createToolgate } from 'toolgate';
import { createDevtoolsRecorder, toolgateDevtoolsPlugin } from 'toolgate/devtools';
import { callEvents, createScriptedSession, toolEvents as e } from 'toolgate/testing';

/**
 * `toolgateDevtoolsPlugin(client)` mounted in TanStack Devtools (`@tanstack/react-devtools`), as an
 * app that already uses TanStack's devtools shell would: the shell opens by its hotkey, the
 * Toolgate tab is chosen from the keyboard among the app's other plugins, and the panel inside
 * shows the live session in the shell's theme.
 */
const meta = {
  title: 'Devtools/TanStack plugin',
  parameters: { layout: 'fullscreen' },
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

// Another plugin of the app, open first: the Toolgate tab has to be chosen.
const appPlugin: TanStackDevtoolsReactPlugin = {
  id: 'app-state',
  name: 'App state',
  defaultOpen: true,
  render: <p>The app’s own devtools plugin.</p>,
};

function InTanStackDevtools({ theme }: { theme: 'light' | 'dark' }) {
  const { client, recorder, session } = useMemo(() => {
    const client = createToolgate();
    const recorder = createDevtoolsRecorder(client);
    const session = createScriptedSession();
    client.connect(session);
    return { client, recorder, session };
  }, []);
  const plugins = useMemo(() => [appPlugin, toolgateDevtoolsPlugin(client, { recorder })], [client, recorder]);
  useEffect(() => {
    for (const event of callEvents('c1', { name: 'search', turnId: 't1', arguments: { q: 'cats' } })) session.emit(event);
    session.emit(e.start('c2', { name: 'fetch_page', turnId: 't2' }));
    session.emit({ type: 'tool.stream', phase: 'progress', callId: 'ghost', progress: 1 });
  }, [session]);
  return (
    <main style={{ padding: 16 }}>
      <h1 style={{ fontSize: 16, marginTop: 0 }}>An app with TanStack Devtools</h1>
      <p>Control + ~ opens the devtools.</p>
      <button
        type="button"
        onClick={() => {
          session.emit({ type: 'tool.stream', phase: 'arguments-complete', callId: 'c2', arguments: { url: 'https://example.com' } });
          session.emit({ type: 'tool.stream', phase: 'settled', callId: 'c2', ok: true });
        }}
      >
        Finish fetch_page
      </button>
      <TanStackDevtools plugins={plugins} config={{ theme, defaultOpen: false }} />
    </main>
  );
}

/**
 * Opened by TanStack's hotkey (Control + ~), the Toolgate tab chosen by keyboard: the session's
 * events are listed (the refused frame with its reason), a later event shows up live, and a call's
 * history steps by keyboard. The panel takes the shell's theme.
 */
export const ToolgateInTanStackDevtools: Story = {
  render: (_args, { globals }) => {
    // TanStack keeps its open state and layout in localStorage: each run starts from none.
    for (const key of Object.keys(localStorage)) if (key.startsWith('tanstack_devtools')) localStorage.removeItem(key);
    return <InTanStackDevtools theme={globals['theme'] === 'dark' ? 'dark' : 'light'} />;
  },
  play: async ({ canvasElement, globals }) => {
    const doc = canvasElement.ownerDocument;
    const body = within(doc.body);
    // The shell mounts after React's first commit and listens for its hotkey from then on.
    await body.findByRole('button', { name: 'Open TanStack Devtools' });
    await waitFor(() => expect(body.queryByRole('banner', { name: 'TanStack Devtools' })).toBeNull());
    await userEvent.keyboard('{Control>}~{/Control}');
    await body.findByRole('banner', { name: 'TanStack Devtools' });

    // The app's plugin is open; the Toolgate tab waits in the strip of plugins.
    const strip = await body.findByRole('navigation', { name: 'Plugin panels' });
    const tab = await within(strip).findByRole('button', { name: 'Toolgate' });
    tab.focus();
    await userEvent.keyboard('{Enter}');
    const pane = await waitFor(() => {
      const found = doc.querySelector<HTMLElement>('#plugin-container-toolgate');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    const panel = within(pane);
    await panel.findByRole('heading', { name: 'Toolgate devtools' });
    const events = panel.getByRole('list', { name: 'Events' });
    await waitFor(() => expect(within(events).getByText(/#\d+ tool.stream\/start c1 · applied/)).toBeTruthy());
    expect(within(events).getByText(/ghost · rejected · refused: .*no call 'ghost' has started/)).toBeTruthy();

    // The shell's theme is the panel's.
    const theme = globals['theme'] === 'dark' ? 'dark' : 'light';
    expect(pane.querySelector('section.toolgate-devtools')?.getAttribute('data-theme')).toBe(theme);

    // Live: an event after the panel opened shows up in it.
    const finish = body.getByRole('button', { name: 'Finish fetch_page' });
    finish.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(within(events).getByText(/#\d+ tool.stream\/settled c2 · applied/)).toBeTruthy());

    // A call's history, by keyboard: choose c1's start, then step to its end.
    within(events).getByText(/#\d+ tool.stream\/start c1 /).focus();
    await userEvent.keyboard('{Enter}');
    const history = panel.getByRole('region', { name: 'Call history' });
    within(history).getByRole('group', { name: /Steps of call c1/ }).focus();
    await userEvent.keyboard('{End}');
    await waitFor(() => expect(within(history).getByLabelText('State after this step').textContent).toContain('"status": "settled"'));
  },
};
