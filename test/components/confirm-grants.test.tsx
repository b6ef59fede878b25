/**
 * Standing grants in the dialog and in the grant list: Allow and Deny for this session, allow
 * not offered (with its reason) where the request refuses it, the list with Revoke, revoking at
 * once, and a request answered by a grant naming it.
 */
import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmToolDialog, ToolGrantList, ToolgateProvider, createConfirmationController, useToolGrants, type ConfirmationController, type ToolDescriptor } from 'toolgate';

const search: ToolDescriptor = { effect: 'read', risk: 'low', requiresConfirmation: true };
const transfer: ToolDescriptor = { effect: 'write', risk: 'high', requiresConfirmation: true };

function setup() {
  const controller = createConfirmationController();
  const onApprove = vi.fn(() => 'ran');
  const ask = (toolName: string, args: unknown, descriptor: ToolDescriptor = search) => controller.request({ toolName, arguments: args, descriptor, onApprove });
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

const list = () => screen.getByRole('region', { name: 'Standing grants', hidden: true });

describe('standing grants', () => {
  it('"Allow for this session" approves the request shown and answers the queued and later requests of its tool, each with its own snapshot', async () => {
    const user = userEvent.setup();
    const { controller, onApprove, ask } = setup();
    const first = ask('search_docs', { q: 'a' });
    const second = ask('search_docs', { q: 'b' });
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Allow for this session' }));
    await expect(first).resolves.toMatchObject({ status: 'done' });
    await expect(second).resolves.toMatchObject({ status: 'done' });
    const third = await act(() => ask('search_docs', { q: 'c' }));
    expect(third).toMatchObject({ status: 'done' });
    expect(onApprove.mock.calls.map((call) => (call as unknown as [unknown])[0])).toEqual([{ q: 'a' }, { q: 'b' }, { q: 'c' }]);
    expect(onApprove.mock.calls.map((call) => (call as unknown as [unknown, { automatic: boolean }])[1].automatic)).toEqual([false, true, true]);
    expect(controller.grants.getState().grants).toMatchObject([{ toolName: 'search_docs', decision: 'allow' }]);
  });

  it('"Deny for this session" denies the request shown and the later ones of its tool', async () => {
    const user = userEvent.setup();
    const { onApprove, ask } = setup();
    const first = ask('search_docs', { q: 'a' });
    const dialog = await reviewing();
    await user.click(within(dialog).getByRole('button', { name: 'Deny for this session' }));
    await expect(first).resolves.toMatchObject({ status: 'denied' });
    await expect(act(() => ask('search_docs', { q: 'b' }))).resolves.toMatchObject({ status: 'denied' });
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('does not offer "Allow for this session" for a high-risk tool, and says why beside it', async () => {
    const user = userEvent.setup();
    const { controller, ask } = setup();
    ask('transfer', { to: 'bob' }, transfer);
    const dialog = await reviewing();
    const allow = within(dialog).getByRole('button', { name: 'Allow for this session' });
    expect(allow).toHaveAttribute('aria-disabled', 'true');
    expect(allow).toHaveAccessibleDescription('Allow for this session is not offered for a high-risk tool.');
    await user.click(allow);
    expect(controller.grants.getState().grants).toEqual([]);
    expect(dialog).toHaveAttribute('data-status', 'reviewing');
  });

  it('says "risk not declared" as the reason for a tool without a descriptor', async () => {
    const { ask } = setup();
    ask('mystery', {}, null as unknown as ToolDescriptor);
    const dialog = await reviewing();
    expect(within(dialog).getByRole('button', { name: 'Allow for this session' })).toHaveAccessibleDescription(/does not declare its risk/);
  });

  it('lists each grant with a Revoke button reachable by keyboard; revoking asks the tool again at once and says so on screen', async () => {
    const user = userEvent.setup();
    const { controller, onApprove, ask } = setup();
    act(() => {
      controller.grants.allow('search_docs');
      controller.grants.deny('delete_file');
    });
    const items = within(list()).getAllByRole('listitem');
    expect(items.map((li) => li.firstChild?.textContent)).toEqual(['search_docs: allowed for this session', 'delete_file: denied for this session']);
    // Keyboard: Tab reaches the first Revoke, Enter revokes.
    await user.tab();
    const revoke = within(list()).getByRole('button', { name: 'Revoke: search_docs allowed for this session' });
    expect(revoke).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(controller.grants.find('search_docs')).toBeUndefined();
    // Focus moves to the next grant's Revoke, and a status says what was revoked.
    expect(within(list()).getByRole('button', { name: 'Revoke: delete_file denied for this session' })).toHaveFocus();
    const said = within(list()).getByRole('status');
    expect(said).toHaveTextContent('Revoked: search_docs is asked again.');
    // Seen, not only heard.
    expect(said).not.toHaveClass('toolgate-sr-only');
    // The last grant revoked: focus lands on that line, which can take it.
    await user.keyboard('{Enter}');
    expect(said).toHaveTextContent('Revoked: delete_file is asked again.');
    expect(said).toHaveFocus();
    expect(within(list()).getByText('No standing grants: every request is asked.')).toBeInTheDocument();
    ask('search_docs', { q: 'again' });
    await reviewing();
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('says so when there is no grant', () => {
    setup();
    expect(within(list()).getByText('No standing grants: every request is asked.')).toBeInTheDocument();
  });

  it('names the grant on a shown request that a grant answered', async () => {
    let release!: () => void;
    const controller = createConfirmationController();
    const done = controller.request({ toolName: 'search_docs', arguments: { q: 'a' }, descriptor: search, onApprove: () => new Promise<void>((resolve) => (release = resolve)) });
    render(
      <StrictMode>
        <ConfirmToolDialog controller={controller} />
      </StrictMode>,
    );
    const dialog = await reviewing();
    act(() => void controller.grants.allow('search_docs'));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'invoking'));
    // The grant answered as its rule: the dialog names it by its label.
    const note = within(dialog).getByText('Allowed by search_docs for this session');
    expect(note).toHaveAttribute('data-grant', controller.grants.find('search_docs')?.id);
    expect(note).toHaveAttribute('data-rule', controller.grants.find('search_docs')?.id);
    release();
    await expect(done).resolves.toMatchObject({ status: 'done' });
  });
});

describe('useToolGrants', () => {
  it('re-renders with the grants and revokes through the controller', () => {
    const controller: ConfirmationController = createConfirmationController();
    let seen: ReturnType<typeof useToolGrants> | undefined;
    function Probe() {
      seen = useToolGrants(controller);
      return null;
    }
    render(<Probe />);
    expect(seen?.grants).toEqual([]);
    let id = '';
    act(() => void (id = controller.grants.allow('search_docs').id));
    expect(seen?.grants.map((grant) => grant.toolName)).toEqual(['search_docs']);
    act(() => void seen?.revoke(id));
    expect(seen?.grants).toEqual([]);
    expect(controller.grants.getState().grants).toEqual([]);
  });
});
