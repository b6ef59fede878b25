/**
 * `<McpAppFrame>` in the page (docs/protocol.md, "MCP Apps"): the frame is sandboxed with
 * `allow-scripts` only, its document is set only once the host bridge listens, and that document
 * starts with the Content-Security-Policy; a new `html` is a new app.
 */
import { StrictMode } from 'react';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolgateProvider, createToolgate } from 'toolgate';
import { DEFAULT_APP_CSP, McpAppFrame } from 'toolgate/mcp-apps';

const html = '<!doctype html><html><head><title>App</title></head><body><p>hello</p></body></html>';

function Page({ source = html, csp }: { source?: string; csp?: string | false }) {
  return (
    <StrictMode>
      <ToolgateProvider client={createToolgate()}>
        <McpAppFrame title="An app" html={source} {...(csp === undefined ? {} : { contentSecurityPolicy: csp })} />
      </ToolgateProvider>
    </StrictMode>
  );
}

describe('McpAppFrame', () => {
  it('sandboxes the app with allow-scripts only, and loads its document once the bridge listens', async () => {
    const { getByTitle } = render(<Page />);
    const frame = getByTitle('An app') as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
    await waitFor(() => expect(frame.getAttribute('srcdoc')).not.toBeNull());
    expect(frame.closest('.toolgate-mcp-app')).toHaveAttribute('data-state', 'starting');
    const doc = frame.getAttribute('srcdoc')!;
    expect(doc.startsWith(`<!doctype html><meta http-equiv="Content-Security-Policy" content="${DEFAULT_APP_CSP}">`)).toBe(true);
    expect(doc).toContain('<p>hello</p>');
  });

  it('takes the application’s policy, or none when it says false', async () => {
    const custom = render(<Page csp="default-src 'self'" />);
    const frame = custom.getByTitle('An app');
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain(`content="default-src 'self'"`));
    custom.unmount();
    const none = render(<Page csp={false} />);
    await waitFor(() => expect(none.getByTitle('An app').getAttribute('srcdoc')).toBe(html));
  });

  it('starts a new app for a new document', async () => {
    const view = render(<Page />);
    const first = view.getByTitle('An app');
    await waitFor(() => expect(first.getAttribute('srcdoc')).not.toBeNull());
    view.rerender(<Page source="<p>another app</p>" />);
    const second = view.getByTitle('An app');
    expect(second).not.toBe(first);
    await waitFor(() => expect(second.getAttribute('srcdoc')).toContain('another app'));
  });

  it('says clearly that it needs approvals outside a provider', () => {
    const quiet = console.error;
    console.error = () => {};
    try {
      expect(() => render(<McpAppFrame title="An app" html={html} />)).toThrow(/confirmation controller/);
    } finally {
      console.error = quiet;
    }
  });
});
