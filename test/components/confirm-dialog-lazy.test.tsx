/**
 * `<ConfirmToolDialog>` loads the dialog itself (its body, parts and Radix) on first use
 * (docs/architecture.md, "What loads when"): until there is something to confirm it renders nothing,
 * it needs no `<Suspense>` from the app, and its callbacks, focus and StrictMode behaviour are those
 * of the dialog it loads. Each test imports the kit afresh, with nothing loaded yet.
 */
import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfirmationOutcome } from 'toolgate';

const descriptor = { effect: 'write', risk: 'medium', requiresConfirmation: true } as const;

async function freshKit() {
  vi.resetModules();
  return import('toolgate');
}

describe('ConfirmToolDialog, loaded on first use', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it('renders nothing and loads nothing until a request is current, then shows it with no Suspense from the app', async () => {
    const { ConfirmToolDialog, createConfirmationController } = await freshKit();
    const controller = createConfirmationController();
    const opened: boolean[] = [];
    const outcomes: ConfirmationOutcome[] = [];
    const { container } = render(
      <StrictMode>
        <button type="button">Opener</button>
        <ConfirmToolDialog controller={controller} onOpenChange={(open) => opened.push(open)} onResult={(o) => outcomes.push(o)} />
      </StrictMode>,
    );
    await vi.dynamicImportSettled();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(container.innerHTML).toBe('<button type="button">Opener</button>');
    screen.getByRole('button', { name: 'Opener' }).focus();

    const user = userEvent.setup();
    act(() => {
      void controller.request({ toolName: 'transfer', arguments: { to: 'bob' }, descriptor, onApprove: () => 'sent' });
    });
    const dialog = await screen.findByRole('dialog');
    // The loaded dialog keeps the dialog's rules: focus starts on Deny, and returns to the opener.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus());
    expect(opened).toEqual([true]);
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(outcomes.map((o) => o.status)).toEqual(['denied']);
    expect(opened).toEqual([true, false]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Opener' })).toHaveFocus());

    // The next request shows at once: the dialog stays loaded and mounted.
    act(() => {
      void controller.request({ toolName: 'transfer', arguments: { to: 'eve' }, descriptor, onApprove: () => 'sent' });
    });
    const next = screen.getByRole('dialog');
    await waitFor(() => expect(next).toHaveAttribute('data-status', 'reviewing'));
    expect(opened).toEqual([true, false, true]);
  });

  it('tells an outcome reached while the dialog loads, once', async () => {
    const { ConfirmToolDialog, createConfirmationController } = await freshKit();
    const controller = createConfirmationController();
    const outcomes: ConfirmationOutcome[] = [];
    const opened: boolean[] = [];
    render(<ConfirmToolDialog controller={controller} onResult={(o) => outcomes.push(o)} onOpenChange={(open) => opened.push(open)} />);
    act(() => {
      void controller.request({ toolName: 'transfer', arguments: { to: 'bob' }, descriptor, onApprove: () => 'sent' }).catch(() => {});
      controller.cancel('no longer needed');
    });
    await vi.dynamicImportSettled();
    expect(outcomes.map((o) => o.status)).toEqual(['cancelled']);
    await waitFor(() => expect(opened).toEqual([]));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('one call opened at mount under StrictMode: a refusal before review is told once', async () => {
    const { ConfirmToolDialog } = await freshKit();
    const outcomes: ConfirmationOutcome[] = [];
    render(
      <StrictMode>
        <ConfirmToolDialog open toolName="transfer" arguments={{ to: 'bob', callback: () => 1 }} onApprove={() => 'sent'} onResult={(o) => outcomes.push(o)} />
      </StrictMode>,
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('not JSON');
    expect(outcomes.map((o) => o.status)).toEqual(['refused']);
  });

  it('one call without a room or onApprove, opened at mount under StrictMode: said once', async () => {
    const { ConfirmToolDialog } = await freshKit();
    const outcomes: ConfirmationOutcome[] = [];
    render(
      <StrictMode>
        <ConfirmToolDialog open toolName="transfer" arguments={{ to: 'bob' }} onResult={(o) => outcomes.push(o)} />
      </StrictMode>,
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('no room');
    expect(outcomes.map((o) => o.status)).toEqual(['refused']);
  });

  it('renders nothing on a server, even open', async () => {
    const { ConfirmToolDialog } = await freshKit();
    const { renderToString } = await import('react-dom/server');
    const html = renderToString(
      <StrictMode>
        <ConfirmToolDialog open toolName="transfer" arguments={{ to: 'bob' }} onApprove={() => 'sent'} />
      </StrictMode>,
    );
    expect(html).toBe('');
  });

  it('stays unloaded while closed in controlled mode', async () => {
    const { ConfirmToolDialog } = await freshKit();
    const { container } = render(<ConfirmToolDialog open={false} toolName="transfer" arguments={{ to: 'bob' }} onApprove={() => 'sent'} />);
    await vi.dynamicImportSettled();
    expect(container.innerHTML).toBe('');
    expect(document.body.querySelector('[role="dialog"]')).toBeNull();
  });
});
