import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { ToolCallList } from 'toolgate';
import { Column, ScriptedApp, TravelTools, appCall, gatedCall, renderers, serverCall, trip } from './support';

interface Args {
  /** How fast the scripted sessions play: 1 is real time (instant when run as a test). */
  speed: number;
}

/** Every customisation part side by side, each in its own session. */
const meta = {
  title: 'Customise/All parts',
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'fullscreen' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const parts = {
  'A tool’s own view': () => appCall('f1', 'search_flights', trip),
  'A view that throws': () => serverCall('x1', 'compare_fares', { route: 'LIS-OSL' }),
  'Awaiting approval, shown and queued': () => [...gatedCall('g1', 'cancel_hotel', { booking: 'H-5521' }), ...gatedCall('g2', 'charge_card', { amount: 340 })],
  'A person’s input': () => appCall('s1', 'pick_seat', { flight: 'NA 1234', seats: ['12A', '14C'] }),
  'An app tool’s output on the default card': () => appCall('c1', 'convert_currency', { amount: 129, from: 'EUR', to: 'NOK' }),
} as const;

export const SideBySide: Story = {
  render: ({ speed }) => (
    <div style={{ display: 'grid', gap: '1rem', gridTemplateColumns: 'repeat(auto-fit, minmax(20rem, 1fr))', padding: '1rem' }}>
      {Object.entries(parts).map(([caption, script]) => (
        <Column key={`${caption}-${speed}`} caption={caption}>
          <ScriptedApp script={script} speed={speed}>
            <TravelTools />
            <ToolCallList renderers={renderers} aria-label={`Tool calls: ${caption}`} />
          </ScriptedApp>
        </Column>
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const part = (caption: string) => within(within(canvasElement).getByRole('region', { name: caption }));
    await waitFor(() => expect(part('A tool’s own view').getByRole('list', { name: 'Fares' })).toBeVisible());
    // Cards are steady: a new call shows after its first frames, so each part is waited for.
    await waitFor(() => expect(part('A view that throws').getByRole('article', { name: 'compare_fares' })).toHaveAttribute('data-state', 'render-error'));
    await waitFor(() => expect(part('Awaiting approval, shown and queued').getAllByRole('group', { name: 'Awaiting approval' })).toHaveLength(2));
    await waitFor(() => expect(part('A person’s input').getByRole('group', { name: 'Your answer for pick_seat' })).toBeVisible());
    await waitFor(() => expect(part('An app tool’s output on the default card').getByRole('group', { name: 'Output' })).toHaveTextContent(/NOK/));
  },
};
