// @vitest-environment node
/**
 * One page holds a saved session (docs/guarantees.md "One page holds a saved session"), in real
 * Chromium against the reference server. A browser's "Duplicate tab" copies the tab's
 * sessionStorage into the new tab; here a second page of the same browser context gets a copy of
 * the first page's sessionStorage before it loads. Each test counts what ran on both pages and
 * what the server received: every app-tool call runs once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright';
import { expectCleanSession, openDemo, sentFrames, serverHas, startTurn, turnEnded, useStack } from './harness';

const stack = useStack();

/** The callIds of the edits a page's document shows, in the order applied. */
const appliedEdits = (page: Page) => page.locator('.operations li').evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset['callId'] ?? ''));

/** A copy of `page`'s sessionStorage, written into `copy` before its first script runs (what "Duplicate tab" does). */
async function duplicateStorage(page: Page, copy: Page, options: { withoutWebLocks?: boolean } = {}): Promise<void> {
  const entries = await page.evaluate(() => Object.entries(sessionStorage));
  await copy.addInitScript(
    ({ entries, withoutWebLocks }) => {
      // Once: a reload of the copy must find what it wrote itself.
      if (sessionStorage.getItem('duplicated') !== null) return;
      sessionStorage.setItem('duplicated', '1');
      for (const [key, value] of entries) sessionStorage.setItem(key, value);
      if (withoutWebLocks) Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined });
    },
    { entries, withoutWebLocks: options.withoutWebLocks ?? false },
  );
}

/** tool.result frames a page sends, by callId. */
function resultsSent(page: Page): () => string[] {
  const frames = sentFrames(page, 'tool.result');
  return () => frames.map((f) => String(f['callId']));
}

/**
 * A page with a saved session, and its duplicate in a tab beside it (the copy of its
 * sessionStorage written before the copy loads), each with the tool.results it sends.
 */
async function pageAndDuplicate(context: BrowserContext, options: { withoutWebLocks?: boolean } = {}) {
  let firstResults: () => string[] = () => [];
  const first = await openDemo(stack, { speed: Infinity, persist: 1 }, (page) => void (firstResults = resultsSent(page)), context);
  let secondResults: () => string[] = () => [];
  const second = await openDemo(
    stack,
    { speed: Infinity, persist: 1 },
    async (copy) => {
      await duplicateStorage(first.page, copy, options);
      secondResults = resultsSent(copy);
    },
    context,
  );
  return { first, second, firstResults: () => firstResults(), secondResults: () => secondResults() };
}

describe('two pages holding one saved session', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await stack.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  });
  afterAll(async () => {
    await context?.close();
  });

  it('a duplicated tab starts a session of its own, and each app-tool call runs once, in the page whose session asked for it', async () => {
    const { first, second, firstResults, secondResults } = await pageAndDuplicate(context);
    // The copy found the entry held by the first page: it did not resume it.
    expect(second.sessionId).not.toBe(first.sessionId);
    await expect(second.page.locator('[data-restored]').count()).resolves.toBe(0);
    await first.page.locator('.connection-status[data-status="open"]').waitFor();

    const turnA = await startTurn(first.page, 'edit');
    await turnEnded(first.page, 'completed', turnA);
    const turnB = await startTurn(second.page, 'edit');
    await turnEnded(second.page, 'completed', turnB);

    const callsA = stack.server.session(first.sessionId)!.events().filter((e) => e['type'] === 'tool.call').map((e) => String(e['callId']));
    const callsB = stack.server.session(second.sessionId)!.events().filter((e) => e['type'] === 'tool.call').map((e) => String(e['callId']));
    expect(callsA).toHaveLength(3);
    expect(callsB).toHaveLength(3);
    // Each page ran its own session's calls, once each, and nothing of the other's.
    expect(await appliedEdits(first.page)).toEqual(callsA);
    expect(await appliedEdits(second.page)).toEqual(callsB);
    expect(firstResults()).toEqual(callsA);
    expect(secondResults()).toEqual(callsB);
    // The first page still holds its session, on its first socket.
    expect(first.sockets).toBe(1);
    expect(stack.server.session(first.sessionId)!.connected).toBe(true);
    expectCleanSession(stack, first);
    expectCleanSession(stack, second);
    await second.page.close();
    await first.page.close();
  }, 90_000);

  it('without Web Locks the copy resumes the session; the older page is told it lost it and stops: each call runs once, never in both', async () => {
    const { first, second, firstResults, secondResults } = await pageAndDuplicate(context, { withoutWebLocks: true });
    expect(second.sessionId).toBe(first.sessionId);
    // Only the newest socket speaks for the session: the first page ends instead of taking it back.
    await first.page.locator('.connection-status[data-status="closed"]').waitFor();
    await second.page.locator('.connection-status[data-status="open"]').waitFor();

    const turn = await startTurn(second.page, 'edit');
    await turnEnded(second.page, 'completed', turn);
    const calls = stack.server.session(first.sessionId)!.events().filter((e) => e['type'] === 'tool.call').map((e) => String(e['callId']));
    expect(calls).toHaveLength(3);
    expect(await appliedEdits(second.page)).toEqual(calls);
    expect(await appliedEdits(first.page)).toEqual([]);
    expect(secondResults()).toEqual(calls);
    expect(firstResults()).toEqual([]);
    await serverHas(() => expect(stack.server.ignored.filter((r) => r.sessionId === first.sessionId)).toEqual([]));
    expect(first.sockets).toBe(1);
    await second.page.close();
    await first.page.close();
  }, 90_000);
});
