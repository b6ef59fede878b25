import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { ArgumentsPreview, useToolCall } from 'toolgate';
import { parsePartialArguments } from 'toolgate/json';
import { argumentDeltas, pause, toolEvents as e } from 'toolgate/testing';
import { flightArgs, flightSchema, longArgs } from './support/calls';
import { Frame, Live } from './support/scenarios';

/**
 * A JSON tree of a call's arguments: it grows while they stream, marks the field being written,
 * reads labels and required fields from the tool's JSON Schema, and collapses what is long or
 * large behind disclosure buttons. Text only: nothing in the arguments becomes markup.
 */
const meta = {
  title: 'Components/ArgumentsPreview',
  component: ArgumentsPreview,
  tags: ['autodocs'],
  decorators: [(Story) => <Frame>{Story()}</Frame>],
} satisfies Meta<typeof ArgumentsPreview>;
export default meta;
type Story = StoryObj<typeof meta>;

const nested = { query: 'hotels', filters: { stars: [4, 5], price: { max: 180, currency: 'EUR' }, pets: true, area: null }, page: 1 };

export const Complete: Story = {
  args: { value: nested, complete: true },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('group', { name: 'Arguments' })).toHaveAttribute('data-state', 'ready');
    await expect(canvas.getByText('EUR')).toBeVisible();
    const filters = canvas.getByRole('button', { name: 'filters: 4 fields' });
    await userEvent.click(filters);
    await expect(filters).toHaveAttribute('aria-expanded', 'false');
    await expect(canvas.queryByText('EUR')).toBeNull();
  },
};

export const WaitingForArguments: Story = {
  args: { value: undefined },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Waiting for arguments…')).toBeVisible();
  },
};

const halfway = parsePartialArguments(JSON.stringify(flightArgs).slice(0, 42));

/** Field titles and descriptions from the schema; required fields not yet written are pending. */
export const WithSchemaWhileWriting: Story = {
  args: { value: halfway.value, path: ['date'], schema: flightSchema },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByText('Departure date')).toBeVisible();
    await expect(canvasElement.querySelector('[data-writing]')).toHaveTextContent('2025-03-1');
    await expect((canvas.getByText('Passengers').closest('li') as HTMLElement).dataset['state']).toBe('pending');
  },
};

/** The arguments are final and a required field never came: it is shown as missing. */
export const WithSchemaMissingField: Story = {
  args: { value: { from: 'LHR', to: 'SFO', date: '2025-03-14' }, schema: flightSchema, complete: true },
  play: async ({ canvas }) => {
    await expect((canvas.getByText('Passengers').closest('li') as HTMLElement).dataset['state']).toBe('missing');
    await expect(canvas.getByText('missing')).toBeVisible();
  },
};

function LivePreview() {
  const call = useToolCall('c1');
  return <ArgumentsPreview value={call?.partialArguments} path={call?.writingPath} complete={call?.status === 'issued'} schema={flightSchema} />;
}
const liveEvents = () => [e.start('c1', { name: 'search_flights' }), ...[...argumentDeltas('c1', JSON.stringify(flightArgs), 3)].flatMap((d) => [d, pause(80)]), e.complete('c1', flightArgs)];

/** Streams in live, fragment by fragment (`speed` 1 is real time; instant as a test). */
export const Streaming: StoryObj<{ speed: number }> = {
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  render: ({ speed }) => (
    <Live items={liveEvents} speed={speed}>
      <LivePreview />
    </Live>
  ),
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByText('economy')).toBeVisible());
    await waitFor(() => expect(canvas.getByRole('group', { name: 'Arguments' })).toHaveAttribute('data-state', 'ready'));
    await expect(canvas.queryByText('pending')).toBeNull();
  },
};

/** A long string starts collapsed, says how long it is, and opens by keyboard. */
export const LongString: Story = {
  args: { value: longArgs },
  play: async ({ canvas }) => {
    await userEvent.tab();
    const toggle = canvas.getByRole('button', { name: /characters$/ });
    await expect(toggle).toHaveFocus();
    await userEvent.keyboard(' ');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(canvas.getByText(/Line 120: agreed/)).toBeVisible();
  },
};

/** 10,000 items: collapsed, stated, and opened a page at a time. */
export const LargeArray: Story = {
  args: { value: { ids: Array.from({ length: 10_000 }, (_, i) => `id-${i}`) } },
  play: async ({ canvas }) => {
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: 'ids: 10,000 items' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(canvas.getByText('id-99')).toBeVisible();
    await expect(canvas.queryByText('id-100')).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Show 100 more (9,900 left)' })).toBeVisible();
  },
};

/** Hostile nesting stays cheap: containers deeper than `collapseDepth` start collapsed. */
export const DeepNesting: Story = {
  args: { value: JSON.parse(`${'['.repeat(200)}"bottom"${']'.repeat(200)}`) as unknown },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelectorAll('ul').length).toBeLessThan(12);
  },
};

/** Text that is not JSON: shown raw, under a marker, with the reason. */
export const NotJson: Story = {
  args: { value: undefined, error: 'unexpected character "o" at offset 18', text: '{"query": "cats", oops <script>alert(1)</script>' },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByText('Not valid JSON')).toBeVisible();
    await expect(canvasElement.querySelector('pre')).toHaveTextContent('<script>alert(1)</script>');
    await expect(canvasElement.querySelector('pre script')).toBeNull();
  },
};
