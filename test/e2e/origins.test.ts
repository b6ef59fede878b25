/**
 * In a real browser: a page of another site cannot open a session, neither through the demo's
 * address nor on the reference server directly (both answer its upgrade with 403), while the
 * demo's own page can.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectReferenceServer } from '../../server/introspect';
import { openDemo, useStack } from './harness';

const stack = useStack({ speed: Infinity });
let elsewhere: Server;
let elsewhereUrl = '';

beforeAll(async () => {
  // Another site, as the browser sees it: another origin (another port).
  elsewhere = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => elsewhere.close(resolve));
});

describe('allowed origins, in Chromium', () => {
  it('lets no page of another site open a session, through the demo or on the server itself', async () => {
    const page = await stack.browser.newPage();
    await page.goto(elsewhereUrl);
    const attempts = await page.evaluate(
      (urls) =>
        Promise.all(
          urls.map(
            (url) =>
              new Promise<string>((resolve) => {
                const socket = new WebSocket(url);
                socket.onopen = () => resolve('opened');
                socket.onclose = (event) => resolve(`closed ${event.code}`);
              }),
          ),
        ),
      [stack.demo.wsUrl, stack.server.url],
    );
    // A browser reports a refused handshake as an abnormal closure (1006), and nothing more.
    expect(attempts).toEqual(['closed 1006', 'closed 1006']);
    expect(inspectReferenceServer(stack.server)).toMatchObject({ live: 0, known: 0 });
    expect(stack.server.ignored).toEqual([expect.objectContaining({ message: 'upgrade', reason: 'origin-not-allowed', detail: new URL(elsewhereUrl).origin })]);
    await page.close();
  });

  it('lets the demo’s own page open its session', async () => {
    const { page, sessionId } = await openDemo(stack);
    expect(stack.server.session(sessionId)?.connected).toBe(true);
    await page.close();
  });
});
