import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { ToolCallList } from 'toolgate';
import { step } from 'toolgate/testing';
import { ScriptedApp, TravelTools, appCall, renderers, serverCall, trip } from './support';

interface Args {
  /** How fast the scripted session plays: 1 is real time (instant when run as a test). */
  speed: number;
}

/**
 * Each tool can have its own view: `renderers={{ search_flights: FlightCard }}` on
 * `<ToolCallList>` (or on the provider). `defineToolRenderer(flightSchema, FlightCard)` types the
 * view's arguments from the tool's zod schema: partial while the model writes them, checked once
 * complete, plus the fares the page's app tool returned. Tools without a view get the default
 * card. A view that throws shows an error card; the rest of the list carries on.
 */
const meta = {
  title: 'Customise/Per-tool renderers',
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const flights = () => [...appCall('f1', 'search_flights', trip), ...serverCall('w1', 'weather', { city: 'Oslo', days: 3 })];
const broken = () => [
  ...serverCall('w1', 'weather', { city: 'Oslo', days: 3 }),
  ...serverCall('x1', 'compare_fares', { route: 'LIS-OSL' }),
  step.delay(200),
  ...appCall('f1', 'search_flights', trip),
];

/** The flight search in its own view (route, then date and passengers, then the fares), the weather in the default card. */
export const FlightView: Story = {
  render: ({ speed }) => (
    <ScriptedApp key={speed} script={flights} speed={speed}>
      <TravelTools />
      <ToolCallList renderers={renderers} />
    </ScriptedApp>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const flight = await canvas.findByRole('article', { name: 'Flight LIS → OSL' });
    await waitFor(() => expect(within(flight).getByTestId('details')).toHaveTextContent('2025-06-12, 2 passengers'));
    await waitFor(() => expect(within(flight).getByRole('list', { name: 'Fares' })).toHaveTextContent('Nordic Air: 129 EUR'));
    const weather = await canvas.findByRole('article', { name: 'weather' });
    await waitFor(() => expect(weather).toHaveAttribute('data-status', 'settled'));
  },
};

/** `compare_fares` has a view with a bug: it shows an error card with the tool's name and the error, and the other calls stay. */
export const BrokenRenderer: Story = {
  render: ({ speed }) => (
    <ScriptedApp key={speed} script={broken} speed={speed}>
      <TravelTools />
      <ToolCallList renderers={renderers} />
    </ScriptedApp>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const error = await canvas.findByRole('article', { name: 'compare_fares' });
    await expect(error).toHaveAttribute('data-state', 'render-error');
    await expect(error).toHaveTextContent('The view of compare_fares failed');
    await expect(error).toHaveTextContent(/reading 'code'/);
    // The rest of the list carries on: the weather before it, the flight after it.
    await waitFor(() => expect(canvas.getByRole('article', { name: 'weather' })).toHaveAttribute('data-status', 'settled'));
    const flight = await canvas.findByRole('article', { name: 'Flight LIS → OSL' });
    await waitFor(() => expect(within(flight).getByRole('list', { name: 'Fares' })).toBeVisible());
  },
};
