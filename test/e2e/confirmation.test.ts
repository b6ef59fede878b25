// @vitest-environment node
/**
 * The demo's confirmations in real Chromium: the server's gate for a high-risk tool (approve by
 * keyboard, deny), the room write whose answer is lost (uncertain, one effect), and axe.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { card, dialog, expectCleanSession, openDemo, serverHas, startTurn, turnEnded, useStack } from './harness';

const stack = useStack();


describe('demo: the before-tool-call gate', () => {
  it('approving a high-risk call with the keyboard runs exactly what was shown', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 4 });
    const turn = await startTurn(page, 'deploy');
    await dialog(page).waitFor();
    await dialog(page).getByText('2.7.1').waitFor(); // the gate pinned "latest": the dialog shows what will run
    // Focus starts on the safe choice; Tab reaches Approve, Enter presses it.
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Deny');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Approve');
    await page.keyboard.press('Enter');
    await turnEnded(page, 'completed', turn);
    await expect(dialog(page).count()).resolves.toBe(0);
    await expect(card(page, 'deploy_service').getAttribute('data-status')).resolves.toBe('settled');
    await expect(card(page, 'deploy_service').getAttribute('data-outcome')).resolves.toBe('ok');

    const session = stack.server.session(sessionId)!;
    const callId = session.events().find((e) => e['phase'] === 'start')!['callId'] as string;
    expect(session.results.get(callId)).toMatchObject({ ok: true });
    const effects = stack.server.effects.filter((e) => e.sessionId === sessionId);
    expect(effects).toEqual([
      expect.objectContaining({ toolName: 'deploy_service', outcome: 'accepted', arguments: { service: 'billing', version: '2.7.1', environment: 'production' } }),
    ]);
    expectCleanSession(stack, { sessionId, problems });
    await page.close();
  });

  it('denying a high-risk call answers REJECTED and nothing runs', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 4 });
    const turn = await startTurn(page, 'deploy');
    await dialog(page).waitFor();
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click();
    await turnEnded(page, 'completed', turn);
    const badge = card(page, 'deploy_service').locator('.toolgate-badge[data-code]');
    await expect(badge.getAttribute('data-code')).resolves.toBe('REJECTED');
    await card(page, 'deploy_service').getByText('REJECTED').first().waitFor();

    const session = stack.server.session(sessionId)!;
    const callId = session.events().find((e) => e['phase'] === 'start')!['callId'] as string;
    expect(session.results.get(callId)).toMatchObject({ ok: false, code: 'REJECTED' });
    const effects = stack.server.effects.filter((e) => e.sessionId === sessionId);
    expect(effects).toEqual([expect.objectContaining({ toolName: 'deploy_service', outcome: 'refused', code: 'REJECTED' })]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('demo: a write through the room', () => {
  it('a dropped invoke response leaves the dialog uncertain while the server recorded exactly one effect', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 4, roomTimeout: 1500 });
    await page.getByRole('button', { name: 'Drop the next invoke response' }).click();
    await page.getByText('The server armed: drop-invoke-response.').waitFor();
    const turn = await startTurn(page, 'write');
    await dialog(page).waitFor();
    await dialog(page).getByText('c_101').waitFor();
    const shown = await dialog(page).locator('[data-fingerprint]').getAttribute('data-fingerprint');
    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click();
    await page.locator('[role="dialog"][data-status="uncertain"]').waitFor();
    await dialog(page).getByText('The outcome is unknown').waitFor();

    const sent = () => stack.server.effects.filter((e) => e.sessionId === sessionId && e.toolName === 'send_invoice');
    expect(sent()).toEqual([expect.objectContaining({ outcome: 'accepted', responseDropped: true, argumentsHash: shown })]);
    await expect(page.locator('[data-write-outcome]').getAttribute('data-write-outcome')).resolves.toBe('uncertain');

    // No blind retry: the application's check reads the room's record and finds the one invoice.
    await dialog(page).getByRole('button', { name: 'Check whether it happened' }).click();
    await page.locator('[data-write-outcome="done"]').waitFor();
    await turnEnded(page, 'completed', turn);
    expect(sent()).toHaveLength(1);
    await expect(page.locator('[data-write-outcome]').locator('..').locator('[data-fingerprint]').getAttribute('data-fingerprint')).resolves.toBe(shown);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('an approved write is confirmed and invoked once with the arguments shown, and its fingerprint is displayed', async () => {
    const { page, sessionId, problems } = await openDemo(stack, { speed: 4 });
    const turn = await startTurn(page, 'write');
    await dialog(page).waitFor();
    const shown = await dialog(page).locator('[data-fingerprint]').getAttribute('data-fingerprint');
    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click();
    await turnEnded(page, 'completed', turn);
    await page.locator('[data-write-outcome="done"]').waitFor();
    await serverHas(() => {
      const sent = stack.server.effects.filter((e) => e.sessionId === sessionId && e.toolName === 'send_invoice');
      expect(sent).toEqual([expect.objectContaining({ outcome: 'accepted', argumentsHash: shown, confirmationId: expect.any(String) })]);
    });
    await expect(page.locator('.write-result [data-fingerprint]').getAttribute('data-fingerprint')).resolves.toBe(shown);
    await expect(card(page, 'send_invoice').getAttribute('data-outcome')).resolves.toBe('ok');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('demo: accessibility', () => {
  const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

  /** axe's WCAG 2.1 A and AA rules on the whole page as it is now. */
  async function audit(page: Page): Promise<string[]> {
    if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource });
    return page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe;
      const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
    });
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`passes axe (WCAG 2.1 A and AA) in the ${theme} theme: calls, timeline, diagnostics, then the dialog`, async () => {
      const { page } = await openDemo(stack, { speed: Infinity, theme });
      const turn = await startTurn(page, 'parallel');
      await turnEnded(page, 'completed', turn);
      await page.getByRole('button', { name: 'Text that is not JSON' }).click();
      await page.locator('.diagnostics li').first().waitFor();
      expect(await audit(page)).toEqual([]);
      await startTurn(page, 'deploy');
      await dialog(page).waitFor();
      expect(await audit(page)).toEqual([]);
      await page.close();
    });
  }
});
