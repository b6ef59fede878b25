/**
 * End-to-end harness: the real reference server (in this process, so tests read its records),
 * the BUILT demo served with its WebSocket pass-through, and Debian's Chromium driven by
 * Playwright. Tests wait on state (DOM, server records), never on time.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { connectReferenceSession, type ReferenceSession, type ReferenceSessionOptions } from 'toolgate/client';
import { serveDemo, type DemoServer } from '../../demo/serve.mjs';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../server/server';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * How long one wait on the page (or on the server) may take before the test fails with what it
 * waited for, sized for a loaded 2-core machine (`npm run test:stress`): a wait ends as soon as its
 * state is there, so this costs nothing when the machine is quick. The e2e project's test timeout
 * (vitest.config.ts) is larger, so a failing wait reports what it waited for.
 */
export const WAIT_MS = 60_000;

/**
 * Debian's Chromium, headless, with the flags that keep it off the closed network. `extraArgs`
 * add to them (the screenshots' font hinting, say).
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}

/**
 * One Chromium for the tests of the enclosing `describe` (or file): launched before them, closed
 * after them. Read it inside a test or a hook.
 */
export function useChromium(extraArgs: readonly string[] = []): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium(extraArgs);
  });
  afterAll(async () => {
    await browser?.close();
    browser = undefined;
  });
  return () => {
    if (!browser) throw new Error('Chromium is launched in beforeAll: read it inside a test or a hook');
    return browser;
  };
}

export interface Stack {
  server: ReferenceServer;
  demo: DemoServer;
  browser: Browser;
  close(): Promise<void>;
}

export async function startStack(options: ReferenceServerOptions = {}): Promise<Stack> {
  // As `npm start` does: the page's own origin may open sessions, known once the demo listens.
  const pageOrigins = new Set<string>();
  const server = await startReferenceServer({ port: 0, allowedOrigins: (origin) => pageOrigins.has(origin), ...options });
  const demo = await serveDemo({ root: inject('demoDir'), target: server.url });
  for (const origin of demo.allowedOrigins) pageOrigins.add(origin);
  const browser = await launchChromium();
  return {
    server,
    demo,
    browser,
    async close() {
      await browser.close();
      await demo.close();
      await server.close();
    },
  };
}

/**
 * The stack for the tests of the enclosing `describe` (or file): started before them, closed after
 * them. The object it returns stands for that stack once it has started (read it inside a test or
 * a hook); `timeoutMs` bounds the start.
 */
export function useStack(options: ReferenceServerOptions = {}, timeoutMs?: number): Stack {
  let started: Stack | undefined;
  beforeAll(async () => {
    started = await startStack(options);
  }, timeoutMs);
  afterAll(async () => {
    // Closed, not forgotten: a test file may still read what its server recorded.
    await started?.close();
  });
  const current = (): Stack => {
    if (!started) throw new Error('the stack starts in beforeAll: use it inside a test or a hook');
    return started;
  };
  return {
    get server() {
      return current().server;
    },
    get demo() {
      return current().demo;
    },
    get browser() {
      return current().browser;
    },
    close: () => current().close(),
  };
}

/**
 * Each test's own reference server (instant pacing) with a session of the kit's client connected
 * to it, both closed after the test. No browser: for what the kit's client and the server say.
 */
export function useReferenceSession(): (options?: Omit<ReferenceSessionOptions, 'WebSocket'>) => Promise<{ server: ReferenceServer; session: ReferenceSession }> {
  let server: ReferenceServer | undefined;
  let session: ReferenceSession | undefined;
  afterEach(async () => {
    session?.close();
    session = undefined;
    await server?.close();
    server = undefined;
  });
  return async (options = {}) => {
    if (server) throw new Error('one reference session per test');
    server = await startReferenceServer({ port: 0, speed: Infinity });
    session = connectReferenceSession(server.url, { onError: () => {}, ...options, WebSocket });
    await session.ready;
    return { server, session };
  };
}

export interface DemoPage {
  page: Page;
  sessionId: string;
  /** Uncaught errors and console errors of the page. */
  problems: string[];
  /** WebSocket connections the page opened. */
  sockets: number;
}

/**
 * Open the demo and wait until its session is welcomed. `params` go to the query string;
 * `prepare` sees the page before it loads (to watch its first socket, say).
 */
export async function openDemo(
  stack: Stack,
  params: Record<string, string | number> = {},
  prepare?: (page: Page) => void | Promise<void>,
  context?: BrowserContext,
): Promise<DemoPage & { sockets: number }> {
  // In `context` (a tab beside others of the same browser profile), or a context of its own.
  const page = context ? await context.newPage() : await stack.browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await prepare?.(page);
  page.setDefaultTimeout(WAIT_MS);
  const state = { problems: [] as string[], sockets: 0 };
  page.on('pageerror', (error) => state.problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') state.problems.push(`console: ${message.text()}`);
  });
  page.on('websocket', () => {
    state.sockets += 1;
  });
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  await page.goto(`${stack.demo.url}?${query}`);
  const id = page.locator('[data-session-id]');
  await id.waitFor();
  const sessionId = (await id.getAttribute('data-session-id')) ?? '';
  return {
    page,
    sessionId,
    get problems() {
      return state.problems;
    },
    get sockets() {
      return state.sockets;
    },
  };
}

/** The confirmation dialog (Radix portals it into the body). */
export function dialog(page: Page) {
  return page.getByRole('dialog');
}

/** The card of the first call of `name`. */
export function card(page: Page, name: string) {
  return page.getByRole('article', { name, exact: true }).first();
}

/** A turn started from the page: the how-manieth of the page it is. */
export interface StartedTurn {
  readonly number: number;
}

/** Click a prompt's button (it starts a scripted turn). */
export async function startTurn(page: Page, prompt: string): Promise<StartedTurn> {
  const before = Number(await page.locator('[data-turns]').getAttribute('data-turns'));
  await page.getByRole('button', { name: prompt, exact: true }).click();
  return { number: before + 1 };
}

/** Wait until the page says that turn (the latest by default) ended with `status`. */
export async function turnEnded(page: Page, status: 'completed' | 'interrupted' | 'failed' | 'closed', turn?: StartedTurn): Promise<void> {
  const count = turn ? `[data-turns="${turn.number}"]` : '';
  await page.locator(`[data-turn-status="${status}"]${count}`).waitFor();
  await listCaughtUp(page);
}

/**
 * Wait until the list shows what the session said. The demo's turn and connection lines read the
 * session at once, while the list reads the provider's store, which tells its readers once per
 * animation frame: two frames later the list shows it too.
 */
export async function listCaughtUp(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** Poll a server record until `check` passes (the server runs in this process). */
export async function serverHas(check: () => void): Promise<void> {
  await expect.poll(() => {
    try {
      check();
      return true;
    } catch {
      return false;
    }
  }, { timeout: WAIT_MS, interval: 20 }).toBe(true);
  check();
}

/** Every frame of `type` the page sends from now on (on any socket it opens, as Chromium sees it), decoded. */
export function sentFrames(page: Page, type: string): Record<string, unknown>[] {
  const frames: Record<string, unknown>[] = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const frame = JSON.parse(String(payload)) as Record<string, unknown>;
      if (frame['type'] === type) frames.push(frame);
    });
  });
  return frames;
}

/**
 * A session's end as a test expects it: the server ignored none of its messages (a second answer
 * to one call would be one) and the page logged no error; with `nothingAccepted`, the server also
 * accepted no effect of the session (nothing ran).
 */
export function expectCleanSession(stack: Stack, demo: { sessionId: string; problems: readonly string[] }, { nothingAccepted = false } = {}): void {
  if (nothingAccepted) expect(stack.server.effects.filter((e) => e.sessionId === demo.sessionId && e.outcome === 'accepted')).toEqual([]);
  expect(stack.server.ignored.filter((r) => r.sessionId === demo.sessionId)).toEqual([]);
  expect(demo.problems).toEqual([]);
}
