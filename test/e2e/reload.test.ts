// @vitest-environment node
/**
 * A session kept across a reload, in real Chromium against the reference server: the demo with
 * `?persist=1` keeps its session in the tab's sessionStorage, and `page.reload()` makes a new page
 * with an empty store in the same tab. Each test checks what the page shows after the reload and
 * what the server recorded: one effect per approval, and no app-tool call run twice.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { defaultBeforeToolCall } from '../../server/agent-tools';
import { card, dialog, expectCleanSession, openDemo, sentFrames, serverHas, startTurn, turnEnded, useStack, type Stack } from './harness';

const stack = useStack();

const RELOADED_WHILE_RUNNING = 'outcome unknown: the page reloaded while it ran';

/** Reload the tab and wait until the page has resumed the session it kept (the same session id). */
async function reload(page: Page, sessionId: string): Promise<void> {
  await page.reload();
  await page.locator(`[data-session-id="${sessionId}"]`).waitFor();
  await page.locator('[data-restored]').waitFor();
  await page.locator('.connection-status[data-status="open"]').waitFor();
}

/** The session's sequenced events on the server (of the stack that holds it). */
const serverEvents = (sessionId: string) => (stack.server.session(sessionId) ?? otherStacks.find((s) => s.server.session(sessionId))?.server.session(sessionId))!.events();
/** Stacks of their own (other server options) that some tests start. */
const otherStacks: Stack[] = [];

/** The server's sequenced events of one type (and call). */
function eventsOf(sessionId: string, type: string, callId?: string): Record<string, unknown>[] {
  return serverEvents(sessionId).filter((e) => e['type'] === type && (callId === undefined || e['callId'] === callId));
}

/** The callId of the first `start` of a tool. */
function callIdOf(sessionId: string, name: string): string {
  const start = serverEvents(sessionId).find((e) => e['phase'] === 'start' && e['name'] === name);
  if (!start) throw new Error(`no call of ${name} started yet`);
  return start['callId'] as string;
}

/** The callIds of the edits the page's document shows, in the order applied. */
const appliedEdits = (page: Page) => page.locator('.operations li').evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset['callId'] ?? ''));

describe('demo with ?persist=1: a reload resumes the session', () => {
  it('reloaded while an argument streams: the new page shows the call as it was, streams the rest, and runs the app tool once', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 4, persist: 1 });
    const turn = await startTurn(page, 'long');
    const streaming = card(page, 'insert_text');
    await page.locator('article.toolgate-card[data-status="streaming"]').waitFor();
    // Some of the argument is on screen and the call has not reached the page yet.
    await expect.poll(() => streaming.locator('.toolgate-args').textContent().then((t) => t?.length ?? 0)).toBeGreaterThan(40);
    await serverHas(() => expect(eventsOf(sessionId, 'tool.call')).toEqual([]));

    await reload(page, sessionId);
    // The replay rebuilt the card: one card, the same call, still streaming (or already done). A
    // steady card shows a call in a passing state after its first frames, so the count is polled.
    await expect.poll(() => page.locator('article.toolgate-card').count()).toBe(1);
    await turnEnded(page, 'completed', turn);
    await expect(streaming.getAttribute('data-status')).resolves.toBe('settled');
    await expect(streaming.getAttribute('data-outcome')).resolves.toBe('ok');

    const callId = callIdOf(sessionId, 'insert_text');
    // The call reached the page after the reload and ran there once: one edit, one result.
    expect(await appliedEdits(page)).toEqual([callId]);
    expect(eventsOf(sessionId, 'tool.call', callId)).toHaveLength(1);
    expect(stack.server.session(sessionId)!.results.get(callId)).toMatchObject({ ok: true });
    const text = (eventsOf(sessionId, 'tool.call', callId)[0]!['arguments'] as { text: string }).text;
    await expect(page.locator('.document-body').getAttribute('data-length')).resolves.toBe(String(text.length));
    expectCleanSession(stack, { sessionId, problems });
    await page.close();
  });

  it('reloaded while an approval waits: the same request comes back (request id, arguments, fingerprint), and approving it runs once', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 4, persist: 1 });
    const turn = await startTurn(page, 'deploy');
    await dialog(page).waitFor();
    await dialog(page).getByText('2.7.1').waitFor();
    const shownBefore = await dialog(page).locator('[data-fingerprint]').getAttribute('data-fingerprint');
    const [request] = eventsOf(sessionId, 'tool.approval-request');
    const answers = sentFrames(page, 'tool.approval');

    await reload(page, sessionId);
    await dialog(page).waitFor();
    await dialog(page).getByText('2.7.1').waitFor();
    await expect(dialog(page).locator('[data-fingerprint]').getAttribute('data-fingerprint')).resolves.toBe(shownBefore);
    // The server asked once; the page answers that request, not a new one.
    expect(eventsOf(sessionId, 'tool.approval-request')).toEqual([request]);

    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click();
    await turnEnded(page, 'completed', turn);
    await expect(dialog(page).count()).resolves.toBe(0);
    await expect(card(page, 'deploy_service').getAttribute('data-outcome')).resolves.toBe('ok');
    // One answer, to the request the server asked before the reload, with the fingerprint shown.
    expect(answers).toEqual([expect.objectContaining({ requestId: request!['requestId'], approved: true, fingerprint: shownBefore })]);
    const effects = stack.server.effects.filter((e) => e.sessionId === sessionId);
    expect(effects).toEqual([
      expect.objectContaining({ toolName: 'deploy_service', outcome: 'accepted', arguments: { service: 'billing', version: '2.7.1', environment: 'production' } }),
    ]);
    expectCleanSession(stack, { sessionId, problems });
    await page.close();
  });

  it('reloaded while an app tool runs: the call is answered FAILED ("outcome unknown: the page reloaded while it ran") and never run again', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 4, persist: 1 });
    const turn = await startTurn(page, 'write');
    // send_invoice runs: it waits in its own review of the invoice.
    await dialog(page).waitFor();
    await dialog(page).getByText('c_101').waitFor();
    const callId = callIdOf(sessionId, 'send_invoice');

    await reload(page, sessionId);
    await turnEnded(page, 'completed', turn);
    const sent = card(page, 'send_invoice');
    await expect(sent.getAttribute('data-outcome')).resolves.toBe('error');
    await expect(sent.locator('[data-code]').first().getAttribute('data-code')).resolves.toBe('FAILED');
    await sent.getByText(RELOADED_WHILE_RUNNING).first().waitFor();
    // Not run again: no review of the invoice on the new page, nothing sent through the room.
    await expect(dialog(page).count()).resolves.toBe(0);
    expect(stack.server.session(sessionId)!.results.get(callId)).toEqual({ ok: false, code: 'FAILED', message: RELOADED_WHILE_RUNNING });
    expect(eventsOf(sessionId, 'tool.call', callId)).toHaveLength(1);
    expect(stack.server.effects.filter((e) => e.sessionId === sessionId)).toEqual([]);
    expectCleanSession(stack, { sessionId, problems });
    await page.close();
  });

  it('a call the reloaded page had already answered is not run again: the edits of a finished turn are not applied twice', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: Infinity, persist: 1 });
    const turn = await startTurn(page, 'edit');
    await turnEnded(page, 'completed', turn);
    const edits = await appliedEdits(page);
    expect(edits).toHaveLength(3);

    await reload(page, sessionId);
    await turnEnded(page, 'completed', turn);
    await expect(page.locator('article.toolgate-card[data-outcome="ok"]').count()).resolves.toBe(3);
    // The replay carries the three tool.calls as history: the new page runs none of them.
    expect(await appliedEdits(page)).toEqual([]);
    expect(eventsOf(sessionId, 'tool.call')).toHaveLength(3);
    expectCleanSession(stack, { sessionId, problems });
    await page.close();
  });
});

describe('demo with ?persist=1: standing grants', () => {
  it('a grant given before the reload answers the same tool’s next request after it, by itself', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 4, persist: 1 });
    const first = await startTurn(page, 'deploy');
    await dialog(page).waitFor();
    await dialog(page).getByRole('button', { name: 'Deny for this session' }).click();
    await turnEnded(page, 'completed', first);

    const answers = sentFrames(page, 'tool.approval');
    await reload(page, sessionId);
    const second = await startTurn(page, 'deploy');
    await turnEnded(page, 'completed', second);
    // The restored grant denied it: no person was asked, and the answer says so.
    const requests = eventsOf(sessionId, 'tool.approval-request');
    expect(requests).toHaveLength(2);
    expect(answers).toEqual([expect.objectContaining({ requestId: requests[1]!['requestId'], approved: false, automatic: true })]);
    expectCleanSession(stack, { sessionId, problems }, { nothingAccepted: true });
    await page.close();
  });
});

describe('demo with ?persist=1: a sub-agent’s call that waits for approval', () => {
  it('names its parent in the dialog, before and after a reload, and runs once when approved', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 4, persist: 1 });
    const turn = await startTurn(page, 'research');
    await dialog(page).waitFor();
    const parent = callIdOf(sessionId, 'research');
    const refund = callIdOf(sessionId, 'issue_refund');
    expect(serverEvents(sessionId).find((e) => e['phase'] === 'start' && e['callId'] === refund)).toMatchObject({ parentCallId: parent });
    await dialog(page).getByText(`Part of research (call ${parent})`).waitFor();

    await reload(page, sessionId);
    await dialog(page).getByText(`Part of research (call ${parent})`).waitFor();
    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click();
    await turnEnded(page, 'completed', turn);
    await expect(card(page, 'issue_refund').getAttribute('data-outcome')).resolves.toBe('ok');
    expect(stack.server.effects.filter((e) => e.sessionId === sessionId && e.toolName === 'issue_refund')).toEqual([
      expect.objectContaining({ outcome: 'accepted', arguments: expect.objectContaining({ orderId: 'ord_1042' }) }),
    ]);
    expect(eventsOf(sessionId, 'tool.approval-request')).toHaveLength(1);
    expectCleanSession(stack, { sessionId, problems });
    await page.close();
  });
});

describe('demo with ?persist=1: an approval that expires', () => {
  // The default gate, with requests that end unanswered after 1.5 s.
  const expiring = useStack({
    beforeToolCall: async (call) => {
      const decision = await defaultBeforeToolCall(call);
      return decision.action === 'confirm' ? { ...decision, expiresInMs: 1_500 } : decision;
    },
  });
  otherStacks.push(expiring);

  it('expired while the page was away: after the reload no dialog comes back, the card shows the call refused, nothing was answered and nothing ran', async () => {
    const { page, sessionId, problems } = await openDemo(expiring, { speed: 4, persist: 1 });
    const turn = await startTurn(page, 'deploy');
    await dialog(page).waitFor();
    const url = page.url();
    const answers = sentFrames(page, 'tool.approval');
    // The page goes away until the request expired on the server, then comes back to the same tab.
    await page.goto('about:blank');
    const callId = () => callIdOf(sessionId, 'deploy_service');
    await serverHas(() => expect(expiring.server.session(sessionId)!.results.get(callId())).toMatchObject({ ok: false, code: 'REJECTED' }));
    await page.goto(url);
    await page.locator(`[data-session-id="${sessionId}"]`).waitFor();
    await turnEnded(page, 'completed', turn);

    const deploy = card(page, 'deploy_service');
    await expect(deploy.getAttribute('data-outcome')).resolves.toBe('error');
    await expect(deploy.locator('[data-code]').first().getAttribute('data-code')).resolves.toBe('REJECTED');
    // The request was history when the page came back: never queued, never shown, never answered.
    await expect(dialog(page).count()).resolves.toBe(0);
    expect(answers).toEqual([]);
    expect(expiring.server.session(sessionId)!.results.get(callId())).toEqual({
      ok: false,
      code: 'REJECTED',
      message: 'the approval request expired before anyone answered it',
    });
    expectCleanSession(expiring, { sessionId, problems }, { nothingAccepted: true });
    await page.close();
  });

  it('expired on screen: the dialog ends without an approval; after a reload the card shows the call refused and no dialog comes back', async () => {
    const { page, sessionId, problems } = await openDemo(expiring, { speed: 4, persist: 1 });
    const turn = await startTurn(page, 'deploy');
    await dialog(page).waitFor();
    await turnEnded(page, 'completed', turn);
    // The page's own expiry and the server's settled REJECTED come at the same moment; whichever
    // the page hears first, a request due now ends expired, so the dialog says so and never approves.
    await expect.poll(async () => ((await dialog(page).count()) === 0 ? 'gone' : await dialog(page).getAttribute('data-status'))).toBe('expired');
    const deploy = card(page, 'deploy_service');

    await reload(page, sessionId);
    await turnEnded(page, 'completed', turn);
    await expect(deploy.getAttribute('data-outcome')).resolves.toBe('error');
    await expect(deploy.locator('[data-code]').first().getAttribute('data-code')).resolves.toBe('REJECTED');
    await expect(dialog(page).count()).resolves.toBe(0);
    expectCleanSession(expiring, { sessionId, problems }, { nothingAccepted: true });
    await page.close();
  });
});

describe('demo with ?persist=1: after the session expired', () => {
  const short = useStack({ resumeWindowMs: 1_500 });

  it('a page that comes back after the resume window shows the session closed for good, runs nothing, and starts afresh', async () => {
    const { page, sessionId } = await openDemo(short, { speed: 4, persist: 1 });
    await startTurn(page, 'deploy');
    await dialog(page).waitFor();
    const url = page.url();
    // The page goes away (not a reload: nothing reconnects) for longer than the resume window.
    await page.goto('about:blank');
    await serverHas(() => expect(short.server.session(sessionId)?.closed).toBe(true));
    expect(short.server.session(sessionId)!.events().at(-1)).toMatchObject({ type: 'closed', reason: 'expired' });

    await page.goto(url);
    await page.locator('.connection-status[data-status="closed"]').waitFor();
    await page.locator('.diagnostics li', { hasText: `the server refused to resume session ${sessionId}` }).waitFor();
    await expect(dialog(page).count()).resolves.toBe(0);
    // Nothing of the old session was kept after it was refused: a reload starts a new one.
    await expect(page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('toolgate:')))).resolves.toEqual([]);
    expect(short.server.effects.filter((e) => e.sessionId === sessionId && e.outcome === 'accepted')).toEqual([]);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.locator('.connection-status[data-status="open"]').waitFor();
    await expect(page.locator('[data-session-id]').getAttribute('data-session-id')).resolves.not.toBe(sessionId);
    await page.close();
  });
});
