// @vitest-environment node
/**
 * Edits, expiry, standing grants and batches of approvals in the demo, against the real reference server, by keyboard alone
 * (Tab, Enter, typing): an editable request edited then approved runs exactly the edit; an
 * expiring request says Expired on time and nothing runs; a standing grant answers the same tool's
 * next request by itself, and Revoke in the grant list stops it.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { card, dialog, expectCleanSession, openDemo, sentFrames, serverHas, turnEnded, useStack, type Stack, type StartedTurn } from './harness';

const stack = useStack();

// The cards follow the store, which draws at most once a frame: wait for a card's state, never
// read it once when the turn's status says it ended.

/** What has focus: its tag, its accessible name as a person hears it (aria-label, else its text). */
async function focused(page: Page): Promise<{ tag: string; name: string }> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return { tag: el?.tagName ?? '', name: (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim() };
  });
}

/** Press Tab until the focused element is the button named `name` (fails after `limit` presses). */
async function tabToButton(page: Page, name: string, limit = 120): Promise<void> {
  for (let i = 0; i < limit; i++) {
    const now = await focused(page);
    if (now.tag === 'BUTTON' && now.name === name) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached the button ${JSON.stringify(name)}`);
}

/**
 * Press Tab until the focused element is the text field named `label` in the dialog (by its
 * accessible name: a required field's visible mark is hidden from it).
 */
async function tabToField(page: Page, label: string, limit = 40): Promise<void> {
  const field = dialog(page).getByRole('textbox', { name: label, exact: true });
  for (let i = 0; i < limit; i++) {
    if (await field.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached the field ${JSON.stringify(label)}`);
}

/** Start a prompt's turn from the keyboard: Tab to its button, Enter. */
async function startTurnByKeyboard(page: Page, prompt: string): Promise<StartedTurn> {
  const before = Number(await page.locator('[data-turns]').getAttribute('data-turns'));
  await tabToButton(page, prompt);
  await page.keyboard.press('Enter');
  return { number: before + 1 };
}

const effectsOf = (sessionId: string, toolName: string) => stack.server.effects.filter((e) => e.sessionId === sessionId && e.toolName === toolName);

/** Open the demo with the page's sent frames of `type` watched from its first socket on. */
async function openDemoWatching(on: Stack, type: string) {
  let answers: Record<string, unknown>[] = [];
  const demo = await openDemo(on, { speed: 4 }, (page) => {
    answers = sentFrames(page, type);
  });
  return Object.assign(demo, { answers });
}

describe('demo: edit, then approve', () => {
  it('an edited payment is approved by keyboard, the card marks it edited, and the server ran exactly the edit once', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 4 });
    const turn = await startTurnByKeyboard(page, 'payment');
    await dialog(page).waitFor();
    await dialog(page).getByText('Acme Supplies').first().waitFor();

    await tabToButton(page, 'Edit arguments');
    await page.keyboard.press('Enter');
    await tabToField(page, 'amount');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('385.5');
    await tabToButton(page, 'Save');
    await page.keyboard.press('Enter');
    // The edit was checked and has a fingerprint of its own: Approve runs exactly it.
    await dialog(page).getByText('You edited these arguments', { exact: false }).waitFor();
    const shown = await dialog(page).locator('[data-fingerprint]').first().getAttribute('data-fingerprint');
    await tabToButton(page, 'Approve');
    await page.keyboard.press('Enter');
    await turnEnded(page, 'completed', turn);

    const payment = card(page, 'schedule_payment');
    await expect.poll(() => payment.getAttribute('data-outcome')).toBe('ok');
    await payment.getByText('Edited before approval').waitFor();

    const edited = { to: 'Acme Supplies', amount: 385.5 };
    await serverHas(() => expect(effectsOf(sessionId, 'schedule_payment')).toEqual([
      expect.objectContaining({ outcome: 'accepted', arguments: edited, argumentsHash: shown }),
    ]));
    const session = stack.server.session(sessionId)!;
    const request = session.events().find((e) => e['type'] === 'tool.approval-request')!;
    expect(request).toMatchObject({ editable: true, arguments: { to: 'Acme Supplies', amount: 420 }, expiresAt: expect.any(Number) });
    expect(session.results.get(request['callId'] as string)).toMatchObject({ ok: true, output: expect.objectContaining({ amount: 385.5 }) });
    expectCleanSession(stack, { sessionId, problems });
    await page.close();
  });
});

describe('demo: a request that expires', () => {
  it('shows the time left, says Expired when nobody answered in time, and the server recorded no effect', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 4, approvalTtl: 3000 });
    const turn = await startTurnByKeyboard(page, 'payment');
    await dialog(page).waitFor();
    const request = () => stack.server.session(sessionId)!.events().find((e) => e['type'] === 'tool.approval-request');
    await serverHas(() => expect(request()).toBeDefined());
    const { expiresAt, callId } = request()! as { expiresAt: number; callId: string };
    // The turn's approvalTtlMs reached the gate: the request waits 3 s, not the default 2 minutes.
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(3000);

    // Seen at one moment, not checked again later: the request runs on the real clock (3 s), so a
    // second look on a slow machine may rightly find it expired.
    await page.locator('[role="dialog"][data-status="reviewing"] .toolgate-confirm-expiry:not([data-expired])').getByText(/^Expires in /).waitFor();

    await page.locator('[role="dialog"][data-status="expired"]').waitFor();
    // Said and shown once, by the alert; the countdown is gone.
    await dialog(page).getByRole('alert').getByText('The request expired').waitFor();
    await expect(dialog(page).locator('.toolgate-confirm-expiry').count()).resolves.toBe(0);
    await turnEnded(page, 'completed', turn);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    expect(stack.server.session(sessionId)!.results.get(callId)).toEqual({
      ok: false,
      code: 'REJECTED',
      message: 'the approval request expired before anyone answered it',
    });
    expect(effectsOf(sessionId, 'schedule_payment').filter((e) => e.outcome === 'accepted')).toEqual([]);
    await tabToButton(page, 'Close');
    await page.keyboard.press('Enter');
    await expect(dialog(page).count()).resolves.toBe(0);
    await expect.poll(() => card(page, 'schedule_payment').getAttribute('data-outcome')).toBe('error');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('demo: a standing grant', () => {
  it('Allow for this session answers the second reminder by itself, its card names the grant, and Revoke asks again', async () => {
    const { page, sessionId, problems, answers } = await openDemoWatching(stack, 'tool.approval');
    const first = await startTurnByKeyboard(page, 'reminders');
    await dialog(page).waitFor();
    await dialog(page).getByText('ada@example.com').first().waitFor();
    await tabToButton(page, 'Allow for this session');
    await page.keyboard.press('Enter');
    await turnEnded(page, 'completed', first);

    const session = stack.server.session(sessionId)!;
    const requests = () => session.events().filter((e) => e['type'] === 'tool.approval-request');
    expect(requests()).toHaveLength(2);
    await serverHas(() => expect(effectsOf(sessionId, 'send_reminder').map((e) => [e.outcome, (e.arguments as { to: string }).to])).toEqual([
      ['accepted', 'ada@example.com'],
      ['accepted', 'grace@example.com'],
    ]));
    // The person answered the first; the grant answered the second, by itself, bound to its own arguments.
    expect(answers.map((a) => [a['requestId'], a['approved'], a['automatic'] === true])).toEqual([
      [requests()[0]!['requestId'], true, false],
      [requests()[1]!['requestId'], true, true],
    ]);
    // Its card names the grant.
    const second = page.getByRole('article', { name: 'send_reminder', exact: true }).nth(1);
    await expect.poll(() => second.getAttribute('data-outcome')).toBe('ok');
    await second.getByText('Allowed by send_reminder for this session').waitFor();
    await expect(page.getByRole('article', { name: 'send_reminder', exact: true }).first().locator('[data-grant]').count()).resolves.toBe(0);

    // Revoke in the grant list, by keyboard: the next reminder is asked again.
    const grants = page.locator('.toolgate-grants');
    await grants.locator('li[data-decision]').first().waitFor();
    const revoke = (await grants.locator('.toolgate-grants-revoke').first().getAttribute('aria-label')) ?? '';
    expect(revoke).toMatch(/send_reminder/);
    await tabToButton(page, revoke);
    await page.keyboard.press('Enter');
    await grants.locator('.toolgate-grants-empty').waitFor();
    const third = await startTurnByKeyboard(page, 'reminders');
    await dialog(page).waitFor();
    await tabToButton(page, 'Deny');
    await page.keyboard.press('Enter');
    await dialog(page).waitFor();
    await tabToButton(page, 'Deny');
    await page.keyboard.press('Enter');
    await turnEnded(page, 'completed', third);
    expect(requests()).toHaveLength(4);
    expect(answers.slice(2).map((a) => [a['approved'], a['automatic'] === true])).toEqual([
      [false, false],
      [false, false],
    ]);
    expect(effectsOf(sessionId, 'send_reminder').filter((e) => e.outcome === 'accepted')).toHaveLength(2);
    expectCleanSession(stack, { sessionId, problems });
    await page.close();
  });
});

describe('demo: several at once', () => {
  it('three requests of one turn are listed with their fingerprints, and Approve all 3 runs exactly those three', async () => {
    const { page, sessionId, problems, answers } = await openDemoWatching(stack, 'tool.approval');
    const toggle = page.getByRole('checkbox', { name: 'Decide a turn’s requests together in a list' });
    for (let i = 0; i < 120 && !(await toggle.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(toggle.isChecked()).resolves.toBe(true);
    const turn = await startTurnByKeyboard(page, 'several');

    const list = page.getByRole('region', { name: '3 requests waiting' });
    await list.waitFor();
    const requests = () => stack.server.session(sessionId)!.events().filter((e) => e['type'] === 'tool.approval-request');
    expect(requests()).toHaveLength(3);
    const shown = await list.locator('.toolgate-batch-list > li [data-fingerprint]').evaluateAll((els) => els.map((el) => el.getAttribute('data-fingerprint')));
    expect(shown).toHaveLength(3);
    await expect(dialog(page).count()).resolves.toBe(0);
    await tabToButton(page, 'Approve all 3');
    await page.keyboard.press('Enter');
    await turnEnded(page, 'completed', turn);

    // Exactly the three listed, each with the fingerprint shown beside it, answered by a person (not a grant).
    expect(answers.map((a) => [a['approved'], a['automatic'] === true])).toEqual([
      [true, false],
      [true, false],
      [true, false],
    ]);
    expect(new Set(answers.map((a) => a['requestId']))).toEqual(new Set(requests().map((r) => r['requestId'])));
    expect(new Set(answers.map((a) => a['fingerprint']))).toEqual(new Set(shown));
    await serverHas(() => {
      const sent = effectsOf(sessionId, 'send_reminder');
      expect(sent.map((e) => e.outcome)).toEqual(['accepted', 'accepted', 'accepted']);
      expect(new Set(sent.map((e) => e.argumentsHash))).toEqual(new Set(shown));
    });
    await page.getByRole('region', { name: 'No requests waiting.' }).waitFor();
    expectCleanSession(stack, { sessionId, problems });
    await page.close();
  });
});
