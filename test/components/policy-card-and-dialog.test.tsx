/**
 * Policies on screen: a call a rule answered says so on its card ("Allowed by …", "Denied by …",
 * naming the rule by its label, else its id); the dialog offers scoped grants where the controller
 * has a policy, each previewing how many waiting requests it would also answer (and their tools),
 * and pressing one approves the request shown and answers exactly those.
 */
import { StrictMode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmToolDialog, ToolCallCard, ToolGrantList, ToolgateProvider, createConfirmationController, createToolStreamStore, type ToolDescriptor } from 'toolgate';
import { createApprovalPolicy } from 'toolgate/policy';
import { callEvents } from 'toolgate/testing';
import { renderWith } from './helpers';

const mail: ToolDescriptor = { effect: 'write', risk: 'low', requiresConfirmation: true };
const deploy: ToolDescriptor = { effect: 'write', risk: 'high', requiresConfirmation: true };

function storeWith(mark: Parameters<ReturnType<ReturnType<typeof createToolStreamStore>['getState']>['markApproval']>[1]) {
  const store = createToolStreamStore();
  for (const event of callEvents('c1', { name: 'send_mail', arguments: { to: 'ada@example.test' }, outcome: 'open' })) store.getState().dispatch(event);
  store.getState().markApproval('c1', mark);
  return store;
}

describe('a card answered by a rule', () => {
  it('says "Allowed by" and the rule\'s label', async () => {
    const store = storeWith({ approval: 'approved', approvedArguments: { to: 'ada@example.test' }, by: 'rule', ruleId: 'mail-ada', ruleLabel: 'Mail to Ada' });
    renderWith(store, <ToolCallCard callId="c1" />);
    // A steady card shows a new open call after its first frames: wait for the card.
    expect(within(await screen.findByRole('article')).getByText('Allowed by Mail to Ada')).toHaveAttribute('data-rule', 'mail-ada');
  });

  it('says "Denied by" and the rule\'s id when it has no label', async () => {
    const store = storeWith({ approval: 'denied', by: 'rule', ruleId: 'no-eve', reason: 'denied by rule no-eve' });
    renderWith(store, <ToolCallCard callId="c1" />);
    expect(within(await screen.findByRole('article')).getByText('Denied by no-eve')).toBeInTheDocument();
  });

  it('names no rule for a call a person approved', async () => {
    const store = storeWith({ approval: 'approved', approvedArguments: { to: 'ada@example.test' } });
    renderWith(store, <ToolCallCard callId="c1" />);
    await screen.findByRole('article');
    expect(screen.queryByText(/Allowed by|Denied by/)).toBeNull();
  });

  it('refuses a mark whose `by` is not a rule', () => {
    const onError = vi.fn();
    const store = createToolStreamStore({ onError });
    for (const event of callEvents('c1', { name: 'send_mail', arguments: {}, outcome: 'open' })) store.getState().dispatch(event);
    store.getState().markApproval('c1', { approval: 'approved', by: 'someone' as 'rule' });
    expect(onError).toHaveBeenCalled();
    expect(store.getState().calls['c1']?.approvalBy).toBeUndefined();
  });
});

function setup(withPolicy = true) {
  const controller = createConfirmationController(withPolicy ? { policy: createApprovalPolicy() } : {});
  const onApprove = vi.fn(() => 'ran');
  const ask = (args: unknown, toolName = 'send_mail', descriptor: ToolDescriptor = mail) => controller.request({ toolName, arguments: args, descriptor, onApprove });
  render(
    <StrictMode>
      <ToolgateProvider confirmations={controller}>
        <ToolGrantList />
        <ConfirmToolDialog />
      </ToolgateProvider>
    </StrictMode>,
  );
  return { controller, onApprove, ask };
}

async function reviewing() {
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
  return dialog;
}

describe('scoped grants in the dialog', () => {
  it('previews how many waiting requests each scoped grant would answer, and answers exactly those when pressed', async () => {
    const user = userEvent.setup();
    const { controller, onApprove, ask } = setup();
    const first = ask({ to: 'ada@example.test' });
    const again = ask({ to: 'ada@example.test' });
    const bob = ask({ to: 'bob@example.test' });
    const other = ask({ path: 'a' }, 'read_file');
    const dialog = await reviewing();
    await waitFor(() => expect(controller.getState().queue.every((view) => view.fingerprint !== null)).toBe(true));
    const group = await within(dialog).findByRole('group', { name: 'Allow more like this' });
    const toAda = within(group).getByRole('button', { name: 'Allow when to is "ada@example.test", for an hour' });
    await waitFor(() => expect(toAda).toHaveAccessibleDescription('Also answers 1 waiting request: send_mail'));
    expect(within(group).getByRole('button', { name: 'Allow send_mail for this session' })).toHaveAccessibleDescription('Also answers 2 waiting requests: send_mail, send_mail');
    await user.click(toAda);
    await expect(first).resolves.toMatchObject({ status: 'done' });
    await expect(again).resolves.toMatchObject({ status: 'done' });
    expect(onApprove).toHaveBeenCalledTimes(2);
    // Bob's request is asked next, and the other tool after it.
    await waitFor(() => expect(controller.getState().current?.arguments).toEqual({ to: 'bob@example.test' }));
    controller.deny();
    await bob;
    await waitFor(() => expect(controller.getState().current?.toolName).toBe('read_file'));
    controller.deny();
    await other;
  });

  it('lists a kept scoped grant in the grant list by its words, and Revoke stops it at once', async () => {
    const user = userEvent.setup();
    const { controller, onApprove, ask } = setup();
    const first = ask({ to: 'ada@example.test' });
    const dialog = await reviewing();
    const group = await within(dialog).findByRole('group', { name: 'Allow more like this' });
    await user.click(within(group).getByRole('button', { name: 'Allow send_mail for this session' }));
    await expect(first).resolves.toMatchObject({ status: 'done' });
    const list = screen.getByRole('region', { name: 'Standing grants' });
    expect(within(list).getByText('Allowed: send_mail for this session')).toBeInTheDocument();
    await expect(ask({ to: 'cy@example.test' })).resolves.toMatchObject({ status: 'done' });
    expect(onApprove).toHaveBeenCalledTimes(2);
    await user.click(within(list).getByRole('button', { name: 'Revoke: send_mail for this session' }));
    expect(controller.grants.getState().rules).toEqual([]);
    expect(within(list).getByRole('status')).toHaveTextContent('Revoked: send_mail for this session. It answers nothing more.');
    const asked = ask({ to: 'dee@example.test' });
    await reviewing();
    controller.deny();
    await expect(asked).resolves.toMatchObject({ status: 'denied' });
  });

  it('offers no scoped grant without a policy', async () => {
    const bare = setup(false);
    const outcome = bare.ask({ to: 'ada@example.test' });
    const dialog = await reviewing();
    expect(within(dialog).queryByRole('group', { name: 'Allow more like this' })).toBeNull();
    bare.controller.deny();
    await outcome;
  });

  it('offers no scoped grant for a high-risk tool', async () => {
    const { controller, ask } = setup();
    const outcome = ask({ env: 'prod' }, 'deploy', deploy);
    const dialog = await reviewing();
    expect(within(dialog).queryByRole('group', { name: 'Allow more like this' })).toBeNull();
    controller.deny();
    await outcome;
  });
});
