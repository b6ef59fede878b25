// @vitest-environment node
/**
 * The demo in real Chromium against the reference server: streaming previews, interrupts,
 * resume after a lost connection, final close, and malformed frames.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { card, listCaughtUp, openDemo, startTurn, turnEnded, useStack } from './harness';

const stack = useStack();

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

/** The document as the page shows it: title, text, and the callId of each edit in the order applied. */
interface DocumentView {
  title: string;
  body: string;
  callIds: string[];
}

async function shownDocument(page: Page): Promise<DocumentView> {
  return {
    title: (await page.locator('[data-document-title]').getAttribute('data-document-title')) ?? '',
    body: await page.locator('.document-body').evaluate((el) => ((el as HTMLElement).dataset['length'] === '0' ? '' : (el.textContent ?? ''))),
    callIds: await page.locator('.operations li').evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset['callId'] ?? '')),
  };
}

/**
 * The document the page must show if it applied each app-tool call the server recorded (a
 * `tool.call` answered ok) exactly once: a second run of a call adds an edit and its text twice.
 */
function documentFromServer(sessionId: string): DocumentView {
  const session = stack.server.session(sessionId)!;
  const doc: DocumentView = { title: '', body: '', callIds: [] };
  for (const e of session.events()) {
    if (e['type'] !== 'tool.call') continue;
    const callId = e['callId'] as string;
    if (session.results.get(callId)?.ok !== true) continue;
    const args = e['arguments'] as { title?: string; text?: string; position?: 'start' | 'end' };
    if (e['name'] === 'set_title') doc.title = args.title ?? '';
    else if (e['name'] === 'insert_text') doc.body = args.position === 'start' ? `${args.text}${doc.body}` : `${doc.body}${args.text}`;
    else continue;
    doc.callIds.push(callId);
  }
  return doc;
}

const EMPTY_DOCUMENT: DocumentView = { title: '', body: '', callIds: [] };

describe('demo: streaming', () => {
  it('streams a call’s arguments: the preview grows while the call is still streaming', async () => {
    // Fragments 150 ms apart (speed 0.2): the store coalesces what arrives within one frame, and
    // a loaded machine's frames can be 100 ms long, so at full speed the page may rightly show
    // only two previews. The rule is that it shows them as they come, not that frames are fast.
    const { page, sessionId, problems } = await openDemo(stack, { speed: 0.2 });
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

    const events = serverEvents(sessionId);
    const calls = events.filter((e) => e['type'] === 'tool.call');
    expect(calls.map((e) => e['name'])).toEqual(['set_title']);
    await expect(shownDocument(page)).resolves.toEqual({ title: 'Release notes', body: '', callIds: [calls[0]!['callId']] });
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
    const results = [...stack.server.session(sessionId)!.results.values()];
    expect(results).toHaveLength(3);
    expect(results.every((r) => r.ok)).toBe(true);
    // Each of the three app-tool calls the server made was applied once: one edit per call, in
    // order, and its text once (a call run twice would add a fourth edit and repeat its text).
    const expected = documentFromServer(sessionId);
    expect(expected.callIds).toEqual(callIds);
    expect(expected.body).toBe('## Highlights\nFaster previews.\n## Fixes\nNo call is shown twice.');
    await expect(shownDocument(page)).resolves.toEqual(expected);
    expect(stack.server.ignored.filter((r) => r.sessionId === sessionId)).toEqual([]);
    await expect(page.locator('.diagnostics li').count()).resolves.toBe(0);
    await page.close();
  });

  it('a final close mid-stream clears the preview state and keeps the edits already made; a new session starts with a fresh document and write panel', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 1 });
    // Something ran before the close: three edits of the document and a write through the room.
    const edit = await startTurn(page, 'edit');
    await turnEnded(page, 'completed', edit);
    const edited = documentFromServer(sessionId);
    expect(edited.callIds).toHaveLength(3);
    await expect(shownDocument(page)).resolves.toEqual(edited);
    await page.getByRole('button', { name: 'Propose an invoice' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve', exact: true }).click();
    await page.locator('[data-write-outcome="done"]').waitFor();

    await startTurn(page, 'long');
    // The edit turn's insert_text cards are settled; wait for the long one to be streaming.
    await page.getByRole('article', { name: 'insert_text', exact: true }).and(page.locator('[data-status="streaming"]')).waitFor();
    await page.getByRole('button', { name: 'Close the session now' }).click();
    await page.locator('.connection-status[data-status="closed"]').waitFor();
    await listCaughtUp(page);
    await expect(page.locator('.toolgate-list').getAttribute('data-state')).resolves.toBe('closed');
    await expect(page.locator('article.toolgate-card').count()).resolves.toBe(0);
    expect(stack.server.session(sessionId)!.closed).toBe(true);
    // The call cut off mid-stream never ran; the edits made before the close stay.
    const longCall = serverEvents(sessionId).filter((e) => e['phase'] === 'start').at(-1)!;
    expect(longCall['name']).toBe('insert_text');
    expect(serverEvents(sessionId).some((e) => e['type'] === 'tool.call' && e['callId'] === longCall['callId'])).toBe(false);
    await expect(shownDocument(page)).resolves.toEqual(edited);

    await page.getByRole('button', { name: 'New session' }).click();
    await page.locator('.connection-status[data-status="open"]').waitFor();
    await page.locator(`[data-session-id]:not([data-session-id="${sessionId}"])`).waitFor();
    const next = (await page.locator('[data-session-id]').getAttribute('data-session-id'))!;
    await listCaughtUp(page);
    await expect(page.locator('.toolgate-list').getAttribute('data-state')).resolves.toBe('empty');
    // Nothing of the old session is left: no document, no edits, no write outcome.
    await expect(shownDocument(page)).resolves.toEqual(EMPTY_DOCUMENT);
    await expect(page.locator('[data-write-outcome]').count()).resolves.toBe(0);

    // The server numbers callIds per session, so the new session's edits reuse the old callIds:
    // every one of them must still be applied.
    const again = await startTurn(page, 'edit');
    await turnEnded(page, 'completed', again);
    const reedited = documentFromServer(next);
    expect(reedited.callIds).toEqual(edited.callIds);
    await expect(shownDocument(page)).resolves.toEqual(reedited);
    expect(problems).toEqual([]);
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

