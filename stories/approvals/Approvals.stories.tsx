import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ConfirmBatch, ConfirmToolDialog, ToolGrantList, type ConfirmationController } from 'toolgate';
import type { ManualClock } from 'toolgate/testing';
import { ApprovalsPage, descriptors, outcomesText, page, press, proposeAndReview, ranText, secondsShown, transferEditing, untilStatus, waitOnPage, type Proposal } from './support';

interface Args {
  /** How fast the page's clock runs when watched: 1 is real time (still under test; the play function moves it). */
  speed: number;
}

/**
 * Edits, grants, batches and expiry: edit the arguments then approve them, standing grants with a
 * list to revoke them, several requests decided at once, and requests that expire. Each story runs
 * a real confirmation controller; the page lists what ran (what `onApprove` heard) and every
 * outcome. The play functions drive each by keyboard and check that end state.
 */
const meta = {
  title: 'Confirm/Edits, grants, batches and expiry',
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const transfer: Proposal = {
  toolName: 'transfer',
  arguments: { to: 'DE89 3704 0044 0532 0130 00', amount: 500, currency: 'EUR', instant: false, note: { reference: 'Invoice 2025-014' } },
  descriptor: descriptors.payment,
  editable: transferEditing,
};

const Dialog = ({ speed, proposals }: { speed: number; proposals: readonly Proposal[] }) => (
  <ApprovalsPage speed={speed} proposals={proposals}>
    {(controller, clock) => <ConfirmToolDialog controller={controller} clock={clock} />}
  </ApprovalsPage>
);

/* ------------------------------------------------------------ edit, then approve */

/** Review the transfer, open its editor, and find the Amount field (the start of every edit story below). */
async function editAmount(canvasElement: HTMLElement) {
  const dialog = await proposeAndReview(canvasElement);
  const inside = within(dialog);
  await press(inside.getByRole('button', { name: 'Edit arguments' }));
  const amount = (await inside.findByRole('textbox', { name: 'Amount' })) as HTMLInputElement;
  // The editor gives its first field focus once it has mounted: wait for that, or a field focused
  // here first would lose its focus (and the keys typed next) to it on a loaded machine.
  const form = inside.getByRole('form', { name: 'Edit the arguments' });
  await waitFor(() => expect(form.contains(document.activeElement)).toBe(true));
  return { dialog, inside, amount };
}

/**
 * Edit arguments opens a form of the tool's schema: the first field has focus, required fields
 * carry a mark explained above the form, and the one row of actions is Cancel editing and Save
 * (the primary button): nothing can be approved meanwhile.
 */
export const Editing: Story = {
  render: ({ speed }) => <Dialog speed={speed} proposals={[transfer]} />,
  play: async ({ canvasElement }) => {
    const dialog = await proposeAndReview(canvasElement);
    const inside = within(dialog);
    await press(inside.getByRole('button', { name: 'Edit arguments' }));
    await untilStatus(dialog, 'editing');
    const form = inside.getByRole('form', { name: 'Edit the arguments' });
    await waitFor(() => expect(within(form).getByRole('textbox', { name: 'Recipient' })).toHaveFocus());
    await userEvent.tab();
    await expect(within(form).getByRole('textbox', { name: 'Amount' })).toHaveFocus();
    await userEvent.keyboard('{End}{Backspace}{Backspace}');
    await expect(within(form).getByRole('textbox', { name: 'Amount' })).toHaveValue('5');
    await expect(within(form).getByRole('combobox', { name: 'Currency' })).toHaveDisplayValue('EUR');
    await expect(within(form).getByRole('checkbox', { name: 'Instant transfer' })).not.toBeChecked();
    await expect(within(within(form).getByRole('group', { name: 'Note' })).getByRole('textbox', { name: 'Reference' })).toHaveValue('Invoice 2025-014');
    // Required fields are marked on screen, and the mark is explained once.
    await expect(within(form).getByText('* Required field')).toBeVisible();
    const recipient = within(form).getByRole('textbox', { name: 'Recipient' });
    await expect(form.querySelector(`label[for="${recipient.id}"]`)).toHaveTextContent('Recipient *');
    await expect(recipient).toBeRequired();
    // One row of actions: Cancel editing and Save, Save drawn as the primary button.
    await expect(inside.getAllByRole('button').map((button) => button.textContent)).toEqual(['Cancel editing', 'Save']);
    const save = inside.getByRole('button', { name: 'Save' });
    const cancel = inside.getByRole('button', { name: 'Cancel editing' });
    await expect(getComputedStyle(save).backgroundColor).not.toBe(getComputedStyle(cancel).backgroundColor);
    await expect(getComputedStyle(save).fontWeight).toBe('600');
    await expect(ranText(canvasElement)).toBe('Nothing ran');
  },
};

/** An invalid edit stays in the editor: the error beside its field, read before the hint as an error, focus on it, nothing approved. */
export const InvalidEdit: Story = {
  render: ({ speed }) => <Dialog speed={speed} proposals={[transfer]} />,
  play: async ({ canvasElement }) => {
    const { dialog, amount } = await editAmount(canvasElement);
    amount.focus();
    await userEvent.keyboard('0');
    await expect(amount).toHaveValue('5000');
    // Enter in a field saves.
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    await expect(amount).toHaveAccessibleDescription('Error: At most 1000 without a second signature In euros, at most 1000');
    await expect(amount).toHaveAttribute('aria-errormessage', amount.getAttribute('aria-describedby')?.split(' ')[0]);
    await expect(amount).toHaveFocus();
    await expect(dialog).toHaveAttribute('data-status', 'editing');
    await expect(ranText(canvasElement)).toBe('Nothing ran');
  },
};

/** An edit past a bound of the schema (`exclusiveMinimum: 0`) stays in the editor too: the page checks it before any server does. */
export const EditPastSchemaBound: Story = {
  render: ({ speed }) => <Dialog speed={speed} proposals={[transfer]} />,
  play: async ({ canvasElement }) => {
    const { dialog, amount } = await editAmount(canvasElement);
    await userEvent.clear(amount);
    await userEvent.type(amount, '0{Enter}');
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    await expect(amount).toHaveAccessibleDescription('Error: must be more than 0, got 0 In euros, at most 1000');
    await expect(dialog).toHaveAttribute('data-status', 'editing');
    await expect(ranText(canvasElement)).toBe('Nothing ran');
  },
};

/** A saved edit is marked Edited, lists its changes from the model's arguments, and Approve runs exactly it. */
export const EditedWithDiff: Story = {
  render: ({ speed }) => <Dialog speed={speed} proposals={[transfer]} />,
  play: async ({ canvasElement }) => {
    const { dialog, inside, amount } = await editAmount(canvasElement);
    amount.focus();
    await userEvent.keyboard('{Backspace}{Backspace}{Backspace}120');
    const instant = inside.getByRole('checkbox', { name: 'Instant transfer' });
    instant.focus();
    await userEvent.keyboard(' ');
    await press(inside.getByRole('button', { name: 'Save' }));
    await untilStatus(dialog, 'reviewing');
    await expect(inside.getByText('Edited')).toBeVisible();
    const changes = inside.getByRole('region', { name: 'Changes from the proposed arguments' });
    await expect(within(changes).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['amount: 500 → 120', 'instant: false → true']);
    await waitFor(() => expect(inside.getByRole('button', { name: 'Edit arguments' })).toHaveFocus());
    await press(inside.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(outcomesText(canvasElement)).toBe('transfer: done'));
    await expect(ranText(canvasElement)).toBe(
      'transfer {"to":"DE89 3704 0044 0532 0130 00","amount":120,"currency":"EUR","instant":true,"note":{"reference":"Invoice 2025-014"}} (edited)',
    );
  },
};

/* ------------------------------------------------------------ a short window */

/**
 * A phone on its side (320 × 256): the dialog scrolls, once: the arguments box does not scroll
 * inside it, and the title stays in view while the rest scrolls under it.
 */
export const ShortWindow: Story = {
  render: ({ speed }) => <Dialog speed={speed} proposals={[transfer]} />,
  parameters: { viewport: { options: { shortWindow: { name: 'Phone on its side (320 × 256)', styles: { width: '320px', height: '256px' }, type: 'mobile' } } } },
  globals: { viewport: { value: 'shortWindow', isRotated: false } },
  play: async ({ canvasElement }) => {
    const dialog = await proposeAndReview(canvasElement);
    const view = canvasElement.ownerDocument.defaultView as Window;
    await waitFor(() => expect([view.innerWidth, view.innerHeight]).toEqual([320, 256]));
    // One scroll: the dialog's. Nothing inside it scrolls on its own.
    await waitFor(() => expect(dialog.scrollHeight).toBeGreaterThan(dialog.clientHeight));
    const scrollers = [...dialog.querySelectorAll<HTMLElement>('*')].filter((element) => {
      const style = getComputedStyle(element);
      return /(auto|scroll)/.test(style.overflowY) && element.scrollHeight > element.clientHeight + 1;
    });
    await expect(scrollers.map((element) => element.className)).toEqual([]);
    // The whole dialog is on screen, and its title stays in view at either end of the scroll.
    const box = dialog.getBoundingClientRect();
    await expect(box.top).toBeGreaterThanOrEqual(0);
    await expect(box.bottom).toBeLessThanOrEqual(view.innerHeight);
    const title = within(dialog).getByRole('heading', { name: 'Send a payment' });
    const inView = () => {
      const rect = title.getBoundingClientRect();
      return rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1;
    };
    await expect(inView()).toBe(true);
    dialog.scrollTop = dialog.scrollHeight;
    await waitFor(() => expect(dialog.scrollTop).toBeGreaterThan(0));
    await expect(inView()).toBe(true);
    // And the buttons at the end are reached by that same scroll.
    const deny = within(dialog).getByRole('button', { name: 'Deny' });
    await expect(deny.getBoundingClientRect().bottom).toBeLessThanOrEqual(box.bottom + 1);
  },
};

/**
 * A phone held upright (360 × 640): the reason for the agent is offered, and with it Deny and
 * Approve are still on screen without scrolling (the arguments box gives up the room); a reason
 * typed there goes with Deny.
 */
export const PhoneReason: Story = {
  render: ({ speed }) => <Dialog speed={speed} proposals={[transfer]} />,
  parameters: { viewport: { options: { phone: { name: 'Phone (360 × 640)', styles: { width: '360px', height: '640px' }, type: 'mobile' } } } },
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: async ({ canvasElement }) => {
    const dialog = await proposeAndReview(canvasElement);
    const view = canvasElement.ownerDocument.defaultView as Window;
    await waitFor(() => expect([view.innerWidth, view.innerHeight]).toEqual([360, 640]));
    const field = within(dialog).getByRole('textbox', { name: 'Reason for the agent (optional)' });
    const deny = within(dialog).getByRole('button', { name: 'Deny' });
    const approve = within(dialog).getByRole('button', { name: 'Approve' });
    for (const element of [field, deny, approve]) {
      const rect = element.getBoundingClientRect();
      await expect(rect.top).toBeGreaterThanOrEqual(0);
      await expect(rect.bottom).toBeLessThanOrEqual(view.innerHeight);
    }
    await expect(dialog.scrollTop).toBe(0);
    await userEvent.type(field, 'Not this month');
    await press(deny);
    await waitFor(() => expect(outcomesText(canvasElement)).toContain('denied: Not this month'));
  },
};

/* ------------------------------------------------------------ standing grants */

const searches: Proposal[] = ['pricing', 'limits', 'refunds'].map((q) => ({ toolName: 'search_docs', arguments: { q }, descriptor: descriptors.search }));

/**
 * "Allow for this session" approves the request shown and answers the others of its tool, each
 * with its own snapshot; the grant is listed with Revoke, and revoking asks again at once. The
 * list then shows what was revoked, and focus rests on that line, with its ring.
 */
export const GrantList: Story = {
  render: ({ speed }) => (
    <ApprovalsPage speed={speed} proposals={searches}>
      {(controller) => (
        <>
          <ToolGrantList />
          <ConfirmToolDialog controller={controller} />
        </>
      )}
    </ApprovalsPage>
  ),
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    const dialog = await proposeAndReview(canvasElement);
    await press(within(dialog).getByRole('button', { name: 'Allow for this session' }));
    await waitFor(() => expect(ranText(canvasElement).split('\n')).toHaveLength(3));
    await expect(ranText(canvasElement)).toBe('search_docs {"q":"pricing"}\nsearch_docs {"q":"limits"} (by a grant)\nsearch_docs {"q":"refunds"} (by a grant)');
    const grants = body.getByRole('region', { name: 'Standing grants' });
    await waitFor(() => expect(within(grants).getByText('search_docs: allowed for this session')).toBeVisible());
    // Keyboard: the page's Tab order reaches Revoke.
    const revoke = within(grants).getByRole('button', { name: 'Revoke: search_docs allowed for this session' });
    while (document.activeElement !== revoke) await userEvent.tab();
    await userEvent.keyboard('{Enter}');
    await expect(within(grants).getByText('No standing grants: every request is asked.')).toBeVisible();
    // The confirmation is seen, not only heard; focus rests on it, with its ring.
    const said = within(grants).getByRole('status');
    await expect(said).toHaveTextContent('Revoked: search_docs is asked again.');
    await expect(said).toBeVisible();
    await expect(said.getBoundingClientRect().width).toBeGreaterThan(1);
    await expect(said).toHaveFocus();
    await expect(getComputedStyle(said).outlineStyle).toBe('solid');
    // Asked again at once.
    const again = await proposeAndReview(canvasElement);
    await expect(within(again).getByRole('heading', { name: 'Search the docs' })).toBeVisible();
    await expect(ranText(canvasElement).split('\n')).toHaveLength(3);
  },
};

/**
 * A grant given while a request is shown (from a settings panel beside a non-modal dialog)
 * answers it: the dialog names the grant while the call runs.
 */
export const AnsweredByGrant: Story = {
  render: ({ speed }) => (
    <ApprovalsPage
      speed={speed}
      proposals={[{ ...searches[0]!, hold: true }]}
      extra={(controller) => (
        <button type="button" className="toolgate-button" onClick={() => controller.grants.allow('search_docs')}>
          Allow search_docs for this session
        </button>
      )}
    >
      {(controller) => (
        <>
          <ToolGrantList />
          <ConfirmToolDialog controller={controller} modal={false} />
        </>
      )}
    </ApprovalsPage>
  ),
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    const dialog = await proposeAndReview(canvasElement);
    await press(body.getByRole('button', { name: 'Allow search_docs for this session' }));
    await untilStatus(dialog, 'invoking');
    // The grant answers as the rule it is kept as: the dialog names it by its label.
    const note = within(dialog).getByText('Allowed by search_docs for this session');
    await expect(note).toBeVisible();
    await expect(note).toHaveAttribute('data-grant', expect.stringMatching(/^grant-/));
    await expect(ranText(canvasElement)).toBe('search_docs {"q":"pricing"} (by a grant)');
  },
};

/** The docs search tool as the first request declares it, and as a later one does: another description and schema. */
const docsBefore = {
  name: 'search_docs',
  description: 'Searches the product documentation',
  parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  descriptor: descriptors.search,
};
const docsAfter = {
  ...docsBefore,
  description: 'Searches the documentation and emails the results to a list',
  parameters: { type: 'object', properties: { q: { type: 'string' }, to: { type: 'string' } }, required: ['q', 'to'] },
};

/**
 * A standing grant is bound to its tool's definition (name, description, parameters, descriptor):
 * once the tool's definition changes, the grant stops answering, the request comes to the dialog,
 * and the dialog says which parts changed.
 */
export const DefinitionChanged: Story = {
  render: ({ speed }) => (
    <ApprovalsPage
      speed={speed}
      proposals={[
        { ...searches[0]!, definition: docsBefore },
        { toolName: 'search_docs', arguments: { q: 'refunds', to: 'all@example.com' }, descriptor: descriptors.search, definition: docsAfter },
      ]}
    >
      {(controller) => (
        <>
          <ToolGrantList />
          <ConfirmToolDialog controller={controller} />
        </>
      )}
    </ApprovalsPage>
  ),
  play: async ({ canvasElement }) => {
    const dialog = await proposeAndReview(canvasElement);
    await press(within(dialog).getByRole('button', { name: 'Allow for this session' }));
    // The second request is not answered by the grant: it is shown, with what changed.
    const note = await within(dialog).findByText("The tool's definition changed since you allowed it: description, parameters");
    await expect(note).toBeVisible();
    await expect(note).toHaveAttribute('data-parts', 'description parameters');
    await untilStatus(dialog, 'reviewing');
    await expect(within(dialog).getByRole('button', { name: 'Approve' })).toBeEnabled();
    await expect(ranText(canvasElement)).toBe('search_docs {"q":"pricing"}');
  },
};

/* ------------------------------------------------------------ several at once */

const turn: Proposal[] = [
  { toolName: 'write_file', arguments: { path: 'notes/a.md', text: 'Alpha' }, descriptor: descriptors.write, turnId: 't1' },
  { toolName: 'write_file', arguments: { path: 'notes/b.md', text: 'Beta' }, descriptor: descriptors.write, turnId: 't1' },
  { toolName: 'search_docs', arguments: { q: 'style guide' }, descriptor: descriptors.search, turnId: 't1' },
];

/** The three requests of a turn in one list, each with its arguments and fingerprint; "Approve all 3" runs exactly them. */
export const Batch: Story = {
  render: ({ speed }) => (
    <ApprovalsPage speed={speed} proposals={turn}>
      {(controller, clock) => <ConfirmBatch controller={controller} turnId="t1" clock={clock} />}
    </ApprovalsPage>
  ),
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    await press(body.getByRole('button', { name: 'Propose 3 requests' }));
    const list = body.getByRole('region', { name: '3 requests waiting' });
    await waitFor(() => expect(list.querySelectorAll('.toolgate-batch-list > li')).toHaveLength(3));
    for (const item of list.querySelectorAll('.toolgate-batch-list > li')) await expect(item.querySelector('[data-fingerprint]')?.getAttribute('data-fingerprint')).toMatch(/^[0-9a-f]{64}$/);
    const approveAll = within(list).getByRole('button', { name: 'Approve all 3' });
    while (document.activeElement !== approveAll) await userEvent.tab();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(ranText(canvasElement).split('\n')).toHaveLength(3));
    await expect(ranText(canvasElement)).toBe('write_file {"path":"notes/a.md","text":"Alpha"}\nwrite_file {"path":"notes/b.md","text":"Beta"}\nsearch_docs {"q":"style guide"}');
    await waitFor(() => expect(within(list).getByRole('status')).toHaveTextContent('Approved 3, denied 0.'));
    await expect(within(list).getByText('No requests waiting.')).toBeVisible();
    // Finished: the result is seen, not only heard; focus rests on it, with its ring; no dead buttons.
    const result = within(list).getByRole('status');
    await expect(result).toBeVisible();
    await expect(result).toHaveFocus();
    await expect(getComputedStyle(result).outlineStyle).toBe('solid');
    await expect(list).toHaveAttribute('data-state', 'done');
    await expect(within(list).queryByRole('button', { name: /all/ })).toBeNull();
  },
};

/** A tool that is confirmed every time, one request at a time (low risk all the same). */
const everyTime = { title: 'Send an email', effect: 'write', risk: 'low', requiresConfirmation: true, confirmEveryTime: true } as const;

const mixed: Proposal[] = [
  { toolName: 'send_email', arguments: { to: 'team@example.com', subject: 'Release' }, descriptor: everyTime, turnId: 't1' },
  { toolName: 'transfer', arguments: { to: 'DE89 3704', amount: 900 }, descriptor: descriptors.transfer, turnId: 't1' },
  // No descriptor: its risk is not declared.
  { toolName: 'run_script', arguments: { path: 'scripts/cleanup.sh' }, turnId: 't1' },
  { toolName: 'search_docs', arguments: { q: 'release notes' }, descriptor: descriptors.search, turnId: 't1' },
];

/** The batch, and the dialog the page opens when a person asks to review a request on its own. */
function BatchAndDialog({ controller, clock }: { controller: ConfirmationController; clock: ManualClock }) {
  const [reviewing, setReviewing] = useState(false);
  return (
    <>
      <ConfirmBatch controller={controller} turnId="t1" clock={clock} onReview={() => setReviewing(true)} />
      {reviewing && <ConfirmToolDialog controller={controller} clock={clock} confirmStep="type-name" onOpenChange={(open) => setReviewing(open)} />}
    </>
  );
}

/**
 * A batch never replaces a person's single review: of four requests, "Approve all" covers only the
 * low-risk one; the confirmed-every-time, high-risk and undeclared-risk requests are listed apart,
 * and "Review" brings one to the dialog, where the high-risk transfer asks for its name first.
 */
export const BatchLeavesOutReviewAlone: Story = {
  render: ({ speed }) => (
    <ApprovalsPage speed={speed} proposals={mixed}>
      {(controller, clock) => <BatchAndDialog controller={controller} clock={clock} />}
    </ApprovalsPage>
  ),
  play: async ({ canvasElement }) => {
    const body = page(canvasElement);
    await press(body.getByRole('button', { name: 'Propose 4 requests' }));
    const list = await body.findByRole('region', { name: '1 request waiting' });
    const alone = await body.findByRole('region', { name: '3 requests to review one at a time' });
    await expect([...alone.querySelectorAll('li')].map((item) => item.getAttribute('data-alone'))).toEqual(['every-time', 'high-risk', 'risk-not-declared']);
    await expect(within(alone).getByText('High risk: approved only in its own review.')).toBeVisible();
    await press(within(list).getByRole('button', { name: 'Approve all 1' }));
    await waitFor(() => expect(ranText(canvasElement)).toBe('search_docs {"q":"release notes"}'));
    const transfer = alone.querySelector('li[data-alone="high-risk"]') as HTMLElement;
    await press(within(transfer).getByRole('button', { name: 'Review' }));
    const dialog = await body.findByRole('dialog');
    await untilStatus(dialog, 'reviewing');
    await expect(within(dialog).getByRole('heading', { level: 2 })).toHaveTextContent('Transfer money');
    const approve = within(dialog).getByRole('button', { name: 'Approve' });
    await expect(approve).toHaveAttribute('aria-disabled', 'true');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Type transfer to enable Approve' }), 'transfer');
    await press(approve);
    await waitFor(() => expect(ranText(canvasElement)).toBe('search_docs {"q":"release notes"}\ntransfer {"to":"DE89 3704","amount":900}'));
  },
};

/* ------------------------------------------------------------ expiry */

const expiring: Proposal = { toolName: 'deploy', arguments: { service: 'billing', version: '2.4.1' }, descriptor: descriptors.deploy, expiresIn: 75_000 };

/**
 * The time left shows to the second, with word that the deadline is fixed (the wire offers no
 * extension). The polite live region speaks only at a few moments (a minute, 30 s and 10 s left),
 * each time only for that second: it never says a time the screen no longer shows. Opened in
 * Storybook the page's clock ticks by itself, so the play function reads the countdown as it
 * stands rather than expecting an exact second.
 */
export const Expiring: Story = {
  render: ({ speed }) => <Dialog speed={speed} proposals={[expiring]} />,
  play: async ({ canvasElement }) => {
    const dialog = await proposeAndReview(canvasElement);
    const expiry = dialog.querySelector('.toolgate-confirm-expiry') as HTMLElement;
    await waitFor(() => expect(secondsShown(dialog)).toBeGreaterThan(60));
    await expect(expiry).toHaveTextContent('The deadline is fixed: it cannot be extended.');
    const live = expiry.querySelector('[aria-live="polite"]') as HTMLElement;
    await expect(live).toHaveTextContent('');
    // 30 s pass on the page's clock: each second's timer re-renders the countdown, so wait until
    // the last one has fired, not for a time in which 30 of them usually do.
    await waitOnPage(canvasElement);
    await waitFor(() => expect(secondsShown(dialog)).toBeLessThanOrEqual(45));
    // "1:00" was said as the minute passed, and is not left in the region at 0:45.
    const said = /expires in (\d+:\d\d)\./.exec(live.textContent ?? '')?.[1];
    await expect(said === undefined || expiry.textContent?.startsWith(`Expires in ${said}`)).toBe(true);
    await expect(dialog).toHaveAttribute('data-status', 'reviewing');
  },
};

/**
 * Expired: the alert says so, once (no countdown or status line repeating it); the review
 * instructions and the dead Deny and Approve are gone, and Close is what is left, with focus.
 */
export const Expired: Story = {
  render: ({ speed }) => <Dialog speed={speed} proposals={[{ ...expiring, expiresIn: 20_000 }]} />,
  play: async ({ canvasElement }) => {
    await expireOnScreen(canvasElement);
  },
};

/** After expiry, Close ends the request as expired. */
export const ExpiredThenClosed: Story = {
  render: ({ speed }) => <Dialog speed={speed} proposals={[{ ...expiring, expiresIn: 20_000 }]} />,
  play: async ({ canvasElement }) => {
    const dialog = await expireOnScreen(canvasElement);
    await press(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(outcomesText(canvasElement)).toBe('deploy: expired'));
  },
};

/** Proposes a request that expires in 20 s, lets 30 s pass on the page's clock, and checks what the dialog shows. */
async function expireOnScreen(canvasElement: HTMLElement): Promise<HTMLElement> {
  const dialog = await proposeAndReview(canvasElement);
  const inside = within(dialog);
  await waitOnPage(canvasElement);
  await untilStatus(dialog, 'expired');
  await expect(inside.getByRole('alert')).toHaveTextContent('The request expiredNobody decided in time, so nothing ran.');
  // Shown and said once: by the alert.
  await expect(dialog.querySelector('.toolgate-confirm-expiry')).toBeNull();
  await expect(dialog.textContent?.match(/expired/gi)).toHaveLength(1);
  // Nothing left to review: no instructions, no dead Deny or Approve; Close has focus.
  await expect(inside.queryByText(/^Check the exact arguments/)).toBeNull();
  await expect(inside.getAllByRole('button').map((button) => button.textContent)).toEqual(['Close']);
  await waitFor(() => expect(inside.getByRole('button', { name: 'Close' })).toHaveFocus());
  await expect(ranText(canvasElement)).toBe('Nothing ran');
  return dialog;
}
