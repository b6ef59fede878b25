/**
 * Expiry in the dialog: the time left, shown to the second and said politely only at a few
 * moments; "Expired" with the buttons disabled; a late click changes nothing.
 */
import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmToolDialog, createConfirmationController } from 'toolgate';
import { createManualClock } from 'toolgate/testing';

const START = Date.UTC(2026, 11, 1, 12);

async function setup(expiresIn: number) {
  const clock = createManualClock({ start: START });
  const controller = createConfirmationController({ clock });
  const onApprove = vi.fn(() => null);
  const outcome = controller.request({
    toolName: 'deploy',
    arguments: { v: 1 },
    descriptor: { effect: 'write', risk: 'medium', requiresConfirmation: true },
    expiresAt: START + expiresIn,
    onApprove,
  });
  render(
    <StrictMode>
      <ConfirmToolDialog controller={controller} clock={clock} />
    </StrictMode>,
  );
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
  const advance = (ms: number) => act(() => clock.advance(ms));
  const live = () => dialog.querySelector('.toolgate-confirm-expiry [aria-live="polite"]') as HTMLElement;
  const shown = () => dialog.querySelector('.toolgate-confirm-expiry > span:first-child')?.textContent;
  return { clock, controller, onApprove, outcome, dialog, advance, live, shown };
}

describe('expiry in the dialog', () => {
  it('shows the time left to the second', async () => {
    const { advance, shown } = await setup(65_000);
    await waitFor(() => expect(shown()).toBe('Expires in 1:05'));
    await advance(1000);
    expect(shown()).toBe('Expires in 1:04');
    await advance(4000);
    expect(shown()).toBe('Expires in 1:00');
  });

  it('says that the deadline is fixed: the wire offers no way to extend it', async () => {
    const { dialog } = await setup(65_000);
    expect(dialog.querySelector('.toolgate-confirm-expiry')).toHaveTextContent('The deadline is fixed: it cannot be extended.');
    expect(within(dialog).queryByRole('button', { name: /more time|extend/i })).toBeNull();
  });

  it('never leaves the polite region saying a time the screen no longer shows', async () => {
    const { advance, live, shown } = await setup(75_000);
    let said = 0;
    for (let second = 0; second < 74; second++) {
      await advance(1000);
      const text = live().textContent ?? '';
      if (text === '') continue;
      said += 1;
      // Whatever it says is the time on screen at that moment.
      expect(shown()).toBe(`Expires in ${/in (\d+:\d\d)\./.exec(text)?.[1]}`);
    }
    // Said at three moments, each for its own second only.
    expect(said).toBe(3);
  });

  it('announces politely only at a minute, 30 s, 10 s and at expiry, never every second', async () => {
    const { advance, live, dialog } = await setup(75_000);
    const heard: string[] = [];
    const listen = () => {
      const text = live().textContent ?? '';
      if (text !== '' && heard[heard.length - 1] !== text) heard.push(text);
    };
    expect(live()).toHaveAttribute('aria-live', 'polite');
    expect(live().textContent).toBe('');
    for (let second = 0; second < 74; second++) {
      await advance(1000);
      listen();
    }
    await advance(1000);
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'expired'));
    expect(dialog.querySelector('.toolgate-confirm-expiry [aria-live]')).toBeNull();
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The request expired');
    expect(within(dialog).getByRole('status')).toHaveTextContent('');
    // The expiry itself is said once, by the dialog's alert, not here as well.
    expect(heard).toEqual(['This request expires in 1:00.', 'This request expires in 0:30.', 'This request expires in 0:10.']);
  });

  it('shows the expiry once, drops the review instructions and the dead Deny and Approve, and leaves Close', async () => {
    const user = userEvent.setup({ advanceTimers: () => Promise.resolve() });
    const { controller, advance, dialog, onApprove, outcome } = await setup(3000);
    const description = within(dialog).getByText(/^Check the exact arguments/);
    const reason = () => within(dialog).queryByRole('textbox', { name: 'Reason for the agent (optional)' });
    expect(reason()).not.toBeNull();
    await advance(3000);
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'expired'));
    // Nothing can be denied any more: no field for a reason that could go nowhere.
    expect(reason()).toBeNull();
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The request expiredNobody decided in time, so nothing ran.');
    // Shown once: no countdown saying "Expired", no status line saying it again.
    expect(dialog.querySelector('.toolgate-confirm-expiry')).toBeNull();
    expect(dialog.textContent?.match(/expired/gi)).toHaveLength(1);
    // Nothing left to review: the instructions go, and Close is the one button.
    expect(description).not.toBeVisible();
    expect(description).toBeEmptyDOMElement();
    expect(within(dialog).getAllByRole('button').map((button) => button.textContent)).toEqual(['Close']);
    const close = within(dialog).getByRole('button', { name: 'Close' });
    await waitFor(() => expect(close).toHaveFocus());
    // A decision that comes late (a voice command, another view) changes nothing.
    let late: boolean[] = [];
    act(() => {
      late = [controller.approve(), controller.deny()];
    });
    expect(late).toEqual([false, false]);
    expect(controller.getState().current).toMatchObject({ status: 'expired', outcome: { status: 'expired' } });
    expect(onApprove).not.toHaveBeenCalled();
    await user.click(close);
    await expect(outcome).resolves.toEqual({ status: 'expired' });
  });

  it('shows nothing of time for a request without expiresAt', async () => {
    const controller = createConfirmationController();
    controller.request({ toolName: 'deploy', arguments: {}, descriptor: { effect: 'read', risk: 'low', requiresConfirmation: true }, onApprove: () => null });
    render(<ConfirmToolDialog controller={controller} />);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    expect(dialog.querySelector('.toolgate-confirm-expiry')).toBeNull();
  });
});
