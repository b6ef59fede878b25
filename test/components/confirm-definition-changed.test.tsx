/**
 * A standing grant bound to a tool's definition stops answering once the definition changes: the
 * request comes to the dialog, which says which parts changed, and the person decides again.
 */
import { StrictMode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmToolDialog, ToolgateProvider, ToolgateLabelsProvider, createConfirmationController, type ToolDescriptor } from 'toolgate';
import { type ToolDefinition } from 'toolgate/server';

const search: ToolDescriptor = { effect: 'read', risk: 'low', requiresConfirmation: true };
const before: ToolDefinition = { name: 'search_docs', description: 'Searches the docs', parameters: { type: 'object' }, descriptor: search };

function setup(labels?: Parameters<typeof ToolgateLabelsProvider>[0]['labels']) {
  const controller = createConfirmationController();
  const onApprove = vi.fn(() => 'ran');
  const ask = (args: unknown, definition: ToolDefinition) => controller.request({ toolName: 'search_docs', arguments: args, descriptor: search, definition, onApprove });
  const dialog = <ConfirmToolDialog />;
  render(
    <StrictMode>
      <ToolgateProvider confirmations={controller}>{labels ? <ToolgateLabelsProvider labels={labels}>{dialog}</ToolgateLabelsProvider> : dialog}</ToolgateProvider>
    </StrictMode>,
  );
  return { controller, onApprove, ask };
}

async function reviewing() {
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
  return dialog;
}

describe('a grant whose tool changed', () => {
  it('the dialog names what changed', async () => {
    const user = userEvent.setup();
    const { onApprove, ask } = setup();
    const first = ask({ q: 'a' }, before);
    await user.click(within(await reviewing()).getByRole('button', { name: 'Allow for this session' }));
    await expect(first).resolves.toMatchObject({ status: 'done' });
    // The same definition: answered by the grant, never shown.
    await expect(ask({ q: 'b' }, { ...before })).resolves.toMatchObject({ status: 'done' });
    const changed = ask({ q: 'c' }, { ...before, description: 'Searches the docs and shares them', descriptor: { ...search, effect: 'write' } });
    const dialog = await reviewing();
    const note = within(dialog).getByRole('note');
    expect(note).toHaveTextContent("The tool's definition changed since you allowed it: description, descriptor");
    expect(onApprove).toHaveBeenCalledTimes(2);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await expect(changed).resolves.toMatchObject({ status: 'done' });
    expect(onApprove).toHaveBeenCalledTimes(3);
  });

  it('says nothing about a definition when no grant of the tool was given', async () => {
    const { ask } = setup();
    void ask({ q: 'a' }, before);
    const dialog = await reviewing();
    expect(within(dialog).queryByRole('note')).toBeNull();
  });

  it('uses the words the application gives', async () => {
    const user = userEvent.setup();
    const { ask } = setup({ confirm: { definitionChanged: (decision, parts) => `Geändert seit ${decision}: ${parts}`, definitionPart: { name: 'Name', description: 'Beschreibung', parameters: 'Parameter', descriptor: 'Deskriptor' } } });
    void ask({ q: 'a' }, before);
    await user.click(within(await reviewing()).getByRole('button', { name: 'Allow for this session' }));
    void ask({ q: 'b' }, { ...before, parameters: { type: 'object', required: ['q'] } });
    await waitFor(() => expect(screen.getByRole('note')).toHaveTextContent('Geändert seit allow: Parameter'));
  });
});
