import { StrictMode, useState, type ReactNode } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmToolDialog, ToolgateLabelsProvider, ToolgateProvider, createConfirmationController, useToolConfirmation, type ConfirmToolDialogProps, type ConfirmationOutcome, type JsonValue, type ToolDescriptor, type ToolRoom, type UseToolConfirmationResult } from 'toolgate';
import { fingerprintJson } from 'toolgate/json';
import { createScriptedRoom, type ScriptedRoom } from 'toolgate/testing';

const transfer: ToolDescriptor = { title: 'Transfer money', effect: 'write', risk: 'high', requiresConfirmation: true, requiredAction: 'tool:invoke:transfer' };
const lookup: ToolDescriptor = { effect: 'read', risk: 'low', requiresConfirmation: true };

/** A page with a button that proposes the call, and the dialog it opens. */
function Page(props: Partial<ConfirmToolDialogProps> & { args?: unknown; outcomes?: ConfirmationOutcome[] }) {
  const { args = { to: 'bob', amount: 5 }, outcomes, ...rest } = props;
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Propose
      </button>
      <ConfirmToolDialog
        toolName="transfer"
        descriptor={transfer}
        {...rest}
        arguments={args}
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          rest.onOpenChange?.(next);
        }}
        onResult={(outcome) => {
          outcomes?.push(outcome);
          rest.onResult?.(outcome);
        }}
      />
    </>
  );
}

const strict = (node: ReactNode) => render(<StrictMode>{node}</StrictMode>);

/** Open the dialog with the page's button and wait until it is being reviewed. */
async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Propose' }));
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
  return dialog;
}

const invokes = (room: ScriptedRoom) => room.calls.filter((call) => call.method === 'invokeTool');
const confirms = (room: ScriptedRoom) => room.calls.filter((call) => call.method === 'confirmTool');

/** A room whose `method` waits until released: the dialog stays in `confirming` or `invoking`. */
function holding(room: ToolRoom, method: 'confirmTool' | 'invokeTool') {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held: ToolRoom = {
    confirmTool: async (name, args) => {
      if (method === 'confirmTool') await gate;
      return room.confirmTool(name, args);
    },
    invokeTool: async (name, args, id) => {
      if (method === 'invokeTool') await gate;
      return id === undefined ? room.invokeTool(name, args) : room.invokeTool(name, args, id);
    },
  };
  return { room: held, release: () => act(() => release()) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ConfirmToolDialog (one proposed call)', () => {
  it('shows the proposed action, the exact arguments, effect, risk and the short fingerprint of what it then invokes', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} args={{ to: 'bob', amount: 5, memo: 'rent' }} />);
    const dialog = await openDialog(user);
    expect(within(dialog).getByRole('heading', { name: 'Transfer money' })).toBeInTheDocument();
    expect(dialog).toHaveAccessibleName('Transfer money');
    expect(dialog).toHaveAccessibleDescription(/Nothing runs until you do/);
    expect(within(dialog).getByText('Makes changes')).toBeInTheDocument();
    expect(within(dialog).getByText('High risk')).toBeInTheDocument();
    expect(within(dialog).getByText('tool:invoke:transfer')).toBeInTheDocument();
    const args = within(dialog).getByRole('group', { name: 'Arguments' });
    expect(args).toHaveTextContent('bob');
    expect(args).toHaveTextContent('rent');
    const shown = dialog.querySelector('.toolgate-confirm-fingerprint')?.textContent;
    expect(shown).toMatch(/^[0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4}$/);

    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(outcomes.map((o) => o.status)).toEqual(['done']));
    const [invoked] = invokes(room);
    const fingerprint = await fingerprintJson(invoked?.arguments as JsonValue);
    expect(shown).toBe(fingerprint.short);
    expect(outcomes[0]).toMatchObject({ status: 'done', fingerprint: fingerprint.hex, confirmationId: invoked?.confirmationId });
    // done closes the dialog (through onOpenChange)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends the snapshot taken when it opened, whatever the caller does to its arguments object afterwards', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const args = { to: 'bob', amount: 5, tags: ['a'] };
    function Mutating() {
      const [, force] = useState(0);
      return (
        <>
          <Page room={room} args={args} />
          <button type="button" onClick={() => force((n) => n + 1)}>
            rerender
          </button>
        </>
      );
    }
    strict(<Mutating />);
    const dialog = await openDialog(user);
    const before = dialog.querySelector('.toolgate-confirm-fingerprint')?.textContent;
    args.to = 'mallory';
    args.amount = 5000;
    args.tags.push('changed');
    act(() => (screen.getByRole('button', { name: 'rerender', hidden: true }) as HTMLButtonElement).click());
    expect(within(dialog).getByRole('group', { name: 'Arguments' })).not.toHaveTextContent('mallory');
    expect(dialog.querySelector('.toolgate-confirm-fingerprint')?.textContent).toBe(before);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(invokes(room)).toHaveLength(1));
    const [confirm] = confirms(room);
    const [invoke] = invokes(room);
    expect(invoke?.arguments).toEqual({ to: 'bob', amount: 5, tags: ['a'] });
    // One frozen snapshot, passed as is to confirmTool and then to invokeTool.
    expect(invoke?.received).toBe(confirm?.received);
    expect(Object.isFrozen(invoke?.received)).toBe(true);
  });

  it('does not request again when a new arguments object arrives on a re-render', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    function Fresh() {
      const [n, setN] = useState(0);
      return (
        <>
          <Page room={room} args={{ to: 'bob', amount: 5 + n }} />
          <button type="button" onClick={() => setN(n + 1)}>
            again
          </button>
        </>
      );
    }
    const requests = vi.spyOn(room, 'confirmTool');
    strict(<Fresh />);
    const dialog = await openDialog(user);
    act(() => (screen.getByRole('button', { name: 'again', hidden: true }) as HTMLButtonElement).click());
    expect(dialog).toHaveAttribute('data-status', 'reviewing');
    expect(within(dialog).getByRole('group', { name: 'Arguments' })).toHaveTextContent('5');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(invokes(room)).toHaveLength(1));
    expect(requests).toHaveBeenCalledTimes(1);
    expect(invokes(room)[0]?.arguments).toEqual({ to: 'bob', amount: 5 });
  });

  it('invokes once for a double click', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} />);
    const dialog = await openDialog(user);
    await user.dblClick(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(outcomes).toHaveLength(1));
    expect(confirms(room)).toHaveLength(1);
    expect(invokes(room)).toHaveLength(1);
    expect(room.effects).toHaveLength(1);
  });

  it('invokes once for Enter held down on Approve (key repeat)', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} />);
    const dialog = await openDialog(user);
    within(dialog).getByRole('button', { name: 'Approve' }).focus();
    await user.keyboard('{Enter>8/}');
    await waitFor(() => expect(outcomes).toHaveLength(1));
    expect(invokes(room)).toHaveLength(1);
    expect(room.effects).toHaveLength(1);
  });

  it('denies without calling anything in the room, and tells onDeny and onResult', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const onDeny = vi.fn();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} onDeny={onDeny} />);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(outcomes).toEqual([{ status: 'denied' }]);
    expect(onDeny).toHaveBeenCalledWith(undefined);
    expect(room.calls).toEqual([]);
  });

  it('offers a reason for the agent by default, never required, and a deny sends what was typed', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const onDeny = vi.fn();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} onDeny={onDeny} />);
    const dialog = await openDialog(user);
    const field = within(dialog).getByRole('textbox', { name: 'Reason for the agent (optional)' });
    expect(field).not.toBeRequired();
    expect(field).not.toHaveAttribute('aria-required');
    // Typing a reason takes nothing from the choice: focus started on Deny, and Tab from the field reaches it.
    await user.type(field, '  wrong account ');
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(outcomes).toEqual([{ status: 'denied', reason: 'wrong account' }]));
    expect(onDeny).toHaveBeenCalledWith('wrong account');
    expect(room.calls).toEqual([]);
  });

  it('denyWithReason={false} offers no reason field, and a deny carries none', async () => {
    const user = userEvent.setup();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={createScriptedRoom()} outcomes={outcomes} denyWithReason={false} />);
    const dialog = await openDialog(user);
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(outcomes).toEqual([{ status: 'denied' }]));
  });

  it('shows the reason field only while it can act: not in flight, not after an outcome', async () => {
    const user = userEvent.setup();
    const { room, release } = holding(createScriptedRoom(), 'invokeTool');
    strict(<Page room={room} />);
    const dialog = await openDialog(user);
    const reason = () => within(dialog).queryByRole('textbox', { name: 'Reason for the agent (optional)' });
    expect(reason()).not.toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'invoking'));
    expect(reason()).toBeNull();
    await release();
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'done'));
    expect(reason()).toBeNull();
  });

  it('shows a refused confirmation (no tool:confirm) in an alert and never invokes', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom({ grants: ['tool:invoke:*'] });
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} />);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    const alert = await within(dialog).findByRole('alert');
    await waitFor(() => expect(alert).toHaveTextContent('Not allowed'));
    expect(alert).toHaveTextContent('missing tool:confirm:transfer');
    expect(dialog).toHaveAttribute('data-status', 'refused');
    expect(outcomes).toEqual([{ status: 'refused', reason: expect.stringContaining('missing tool:confirm:transfer') }]);
    expect(invokes(room)).toHaveLength(0);
    expect(room.effects).toHaveLength(0);
    // It stays until read and closed; Close returns focus to the opener.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Propose' })).toHaveFocus());
  });

  it('shows a definite failure as failed, with no retry for a write', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom({ faults: [{ kind: 'fail-invoke', reason: 'insufficient funds' }] });
    strict(<Page room={room} />);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'failed'));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('insufficient funds');
    expect(within(dialog).queryByRole('button', { name: /Try again/ })).toBeNull();
  });

  it('offers a plain retry after a read tool failed', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom({ faults: [{ kind: 'lose-response' }] });
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} toolName="balance" descriptor={lookup} args={{ account: 'main' }} />);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'failed'));
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(outcomes.map((o) => o.status)).toEqual(['failed', 'done']));
    expect(invokes(room)).toHaveLength(2);
  });

  it('leaves a lost response uncertain, says so, and never retries by itself', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom({ faults: [{ kind: 'lose-response' }] });
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} />);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'uncertain'));
    const alert = within(dialog).getByRole('alert');
    expect(alert).toHaveTextContent('The outcome is unknown');
    expect(alert).toHaveTextContent('could do it twice');
    for (let i = 0; i < 5; i++) await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(invokes(room)).toHaveLength(1);
    expect(room.effects).toHaveLength(1);
    expect(outcomes.map((o) => o.status)).toEqual(['uncertain']);
    // Escape does not retry either: it closes what was read.
    expect(within(dialog).getByRole('button', { name: 'Try again with a new confirmation' })).toBeInTheDocument();
  });

  it("offers the application's check first, and only then a deliberate retry with a new confirmation", async () => {
    const user = userEvent.setup();
    // Lost on the way there: nothing happened, and the check finds that out.
    const room = createScriptedRoom({ faults: [{ kind: 'lose-request' }] });
    const checkOutcome = vi.fn(() => (room.effects.length > 0 ? { status: 'done' as const } : { status: 'not-done' as const }));
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} checkOutcome={checkOutcome} />);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'uncertain'));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Check first');
    expect(within(dialog).queryByRole('button', { name: /Try again/ })).toBeNull();
    const check = within(dialog).getByRole('button', { name: 'Check whether it happened' });
    await waitFor(() => expect(check).toHaveFocus());
    await user.click(check);
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'failed'));
    expect(checkOutcome).toHaveBeenCalledTimes(1);
    expect(invokes(room)).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Try again with a new confirmation' }));
    await waitFor(() => expect(outcomes.map((o) => o.status)).toEqual(['uncertain', 'failed', 'done']));
    expect(confirms(room)).toHaveLength(2);
    const [first, second] = invokes(room);
    expect(second?.confirmationId).not.toBe(first?.confirmationId);
    expect(room.effects).toHaveLength(1);
  });

  it('offers a deliberate retry at once when the application has no check', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom({ faults: [{ kind: 'lose-request' }] });
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} />);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'uncertain'));
    expect(within(dialog).queryByRole('button', { name: 'Check whether it happened' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Try again with a new confirmation' }));
    await waitFor(() => expect(outcomes.map((o) => o.status)).toEqual(['uncertain', 'done']));
    expect(confirms(room)).toHaveLength(2);
  });

  it('works by keyboard alone: open, Tab to Approve, Enter, and focus returns to the opener', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} />);
    await user.tab();
    const opener = screen.getByRole('button', { name: 'Propose' });
    expect(opener).toHaveFocus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    // Focus starts on Deny, the safe choice; Approve is next.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus());
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(outcomes.map((o) => o.status)).toEqual(['done']));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(opener).toHaveFocus());
    expect(invokes(room)).toHaveLength(1);
  });

  it('traps focus while open', async () => {
    const user = userEvent.setup();
    strict(<Page room={createScriptedRoom()} />);
    const dialog = await openDialog(user);
    for (let i = 0; i < 8; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    for (let i = 0; i < 8; i++) {
      await user.tab({ shift: true });
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });

  it('denies with Escape while reviewing, and focus returns to the opener', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} />);
    await openDialog(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(outcomes).toEqual([{ status: 'denied' }]);
    expect(room.calls).toEqual([]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Propose' })).toHaveFocus());
  });

  it('does not cancel an invoke in flight: Escape and Deny do nothing while invoking', async () => {
    const user = userEvent.setup();
    const scripted = createScriptedRoom();
    const { room, release } = holding(scripted, 'invokeTool');
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} />);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'invoking'));
    expect(within(dialog).getByRole('status')).toHaveTextContent('cannot be cancelled');
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }));
    expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('dialog')).toHaveAttribute('data-status', 'invoking');
    expect(outcomes).toEqual([]);
    release();
    await waitFor(() => expect(outcomes.map((o) => o.status)).toEqual(['done']));
    expect(scripted.effects).toHaveLength(1);
  });

  it('keeps confirming through Escape too', async () => {
    const user = userEvent.setup();
    const scripted = createScriptedRoom();
    const { room, release } = holding(scripted, 'confirmTool');
    strict(<Page room={room} />);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'confirming'));
    await user.keyboard('{Escape}');
    expect(dialog).toHaveAttribute('data-status', 'confirming');
    release();
    await waitFor(() => expect(scripted.effects).toHaveLength(1));
  });

  it('ignores a click outside', async () => {
    // Radix makes the page behind inert to the pointer; click it anyway, as a person would try to.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const room = createScriptedRoom();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} />);
    const dialog = await openDialog(user);
    const overlay = document.querySelector('.toolgate-confirm-overlay') as HTMLElement;
    await user.pointer({ keys: '[MouseLeft]', target: overlay });
    await user.pointer({ keys: '[MouseLeft]', target: document.body });
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(dialog).toHaveAttribute('data-status', 'reviewing');
    expect(outcomes).toEqual([]);
  });

  it('is modal by default: the page behind is hidden and covered', async () => {
    const user = userEvent.setup();
    strict(<Page room={createScriptedRoom()} />);
    await openDialog(user);
    expect(document.querySelector('.toolgate-confirm-overlay')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Propose' })).toBeNull();
  });

  it('with modal={false} leaves the page reachable, without an overlay, and still denies with Escape', async () => {
    const user = userEvent.setup();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={createScriptedRoom()} modal={false} outcomes={outcomes} />);
    const dialog = await openDialog(user);
    expect(document.querySelector('.toolgate-confirm-overlay')).toBeNull();
    expect(screen.getByRole('button', { name: 'Propose' })).toBeVisible();
    // With the page reachable, a banner landmark in each dialog would clash with the page's own.
    expect(within(dialog).queryByRole('banner')).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(outcomes).toEqual([{ status: 'denied' }]));
  });

  it('renders argument strings that contain HTML as text', async () => {
    const user = userEvent.setup();
    const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script><b>bold</b>';
    strict(<Page room={createScriptedRoom()} args={{ html: hostile, [hostile]: 1 }} />);
    const dialog = await openDialog(user);
    expect(within(dialog).getAllByText(hostile)).toHaveLength(2);
    expect(dialog.querySelector('img, script, b')).toBeNull();
  });

  it('keeps a 10,000-element array collapsed but expandable', async () => {
    const user = userEvent.setup();
    const rows = Array.from({ length: 10_000 }, (_, i) => i);
    strict(<Page room={createScriptedRoom()} args={{ table: 'events', rows }} />);
    const dialog = await openDialog(user);
    const toggle = within(dialog).getByRole('button', { name: 'rows: 10,000 items' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(within(dialog).getByRole('button', { name: 'Show 100 more (9,900 left)' })).toBeInTheDocument();
  });

  it('invokes a descriptor with requiresConfirmation false directly, without a dialog or a confirmation', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom({ tools: { balance: { effect: 'read', risk: 'low', requiresConfirmation: false } } });
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} toolName="balance" descriptor={{ effect: 'read', risk: 'low', requiresConfirmation: false }} args={{ account: 'main' }} />);
    await user.click(screen.getByRole('button', { name: 'Propose' }));
    await waitFor(() => expect(outcomes).toHaveLength(1));
    expect(outcomes[0]).toMatchObject({ status: 'done', confirmationId: null });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(confirms(room)).toHaveLength(0);
    expect(invokes(room)).toHaveLength(1);
    expect(invokes(room)[0]?.confirmationId).toBeUndefined();
  });

  it('refuses arguments that are not JSON before review, and invokes nothing', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} args={{ to: 'bob', callback: () => 1 }} />);
    await user.click(screen.getByRole('button', { name: 'Propose' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('not JSON');
    expect(outcomes.map((o) => o.status)).toEqual(['refused']);
    expect(room.calls).toEqual([]);
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
  });

  it('shows the outcome in data-status and the open state in data-state', async () => {
    const user = userEvent.setup();
    strict(<Page room={createScriptedRoom()} />);
    const dialog = await openDialog(user);
    expect(dialog).toHaveAttribute('data-state', 'open');
    expect(dialog).toHaveAttribute('data-risk', 'high');
    expect(dialog).toHaveAttribute('data-effect', 'write');
  });

  it('asks to type the tool name before a high-risk approval (confirmStep="type-name")', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} confirmStep="type-name" />);
    const dialog = await openDialog(user);
    const field = within(dialog).getByLabelText('Type transfer to enable Approve');
    await waitFor(() => expect(field).toHaveFocus());
    const approve = within(dialog).getByRole('button', { name: 'Approve' });
    expect(approve).toHaveAttribute('aria-disabled', 'true');
    await user.click(approve);
    await user.type(field, 'transfe{Enter}');
    expect(room.calls).toEqual([]);
    await user.type(field, 'r');
    expect(approve).not.toHaveAttribute('aria-disabled');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(outcomes.map((o) => o.status)).toEqual(['done']));
    expect(invokes(room)).toHaveLength(1);
  });

  it('says why Approve waits during the typed-name step, and announces its enabling once, politely', async () => {
    const user = userEvent.setup();
    strict(<Page room={createScriptedRoom()} confirmStep="type-name" />);
    const dialog = await openDialog(user);
    const field = within(dialog).getByLabelText('Type transfer to enable Approve');
    const approve = within(dialog).getByRole('button', { name: 'Approve' });
    expect(approve).toHaveAccessibleDescription('Type transfer to enable Approve');
    const live = dialog.querySelector('.toolgate-confirm-field [aria-live="polite"]') as HTMLElement;
    expect(live).not.toBeNull();
    expect(live.textContent).toBe('');
    const heard: string[] = [];
    const observer = new MutationObserver(() => {
      if (live.textContent) heard.push(live.textContent);
    });
    observer.observe(live, { childList: true, subtree: true, characterData: true });
    await user.type(field, 'transfe');
    expect(live.textContent).toBe('');
    await user.type(field, 'r');
    expect(approve).not.toHaveAttribute('aria-disabled');
    expect(approve).not.toHaveAttribute('aria-describedby');
    expect(live).toHaveTextContent('Approve is now enabled.');
    // Typing on (a trailing space is still the name) says nothing more.
    await user.type(field, ' ');
    await waitFor(() => expect(heard).toEqual(['Approve is now enabled.']));
    observer.disconnect();
  });

  it('does not ask for the step on a request that is not high risk', async () => {
    const user = userEvent.setup();
    strict(<Page room={createScriptedRoom()} confirmStep="type-name" descriptor={{ ...transfer, risk: 'medium' }} />);
    const dialog = await openDialog(user);
    expect(within(dialog).queryByRole('textbox', { name: /^Type transfer/ })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Approve' })).not.toHaveAttribute('aria-disabled');
  });

  it('approves only after a press held long enough, by pointer or by keyboard (confirmStep="hold")', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page room={room} outcomes={outcomes} confirmStep="hold" holdMs={1000} />);
    const dialog = await openDialog(user);
    const approve = within(dialog).getByRole('button', { name: 'Approve' });
    expect(approve).toHaveAccessibleDescription(/hold Enter or Space/);
    vi.useFakeTimers();
    const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
    // A click is not a hold; a press released early is cancelled.
    fireEvent.click(approve);
    fireEvent.pointerDown(approve, { button: 0 });
    wait(600);
    expect(within(dialog).getByRole('status')).toHaveTextContent('Keep holding');
    fireEvent.pointerUp(approve);
    wait(2000);
    fireEvent.keyDown(approve, { key: 'Enter' });
    wait(999);
    fireEvent.keyUp(approve, { key: 'Enter' });
    wait(2000);
    expect(room.calls).toEqual([]);
    expect(dialog).toHaveAttribute('data-status', 'reviewing');
    // Held long enough (key repeats keep holding): approved once.
    fireEvent.keyDown(approve, { key: ' ' });
    wait(500);
    fireEvent.keyDown(approve, { key: ' ', repeat: true });
    wait(500);
    fireEvent.keyUp(approve, { key: ' ' });
    vi.useRealTimers();
    await waitFor(() => expect(outcomes.map((o) => o.status)).toEqual(['done']));
    expect(invokes(room)).toHaveLength(1);
  });

  it('takes the path without a room: onApprove gets the frozen snapshot', async () => {
    const user = userEvent.setup();
    const onApprove = vi.fn((args: JsonValue) => ({ inserted: args }));
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page onApprove={onApprove} outcomes={outcomes} toolName="insert_text" descriptor={null} args={{ text: 'hi' }} />);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(outcomes).toHaveLength(1));
    expect(onApprove).toHaveBeenCalledTimes(1);
    expect(onApprove.mock.calls[0]?.[0]).toEqual({ text: 'hi' });
    expect(Object.isFrozen(onApprove.mock.calls[0]?.[0])).toBe(true);
    expect(outcomes[0]).toMatchObject({ status: 'done', output: { inserted: { text: 'hi' } }, confirmationId: null });
  });

  it('says so in the dialog when it has neither a room nor onApprove', async () => {
    const user = userEvent.setup();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<Page outcomes={outcomes} />);
    await user.click(screen.getByRole('button', { name: 'Propose' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('no room');
    expect(outcomes.map((o) => o.status)).toEqual(['refused']);
  });

  it('withdraws a request not yet approved when closed from outside, and requests once under StrictMode', async () => {
    const user = userEvent.setup();
    const controller = createConfirmationController();
    const room = createScriptedRoom();
    const outcomes: ConfirmationOutcome[] = [];
    function Outside() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Propose
          </button>
          <ConfirmToolDialog open={open} onOpenChange={setOpen} toolName="transfer" arguments={{ a: 1 }} room={room} controller={controller} onResult={(o) => outcomes.push(o)} />
          {open && (
            <button type="button" data-testid="close" onClick={() => setOpen(false)}>
              close from outside
            </button>
          )}
        </>
      );
    }
    strict(<Outside />);
    await openDialog(user);
    expect(controller.getState().queue).toHaveLength(0);
    expect(controller.getState().current?.status).toBe('reviewing');
    act(() => (screen.getByTestId('close') as HTMLButtonElement).click());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(controller.getState().current).toBeNull();
    expect(outcomes).toEqual([]);
    expect(room.calls).toEqual([]);
  });

  it('opens by itself with defaultOpen, and closes itself after the outcome', async () => {
    const room = createScriptedRoom();
    const onOpenChange = vi.fn();
    const outcomes: ConfirmationOutcome[] = [];
    strict(<ConfirmToolDialog defaultOpen toolName="transfer" arguments={{ a: 1 }} room={room} onOpenChange={onOpenChange} onResult={(o) => outcomes.push(o)} />);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(outcomes.map((o) => o.status)).toEqual(['done']);
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  // Two axe runs in jsdom take about 4 s alone, more on a busy machine: time to finish, not a speed claim.
  it('has no axe violations while reviewing and after an unknown outcome (jsdom; contrast is checked in Chromium)', { timeout: 20_000 }, async () => {
    const { default: axe } = await import('axe-core');
    const user = userEvent.setup();
    strict(<Page room={createScriptedRoom({ faults: [{ kind: 'lose-response' }] })} confirmStep="type-name" checkOutcome={() => ({ status: 'unknown' })} />);
    const dialog = await openDialog(user);
    const check = async () => {
      const results = await axe.run(dialog, { rules: { 'color-contrast': { enabled: false } } });
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    };
    await check();
    await user.type(within(dialog).getByRole('textbox', { name: /^Type transfer/ }), 'transfer');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'uncertain'));
    await check();
  });

  it('takes its strings from the labels, overridable by provider and by prop', async () => {
    const user = userEvent.setup();
    strict(
      <ToolgateLabelsProvider labels={{ confirm: { deny: 'Refuser' } }}>
        <Page room={createScriptedRoom()} labels={{ approve: 'Send it', status: { reviewing: 'Your call' } }} />
      </ToolgateLabelsProvider>,
    );
    const dialog = await openDialog(user);
    expect(within(dialog).getByRole('button', { name: 'Send it' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Refuser' })).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent('Your call');
  });
});

describe('ConfirmToolDialog (the provider queue)', () => {
  function Voice({ into }: { into: { current?: UseToolConfirmationResult } }) {
    into.current = useToolConfirmation();
    return null;
  }

  it('shows one request at a time and how many wait, until the queue is empty', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const voice: { current?: UseToolConfirmationResult } = {};
    const outcomes: ConfirmationOutcome[] = [];
    strict(
      <ToolgateProvider room={room}>
        <Voice into={voice} />
        <ConfirmToolDialog onResult={(o) => outcomes.push(o)} />
      </ToolgateProvider>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    const done: Promise<ConfirmationOutcome>[] = [];
    act(() => {
      for (const name of ['one', 'two', 'three']) done.push((voice.current as UseToolConfirmationResult).request({ toolName: name, arguments: { n: name } }));
    });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    expect(within(dialog).getByRole('heading', { name: 'one' })).toBeInTheDocument();
    expect(within(dialog).getByText('2 more waiting')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(within(screen.getByRole('dialog')).getByRole('heading', { name: 'two' })).toBeInTheDocument());
    expect(within(screen.getByRole('dialog')).getByText('1 more waiting')).toBeInTheDocument();
    // The next request starts on Deny, not on an Approve a repeated key could hit.
    await waitFor(() => expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'Deny' })).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(within(screen.getByRole('dialog')).getByRole('heading', { name: 'three' })).toBeInTheDocument());
    expect(within(screen.getByRole('dialog')).queryByText(/more waiting/)).toBeNull();
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveAttribute('data-status', 'reviewing'));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await Promise.all(done)).map((o) => o.status)).toEqual(['done', 'denied', 'done']);
    expect(outcomes.map((o) => o.status)).toEqual(['done', 'denied', 'done']);
    expect(invokes(room).map((c) => c.toolName)).toEqual(['one', 'three']);
  });

  it('acts once for Enter held down on Approve: the next request is neither approved nor denied', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const voice: { current?: UseToolConfirmationResult } = {};
    strict(
      <ToolgateProvider room={room}>
        <Voice into={voice} />
        <ConfirmToolDialog />
      </ToolgateProvider>,
    );
    act(() => {
      for (const name of ['first', 'second']) void (voice.current as UseToolConfirmationResult).request({ toolName: name, arguments: {} });
    });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    within(dialog).getByRole('button', { name: 'Approve' }).focus();
    await user.keyboard('{Enter>12/}');
    await waitFor(() => expect(within(screen.getByRole('dialog')).getByRole('heading', { name: 'second' })).toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveAttribute('data-status', 'reviewing'));
    await user.keyboard('{Escape>6/}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(invokes(room).map((c) => c.toolName)).toEqual(['first']);
    expect(voice.current?.last?.outcome).toEqual({ status: 'denied' });
  });

  it('gives one invoke when a spoken approve() races a click', async () => {
    const room = createScriptedRoom();
    const voice: { current?: UseToolConfirmationResult } = {};
    strict(
      <ToolgateProvider room={room}>
        <Voice into={voice} />
        <ConfirmToolDialog />
      </ToolgateProvider>,
    );
    let outcome!: Promise<ConfirmationOutcome>;
    act(() => {
      outcome = (voice.current as UseToolConfirmationResult).request({ toolName: 'transfer', arguments: { to: 'bob' } });
    });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    const approve = within(dialog).getByRole('button', { name: 'Approve' });
    const spoken = voice.current as UseToolConfirmationResult;
    let results: boolean[] = [];
    act(() => {
      results = [spoken.approve(), (approve.click(), false), spoken.approve()];
    });
    expect(results[0]).toBe(true);
    expect(results[2]).toBe(false);
    await expect(outcome).resolves.toMatchObject({ status: 'done' });
    expect(invokes(room)).toHaveLength(1);
    expect(confirms(room)).toHaveLength(1);
  });
});

describe('ConfirmToolDialog bound to the tool it shows', () => {
  it('refuses an approval once the page asks about another tool than the one shown, and confirms and invokes nothing (approval-mismatch)', async () => {
    const user = userEvent.setup();
    const room = createScriptedRoom();
    const outcomes: ConfirmationOutcome[] = [];
    const { rerender } = strict(<Page room={room} outcomes={outcomes} descriptor={lookup} toolName="read_file" args={{ path: 'a.txt' }} />);
    const dialog = await openDialog(user);
    // The page now asks about another tool while the dialog still shows read_file.
    rerender(
      <StrictMode>
        <Page room={room} outcomes={outcomes} descriptor={lookup} toolName="delete_file" args={{ path: 'a.txt' }} />
      </StrictMode>,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(outcomes).toEqual([expect.objectContaining({ status: 'refused', code: 'approval-mismatch' })]));
    expect(room.calls).toEqual([]);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/shown as read_file but now names delete_file/);
  });
});
