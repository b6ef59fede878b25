/**
 * Several at once: the list shows every pending request of a turn with its arguments and
 * fingerprint, and "Approve all N" / "Deny all N" decide exactly the N listed.
 */
import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmBatch, createConfirmationController, type ToolDescriptor } from 'toolgate';
import { fingerprintJson } from 'toolgate/json';

const descriptor: ToolDescriptor = { effect: 'write', risk: 'medium', requiresConfirmation: true };

function setup(turnId?: string) {
  const controller = createConfirmationController();
  const onApprove = vi.fn(() => 'ran');
  const ask = (toolName: string, args: unknown, turn = 't1') => controller.request({ toolName, arguments: args, descriptor, onApprove, turnId: turn });
  render(
    <StrictMode>
      <ConfirmBatch controller={controller} {...(turnId === undefined ? {} : { turnId })} />
    </StrictMode>,
  );
  return { controller, onApprove, ask };
}

const batch = () => screen.getByRole('region');
/** Wait until every request asked so far is fingerprinted (listed). */
const items = () => [...batch().querySelectorAll('.toolgate-batch-list > li')];
const listed = async (count: number) => waitFor(() => expect(items()).toHaveLength(count));

describe('ConfirmBatch', () => {
  it('lists every pending request of the turn with its arguments and fingerprint', async () => {
    const { ask } = setup('t1');
    ask('write_file', { path: 'a.txt' });
    ask('write_file', { path: 'b.txt' });
    ask('write_file', { path: 'other.txt' }, 't2');
    await listed(2);
    expect(within(batch()).getByText('2 requests waiting')).toBeInTheDocument();
    const [a, b] = items();
    expect(a).toHaveTextContent('a.txt');
    expect(b).toHaveTextContent('b.txt');
    const print = await fingerprintJson({ path: 'a.txt' });
    expect(a?.querySelector('[data-fingerprint]')).toHaveAttribute('data-fingerprint', print.hex);
    expect(a).toHaveTextContent(print.short);
    expect(batch()).not.toHaveTextContent('other.txt');
  });

  it('"Approve all N" approves exactly the N listed, with the fingerprints shown', async () => {
    const user = userEvent.setup();
    const { controller, onApprove, ask } = setup();
    const outcomes = [ask('write_file', { path: 'a' }), ask('write_file', { path: 'b' })];
    await listed(2);
    const approveAll = vi.spyOn(controller, 'approveAll');
    await user.click(within(batch()).getByRole('button', { name: 'Approve all 2' }));
    await expect(Promise.all(outcomes)).resolves.toMatchObject([{ status: 'done' }, { status: 'done' }]);
    const shown = await Promise.all([fingerprintJson({ path: 'a' }), fingerprintJson({ path: 'b' })]);
    expect(approveAll.mock.calls[0]?.[0].map((pick) => pick.fingerprint)).toEqual(shown.map((print) => print.hex));
    expect(onApprove).toHaveBeenCalledTimes(2);
    expect(onApprove.mock.calls.map((call) => (call as unknown as [unknown, { decidedBy: unknown }])[1].decidedBy)).toEqual([
      { by: 'batch', size: 2 },
      { by: 'batch', size: 2 },
    ]);
    await waitFor(() => expect(within(batch()).getByRole('status')).toHaveTextContent('Approved 2, denied 0.'));
  });

  it('never adds a request that arrives while a person points at the list: it says so, and "Approve all 2" leaves it waiting', async () => {
    const user = userEvent.setup();
    const { controller, onApprove, ask } = setup();
    ask('write_file', { path: 'a' });
    ask('write_file', { path: 'b' });
    await listed(2);
    await user.hover(within(batch()).getByRole('button', { name: 'Approve all 2' }));
    const late = ask('write_file', { path: 'late' });
    await waitFor(() => expect(within(batch()).getByText('1 more request arrived: it is not in this list.')).toBeInTheDocument());
    expect(items()).toHaveLength(2);
    await user.click(within(batch()).getByRole('button', { name: 'Approve all 2' }));
    await waitFor(() => expect(onApprove).toHaveBeenCalledTimes(2));
    expect(onApprove.mock.calls.map((call) => (call as unknown as [unknown])[0])).toEqual([{ path: 'a' }, { path: 'b' }]);
    // The late one is still waiting, listed only once the person asks.
    expect(controller.getState().current?.arguments).toEqual({ path: 'late' });
    expect(items()).toHaveLength(0);
    await user.click(within(batch()).getByRole('button', { name: 'Show them in the list' }));
    await listed(1);
    await user.click(within(batch()).getByRole('button', { name: 'Deny all 1' }));
    await expect(late).resolves.toMatchObject({ status: 'denied' });
  });

  it('shows the arrived requests when asked, and only then counts them', async () => {
    const user = userEvent.setup();
    const { ask } = setup();
    ask('write_file', { path: 'a' });
    await listed(1);
    await user.tab();
    ask('write_file', { path: 'b' });
    await within(batch()).findByText('1 more request arrived: it is not in this list.');
    expect(within(batch()).getByRole('button', { name: 'Approve all 1' })).toBeInTheDocument();
    await user.click(within(batch()).getByRole('button', { name: 'Show them in the list' }));
    expect(within(batch()).getByRole('button', { name: 'Approve all 2' })).toBeInTheDocument();
  });

  it('follows what waits while nobody points at it or focuses it', async () => {
    const { ask } = setup();
    ask('write_file', { path: 'a' });
    await listed(1);
    ask('write_file', { path: 'b' });
    await listed(2);
    expect(within(batch()).queryByText(/more request/)).toBeNull();
  });

  it('"Deny all N" denies exactly the N listed, with the reason given', async () => {
    const user = userEvent.setup();
    const controller = createConfirmationController();
    const onDeny = vi.fn();
    const outcomes = ['a', 'b'].map((path) => controller.request({ toolName: 'write_file', arguments: { path }, descriptor, onApprove: () => null, onDeny }));
    render(<ConfirmBatch controller={controller} denyReason="not today" />);
    await listed(2);
    await user.click(within(batch()).getByRole('button', { name: 'Deny all 2' }));
    await expect(Promise.all(outcomes)).resolves.toEqual([
      { status: 'denied', reason: 'not today' },
      { status: 'denied', reason: 'not today' },
    ]);
    expect(within(batch()).getByText('No requests waiting.')).toBeInTheDocument();
  });

  it('ends a decided batch in a finished state: its result shown, no buttons that cannot act, focus on the result', async () => {
    const user = userEvent.setup();
    const { ask } = setup('t1');
    ask('write_file', { path: 'a.txt' });
    ask('write_file', { path: 'b.txt' });
    await listed(2);
    await user.click(within(batch()).getByRole('button', { name: 'Approve all 2' }));
    const result = within(batch()).getByRole('status');
    await waitFor(() => expect(result).toHaveTextContent('Approved 2, denied 0.'));
    expect(result).not.toHaveClass('toolgate-sr-only');
    expect(batch()).toHaveAttribute('data-state', 'done');
    expect(within(batch()).queryByRole('button', { name: /^(Approve|Deny) all/ })).toBeNull();
    expect(result).toHaveFocus();
  });

  it('drops a request decided elsewhere from the list and the count', async () => {
    const { controller, ask } = setup();
    ask('write_file', { path: 'a' });
    ask('write_file', { path: 'b' });
    await listed(2);
    act(() => void controller.deny('no', { requestId: controller.getState().current?.id }));
    await listed(1);
    expect(within(batch()).getByRole('button', { name: 'Approve all 1' })).toBeInTheDocument();
  });
});
