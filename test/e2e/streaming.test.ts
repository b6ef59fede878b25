// @vitest-environment node
/**
 * The demo in real Chromium against the reference server: streaming previews, interrupts,
 * resume after a lost connection, final close, and malformed frames.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { card, openDemo, startStack, startTurn, turnEnded, type Stack } from './harness';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

interface Sample {
  name: string;
  status: string;
  length: number;
}

/** Record every rendered state of every card (status, argument text length) from now on. */
async function recordCards(page: Page): Promise<() => Promise<Sample[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __samples: Sample[] };
    w.__samples = [];
    const take = () => {
      for (const el of document.querySelectorAll<HTMLElement>('article.toolgate-card')) {
        w.__samples.push({
          name: el.querySelector('.toolgate-card-name')?.textContent ?? '',
          status: el.dataset['status'] ?? '',
          length: el.querySelector('.toolgate-args')?.textContent?.length ?? 0,
        });
      }
    };
    new MutationObserver(take).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { __samples: Sample[] }).__samples);
}

/** The session's sequenced events on the server. */
const serverEvents = (id: string) => stack.server.session(id)!.events();

describe('demo: streaming', () => {
  it('streams a call’s arguments: the preview grows while the call is still streaming', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 1 });
    const samples = await recordCards(page);
    const turn = await startTurn(page, 'search');
    await turnEnded(page, 'completed', turn);
    await expect(card(page, 'search_docs').getAttribute('data-status')).resolves.toBe('settled');

    const seen = (await samples()).filter((s) => s.name === 'search_docs');
    const streaming = seen.filter((s) => s.status === 'streaming').map((s) => s.length);
    const grew = new Set(streaming.filter((length) => length > 0));
    // Several distinct previews while streaming, each before the call was issued.
    expect(grew.size).toBeGreaterThanOrEqual(3);
    const firstIssued = seen.findIndex((s) => s.status === 'issued' || s.status === 'settled');
    const lastStreaming = seen.map((s) => s.status).lastIndexOf('streaming');
    expect(lastStreaming).toBeLessThan(firstIssued);
    const shown = streaming.filter((length) => length > 0);
    expect(shown[0]).toBeLessThan(Math.max(...shown));
    // And the server really sent it in fragments.
    const deltas = serverEvents(sessionId).filter((e) => e['phase'] === 'arguments-delta');
    expect(deltas.length).toBeGreaterThan(3);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('interrupting mid-stream cancels every open call of the turn, and no app tool of that turn runs', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 0.25 });
    const turn = await startTurn(page, 'parallel');
    // Four calls in one response, their fragments interleaved: all of them are open.
    await page.waitForFunction(() => document.querySelectorAll('article.toolgate-card[data-status="streaming"]').length === 4);
    await page.getByRole('button', { name: 'Interrupt' }).click();
    await turnEnded(page, 'interrupted', turn);
    const statuses = await page.locator('article.toolgate-card').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset['status']));
    expect(statuses).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);

    const session = stack.server.session(sessionId)!;
    const callIds = serverEvents(sessionId).filter((e) => e['phase'] === 'start').map((e) => e['callId'] as string);
    expect(callIds).toHaveLength(4);
    for (const callId of callIds) expect(session.results.get(callId)).toMatchObject({ ok: false, code: 'INTERRUPTED' });
    // The app tool of that turn (set_title) was never asked to run, and the document is untouched.
    expect(serverEvents(sessionId).filter((e) => e['type'] === 'tool.call')).toEqual([]);
    await expect(page.locator('[data-document-title]').getAttribute('data-document-title')).resolves.toBe('');
    await expect(page.locator('.operations li').count()).resolves.toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('an interrupt between app-tool calls keeps what ran and runs nothing of the turn afterwards', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 0.25 });
    const turn = await startTurn(page, 'edit');
    // set_title ran in the page; the first insert_text is being written.
    await page.locator('.operations li[data-call-id]').first().waitFor();
    await page.locator('article.toolgate-card[data-status="streaming"]').waitFor();
    await page.getByRole('button', { name: 'Interrupt' }).click();
    await turnEnded(page, 'interrupted', turn);

    await expect(page.locator('.operations li').count()).resolves.toBe(1);
    await expect(page.locator('[data-document-title]').getAttribute('data-document-title')).resolves.toBe('Release notes');
    const events = serverEvents(sessionId);
    const calls = events.filter((e) => e['type'] === 'tool.call');
    expect(calls.map((e) => e['name'])).toEqual(['set_title']);
    const interruptedAt = events.findIndex((e) => e['type'] === 'turn.ended');
    expect(events.slice(interruptedAt).some((e) => e['type'] === 'tool.call')).toBe(false);
    const open = events.filter((e) => e['phase'] === 'start' && e['name'] === 'insert_text').map((e) => e['callId'] as string);
    for (const callId of open) expect(stack.server.session(sessionId)!.results.get(callId)).toMatchObject({ code: 'INTERRUPTED' });
    const statuses = await page.locator('article.toolgate-card').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset['status']));
    expect(statuses[0]).toBe('settled');
    expect(statuses.slice(1).every((s) => s === 'cancelled')).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('demo: connection', () => {
  it('a lost connection resumes the same session and shows no call twice', async () => {
    const demo = await openDemo(stack, { speed: 1 });
    const { page, sessionId } = demo;
    await page.evaluate(() => {
      const w = window as unknown as { __statuses: string[] };
      w.__statuses = [];
      const el = document.querySelector<HTMLElement>('.connection-status')!;
      new MutationObserver(() => w.__statuses.push(el.dataset['status'] ?? '')).observe(el, { attributes: true });
    });
    await page.getByRole('button', { name: 'Disconnect after 10 events' }).click();
    await page.getByText('The server armed: disconnect (afterEvents 10).').waitFor();
    const turn = await startTurn(page, 'edit');
    await turnEnded(page, 'completed', turn);

    const statuses = await page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses);
    expect(statuses).toContain('reconnecting');
    expect(statuses.at(-1)).toBe('open');
    expect(demo.sockets).toBe(2);
    await expect(page.locator('[data-session-id]').getAttribute('data-session-id')).resolves.toBe(sessionId);

    const events = serverEvents(sessionId);
    const callIds = events.filter((e) => e['phase'] === 'start').map((e) => e['callId']);
    expect(callIds).toHaveLength(3);
    const shown = await page.locator('article.toolgate-card').count();
    expect(shown).toBe(3);
    const applied = await page.locator('.operations li').evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset['callId']));
    expect(applied).toHaveLength(3);
    expect(new Set(applied).size).toBe(3);
    const results = [...stack.server.session(sessionId)!.results.values()];
    expect(results.every((r) => r.ok)).toBe(true);
    expect(stack.server.ignored.filter((r) => r.sessionId === sessionId)).toEqual([]);
    await expect(page.locator('.diagnostics li').count()).resolves.toBe(0);
    await page.close();
  });

  it('a final close mid-stream clears the preview state; a new session starts empty', async () => {
    const { page, sessionId } = await openDemo(stack, { speed: 1 });
    await startTurn(page, 'long');
    await card(page, 'insert_text').and(page.locator('[data-status="streaming"]')).waitFor();
    await page.getByRole('button', { name: 'Close the session now' }).click();
    await page.locator('.connection-status[data-status="closed"]').waitFor();
    await expect(page.locator('.toolgate-list').getAttribute('data-state')).resolves.toBe('closed');
    await expect(page.locator('article.toolgate-card').count()).resolves.toBe(0);
    await expect(page.locator('.operations li').count()).resolves.toBe(0);
    expect(stack.server.session(sessionId)!.closed).toBe(true);

    await page.getByRole('button', { name: 'New session' }).click();
    await page.locator('.connection-status[data-status="open"]').waitFor();
    await page.locator(`[data-session-id]:not([data-session-id="${sessionId}"])`).waitFor();
    await expect(page.locator('.toolgate-list').getAttribute('data-state')).resolves.toBe('empty');
    await page.close();
  });

  it('malformed frames reach onError and the page keeps working', async () => {
    const { page, problems } = await openDemo(stack, { speed: Infinity });
    const first = await startTurn(page, 'search');
    await turnEnded(page, 'completed', first);
    for (const name of ['Text that is not JSON', 'JSON that is not an object', 'A repeated seq', 'An unknown phase', 'An event without callId']) {
      await page.getByRole('button', { name }).click();
    }
    const log = page.getByRole('log', { name: 'Refused frames and messages' });
    await log.getByText(/is not JSON/).waitFor();
    await log.getByText(/is not a JSON object/).waitFor();
    await log.getByText(/repeated turn\.ended event/).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.diagnostics li[data-source="store"]').length >= 2);

    const turn = await startTurn(page, 'search');
    await turnEnded(page, 'completed', turn);
    const statuses = await page.locator('article.toolgate-card').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset['status']));
    expect(statuses).toEqual(['settled', 'settled']);
    await expect(page.locator('.connection-status').getAttribute('data-status')).resolves.toBe('open');
    expect(problems).toEqual([]);
    await page.close();
  });
});

