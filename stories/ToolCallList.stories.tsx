import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ToolCallCard, ToolCallList, useToolgateStore, type ToolCallListProps } from 'toolgate';
import { eventScript, pause, step, toolEvents as e } from 'toolgate/testing';
import { flightSchema, legacyEvents, nestedEvents, openTurn, paced, sessionEvents, states, withId } from './support/calls';
import { Fixed, Frame, Scripted, interrupt } from './support/scenarios';
import { cardsUnder, rowsUnder } from './support/tree';

type Args = ToolCallListProps & {
  /** How fast the scripted session plays: 1 is real time (instant when run as a test). */
  speed: number;
};

/**
 * A session's calls, in order and grouped by turn. The live stories play scripted sessions from
 * `toolgate/testing` at the `speed` you choose; as tests they run instantly and their play
 * functions wait on what is shown.
 */
const meta = {
  title: 'Components/ToolCallList',
  component: ToolCallList,
  tags: ['autodocs'],
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const cards = (canvasElement: HTMLElement) => within(canvasElement).queryAllByRole('article');
const statusOf = (canvasElement: HTMLElement) => cards(canvasElement).map((card) => `${card.getAttribute('aria-labelledby') && within(card).getByText(/_/, { selector: '.toolgate-card-name' }).textContent}:${card.dataset['status']}`);

export const Empty: Story = {
  render: ({ speed: _speed, ...args }) => (
    <Fixed items={[]}>
      <ToolCallList {...args} />
    </Fixed>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('region', { name: 'Tool calls' })).toHaveTextContent('No tool calls yet');
  },
};

const sessionScript = () => eventScript(paced(sessionEvents()));

/** Two turns, calls streaming side by side, progress, and every kind of ending, live. */
export const LiveSession: Story = {
  render: ({ speed, ...args }) => (
    <Scripted script={sessionScript} speed={speed}>
      <ToolCallList schemas={{ search_flights: flightSchema }} {...args} />
    </Scripted>
  ),
  play: async ({ canvasElement, canvas }) => {
    await waitFor(() => expect(statusOf(canvasElement)).toEqual(['get_weather:settled', 'search_flights:settled', 'send_email:settled', 'write_file:settled']));
    // Each turn is a row of the list's tree, its calls the rows under it.
    await expect(cardsUnder(canvas.getByRole('row', { name: 'Turn 1' }))).toHaveLength(2);
    await expect(cardsUnder(canvas.getByRole('row', { name: 'Turn 2' }))).toHaveLength(2);
    await expect(canvas.getByText('Timed out')).toBeVisible();
    await expect(canvas.getByText('Rejected')).toBeVisible();
    // The live region has read out the latest changes.
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent(/write_file: Done/));
  },
};

/** A server without tool-stream-v1 sends only `tool.preview`: calls are built from it, and marked. */
export const LegacyPreviewSession: Story = {
  render: ({ speed, ...args }) => (
    <Scripted script={() => eventScript(legacyEvents())} speed={speed} capabilities={[]}>
      <ToolCallList {...args} />
    </Scripted>
  ),
  play: async ({ canvasElement, canvas }) => {
    await waitFor(() => expect(cards(canvasElement).map((card) => card.dataset['status'])).toEqual(['issued', 'issued']));
    await expect(canvas.getAllByText('Preview')).toHaveLength(2);
    await expect(canvas.getByText('pastel de nata')).toBeVisible();
    await expect(canvas.getByRole('row', { name: 'Other calls' })).toBeVisible();
  },
};

/** After `closed` every call is dropped and the list says so; later events change nothing. */
export const ClosedSession: Story = {
  render: ({ speed, ...args }) => (
    <Scripted script={() => eventScript([...paced(sessionEvents().slice(0, 30)), pause(300), e.closed(), e.start('late', { name: 'too_late' })])} speed={speed}>
      <ToolCallList {...args} />
    </Scripted>
  ),
  play: async ({ canvas, canvasElement }) => {
    await waitFor(() => expect(canvas.getByRole('region', { name: 'Tool calls' })).toHaveAttribute('data-state', 'closed'));
    // The list says so (the live region may say it too, once its throttle allows).
    await expect(canvas.getByText('Session closed', { selector: '.toolgate-list-empty' })).toBeVisible();
    await expect(cards(canvasElement)).toHaveLength(0);
  },
};

const levels = (rows: HTMLElement[]) => rows.map((row) => `${row.getAttribute('aria-level')}:${row.getAttribute('aria-posinset')}/${row.getAttribute('aria-setsize')}`);

/**
 * A research call whose sub-agent made three calls, one of which made a call of its own: each
 * sits under the call that made it. Rows say their level, place and siblings; arrow keys move
 * between rows, Left closes a row (or climbs to its parent), Right opens it.
 */
export const NestedCalls: Story = {
  render: ({ speed: _speed, ...args }) => (
    <Fixed items={nestedEvents()}>
      <ToolCallList {...args} />
    </Fixed>
  ),
  play: async ({ canvas }) => {
    const research = canvas.getByRole('row', { name: /^research,/ });
    await expect(canvas.getByRole('treegrid', { name: 'Tool calls' })).toHaveAttribute('aria-rowcount', '8');
    await expect(levels(rowsUnder(research))).toEqual(['3:1/3', '4:1/1', '3:2/3', '3:3/3']);
    await expect(research).toHaveAttribute('aria-expanded', 'true');
    await expect(canvas.getByRole('row', { name: /^write_notes,/ })).not.toHaveAttribute('aria-expanded');
    await expect(cardsUnder(research).map((card) => card.dataset['status'])).toEqual(['settled', 'settled', 'issued', 'streaming']);

    // One tab stop: the first row. Down four times reaches write_notes, nested in research.
    await userEvent.tab();
    await expect(canvas.getByRole('row', { name: 'Turn 1' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    await expect(canvas.getByRole('row', { name: /^write_notes,/ })).toHaveFocus();
    // Left on a row with nothing inside climbs to its parent; Left again closes the parent.
    await userEvent.keyboard('{ArrowLeft}');
    await expect(research).toHaveFocus();
    await userEvent.keyboard('{ArrowLeft}');
    await expect(research).toHaveAttribute('aria-expanded', 'false');
    await expect(rowsUnder(research)).toEqual([]);
    await expect(canvas.queryByRole('row', { name: /^web_search,/ })).toBeNull();
    // Right opens it again, with the focus kept on it.
    await userEvent.keyboard('{ArrowRight}');
    await expect(research).toHaveAttribute('aria-expanded', 'true');
    await expect(research).toHaveFocus();
    await expect(rowsUnder(research)).toHaveLength(4);
    // The button says how many calls are inside, sits inside its call's card (not on its edge),
    // and has one ring when focused (no border of its own); it closes them too.
    const inside = within(research).getByRole('button', { name: '3 calls inside' });
    const box = inside.getBoundingClientRect();
    const card = (within(research).getAllByRole('article')[0] as HTMLElement).getBoundingClientRect();
    await expect(box.left).toBeGreaterThan(card.left + 4);
    await expect(box.bottom).toBeLessThanOrEqual(card.bottom);
    await expect(box.top).toBeGreaterThanOrEqual(card.top);
    await expect(getComputedStyle(inside).borderTopStyle).toBe('none');
    await userEvent.click(inside);
    await expect(research).toHaveAttribute('aria-expanded', 'false');
  },
};

/** The same session with research's nested calls closed from the start (`defaultCollapsed`). */
export const NestedCallsCollapsed: Story = {
  args: { defaultCollapsed: ['research'] },
  render: ({ speed: _speed, ...args }) => (
    <Fixed items={nestedEvents()}>
      <ToolCallList {...args} />
    </Fixed>
  ),
  play: async ({ canvas }) => {
    const research = canvas.getByRole('row', { name: /^research,/ });
    await expect(research).toHaveAttribute('aria-expanded', 'false');
    await expect(canvas.getAllByRole('row').map((row) => row.getAttribute('aria-level'))).toEqual(['1', '2', '1', '2']);
    research.focus();
    await userEvent.keyboard('{Enter}');
    await expect(research).toHaveAttribute('aria-expanded', 'true');
    await expect(levels(rowsUnder(research))).toEqual(['3:1/3', '4:1/1', '3:2/3', '3:3/3']);
  },
};

function InterruptButton({ send }: { send: (message: { type: 'turn.interrupt'; turnId: string }) => void }) {
  const store = useToolgateStore();
  return (
    <button
      type="button"
      className="toolgate-button"
      onClick={() => {
        // Cancel here at once, then tell the server (docs/protocol.md, "Rules of the stream": the page does not wait for it).
        store.getState().interrupt('turn-1');
        send({ type: 'turn.interrupt', turnId: 'turn-1' });
      }}
    >
      Interrupt
    </button>
  );
}

const interruptScript = () => [
  ...eventScript(paced(openTurn)),
  // Any interrupt the page sent, even while the turn was still streaming: opened in Storybook the
  // turn streams in real time, and the play function may press Interrupt before this step begins
  // (waitForMessage only hears messages sent after it began).
  step.waitFor((session) => session.sent.some((message) => message.type === 'turn.interrupt'), 'the page interrupts the turn'),
  // The server had already committed the booking: its outcome arrives late, and is shown.
  step.delay(600),
  step.emit(e.settled('c1', true)),
  step.emit(e.cancelled('c2')),
];

/** Press Interrupt: every open call of the turn is cancelled here at once; a late outcome still shows. */
export const Interrupt: Story = {
  render: ({ speed, ...args }) => (
    <Scripted script={interruptScript} speed={speed}>
      {(session) => (
        <>
          <ToolCallList {...args} />
          <div>
            <InterruptButton send={(message) => session.send(message)} />
          </div>
        </>
      )}
    </Scripted>
  ),
  play: async ({ canvasElement, canvas }) => {
    await waitFor(() => expect(cards(canvasElement).map((card) => card.dataset['status'])).toEqual(['issued', 'streaming']));
    canvas.getByRole('button', { name: 'Interrupt' }).focus();
    await userEvent.keyboard('{Enter}');
    await expect(cards(canvasElement).map((card) => card.dataset['status'])).toEqual(['cancelled', 'cancelled']);
    await expect(canvas.getAllByText('Cancelled here')).toHaveLength(2);
    await waitFor(() => expect(canvas.getByText('Still cancelled, but the tool reported after the cancel: Done')).toBeVisible());
  },
};

const matrix: [string, unknown[]][] = [
  ['Pending', states['pending'] as unknown[]],
  ['Streaming', states['streamingShort'] as unknown[]],
  ['Streaming, long', states['streamingLong'] as unknown[]],
  ['Issued', states['issued'] as unknown[]],
  ['Progress', states['progressDeterminate'] as unknown[]],
  ['Progress, indeterminate', states['progressIndeterminate'] as unknown[]],
  ['Settled', states['settledOk'] as unknown[]],
  ...(['INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED'] as const).map((code): [string, unknown[]] => [code, states[code] as unknown[]]),
  ['Cancelled here', [...(states['issued'] as unknown[]), interrupt('turn-1')]],
  ['Cancelled by the server', states['cancelledByServer'] as unknown[]],
  ['Late outcome', [...(states['issued'] as unknown[]), interrupt('turn-1'), pause(500), e.settled('c1', false, 'FAILED')]],
  ['Model stopped', states['failed'] as unknown[]],
  ['Not JSON', [e.start('c1', { name: 'search' }), e.delta('c1', '{"q": "cats"} trailing prose')]],
  // A server without tool-stream-v1: the call is built from legacy `tool.preview` text alone.
  ['Legacy preview', [e.preview('c1', '{"city": "Lis', { name: 'get_forecast', turnId: 'turn-1' }), pause(60), e.preview('c1', '{"city": "Lisbon", "days": 3}', { name: 'get_forecast', turnId: 'turn-1' })]],
];
const isPreview = (item: unknown) => (item as { type?: string } | null)?.type === 'tool.preview';
const cellItems = matrix.map(([, items], i) => items.map((item) => (typeof item === 'function' ? interrupt(`t${i}`) : withId([item], `m${i}`, `t${i}`)[0])));
// In 'auto' mode previews build calls only until the session first speaks tool.stream, so the one
// store of the matrix takes the preview-only cells first (their place in the grid is unchanged).
const matrixItems = [...cellItems.filter((items) => items.some(isPreview)), ...cellItems.filter((items) => !items.some(isPreview))].flat();

/** Every state of a call side by side, from one store. */
function Matrix() {
  return (
    <Fixed items={matrixItems}>
      <Frame wide>
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(18rem, 1fr))', gap: '0.75rem', alignItems: 'start' }}>
          {matrix.map(([label], i) => (
            <div key={label} role="group" aria-label={label} style={{ display: 'grid', gap: '0.25rem' }}>
              <span style={{ fontSize: '0.75rem', color: 'var(--toolgate-muted)' }}>{label}</span>
              <ToolCallCard callId={`m${i}`} />
            </div>
          ))}
        </div>
      </Frame>
    </Fixed>
  );
}

const checkMatrix: Story['play'] = async ({ canvasElement, canvas }) => {
  const outcomes = cards(canvasElement).map((card) => `${card.dataset['status']}/${card.dataset['outcome']}`);
  await expect(outcomes).toEqual([
    'pending/open', 'streaming/open', 'streaming/open', 'issued/open', 'issued/open', 'issued/open', 'settled/ok',
    'settled/error', 'settled/error', 'settled/error', 'settled/error', 'settled/error',
    'cancelled/cancelled', 'cancelled/cancelled', 'cancelled/cancelled', 'failed/failed', 'streaming/open', 'issued/open',
  ]);
  await expect(within(canvas.getByRole('group', { name: 'Late outcome' })).getByText('Still cancelled, but the tool reported after the cancel: Failed')).toBeVisible();
  // The five failure codes differ by more than one red: each badge has its own icon, each bar its own pattern.
  const failures = ['INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED'].map((code) => within(canvas.getByRole('group', { name: code })).getByRole('article'));
  const icons = failures.map((card) => getComputedStyle(card.querySelector('.toolgate-badge') as HTMLElement, '::before').content);
  await expect(new Set(icons).size).toBe(5);
  await expect(icons).not.toContain('none');
  await expect(new Set(failures.map((card) => getComputedStyle(card).borderInlineStartStyle)).size).toBe(5);
  const legacy = within(canvas.getByRole('group', { name: 'Legacy preview' }));
  await expect(legacy.getByRole('article')).toHaveAttribute('data-source', 'preview');
  await expect(legacy.getByText('Preview')).toBeVisible();
  await expect(legacy.getByText('Lisbon')).toBeVisible();
};

export const MatrixOfStates: Story = { render: () => <Matrix />, play: checkMatrix };

/** The same matrix in the dark theme (axe checks its contrast too). */
export const MatrixOfStatesDark: Story = {
  render: () => <Matrix />,
  globals: { theme: 'dark' },
  play: async (context) => {
    await expect(context.canvasElement.ownerDocument.documentElement).toHaveAttribute('data-theme', 'dark');
    await checkMatrix?.(context);
  },
};

/** Outputs as a runtime that has them sends them (AI SDK, AG-UI, hosted tools): preliminary, then final. */
const outputEvents = () => [
  e.start('o1', { name: 'web_search', turnId: 'turn-1', location: 'server' }),
  e.delta('o1', '{"query":"tides"}'),
  e.complete('o1', { query: 'tides' }),
  e.progress('o1', undefined, { output: { found: 2 } }),
  pause(300),
  e.start('o2', { name: 'read_file', turnId: 'turn-1', location: 'server' }),
  e.complete('o2', { path: 'notes/tides.md' }),
  pause(300),
  e.settled('o1', true, undefined, { output: { found: 7, top: 'tides.example/week' } }),
  e.settled('o2', false, 'FAILED', { message: 'notes/tides.md does not exist' }),
  e.start('o3', { name: 'send_email', turnId: 'turn-1', location: 'server' }),
  e.complete('o3', { to: 'ada@example.test' }),
  e.progress('o3', undefined, { output: { queued: true } }),
  pause(300),
  // A server that sends no output: the preliminary one is not left standing as the result.
  e.settled('o3', true),
];

/** The output schema of `web_search`, given to the list by tool name: its titles label the output's fields. */
const outputSchemas = { web_search: { type: 'object', properties: { found: { title: 'Results found' }, top: { title: 'Best match' } } } };

/**
 * Each card shows its call's output: a preliminary one marked while it runs, the final one once
 * settled (its fields labelled by the tool's output schema, from `outputSchemas`), a failure's message.
 */
export const Outputs: Story = {
  render: ({ speed, ...args }) => (
    <Scripted script={() => eventScript(outputEvents())} speed={speed}>
      <ToolCallList outputSchemas={outputSchemas} {...args} />
    </Scripted>
  ),
  play: async ({ canvasElement, canvas }) => {
    await waitFor(() => expect(cards(canvasElement).map((card) => card.dataset['status'])).toEqual(['settled', 'settled', 'settled']));
    const [search, read, send] = cards(canvasElement) as [HTMLElement, HTMLElement, HTMLElement];
    const output = within(within(search).getByRole('group', { name: 'Output' }));
    await expect(output.getByText('tides.example/week', { exact: false })).toBeVisible();
    await expect(output.getByText('Results found')).toBeVisible();
    await expect(output.getByText('Best match')).toBeVisible();
    await expect(within(read).getByText('notes/tides.md does not exist')).toBeVisible();
    await expect(within(read).queryByRole('group', { name: /^Output/ })).toBeNull();
    await expect(within(send).queryByRole('group', { name: /^Output/ })).toBeNull();
    await expect(canvas.queryByText('Preliminary')).toBeNull();
  },
};
