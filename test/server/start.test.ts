// @vitest-environment node
// `npm start` (scripts/start.mjs) as a user runs it: it builds the reference server and the demo,
// serves the page and its WebSocket on PORT, prints the URL and stops cleanly on SIGTERM.
// scripts/start.mjs always builds (there is no prebuilt output it could take), so this test pays
// for one server build and one demo build; its outputs are start's own (.cache/start/server and
// demo-dist/), apart from the e2e project's demo build.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient, refusedUpgrade } from './helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BUILD_AND_START_MS = 90_000;
const STOP_MS = 10_000;

/** A port nobody listens on right now (the kernel's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Whether a new server can listen on `port` (so nothing holds it any more). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what())), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

let child: ChildProcess | undefined;
let client: TestClient | undefined;

// Runs even when the test fails or times out. start.mjs leads its own process group (detached),
// so its build steps (spawnSync children) go with it: the group is killed by start's PID.
afterEach(async () => {
  await client?.terminate();
  client = undefined;
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  child = undefined;
});

describe('npm start (scripts/start.mjs)', () => {
  it('builds, serves the demo page and its WebSocket on PORT, prints the URL, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const { HOST: _host, ...env } = process.env;
    const started = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { ...env, PORT: String(port), TOOLGATE_SPEED: 'Infinity' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child = started;
    let stdout = '';
    let stderr = '';
    started.stdout.on('data', (chunk: Buffer) => void (stdout += String(chunk)));
    started.stderr.on('data', (chunk: Buffer) => void (stderr += String(chunk)));
    const output = () => `stdout:\n${stdout}\nstderr:\n${stderr}`;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      started.once('exit', (code, signal) => resolve({ code, signal }));
    });

    // 1. The printed URLs, on the PORT it was given.
    const printed = await within(
      new Promise<{ url: string; wsUrl: string }>((resolve, reject) => {
        const check = () => {
          const page = /toolgate demo: open (http:\/\/127\.0\.0\.1:(\d+)\/)/.exec(stdout);
          const ws = /speaks WebSocket at (ws:\/\/127\.0\.0\.1:\d+\/ws)/.exec(stdout);
          if (page && ws) resolve({ url: page[1]!, wsUrl: ws[1]! });
        };
        started.stdout.on('data', check);
        void exited.then(({ code, signal }) => reject(new Error(`start exited early (${code ?? signal})\n${output()}`)));
      }),
      BUILD_AND_START_MS,
      () => `no URL printed within ${BUILD_AND_START_MS} ms\n${output()}`,
    );
    expect(printed.url).toBe(`http://127.0.0.1:${port}/`);
    expect(printed.wsUrl).toBe(`ws://127.0.0.1:${port}/ws`);

    // 2. The page: the built demo's HTML, whose script is served too.
    const page = await fetch(printed.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<title>toolgate live demo</title>');
    expect(html).toContain('<div id="root"></div>');
    const src = /<script type="module"[^>]*\ssrc="([^"]+)"/.exec(html)?.[1];
    expect(src, 'the page has a module script').toBeDefined();
    expect(src).not.toMatch(/\.tsx?$/); // built, not the source entry
    const script = await fetch(new URL(src!, printed.url));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(1000);

    // 3. The WebSocket, forwarded to the reference server: hello, then its welcome; from the page's
    //    own origin (as a browser on the page sends it), never from another site's page.
    const connected = await TestClient.connectFrom(printed.wsUrl, new URL(printed.url).origin, {});
    client = connected.client;
    expect(connected.welcome.type).toBe('session.welcome');
    expect(stdout).toContain(`pages allowed to connect: http://127.0.0.1:${port}`);
    expect((await refusedUpgrade(printed.wsUrl, 'https://evil.example')).status).toBe(403);
    expect((await fetch(printed.url, { headers: { origin: 'https://evil.example' } })).status).toBe(403);

    // 4. SIGTERM: the session gets `closed`, the process exits with 0 and the port is free again.
    started.kill('SIGTERM');
    const { code, signal } = await within(exited, STOP_MS, () => `still running ${STOP_MS} ms after SIGTERM\n${output()}`);
    expect({ code, signal }, output()).toEqual({ code: 0, signal: null });
    expect(stdout).toContain('SIGTERM: closing every session and stopping');
    expect(client.events().at(-1)).toMatchObject({ type: 'closed', reason: 'shutdown' });
    await within(client.closed, STOP_MS, () => 'the WebSocket stayed open after start exited');
    expect(await canListen(port)).toBe(true);
  }, BUILD_AND_START_MS + 2 * STOP_MS + 10_000);
});
