import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ToolCallList, type ToolCallListProps } from 'toolgate';
import { argumentDeltas, pause, toolEvents as e } from 'toolgate/testing';
import { Fixed, Live, untilReplayed } from './support/scenarios';

/**
 * `<ToolCallList>` with a long session: past `windowAfter` rows only the rows in view are
 * mounted, each row still says its place among all, the focused row stays mounted while it
 * scrolls away, and the filter finds calls by status and tool name.
 */
const meta = {
  title: 'Components/ToolCallList/At scale',
  component: ToolCallList,
} satisfies Meta<ToolCallListProps>;
export default meta;
type Story = StoryObj<typeof meta>;

const TURNS = 100;
const PER_TURN = 100;
const CALLS = TURNS * PER_TURN;

/** Ten thousand calls in a hundred turns: most done, one in a thousand cancelled, the last still running. */
function longSession(): unknown[] {
  const events: unknown[] = [];
  for (let i = 0; i < CALLS; i++) {
    const callId = `c${i}`;
    events.push(e.start(callId, { name: `step_${i}`, turnId: `turn-${Math.floor(i / PER_TURN) + 1}` }), e.complete(callId, { n: i }));
    if (i === CALLS - 1) continue;
    events.push(i % 1000 === 500 ? e.cancelled(callId) : e.settled(callId, true));
  }
  return events;
}

const rowsOf = (grid: HTMLElement) => [...grid.querySelectorAll<HTMLElement>('[role="row"]')];

/** 10,000 calls: a few dozen rows mounted, the focus kept while scrolling, End reaches the last call. */
export const TenThousandCalls: Story = {
  args: { filterControls: true, announce: false },
  render: (args) => (
    <Fixed items={longSession()}>
      <ToolCallList {...args} />
    </Fixed>
  ),
  play: async ({ canvas }) => {
    const grid = canvas.getByRole('treegrid', { name: 'Tool calls' });
    await expect(grid).toHaveAttribute('data-windowed');
    await expect(grid).toHaveAttribute('aria-rowcount', String(CALLS + TURNS));
    await waitFor(() => expect(rowsOf(grid).length).toBeGreaterThan(2));
    await expect(rowsOf(grid).length).toBeLessThan(60);

    // Focus the first call, then scroll to the end: the last call is shown, the focus stays.
    const first = canvas.getByRole('row', { name: 'step_0, Done' });
    first.focus();
    await waitFor(() => {
      grid.scrollTop = grid.scrollHeight;
      expect(canvas.getByRole('row', { name: 'step_9999, Running' })).toBeVisible();
    });
    const last = canvas.getByRole('row', { name: 'step_9999, Running' });
    await expect(last).toHaveAttribute('aria-rowindex', String(CALLS + TURNS));
    await expect(last).toHaveAttribute('aria-posinset', String(PER_TURN));
    await expect(last).toHaveAttribute('aria-setsize', String(PER_TURN));
    await expect(first).toHaveFocus();
    await expect(rowsOf(grid).length).toBeLessThan(60);

    // Home and End move the focus across the whole list, scrolling the row into view.
    await userEvent.keyboard('{End}');
    await waitFor(() => expect(canvas.getByRole('row', { name: 'step_9999, Running' })).toHaveFocus());
    await userEvent.keyboard('{Home}');
    await waitFor(() => expect(canvas.getByRole('row', { name: 'Turn 1' })).toHaveFocus());
    await waitFor(() => expect(grid.scrollTop).toBe(0));

    // The filter: by status, then by name; the count says how many of all match.
    const search = within(canvas.getByRole('search'));
    await userEvent.selectOptions(search.getByRole('combobox', { name: 'Status' }), 'Cancelled');
    await waitFor(() => expect(search.getByRole('status')).toHaveTextContent('10 calls of 10,000'));
    await expect(grid).toHaveAttribute('aria-rowcount', '20');
    await userEvent.selectOptions(search.getByRole('combobox', { name: 'Status' }), 'Any status');
    await userEvent.type(search.getByRole('searchbox', { name: 'Tool name' }), 'step_4242');
    await waitFor(() => expect(canvas.getAllByRole('row')).toHaveLength(2));
    await expect(canvas.getByRole('row', { name: 'step_4242, Done' })).toBeVisible();
  },
};

const STREAMS = 50;

/** Arguments of about a kilobyte for call `i`: a path and records, different for every call. */
const streamArguments = (i: number) => ({
  path: `imports/batch-${i}.csv`,
  records: Array.from({ length: 8 }, (_, r) => ({ id: i * 100 + r, email: `user${i}-${r}@example.test`, address: { city: 'Lisbon', zip: `1${String(i).padStart(3, '0')}-${r}` } })),
});

/** Fifty calls whose arguments stream at once, fragment by fragment, interleaved; then each settles. */
function* fiftyStreams(): Generator<unknown> {
  for (let i = 0; i < STREAMS; i++) yield e.start(`s${i}`, { name: i % 2 ? 'import_records' : 'write_file', turnId: 'turn-1' });
  const streams = Array.from({ length: STREAMS }, (_, i) => argumentDeltas(`s${i}`, JSON.stringify(streamArguments(i)), 4));
  for (let open = STREAMS; open > 0; ) {
    open = 0;
    for (const stream of streams) {
      const next = stream.next();
      if (next.done) continue;
      open++;
      yield next.value;
    }
    yield pause(10);
  }
  for (let i = 0; i < STREAMS; i++) yield e.complete(`s${i}`, streamArguments(i));
  for (let i = 0; i < STREAMS; i++) yield e.settled(`s${i}`, true);
}

/** 50 calls streaming at once into a store that tells the list once per frame: the list ends with every call done and its final arguments. */
export const FiftyStreams: Story = {
  args: { filterControls: true },
  render: (args) => (
    <Live items={fiftyStreams} speed={1} batch={STREAMS}>
      <ToolCallList {...args} />
    </Live>
  ),
  play: async ({ canvas, canvasElement }) => {
    await canvas.findByRole('treegrid', { name: 'Tool calls' });
    const search = within(canvas.getByRole('search'));
    await userEvent.selectOptions(search.getByRole('combobox', { name: 'Status' }), 'Done');
    // Wait on state: every event sent, then every call done (until one is, the list says none
    // match, and has no grid).
    await untilReplayed(canvasElement);
    await waitFor(() => expect(search.getByRole('status')).toHaveTextContent('50 calls of 50'));
    const grid = canvas.getByRole('treegrid', { name: 'Tool calls' });
    await expect(grid).toHaveAttribute('aria-rowcount', String(STREAMS + 1));
    await expect(grid).toHaveAttribute('data-windowed');
    await expect(rowsOf(grid).length).toBeLessThan(STREAMS);
    // The first and the last call show their final arguments.
    await expect(canvas.getAllByText('user0-7@example.test')[0]).toBeVisible();
    await waitFor(() => {
      grid.scrollTop = grid.scrollHeight;
      expect(canvas.getByText('user49-7@example.test')).toBeVisible();
    });
    await expect(canvas.getByText('1049-7')).toBeVisible();
  },
};
