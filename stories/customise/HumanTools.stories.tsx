import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ToolCallList } from 'toolgate';
import { InterruptButton, ScriptedApp, TravelTools, appCall } from './support';

interface Args {
  /** How fast the scripted session plays: 1 is real time (instant when run as a test). */
  speed: number;
}

/**
 * `useHumanTool` registers an app tool whose `run` waits for a person: its `render` (here a seat
 * picker) shows inside the call's card, and what the person picks is the call's output. It honours
 * the signal: stopping the turn withdraws the form at once and the call answers `INTERRUPTED`.
 * With `waitsForPerson: true` the client's time limit does not count the person's wait.
 */
const meta = {
  title: 'Customise/Tools answered by a person',
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const seat = () => appCall('s1', 'pick_seat', { flight: 'NA 1234', seats: ['12A', '14C', '21F'] });

const render: Story['render'] = ({ speed }) => (
  <ScriptedApp key={speed} script={seat} speed={speed}>
    <TravelTools />
    <InterruptButton />
    <ToolCallList />
  </ScriptedApp>
);

const formOf = async (root: HTMLElement) => {
  const picked = await within(root).findByRole('article', { name: 'pick_seat' }, { timeout: 30_000 });
  return { card: picked, form: await within(picked).findByRole('group', { name: 'Your answer for pick_seat' }, { timeout: 30_000 }) };
};

/** The traveller picks a seat in the card: the call answers with it, and the card shows it as the output. */
export const PersonAnswersForm: Story = {
  render,
  play: async ({ canvasElement }) => {
    const { card, form } = await formOf(canvasElement);
    await userEvent.click(within(form).getByRole('radio', { name: '14C' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Choose this seat' }));
    await waitFor(() => expect(within(card).getByRole('group', { name: 'Output' })).toHaveTextContent(/14C/));
    await waitFor(() => expect(card).toHaveAttribute('data-outcome', 'ok'));
    await expect(within(card).queryByRole('group', { name: 'Your answer for pick_seat' })).toBeNull();
  },
};

/** The traveller says not now: the call answers `REJECTED` with their reason. */
export const PersonDeclines: Story = {
  render,
  play: async ({ canvasElement }) => {
    const { card, form } = await formOf(canvasElement);
    await userEvent.click(within(form).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(card).toHaveAttribute('data-outcome', 'error'));
    await expect(within(card).getByText('Rejected', { selector: '.toolgate-badge' })).toBeVisible();
  },
};

/** Stop the turn while the form is open: the form is withdrawn at once and the call is cancelled. */
export const InterruptWithdrawsForm: Story = {
  render,
  play: async ({ canvasElement }) => {
    const { card } = await formOf(canvasElement);
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Stop the turn' }));
    await expect(within(card).queryByRole('group', { name: 'Your answer for pick_seat' })).toBeNull();
    await expect(card).toHaveAttribute('data-status', 'cancelled');
    await expect(within(card).getByText('Cancelled here')).toBeVisible();
  },
};
