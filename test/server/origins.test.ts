// @vitest-environment node
/**
 * Only allowed origins: WebSocket upgrades (the reference server) and the demo's pages (its
 * static server) answer another site's page with HTTP 403, before any session exists.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveDemo, type DemoServer } from '../../demo/serve.mjs';
import { inspectReferenceServer } from '../../server/introspect';
import { originAllowed, parseOriginList } from '../../server/origins';
import { TestClient, refusedUpgrade, useTestServer } from './helpers';

const { startServer, connect, track } = useTestServer();
let demo: DemoServer | undefined;
afterEach(async () => {
  await demo?.close();
  demo = undefined;
});

let root = '';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'toolgate-origins-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>demo</title>');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A plain GET with the given headers: status and body. */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('reference server: allowed origins', () => {
  it('answers an upgrade from an origin it does not allow with 403, before any session or socket exists', async () => {
    const server = await startServer({ allowedOrigins: ['http://127.0.0.1:8787'] });
    const refused = await refusedUpgrade(server.url, 'https://evil.example');
    expect(refused).toEqual({ status: 403, body: 'origin not allowed: https://evil.example\n' });
    expect(inspectReferenceServer(server)).toMatchObject({ live: 0, known: 0, sockets: 0 });
    expect(server.ignored).toEqual([expect.objectContaining({ message: 'upgrade', reason: 'origin-not-allowed', detail: 'https://evil.example' })]);
  });

  it('allows no web page at all unless told which (allowedOrigins defaults to none)', async () => {
    const server = await startServer();
    expect((await refusedUpgrade(server.url, `http://127.0.0.1:${server.port}`)).status).toBe(403);
    expect((await refusedUpgrade(server.url, 'null')).status).toBe(403);
  });

  it('lets a page of an allowed origin open a session, however the origin is spelled', async () => {
    await startServer({ allowedOrigins: ['HTTP://App.Example:80'] });
    const { welcome } = await connect({}, 'http://app.example');
    expect(welcome.type).toBe('session.welcome');
  });

  it('asks a function, when given one, with the normalized origin', async () => {
    const asked: string[] = [];
    const server = await startServer({ allowedOrigins: (origin) => (asked.push(origin), origin.endsWith('.trusted.test')) });
    await connect({}, 'https://a.trusted.test');
    expect((await refusedUpgrade(server.url, 'https://trusted.test.evil')).status).toBe(403);
    expect(asked).toEqual(['https://a.trusted.test', 'https://trusted.test.evil']);
  });

  it('lets a client that is not a browser (no Origin header) connect: only authentication could stop it', async () => {
    await startServer();
    const { welcome } = await connect();
    expect(welcome.type).toBe('session.welcome');
  });

  it('reads TOOLGATE_ALLOWED_ORIGINS as a comma or space separated list, and refuses a typo', () => {
    expect(parseOriginList(undefined)).toEqual([]);
    expect(parseOriginList('http://a.test:3000, https://B.test  http://localhost:8787/')).toEqual([
      'http://a.test:3000',
      'https://b.test',
      'http://localhost:8787',
    ]);
    expect(() => parseOriginList('http://ok.test,localhost:3000x')).toThrow(/not an origin: "localhost:3000x"/);
    expect(originAllowed(['http://a.test'], 'not an origin')).toBe(false);
  });
});

describe('the demo’s server: allowed origins', () => {
  async function stack(allowedOrigins: string[] = []) {
    const pageOrigins = new Set<string>();
    const server = await startServer({ allowedOrigins: (origin) => pageOrigins.has(origin) });
    demo = await serveDemo({ root, target: server.url, allowedOrigins });
    for (const origin of demo.allowedOrigins) pageOrigins.add(origin);
    return { ...demo, server };
  }

  it('serves its page and forwards its socket for the page’s own origin (127.0.0.1 and localhost)', async () => {
    const { url, wsUrl, port, allowedOrigins } = await stack();
    expect(allowedOrigins).toEqual(expect.arrayContaining([`http://127.0.0.1:${port}`, `http://localhost:${port}`]));
    expect((await get(url, {})).status).toBe(200);
    expect((await get(url, { host: `localhost:${port}` })).status).toBe(200);
    const { client, welcome } = await TestClient.connectFrom(wsUrl, `http://127.0.0.1:${port}`, {});
    track(client);
    expect(welcome.type).toBe('session.welcome');
  });

  it('refuses a page request under another host name (a rebinding page) and one from another site, with 403', async () => {
    const { url } = await stack();
    expect(await get(url, { host: 'evil.example:80' })).toEqual({ status: 403, body: 'host not allowed: evil.example:80\n' });
    expect((await get(url, { origin: 'https://evil.example' })).status).toBe(403);
  });

  it('refuses an upgrade from another site with 403 before forwarding it: the reference server sees nothing', async () => {
    const { wsUrl, server } = await stack();
    expect((await refusedUpgrade(wsUrl, 'https://evil.example')).status).toBe(403);
    expect(inspectReferenceServer(server)).toMatchObject({ live: 0, sockets: 0 });
    expect(server.ignored).toEqual([]);
  });

  it('serves the origins it is given besides its own (a proxy’s public address)', async () => {
    const { wsUrl, url } = await stack(['https://demo.example']);
    expect((await get(url, { host: 'demo.example', origin: 'https://demo.example' })).status).toBe(200);
    const { client, welcome } = await TestClient.connectFrom(wsUrl, 'https://demo.example', {});
    track(client);
    expect(welcome.type).toBe('session.welcome');
  });
});
