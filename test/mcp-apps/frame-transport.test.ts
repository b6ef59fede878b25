/**
 * The channel between the page and one app frame (docs/protocol.md, "MCP Apps"): what the frame's
 * sandboxed document posts reaches the bridge once screened; a refused request is answered with a
 * JSON-RPC error and reported; another window's JSON-RPC is refused, another app frame's is left to
 * that frame's own channel, and other libraries' messages are left alone.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APP_METHODS, DEFAULT_MAX_MESSAGE_BYTES, type AppMessageRefusal } from 'toolgate/mcp-apps';
import { createFrameTransport } from '../../src/mcp-apps/frame-transport';

const policy = () => ({ methods: new Set<string>(APP_METHODS), maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES, linkOrigins: [] });

function frame(): Window {
  const element = document.createElement('iframe');
  document.body.append(element);
  return element.contentWindow!;
}

function channel(target: Window) {
  const received: unknown[] = [];
  const refused: AppMessageRefusal[] = [];
  const transport = createFrameTransport({ target: () => target, host: window, policy, onRefused: (r) => refused.push(r) });
  transport.onmessage = (message) => received.push(message);
  return { transport, received, refused };
}

/** Post as if from `source` (jsdom does not set a sender's window on its own). */
const post = (data: unknown, source: Window, origin = 'null') => window.dispatchEvent(new MessageEvent('message', { data, source, origin }));

/** The next message `w` receives (the page's answer). */
const nextMessage = (w: Window) => new Promise<unknown>((resolve) => w.addEventListener('message', (event) => resolve(event.data), { once: true }));

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
  document.body.replaceChildren();
});

describe('the frame transport', () => {
  it('hands an allowed message from the frame’s sandboxed document to the bridge', async () => {
    const app = frame();
    const { transport, received, refused } = channel(app);
    open.push(transport);
    await transport.start();
    const message = { jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} };
    post(message, app);
    expect(received).toEqual([message]);
    expect(refused).toEqual([]);
  });

  it('answers a refused request with a JSON-RPC error that gives the reason, and reports it', async () => {
    const app = frame();
    const { transport, received, refused } = channel(app);
    open.push(transport);
    await transport.start();
    const answer = nextMessage(app);
    post({ jsonrpc: '2.0', id: 'a', method: 'secrets/read' }, app);
    expect(await answer).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      error: { code: -32601, message: 'the app asked for "secrets/read", which this page does not offer', data: { reason: 'method-not-allowed' } },
    });
    expect(refused).toMatchObject([{ code: 'method-not-allowed', id: 'a' }]);
    expect(received).toEqual([]);
  });

  it('refuses the frame once it has left its sandboxed document (an origin other than "null")', async () => {
    const app = frame();
    const { transport, received, refused } = channel(app);
    open.push(transport);
    await transport.start();
    post({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, app, 'https://elsewhere.example');
    expect(refused).toMatchObject([{ code: 'wrong-source' }]);
    expect(received).toEqual([]);
  });

  it('refuses JSON-RPC from another window and answers it there; other libraries’ messages are left alone', async () => {
    const app = frame();
    const stranger = frame();
    const { transport, received, refused } = channel(app);
    open.push(transport);
    await transport.start();
    const answer = nextMessage(stranger);
    post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'rm' } }, stranger, 'https://stranger.example');
    expect(await answer).toMatchObject({ id: 7, error: { code: -32600, data: { reason: 'wrong-source' } } });
    post({ type: 'storybook-channel', payload: 1 }, stranger);
    expect(refused).toMatchObject([{ code: 'wrong-source', id: 7, method: 'tools/call' }]);
    expect(received).toEqual([]);
  });

  it('leaves another app frame’s messages to that frame’s channel', async () => {
    const first = frame();
    const second = frame();
    const a = channel(first);
    const b = channel(second);
    open.push(a.transport, b.transport);
    await a.transport.start();
    await b.transport.start();
    const message = { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 10 } };
    post(message, second);
    expect(a.received).toEqual([]);
    expect(a.refused).toEqual([]);
    expect(b.received).toEqual([message]);
  });

  it('sends to the frame only, and hears nothing once closed', async () => {
    const app = frame();
    const { transport, received } = channel(app);
    const onclose = vi.fn();
    transport.onclose = onclose;
    await transport.start();
    const sent = nextMessage(app);
    await transport.send({ jsonrpc: '2.0', method: 'ui/notifications/tool-input', params: { arguments: {} } });
    expect(await sent).toMatchObject({ method: 'ui/notifications/tool-input' });
    await transport.close();
    expect(onclose).toHaveBeenCalledTimes(1);
    post({ jsonrpc: '2.0', method: 'ui/notifications/initialized' }, app);
    expect(received).toEqual([]);
  });
});
