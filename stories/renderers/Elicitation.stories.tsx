import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ElicitationDialog, type ElicitationRequest, type ElicitResult } from 'toolgate/renderers';
import { Frame } from '../support/scenarios';

/**
 * An MCP server's question to the person (`toolgate/renderers`): a form request is the
 * confirmation editor's schema form, checked against the schema before it is sent; a URL request
 * shows where the link really goes and opens nothing until "Open" is clicked. The line under it
 * shows the answer (MCP's `ElicitResult`) and, in URL mode, what was opened.
 */
function ElicitationPage({ request, serverName }: { request: ElicitationRequest; serverName?: string }) {
  const [answer, setAnswer] = useState<ElicitResult | null>(null);
  const [opened, setOpened] = useState<string | null>(null);
  return (
    <>
      <ElicitationDialog request={answer === null ? request : null} serverName={serverName} onResult={setAnswer} openUrl={setOpened} />
      <p data-testid="answer">Answer: {answer === null ? 'none yet' : JSON.stringify(answer)}</p>
      <p data-testid="opened">Opened: {opened ?? 'nothing'}</p>
    </>
  );
}

const meta = {
  title: 'Renderers/Elicitation',
  component: ElicitationPage,
  decorators: [(Story) => <Frame>{Story()}</Frame>],
} satisfies Meta<typeof ElicitationPage>;
export default meta;
type Story = StoryObj<typeof meta>;

const booking: ElicitationRequest = {
  message: 'Who is the booking for?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 2 },
      seats: { type: 'integer', title: 'Seats', minimum: 1, maximum: 9, description: 'From 1 to 9.' },
      plan: { type: 'string', title: 'Plan', enum: ['free', 'pro'] },
      notify: { type: 'boolean', title: 'Send me a confirmation', default: true },
    },
    required: ['name', 'seats'],
  },
};

const body = (canvasElement: HTMLElement) => within(canvasElement.ownerDocument.body);

/** The form, answered by keyboard: a wrong answer is kept with its problem beside the field, a right one sent. */
export const Form: Story = {
  args: { request: booking, serverName: 'Bookings' },
  play: async ({ canvasElement, canvas }) => {
    const dialog = await body(canvasElement).findByRole('dialog', { name: 'Bookings asks' });
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    await waitFor(() => expect(name).toHaveFocus());
    await userEvent.keyboard('A');
    await userEvent.tab();
    await userEvent.keyboard('12{Enter}');
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    await expect(within(dialog).getByRole('textbox', { name: /Seats/ })).toHaveAccessibleDescription(/must be at most 9/);
    await expect(canvas.getByTestId('answer')).toHaveTextContent('Answer: none yet');
    await waitFor(() => expect(name).toHaveFocus());
    await userEvent.keyboard('da');
    await userEvent.tab();
    await userEvent.keyboard('{Backspace}{Backspace}3{Enter}');
    await waitFor(() => expect(canvas.getByTestId('answer')).toHaveTextContent('Answer: {"action":"accept","content":{"name":"Ada","seats":3,"notify":true}}'));
  },
};

/** Decline, reached by keyboard from the first field. */
export const Decline: Story = {
  args: { request: booking, serverName: 'Bookings' },
  play: async ({ canvasElement, canvas }) => {
    const dialog = await body(canvasElement).findByRole('dialog', { name: 'Bookings asks' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveFocus());
    const decline = within(dialog).getByRole('button', { name: 'Decline' });
    for (let i = 0; i < 10 && decline.ownerDocument.activeElement !== decline; i++) await userEvent.tab();
    await expect(decline).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(canvas.getByTestId('answer')).toHaveTextContent('Answer: {"action":"decline"}'));
  },
};

/** A link whose text starts with a trusted name: the dialog shows the host it really goes to, and opens it only on "Open". */
export const UrlMode: Story = {
  args: { request: { mode: 'url', message: 'Sign in to your account to continue.', url: 'https://github.com@login.evil.test/oauth', elicitationId: 'e1' }, serverName: 'Deploys' },
  play: async ({ canvasElement, canvas }) => {
    const dialog = await body(canvasElement).findByRole('dialog', { name: 'Deploys asks' });
    await expect(within(dialog).getByText('evil.test', { selector: 'strong' })).toBeVisible();
    await expect(dialog.querySelector('[data-warning="userinfo"]')).not.toBeNull();
    await expect(canvas.getByTestId('opened')).toHaveTextContent('Opened: nothing');
    const open = within(dialog).getByRole('button', { name: 'Open evil.test' });
    for (let i = 0; i < 10 && open.ownerDocument.activeElement !== open; i++) await userEvent.tab();
    await expect(open).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(canvas.getByTestId('opened')).toHaveTextContent('Opened: https://github.com@login.evil.test/oauth'));
    await expect(canvas.getByTestId('answer')).toHaveTextContent('Answer: {"action":"accept"}');
  },
};
