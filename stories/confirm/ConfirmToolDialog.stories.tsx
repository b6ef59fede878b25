import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ConfirmToolDialog, createConfirmationController, type CheckOutcome, type ConfirmationStatus } from 'toolgate';
import { createScriptedRoom, type ScriptedRoom } from 'toolgate/testing';
import { Frame } from '../support/scenarios';
import {
  Proposal,
  QueuePage,
  ROOM_DELAY_MS,
  descriptors,
  held,
  heldCrypto,
  holdingRoom,
  openDialog,
  outcomesText,
  page,
  storySpeed,
  transferArgs,
  untilClosed,
  untilStatus,
  type ConfirmStoryArgs,
  type ProposalProps,
} from './support';

/**
 * The approval dialog, in each state it can show. Every story proposes a real call through a
 * scripted room from `toolgate/testing` (grants, confirmations bound to the arguments' hash and
 * consumed once, injected faults), so what you see is what the flow does. Press the button to
 * open the dialog; the play functions drive it by pointer and keyboard and wait on what is shown.
 * `speed` sets how fast the room answers (instant when run as a test).
 */
const meta = {
  title: 'Confirm/ConfirmToolDialog',
  component: ConfirmToolDialog,
  tags: ['autodocs'],
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<ConfirmStoryArgs>;
export default meta;
type Story = StoryObj<ConfirmStoryArgs>;

/* ------------------------------------------------------------ before review */

/**
 * Taken in but not yet reviewable (`idle`, "Preparing…"): the arguments are snapshotted and shown,
 * their fingerprint is still being computed, so Approve cannot act; Deny and Escape can. Usually
 * over within a frame; here Web Crypto is held (for as long as the story is tested).
 */
export const Preparing: Story = {
  render: ({ speed }) => (
    <Proposal
      speed={speed}
      toolName="transfer"
      descriptor={descriptors.highWrite}
      arguments={transferArgs}
      makeController={() => createConfirmationController({ crypto: heldCrypto(speed) })}
    />
  ),
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    await userEvent.click(body.getByRole('button', { name: 'Propose transfer' }));
    const dialog = await body.findByRole('dialog');
    await untilStatus(dialog, 'idle');
    const inside = within(dialog);
    await expect(inside.getByRole('status')).toHaveTextContent('Preparing…');
    const fingerprint = dialog.querySelector('.toolgate-confirm-fingerprint');
    await expect(fingerprint).toHaveTextContent(/^…$/);
    await expect(fingerprint).not.toHaveAttribute('data-fingerprint');
    await expect(inside.getByRole('group', { name: 'Arguments' })).toHaveTextContent('DE89 3704');
    await waitFor(() => expect(inside.getByRole('button', { name: 'Deny' })).toHaveFocus());
    const approve = inside.getByRole('button', { name: 'Approve' });
    await expect(approve).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(approve);
    await expect(dialog).toHaveAttribute('data-status', 'idle');
    await expect(body.getByTestId('room')).toHaveTextContent('Room: 0 calls, 0 effects');
  },
};

/* ---------------------------------------------------------------- reviewing */

/** A read tool with low risk: "Reads only", "Low risk", Approve in the plain colour. */
export const ReviewingLowRiskRead: Story = {
  render: ({ speed }) => (
    <Proposal speed={speed} toolName="search_flights" descriptor={descriptors.lowRead} arguments={{ from: 'LHR', to: 'SFO', date: '2025-03-14', passengers: 2 }} />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const inside = within(dialog);
    await expect(inside.getByRole('heading', { name: 'Search flights' })).toBeVisible();
    await expect(inside.getByText('Reads only')).toBeVisible();
    await expect(inside.getByText('Low risk')).toBeVisible();
    await expect(inside.getByRole('group', { name: 'Arguments' })).toHaveTextContent('SFO');
    await expect(dialog.querySelector('.toolgate-confirm-fingerprint')?.textContent).toMatch(/^[0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4}$/);
    const deny = inside.getByRole('button', { name: 'Deny' });
    await expect(deny).toHaveFocus();
    // Opened with a pointer, the dialog still shows where it put focus: Deny has its ring on :focus,
    // not only on :focus-visible (which a browser withholds after a pointer click).
    await expect(focusRingRule(deny)).toMatch(/solid/);
  },
};

/** A write with medium risk. */
export const ReviewingMediumRiskWrite: Story = {
  render: ({ speed }) => (
    <Proposal speed={speed} toolName="write_file" descriptor={descriptors.mediumWrite} arguments={{ path: 'notes/plan.md', content: '# Plan\n\n1. Ship the dialog.\n2. Review it.' }} />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await expect(within(dialog).getByText('Makes changes')).toBeVisible();
    await expect(within(dialog).getByText('Medium risk')).toBeVisible();
    await expect(dialog).toHaveAttribute('data-risk', 'medium');
  },
};

/** A high-risk write: the tool's own description, the authority it needs, Approve in danger colours. */
export const ReviewingHighRiskWrite: Story = {
  render: ({ speed }) => <Proposal speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} />,
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const inside = within(dialog);
    await expect(inside.getByText('High risk')).toBeVisible();
    await expect(inside.getByText('tool:invoke:transfer')).toBeVisible();
    await expect(inside.getByText(/cannot be undone here/)).toBeVisible();
    await expect(dialog).toHaveAttribute('data-risk', 'high');
    // The danger treatment is not colour alone: a mark and a heavier border, on the chip and on Approve.
    const approve = inside.getByRole('button', { name: 'Approve' });
    await expect(approve).toHaveAttribute('data-danger');
    await expect(getComputedStyle(approve, '::before').content).toMatch(/⚠/);
    await expect(getComputedStyle(inside.getByText('High risk'), '::before').content).toMatch(/⚠/);
    await expect(getComputedStyle(approve).borderTopWidth).not.toBe(getComputedStyle(inside.getByRole('button', { name: 'Deny' })).borderTopWidth);
    // In forced colours backgrounds go: the stylesheet keeps a double border on both there.
    await expect(forcedColoursRule(dialog.ownerDocument, '.toolgate-button[data-danger]')).toMatch(/double/);
  },
};

/** `element.matches(selector)`, false for a selector `matches` cannot take (a pseudo-element, a split `:is(a, b)`). */
function matches(element: HTMLElement, selector: string): boolean {
  try {
    return element.matches(selector);
  } catch {
    return false;
  }
}

/** The outline of a rule that rings `element` on plain `:focus` (whatever moved focus there), or ''. */
function focusRingRule(element: HTMLElement): string {
  for (const sheet of element.ownerDocument.styleSheets) {
    for (const rule of sheet.cssRules) {
      // The outline is a shorthand with var(): its longhands read empty in the CSSOM, the shorthand does not.
      const outline = rule instanceof CSSStyleRule ? rule.style.getPropertyValue('outline') : '';
      if (!(rule instanceof CSSStyleRule) || !/:focus(?!-)/.test(rule.selectorText) || !outline) continue;
      if (matches(element, rule.selectorText)) return outline;
    }
  }
  return '';
}

/** The declarations the stylesheet gives `selector` under `@media (forced-colors: active)`. */
function forcedColoursRule(document: Document, selector: string): string {
  for (const sheet of document.styleSheets) {
    for (const rule of sheet.cssRules) {
      if (!(rule instanceof CSSMediaRule) || !rule.conditionText.includes('forced-colors')) continue;
      for (const inner of rule.cssRules) if (inner instanceof CSSStyleRule && inner.selectorText.includes(selector)) return inner.style.cssText;
    }
  }
  return '';
}

/* ---------------------------------------------------------- after approval */

/** Approved; the room has not given its confirmation id yet. Deny and Escape do nothing now. */
export const Confirming: Story = {
  render: ({ speed }) => (
    <Proposal speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} wrapRoom={(room, s) => holdingRoom(room, 'confirmTool', s)} />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await untilStatus(dialog, 'confirming');
    await expect(within(dialog).getByRole('status')).toHaveTextContent('Getting a confirmation');
    await userEvent.keyboard('{Escape}');
    await expect(dialog).toHaveAttribute('data-status', 'confirming');
    await expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveAttribute('aria-disabled', 'true');
  },
};

/** The call is running: nothing cancels it, not Escape, not Deny. */
export const Invoking: Story = {
  render: ({ speed }) => (
    <Proposal speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} wrapRoom={(room, s) => holdingRoom(room, 'invokeTool', s)} />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await untilStatus(dialog, 'invoking');
    await expect(within(dialog).getByRole('status')).toHaveTextContent('cannot be cancelled');
    await userEvent.keyboard('{Escape}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await expect(dialog).toHaveAttribute('data-status', 'invoking');
    await expect(outcomesText(canvasElement)).toBe('No outcome yet');
  },
};

/** Approved and done: the dialog closes, the outcome carries the output, the fingerprint and the confirmation id. */
export const Done: Story = {
  render: ({ speed }) => <Proposal speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} />,
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const shown = dialog.querySelector('.toolgate-confirm-fingerprint')?.getAttribute('data-fingerprint') ?? '';
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await untilClosed(canvasElement);
    await waitFor(() => expect(outcomesText(canvasElement)).toMatch(/^done: /));
    await expect(outcomesText(canvasElement)).toContain(shown.slice(0, 12));
    await expect(page(canvasElement).getByRole('button', { name: 'Propose transfer' })).toHaveFocus();
  },
};

/** Denied, with a reason for the agent (the field is offered by default): nothing is called in the room. */
export const Denied: Story = {
  render: ({ speed }) => <Proposal speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} />,
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason for the agent (optional)' }), 'Wrong account');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deny' }));
    await untilClosed(canvasElement);
    await expect(outcomesText(canvasElement)).toBe('denied: Wrong account');
    await expect(page(canvasElement).getByTestId('room')).toHaveTextContent('Room: 0 calls, 0 effects');
  },
};

/* ---------------------------------------------------------- unhappy endings */

/** The person may invoke but not confirm (no `tool:confirm:transfer`): refused, with the reason, and never invoked. */
export const RefusedWithoutConfirmPermission: Story = {
  render: ({ speed }) => (
    <Proposal speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} roomOptions={{ grants: ['tool:invoke:*'] }} />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await untilStatus(dialog, 'refused');
    const alert = within(dialog).getByRole('alert');
    await expect(alert).toHaveTextContent('Not allowed');
    await expect(alert).toHaveTextContent('missing tool:confirm:transfer');
    await expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    await expect(outcomesText(canvasElement)).toMatch(/^refused: /);
  },
};

/** The room answered no after the confirmation (a definite failure): failed, and a write is not offered a retry. */
export const Failed: Story = {
  render: ({ speed }) => (
    <Proposal speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} roomOptions={{ faults: [{ kind: 'fail-invoke', reason: 'insufficient funds' }] }} />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await untilStatus(dialog, 'failed');
    await expect(within(dialog).getByRole('alert')).toHaveTextContent('insufficient funds');
    await expect(within(dialog).queryByRole('button', { name: /Try again/ })).toBeNull();
  },
};

/** A read tool whose answer was lost: failed, with a plain retry. */
export const FailedReadRetried: Story = {
  render: ({ speed }) => (
    <Proposal speed={speed} toolName="search_flights" descriptor={descriptors.lowRead} arguments={{ from: 'LHR', to: 'SFO' }} roomOptions={{ faults: [{ kind: 'lose-response' }] }} />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await untilStatus(dialog, 'failed');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await untilClosed(canvasElement);
    await expect(outcomesText(canvasElement)).toMatch(/^failed: .*\ndone: /);
  },
};

/** The application's check of a lost transfer: looks in the room's record once `wait` is over. */
const ledgerCheck =
  (wait: () => Promise<void>) =>
  (room: ScriptedRoom): CheckOutcome =>
  async () => {
    await wait();
    return room.effects.length > 0 ? { status: 'done', output: 'found in the ledger' } : { status: 'not-done', reason: 'No such transfer in the ledger: it did not happen.' };
  };

/**
 * The answer to a write was lost: the outcome is unknown. No retry by itself; the application's
 * check comes first (here it finds that the request never reached the room), and only then a
 * deliberate retry, with a new confirmation.
 */
export const UncertainWithCheckThenRetry: Story = {
  render: ({ speed }) => (
    <Proposal
      speed={speed}
      toolName="transfer"
      descriptor={descriptors.highWrite}
      arguments={transferArgs}
      roomOptions={{ faults: [{ kind: 'lose-request' }] }}
      check={ledgerCheck(async () => {})}
    />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await untilStatus(dialog, 'uncertain');
    await expect(within(dialog).getByRole('alert')).toHaveTextContent('The outcome is unknown');
    await expect(within(dialog).queryByRole('button', { name: /Try again/ })).toBeNull();
    const check = within(dialog).getByRole('button', { name: 'Check whether it happened' });
    await waitFor(() => expect(check).toHaveFocus());
    await userEvent.click(check);
    await untilStatus(dialog, 'failed');
    await expect(within(dialog).getByRole('alert')).toHaveTextContent('did not happen');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again with a new confirmation' }));
    await untilClosed(canvasElement);
    await expect(outcomesText(canvasElement)).toMatch(/^uncertain: .*\nfailed: .*\ndone: /);
    await expect(page(canvasElement).getByTestId('room')).toHaveTextContent('1 effects');
  },
};

/** An unknown outcome when the application has no check: the dialog says so, and offers only a deliberate retry. */
export const UncertainWithoutCheckThenRetry: Story = {
  render: ({ speed }) => (
    <Proposal speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} roomOptions={{ faults: [{ kind: 'lose-request' }] }} />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await untilStatus(dialog, 'uncertain');
    await expect(within(dialog).getByRole('alert')).toHaveTextContent('Find out before you try again');
    await expect(within(dialog).queryByRole('button', { name: 'Check whether it happened' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again with a new confirmation' }));
    await untilClosed(canvasElement);
    await expect(outcomesText(canvasElement)).toMatch(/^uncertain: .*\ndone: /);
  },
};

/**
 * The application's check is running after an unknown outcome ("Checking whether it took
 * effect…"). It does not answer while the story is tested, so the dialog stays here when the play
 * function ends. Meanwhile nothing can be pressed: not the check again, not a retry, not Close,
 * and Escape does nothing.
 */
export const Checking: Story = {
  render: ({ speed }) => (
    <Proposal
      speed={speed}
      toolName="transfer"
      descriptor={descriptors.highWrite}
      arguments={transferArgs}
      roomOptions={{ faults: [{ kind: 'lose-request' }] }}
      check={ledgerCheck(() => held(speed))}
    />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const inside = within(dialog);
    await userEvent.click(inside.getByRole('button', { name: 'Approve' }));
    await untilStatus(dialog, 'uncertain');
    const check = inside.getByRole('button', { name: 'Check whether it happened' });
    await waitFor(() => expect(check).toHaveFocus());
    await userEvent.click(check);
    await untilStatus(dialog, 'checking');
    await expect(inside.getByRole('status')).toHaveTextContent('Checking whether it took effect…');
    await expect(check).toHaveAttribute('aria-disabled', 'true');
    await expect(inside.getByRole('button', { name: 'Close' })).toHaveAttribute('aria-disabled', 'true');
    await expect(inside.queryByRole('button', { name: /Try again/ })).toBeNull();
    await expect(inside.getByRole('alert')).toBeEmptyDOMElement();
    await userEvent.click(check);
    await userEvent.keyboard('{Escape}');
    await expect(dialog).toHaveAttribute('data-status', 'checking');
    // Only the unknown outcome so far; the check has not answered.
    await expect(outcomesText(canvasElement)).toMatch(/^uncertain: [^\n]*$/);
  },
};

/* ------------------------------------------------------------------- queue */

/** Three requests in the provider's queue: shown one at a time, with how many wait. */
export const QueueOfThree: Story = {
  render: ({ speed }) => (
    <QueuePage
      speed={speed}
      requests={[
        { toolName: 'send_email', arguments: { to: 'ada@example.test', subject: 'Trip' }, descriptor: { ...descriptors.mediumWrite, title: 'Send an email' } },
        { toolName: 'transfer', arguments: transferArgs, descriptor: descriptors.highWrite },
        { toolName: 'search_flights', arguments: { from: 'LHR', to: 'SFO' }, descriptor: descriptors.lowRead },
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    await userEvent.click(body.getByRole('button', { name: 'Queue 3 requests' }));
    const first = await body.findByRole('dialog');
    await untilStatus(first, 'reviewing');
    await expect(within(first).getByRole('heading', { name: 'Send an email' })).toBeVisible();
    await expect(within(first).getByText('2 more waiting')).toBeVisible();
    await userEvent.click(within(first).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(within(body.getByRole('dialog')).getByRole('heading', { name: 'Transfer money' })).toBeVisible());
    await expect(within(body.getByRole('dialog')).getByText('1 more waiting')).toBeVisible();
    await untilStatus(body.getByRole('dialog'), 'reviewing');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(within(body.getByRole('dialog')).getByRole('heading', { name: 'Search flights' })).toBeVisible());
    await expect(within(body.getByRole('dialog')).queryByText(/more waiting/)).toBeNull();
  },
};

/* ------------------------------------------------------------ confirm steps */

/**
 * `confirmStep="type-name"`: a high-risk approval waits until the tool's name is typed. The
 * disabled Approve says why (the instruction describes it), and its enabling is said politely.
 */
export const ConfirmStepTypedName: Story = {
  render: ({ speed }) => <Proposal speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} confirmStep="type-name" />,
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const field = within(dialog).getByLabelText('Type transfer to enable Approve');
    await waitFor(() => expect(field).toHaveFocus());
    const approve = within(dialog).getByRole('button', { name: 'Approve' });
    await expect(approve).toHaveAttribute('aria-disabled', 'true');
    await expect(approve).toHaveAccessibleDescription('Type transfer to enable Approve');
    const live = dialog.querySelector('.toolgate-confirm-field [aria-live="polite"]') as HTMLElement;
    await expect(live).toHaveTextContent('');
    await userEvent.click(approve);
    await expect(dialog).toHaveAttribute('data-status', 'reviewing');
    await userEvent.type(field, 'transfer');
    await expect(approve).not.toHaveAttribute('aria-disabled');
    await expect(live).toHaveTextContent('Approve is now enabled.');
    await userEvent.keyboard('{Enter}');
    await untilClosed(canvasElement);
    await expect(outcomesText(canvasElement)).toMatch(/^done: /);
  },
};

/** `confirmStep="hold"`: press and hold Approve, or hold Enter or Space on it. A click alone does nothing. */
export const ConfirmStepHold: Story = {
  render: ({ speed }) => <Proposal speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} confirmStep="hold" holdMs={600} />,
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const approve = within(dialog).getByRole('button', { name: 'Approve' });
    await expect(approve).toHaveAccessibleDescription(/hold Enter or Space/);
    await userEvent.click(approve);
    await expect(dialog).toHaveAttribute('data-status', 'reviewing');
    approve.focus();
    await userEvent.keyboard('{Enter>}');
    await expect(within(dialog).getByRole('status')).toHaveTextContent('Keep holding');
    await waitFor(() => expect(dialog).not.toHaveAttribute('data-status', 'reviewing'));
    await userEvent.keyboard('{/Enter}');
    await untilClosed(canvasElement);
    await expect(outcomesText(canvasElement)).toMatch(/^done: /);
  },
};

/* -------------------------------------------------------- hostile arguments */

const HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">click</a>';

/** Markup and script in the arguments (values and keys) are shown as text, and nothing of it runs. */
export const HtmlInArguments: Story = {
  render: ({ speed }) => (
    <Proposal speed={speed} toolName="render_page" descriptor={descriptors.mediumWrite} arguments={{ html: HOSTILE, [HOSTILE]: [HOSTILE] }} />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await expect(within(dialog).getAllByText(HOSTILE)).toHaveLength(3);
    await expect(dialog.querySelector('img, script, a')).toBeNull();
  },
};

/** An array of 10,000 elements starts collapsed, says how many it holds, and opens page by page. */
export const HugeArrayCollapsed: Story = {
  render: ({ speed }) => (
    <Proposal speed={speed} toolName="import_rows" descriptor={descriptors.mediumWrite} arguments={{ table: 'events', rows: Array.from({ length: 10_000 }, (_, i) => i * 7) }} />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const toggle = within(dialog).getByRole('button', { name: 'rows: 10,000 items' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(within(dialog).getByRole('button', { name: 'Show 100 more (9,900 left)' })).toBeVisible();
  },
};

/* ---------------------------------------------------------------- keyboard */

/** The whole flow by keyboard alone: Tab to the page's button, Enter, Tab from Deny to Approve, Enter. */
export const ApproveByKeyboard: Story = {
  render: ({ speed }) => <Proposal speed={speed} toolName="write_file" descriptor={descriptors.mediumWrite} arguments={{ path: 'notes/plan.md', content: 'Ship it.' }} />,
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    const opener = body.getByRole('button', { name: 'Propose write_file' });
    opener.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await body.findByRole('dialog');
    await untilStatus(dialog, 'reviewing');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus());
    await userEvent.tab();
    await expect(within(dialog).getByRole('button', { name: 'Approve' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await untilClosed(canvasElement);
    await waitFor(() => expect(opener).toHaveFocus());
    await expect(outcomesText(canvasElement)).toMatch(/^done: /);
  },
};

/** Escape denies while reviewing; focus returns to the button that opened the dialog. */
export const DenyWithEscape: Story = {
  render: ({ speed }) => <Proposal speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} />,
  play: async ({ canvasElement }) => {
    await openDialog(canvasElement);
    await userEvent.keyboard('{Escape}');
    await untilClosed(canvasElement);
    await expect(outcomesText(canvasElement)).toBe('denied');
    await expect(page(canvasElement).getByRole('button', { name: 'Propose transfer' })).toHaveFocus();
  },
};

/* ------------------------------------------------------------ without a room */

/** The path without a room (an app tool, the server's gate): Approve calls `onApprove` with the frozen snapshot. */
export const WithoutARoom: Story = {
  render: ({ speed }) => (
    <Proposal
      speed={speed}
      noRoom
      toolName="insert_text"
      descriptor={{ effect: 'write', risk: 'low', requiresConfirmation: true, title: 'Insert text in the document' }}
      arguments={{ blockId: 'b7', text: 'Hello from the agent' }}
      onApprove={(args) => ({ inserted: args })}
    />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await untilClosed(canvasElement);
    await expect(outcomesText(canvasElement)).toMatch(/^done: \{"inserted":\{"blockId":"b7"/);
  },
};

/**
 * "Respond instead" (docs/protocol.md "Decisions"): a person answers in the tool's place. Their
 * JSON is the call's result, marked as answered by a person, and `onApprove` never runs. Driven
 * by keyboard: the field takes focus when opened.
 */
export const RespondInstead: Story = {
  render: ({ speed }) => (
    <Proposal
      speed={speed}
      noRoom
      toolName="lookup_customer"
      descriptor={{ effect: 'read', risk: 'low', requiresConfirmation: true, title: 'Look up a customer' }}
      arguments={{ email: 'ada@example.test' }}
      onApprove={() => ({ looked: 'up' })}
    />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const open = await waitFor(() => within(dialog).getByRole('button', { name: 'Respond instead' }));
    open.focus();
    await userEvent.keyboard('{Enter}');
    const field = within(dialog).getByRole('textbox', { name: 'Your answer (JSON)' });
    await waitFor(() => expect(field).toHaveFocus());
    await userEvent.type(field, '{{"name": "Ada", "plan": "pro"}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send answer' }));
    await untilClosed(canvasElement);
    await expect(outcomesText(canvasElement)).toBe('responded: {"name":"Ada","plan":"pro"}');
  },
};

/**
 * "Respond instead" for a tool that declares its output schema: the answer is a form of its
 * fields (the editor's own), checked against the schema before it is sent, and nothing runs.
 */
export const RespondWithForm: Story = {
  render: ({ speed }) => (
    <QueuePage
      speed={speed}
      requests={[
        {
          toolName: 'lookup_order',
          arguments: { orderId: 'ord_1042' },
          descriptor: { effect: 'read', risk: 'low', requiresConfirmation: true, title: 'Look up an order' },
          outputSchema: {
            type: 'object',
            properties: {
              status: { type: 'string', enum: ['shipped', 'held', 'returned'], description: 'Where the order is now.' },
              days: { type: 'integer', minimum: 0, description: 'Days until it arrives.' },
              note: { type: 'string' },
            },
            required: ['status', 'days'],
          },
          onApprove: () => ({ looked: 'up' }),
        },
      ]}
    />
  ),
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    await userEvent.click(body.getByRole('button', { name: 'Queue 1 requests' }));
    const dialog = await waitFor(() => body.getByRole('dialog'));
    const open = await waitFor(() => within(dialog).getByRole('button', { name: 'Respond instead' }));
    open.focus();
    await userEvent.keyboard('{Enter}');
    const form = await waitFor(() => within(dialog).getByRole('form', { name: 'Respond instead' }));
    const status = within(form).getByRole('combobox', { name: /^status/ });
    await waitFor(() => expect(status).toHaveFocus());
    await userEvent.selectOptions(status, 'shipped');
    await userEvent.type(within(form).getByRole('textbox', { name: /^days/ }), '2');
    await userEvent.click(within(form).getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(body.getByTestId('outcomes')).toHaveTextContent('lookup_order: responded: {"status":"shipped","days":2}'));
  },
};

/** "Withdraw request": the request is taken back (cancelled), which is not a rejection; nothing runs. */
export const WithdrawRequest: Story = {
  render: ({ speed }) => (
    <Proposal
      speed={speed}
      noRoom
      toolName="insert_text"
      descriptor={{ effect: 'write', risk: 'low', requiresConfirmation: true, title: 'Insert text in the document' }}
      arguments={{ blockId: 'b7', text: 'Hello from the agent' }}
      onApprove={(args) => ({ inserted: args })}
    />
  ),
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    const withdraw = await waitFor(() => within(dialog).getByRole('button', { name: 'Withdraw request' }));
    withdraw.focus();
    await userEvent.keyboard('{Enter}');
    await untilClosed(canvasElement);
    await expect(outcomesText(canvasElement)).toBe('cancelled');
  },
};

/* -------------------------------------------------------------- dark theme */

/** The high-risk review in the dark theme (axe checks its contrast too). */
export const ReviewingHighRiskWriteDark: Story = {
  ...ReviewingHighRiskWrite,
  globals: { theme: 'dark' },
};

/** An unknown outcome in the dark theme: the amber alert, the check and the disabled retry state. */
export const UncertainDark: Story = {
  render: UncertainWithCheckThenRetry.render,
  globals: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const dialog = await openDialog(canvasElement);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await untilStatus(dialog, 'uncertain');
    await expect(within(dialog).getByRole('button', { name: 'Check whether it happened' })).toBeVisible();
    await expect(canvasElement.ownerDocument.documentElement).toHaveAttribute('data-theme', 'dark');
  },
};

/* ------------------------------------------------------- every state at once */

/** One cell of the matrix: a real dialog with its own scripted room, shown in place (`modal={false}`, portalled into the cell). */
function InlineDialog({ label, speed, roomOptions, wrapRoom, check, makeController, noRoom: _noRoom, ...dialog }: ProposalProps & { label: string }) {
  const [scripted] = useState(() => createScriptedRoom({ delayMs: ROOM_DELAY_MS, ...roomOptions, speed: storySpeed(speed) }));
  const [room] = useState(() => (wrapRoom ? wrapRoom(scripted, speed) : scripted));
  const [controller] = useState(() => makeController?.());
  const [cell, setCell] = useState<HTMLElement | null>(null);
  return (
    <div role="group" aria-label={label} style={{ display: 'grid', gap: '0.25rem', alignContent: 'start' }}>
      <span style={{ fontSize: '0.75rem', color: 'var(--toolgate-muted)' }}>{label}</span>
      <div ref={setCell} />
      {cell && (
        <ConfirmToolDialog
          {...dialog}
          room={room}
          {...(check ? { checkOutcome: check(scripted) } : {})}
          {...(controller ? { controller } : {})}
          // Kept open through done and denied (a page that closes on onOpenChange(false) would hide them).
          open
          onOpenChange={() => {}}
          modal={false}
          container={cell}
          className="confirm-matrix-dialog"
        />
      )}
    </div>
  );
}

/** What the matrix shows, and how its play function gets each cell there. `held` for ever: a gallery. */
const cells: { label: string; status: ConfirmationStatus; text: string; steps: ('approve' | 'deny' | 'check')[]; props: (speed: number) => Partial<ProposalProps> }[] = [
  { label: 'Preparing', status: 'idle', text: 'Preparing…', steps: [], props: (speed) => ({ makeController: () => createConfirmationController({ crypto: heldCrypto(speed, Infinity) }) }) },
  { label: 'Reviewing', status: 'reviewing', text: 'Waiting for your decision', steps: [], props: () => ({}) },
  { label: 'Confirming', status: 'confirming', text: 'Getting a confirmation…', steps: ['approve'], props: () => ({ wrapRoom: (room, s) => holdingRoom(room, 'confirmTool', s, Infinity) }) },
  { label: 'Invoking', status: 'invoking', text: 'cannot be cancelled', steps: ['approve'], props: () => ({ wrapRoom: (room, s) => holdingRoom(room, 'invokeTool', s, Infinity) }) },
  { label: 'Uncertain', status: 'uncertain', text: 'Outcome unknown', steps: ['approve'], props: () => ({ roomOptions: { faults: [{ kind: 'lose-request' }] }, check: ledgerCheck(async () => {}) }) },
  { label: 'Checking', status: 'checking', text: 'Checking whether it took effect…', steps: ['approve', 'check'], props: (speed) => ({ roomOptions: { faults: [{ kind: 'lose-request' }] }, check: ledgerCheck(() => held(speed, Infinity)) }) },
  { label: 'Done', status: 'done', text: 'Done', steps: ['approve'], props: () => ({}) },
  { label: 'Denied', status: 'denied', text: 'Denied', steps: ['deny'], props: () => ({}) },
  { label: 'Refused', status: 'refused', text: 'Refused', steps: ['approve'], props: () => ({ roomOptions: { grants: ['tool:invoke:*'] } }) },
  { label: 'Failed', status: 'failed', text: 'Failed', steps: ['approve'], props: () => ({ roomOptions: { faults: [{ kind: 'fail-invoke', reason: 'insufficient funds' }] } }) },
];

// The dialog is fixed in the middle of the screen; in a cell it sits in the flow instead.
const inlineCss = '.confirm-matrix-dialog.toolgate-confirm { position: relative; top: auto; left: auto; transform: none; width: auto; max-height: none; z-index: auto; box-shadow: none; }';

/**
 * Every state the dialog can show, side by side: the real `ConfirmToolDialog`, each with its own
 * scripted room, rendered with `modal={false}` into its cell (several modal dialogs cannot be open
 * at once: each would make the others inert). The play function drives each cell by its buttons,
 * as in the stories above; holds never end here. Not shown: `withdrawn` (the requester took the
 * request back, so its dialog closes) and a request waiting behind another in a shared queue.
 */
export const MatrixOfStates: Story = {
  render: ({ speed }) => (
    <Frame wide>
      <style>{inlineCss}</style>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(24rem, 1fr))', gap: '1rem', alignItems: 'start' }}>
        {cells.map((cell) => (
          <InlineDialog key={cell.label} label={cell.label} speed={speed} toolName="transfer" descriptor={descriptors.highWrite} arguments={transferArgs} {...cell.props(speed)} />
        ))}
      </div>
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    const dialogOf = (label: string) => within(within(canvasElement).getByRole('group', { name: label })).getByRole('dialog');
    for (const cell of cells) {
      const dialog = await waitFor(() => dialogOf(cell.label));
      await untilStatus(dialog, cell.status === 'idle' ? 'idle' : 'reviewing');
      for (const step of cell.steps) {
        if (step === 'check') await untilStatus(dialog, 'uncertain');
        const name = step === 'approve' ? 'Approve' : step === 'deny' ? 'Deny' : 'Check whether it happened';
        await userEvent.click(within(dialog).getByRole('button', { name }));
      }
    }
    for (const cell of cells) {
      const dialog = dialogOf(cell.label);
      await untilStatus(dialog, cell.status);
      await expect(within(dialog).getByRole('status')).toHaveTextContent(cell.text);
    }
    await expect(Array.from(canvasElement.querySelectorAll<HTMLElement>('.toolgate-confirm'), (d) => d.dataset['status'])).toEqual(cells.map((cell) => cell.status));
    await expect(within(dialogOf('Done')).getByRole('region', { name: 'Result' })).toBeVisible();
    await expect(within(dialogOf('Refused')).getByRole('alert')).toHaveTextContent('missing tool:confirm:transfer');
    await expect(within(dialogOf('Failed')).getByRole('alert')).toHaveTextContent('insufficient funds');
    await expect(within(dialogOf('Checking')).getByRole('button', { name: 'Check whether it happened' })).toHaveAttribute('aria-disabled', 'true');
  },
};
