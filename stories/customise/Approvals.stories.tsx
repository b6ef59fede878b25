import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ConfirmToolDialog, ToolCallList } from 'toolgate';
import { ScriptedApp, TravelTools, appCall, gatedCall } from './support';

interface Args {
  /** How fast the scripted session plays: 1 is real time (instant when run as a test). */
  speed: number;
}

/**
 * A call that waits for a person's approval (an app tool with `confirm`, or the server's
 * before-tool-call gate) says `Awaiting approval` on its card, with Deny and Approve right there.
 * They drive the same request as `<ConfirmToolDialog />` and a spoken yes: one approval, at most
 * one run. Requests are shown one at a time: a card whose request waits behind others says how
 * many come first, and its Approve acts once its turn comes (Deny works at once).
 */
const meta = {
  title: 'Customise/Approvals on cards',
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const booking = () => appCall('b1', 'book_flight', { flight: 'NA 1234', seat: '14C' });
const gates = () => [...gatedCall('g1', 'cancel_hotel', { booking: 'H-5521' }), ...gatedCall('g2', 'charge_card', { amount: 340, currency: 'EUR' })];

/** A colour as the browser computes it where `element` is (so `var(--toolgate-…)` resolves in its theme). */
function cssColour(element: HTMLElement, value: string): string {
  const probe = element.ownerDocument.createElement('span');
  probe.style.color = value;
  element.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

const card = (root: HTMLElement, name: string) => within(root).findByRole('article', { name });
const approvalOf = (article: HTMLElement) => within(article).findByRole('group', { name: 'Awaiting approval' });

/** `book_flight` asks first: Approve on its card runs it once, and its output shows on the same card. */
export const InlineApprove: Story = {
  render: ({ speed }) => (
    <ScriptedApp key={speed} script={booking} speed={speed}>
      <TravelTools />
      <ToolCallList />
    </ScriptedApp>
  ),
  play: async ({ canvasElement }) => {
    const booked = await card(canvasElement, 'book_flight');
    const approval = await approvalOf(booked);
    const approve = within(approval).getByRole('button', { name: 'Approve' });
    await waitFor(() => expect(approve).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(approve);
    await waitFor(() => expect(within(booked).getByRole('group', { name: 'Output' })).toHaveTextContent(/NA 1234 14C/));
    await waitFor(() => expect(booked).toHaveAttribute('data-outcome', 'ok'));
    await expect(within(booked).queryByRole('group', { name: 'Awaiting approval' })).toBeNull();
  },
};

/** Two gated server calls: the second says it comes after one; approve the first inline, deny the second. */
export const Queue: Story = {
  render: ({ speed }) => (
    <ScriptedApp key={speed} script={gates} speed={speed}>
      <ToolCallList />
    </ScriptedApp>
  ),
  play: async ({ canvasElement }) => {
    const hotel = await card(canvasElement, 'cancel_hotel');
    const charge = await card(canvasElement, 'charge_card');
    const second = await approvalOf(charge);
    await expect(second).toHaveTextContent('After 1 earlier request');
    await expect(within(second).getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-disabled', 'true');
    const first = await approvalOf(hotel);
    await waitFor(() => expect(within(first).getByRole('button', { name: 'Approve' })).not.toHaveAttribute('aria-disabled'));
    // One state is said once: the badge says "Awaiting approval", in its own colours, and the buttons beside it do not say it again.
    await expect(within(hotel).getAllByText('Awaiting approval')).toHaveLength(1);
    const badge = within(hotel).getByText('Awaiting approval', { selector: '.toolgate-badge' });
    await expect(getComputedStyle(badge).backgroundColor).not.toBe(getComputedStyle(within(hotel).getByText('Server tool')).backgroundColor);
    await expect(getComputedStyle(hotel).borderInlineStartStyle).toBe('dashed');
    // High risk: the card's Approve is the dialog's danger Approve, with the same mark (not colour alone).
    const approve = within(first).getByRole('button', { name: 'Approve' });
    await expect(approve).toHaveAttribute('data-danger');
    await expect(getComputedStyle(approve).backgroundColor).toBe(cssColour(approve, 'var(--_toolgate-danger-bg)'));
    await expect(getComputedStyle(approve, '::before').content).toMatch(/⚠/);
    await expect(getComputedStyle(within(hotel).getByText('High risk'), '::before').content).toMatch(/⚠/);
    await userEvent.click(within(first).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(hotel).toHaveAttribute('data-outcome', 'ok'));
    await userEvent.click(within(await approvalOf(charge)).getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(charge).toHaveAttribute('data-outcome', 'error'));
    await expect(within(charge).getByText('Rejected', { selector: '.toolgate-badge' })).toBeVisible();
  },
};

/**
 * The dialog and the card show the same request. The dialog is modal, so a person answers there
 * while it is open; the card says what waits and follows the answer.
 */
export const WithTheDialog: Story = {
  render: ({ speed }) => (
    <ScriptedApp key={speed} script={booking} speed={speed}>
      <TravelTools />
      <ToolCallList />
      <ConfirmToolDialog />
    </ScriptedApp>
  ),
  play: async ({ canvasElement }) => {
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    // The list draws a new call's card a frame or two after its row (steady cards): wait for it.
    const booked = await within(canvasElement).findByRole('article', { name: 'book_flight', hidden: true });
    await expect(within(booked).getByRole('group', { name: 'Awaiting approval', hidden: true })).toHaveAttribute('data-state', 'reviewing');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(within(booked).getByRole('group', { name: 'Output' })).toHaveTextContent(/NA 1234 14C/));
    await expect(within(booked).queryByRole('group', { name: 'Awaiting approval' })).toBeNull();
  },
};
