/**
 * The dialog's editor is loaded on first use (docs/architecture.md, "What loads when"): a request
 * that can be edited loads it when it arrives, so Edit shows the form in the same commit, never
 * the arguments for a frame. Each test imports the kit afresh, with nothing loaded yet.
 */
import { StrictMode } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfirmationEditing } from 'toolgate';

const schema: ConfirmationEditing['schema'] = { type: 'object', properties: { to: { type: 'string', title: 'Recipient' } }, required: ['to'] };
const descriptor = { effect: 'write', risk: 'medium', requiresConfirmation: true } as const;

async function openRequest(editable: boolean | ConfirmationEditing) {
  const { ConfirmToolDialog, createConfirmationController } = await import('toolgate');
  const controller = createConfirmationController();
  void controller.request({ toolName: 'transfer', arguments: { to: 'bob' }, descriptor, editable, onApprove: (value) => value });
  render(
    <StrictMode>
      <ConfirmToolDialog controller={controller} />
    </StrictMode>,
  );
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
  return dialog;
}

describe('the dialog’s editor, loaded on first use', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it('is loaded when an editable request arrives: the first Edit shows the form at once', async () => {
    const dialog = await openRequest({ schema });
    // Whatever the request started loading has arrived; nothing else is waited for.
    await vi.dynamicImportSettled();
    act(() => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    });
    expect(within(dialog).getByRole('form', { name: 'Edit the arguments' })).toBeInTheDocument();
  });
});
