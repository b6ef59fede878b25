/**
 * Edit, then approve, in the dialog: the editor (a form of the schema, or JSON text checked as it
 * is typed), errors beside their fields, Save through the controller, nothing approved from the
 * editor, and the diff and "Edited" mark once an edit is saved.
 */
import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmToolDialog, createConfirmationController, type ConfirmationEditing, type JsonValue } from 'toolgate';

const schema = {
  type: 'object',
  properties: {
    to: { type: 'string', title: 'Recipient' },
    amount: { type: 'number', maximum: 1000, description: 'In euros' },
    urgent: { type: 'boolean' },
    currency: { enum: ['EUR', 'USD'] },
    address: { type: 'object', properties: { city: { type: 'string' } } },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['to', 'amount'],
};
const proposed = { to: 'bob', amount: 500, urgent: false, currency: 'EUR', address: { city: 'Lyon' }, tags: ['rent'] };
const descriptor = { effect: 'write', risk: 'medium', requiresConfirmation: true } as const;

function setup(editable: boolean | ConfirmationEditing = { schema }, args: unknown = proposed) {
  const controller = createConfirmationController();
  const onApprove = vi.fn((value: JsonValue) => value);
  const outcome = controller.request({ toolName: 'transfer', arguments: args, descriptor, editable, onApprove });
  render(
    <StrictMode>
      <ConfirmToolDialog controller={controller} />
    </StrictMode>,
  );
  return { controller, onApprove, outcome };
}

async function reviewing() {
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
  return dialog;
}

describe('editing the arguments in the dialog', () => {
  it('opens a form of the schema: text, number, checkbox, select, nested fields, and JSON text for the rest', async () => {
    const user = userEvent.setup();
    setup();
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'editing'));
    const form = within(dialog).getByRole('form', { name: 'Edit the arguments' });
    expect(within(form).getByRole('textbox', { name: 'Recipient' })).toHaveValue('bob');
    expect(within(form).getByRole('textbox', { name: 'amount' })).toHaveValue('500');
    expect(within(form).getByRole('textbox', { name: 'amount' })).toHaveAccessibleDescription('In euros');
    expect(within(form).getByRole('checkbox', { name: 'urgent' })).not.toBeChecked();
    expect(within(form).getByRole('combobox', { name: 'currency' })).toHaveDisplayValue('EUR');
    expect(within(within(form).getByRole('group', { name: 'address' })).getByRole('textbox', { name: 'city' })).toHaveValue('Lyon');
    expect(within(form).getByRole('textbox', { name: 'tags (JSON)' })).toHaveValue(JSON.stringify(['rent'], null, 2));
    // The first field has focus.
    expect(within(form).getByRole('textbox', { name: 'Recipient' })).toHaveFocus();
  });

  it('saves an edit through the controller: the edited snapshot is reviewed, marked Edited, listed as changes, and is what runs', async () => {
    const user = userEvent.setup();
    const { onApprove, outcome } = setup();
    const dialog = await reviewing();
    const before = dialog.querySelector('.toolgate-confirm-fingerprint')?.getAttribute('data-fingerprint');
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    const amount = await within(dialog).findByRole('textbox', { name: 'amount' });
    await user.clear(amount);
    await user.type(amount, '50');
    await user.click(within(dialog).getByRole('checkbox', { name: 'urgent' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    expect(onApprove).not.toHaveBeenCalled();
    expect(within(dialog).getByText('Edited')).toBeInTheDocument();
    const changes = within(dialog).getByRole('region', { name: 'Changes from the proposed arguments' });
    expect(within(changes).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['amount: 500 → 50', 'urgent: false → true']);
    const after = dialog.querySelector('.toolgate-confirm-fingerprint')?.getAttribute('data-fingerprint');
    expect(after).toMatch(/^[0-9a-f]{64}$/);
    expect(after).not.toBe(before);
    // Focus is back on Edit, not lost to the page.
    expect(within(dialog).getByRole('button', { name: 'Edit arguments' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await expect(outcome).resolves.toMatchObject({ status: 'done', fingerprint: after });
    expect(onApprove).toHaveBeenCalledTimes(1);
    expect(onApprove.mock.calls[0]?.[0]).toEqual({ ...proposed, amount: 50, urgent: true });
  });

  it('keeps an invalid edit in the editor with the error beside its field, read before its hint as an error, and approves nothing', async () => {
    const user = userEvent.setup();
    // The tool's own validator, for a rule no JSON Schema keyword here says.
    const validate = (draft: JsonValue) =>
      (draft as { amount: number }).amount % 5 !== 0 ? { ok: false as const, issues: [{ path: ['amount'], message: 'must be a multiple of 5' }] } : { ok: true as const };
    const { onApprove, controller } = setup({ schema, validate });
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    const amount = await within(dialog).findByRole('textbox', { name: 'amount' });
    await user.clear(amount);
    await user.type(amount, '503');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    expect(dialog).toHaveAttribute('data-status', 'editing');
    expect(amount).toHaveAccessibleDescription('Error: must be a multiple of 5 In euros');
    expect(amount).toHaveAttribute('aria-errormessage', amount.getAttribute('aria-describedby')?.split(' ')[0]);
    expect(amount).toHaveFocus();
    // Nothing to approve from the editor: its Cancel editing and Save are the only actions.
    expect(within(dialog).queryByRole('button', { name: 'Approve' })).toBeNull();
    // Nor a reason for a Deny that is not there.
    expect(within(dialog).queryByRole('textbox', { name: 'Reason for the agent (optional)' })).toBeNull();
    await user.keyboard('{Enter}');
    expect(controller.getState().current?.status).toBe('editing');
    expect(onApprove).not.toHaveBeenCalled();
  });

  it("keeps an edit past the schema's maximum in the editor, with the bound beside the field, before any server sees it", async () => {
    const user = userEvent.setup();
    const { onApprove } = setup();
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    const amount = await within(dialog).findByRole('textbox', { name: 'amount' });
    await user.clear(amount);
    await user.type(amount, '5000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    expect(amount).toHaveAccessibleDescription('Error: must be at most 1000, got 5000 In euros');
    expect(dialog).toHaveAttribute('data-status', 'editing');
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('puts a schema problem inside a JSON field beside that field', async () => {
    const user = userEvent.setup();
    setup();
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    const tags = await within(dialog).findByRole('textbox', { name: 'tags (JSON)' });
    await user.clear(tags);
    await user.type(tags, '[[1]');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(tags).toHaveAttribute('aria-invalid', 'true'));
    expect(tags).toHaveAccessibleDescription(/string/);
    expect(dialog).toHaveAttribute('data-status', 'editing');
  });

  it('says at once when a number field is not a number, and does not submit it', async () => {
    const user = userEvent.setup();
    const { controller } = setup();
    const submit = vi.spyOn(controller, 'submitEdit');
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    const amount = await within(dialog).findByRole('textbox', { name: 'amount' });
    await user.clear(amount);
    await user.type(amount, 'lots');
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveAccessibleDescription('Error: Must be a number In euros');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(submit).not.toHaveBeenCalled();
    expect(amount).toHaveFocus();
  });

  it('without a schema edits JSON text, checked as it is typed', async () => {
    const user = userEvent.setup();
    const { onApprove, outcome } = setup(true, { to: 'bob' });
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    const text = await within(dialog).findByRole('textbox', { name: 'Arguments as JSON' });
    await user.clear(text);
    await user.type(text, '{{"to": "ann"');
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(text).toHaveAccessibleDescription(/^Error: Not valid JSON/);
    await user.type(text, '}');
    expect(text).not.toHaveAttribute('aria-invalid');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await expect(outcome).resolves.toMatchObject({ status: 'done' });
    expect(onApprove.mock.calls[0]?.[0]).toEqual({ to: 'ann' });
  });

  it('marks required fields on screen, with a legend of the mark, and keeps their names', async () => {
    const user = userEvent.setup();
    setup();
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    const form = await within(dialog).findByRole('form', { name: 'Edit the arguments' });
    const recipient = within(form).getByRole('textbox', { name: 'Recipient' });
    const amount = within(form).getByRole('textbox', { name: 'amount' });
    const city = within(form).getByRole('textbox', { name: 'city' });
    const mark = (field: HTMLElement) => form.querySelector(`label[for="${field.id}"]`)?.textContent;
    expect(mark(recipient)).toBe('Recipient *');
    expect(mark(amount)).toBe('amount *');
    expect(mark(city)).toBe('city');
    expect(recipient).toBeRequired();
    expect(within(form).getByText('* Required field')).toBeInTheDocument();
  });

  it('shows only Cancel editing and Save while editing, Save the primary one; Deny and Approve come back after', async () => {
    const user = userEvent.setup();
    setup();
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    await within(dialog).findByRole('form', { name: 'Edit the arguments' });
    const buttons = () => within(dialog).getAllByRole('button').map((button) => button.textContent);
    expect(buttons()).toEqual(['Cancel editing', 'Save']);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveClass('toolgate-confirm-save');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel editing' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    expect(buttons()).toEqual(expect.arrayContaining(['Edit arguments', 'Deny', 'Approve']));
  });

  it('leaves the editor with Escape, the arguments as they were, and does not deny', async () => {
    const user = userEvent.setup();
    const { controller } = setup();
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    await within(dialog).findByRole('textbox', { name: 'amount' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    expect(controller.getState().current?.edited).toBe(false);
    expect(within(dialog).getByRole('button', { name: 'Edit arguments' })).toHaveFocus();
  });

  it('goes back to the proposed arguments with "Use the proposed arguments"', async () => {
    const user = userEvent.setup();
    const { controller } = setup();
    const dialog = await reviewing();
    const proposedPrint = controller.getState().current?.fingerprint?.hex;
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    const to = await within(dialog).findByRole('textbox', { name: 'Recipient' });
    await user.type(to, 'by');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(controller.getState().current?.edited).toBe(true));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    await user.click(within(dialog).getByRole('button', { name: 'Use the proposed arguments' }));
    await waitFor(() => expect(controller.getState().current?.edited).toBe(false));
    await waitFor(() => expect(controller.getState().current?.fingerprint?.hex).toBe(proposedPrint));
    expect(within(dialog).queryByText('Edited')).toBeNull();
  });

  it('offers no Edit for a request that is not editable', async () => {
    setup(false as unknown as ConfirmationEditing);
    const dialog = await reviewing();
    expect(within(dialog).queryByRole('button', { name: 'Edit arguments' })).toBeNull();
    act(() => {});
  });

  it('keeps keys the form has no field for, and a __proto__ key stays an ordinary key', async () => {
    const user = userEvent.setup();
    const args = JSON.parse('{"to":"bob","amount":1,"extra":{"x":1},"__proto__":{"polluted":true}}') as JsonValue;
    const { onApprove, outcome } = setup({ schema: { type: 'object', properties: { to: { type: 'string' }, amount: { type: 'number' } } } }, args);
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Edit arguments' }));
    const amount = await within(dialog).findByRole('textbox', { name: 'amount' });
    await user.type(amount, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await expect(outcome).resolves.toMatchObject({ status: 'done' });
    const ran = onApprove.mock.calls[0]?.[0] as Record<string, unknown>;
    expect(ran.amount).toBe(10);
    expect(ran.extra).toEqual({ x: 1 });
    expect(Object.hasOwn(ran, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(ran)).toBe(Object.prototype);
  });
});
