import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ToolCallCard, type ToolStreamStore } from 'toolgate';
import { argumentDeltas, callEvents, pause, toolEvents as e } from 'toolgate/testing';
import { flightSchema, openTurn, states } from './support/calls';
import { Fixed, Live, interrupt, untilReplayed } from './support/scenarios';

/**
 * One call, in each state it can show. Every story builds a real store from wire events, so
 * what you see is what the reducer makes of them.
 */
const meta = {
  title: 'Components/ToolCallCard',
  component: ToolCallCard,
  tags: ['autodocs'],
  args: { callId: 'c1' },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof ToolCallCard>;
export default meta;
type Story = StoryObj<typeof meta>;

const fixed = (items: unknown[], extra: Partial<Story> = {}): Story => ({
  render: (args) => (
    <Fixed items={items}>
      <ToolCallCard {...args} />
    </Fixed>
  ),
  ...extra,
});

const card = (canvasElement: HTMLElement) => within(canvasElement).getByRole('article');

export const Pending = fixed(states['pending'] as unknown[], {
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Waiting')).toBeVisible();
    await expect(canvas.getByText('Waiting for arguments…')).toBeVisible();
  },
});

export const StreamingShort = fixed(states['streamingShort'] as unknown[], {
  play: async ({ canvasElement, canvas }) => {
    await expect(canvas.getByText('Writing arguments')).toBeVisible();
    // The field being written is marked, and said to screen readers.
    await expect(canvasElement.querySelector('[data-writing]')).toHaveTextContent('2025-03-1');
    await expect(canvas.getByText('(being written)')).toBeInTheDocument();
  },
});

export const StreamingWithSchema = fixed(states['streamingShort'] as unknown[], {
  args: { schema: flightSchema },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Departure date')).toBeVisible();
    const passengers = canvas.getByText('Passengers').closest('li') as HTMLElement;
    await expect(passengers.dataset['state']).toBe('pending');
  },
});

export const StreamingLong = fixed(states['streamingLong'] as unknown[], {
  play: async ({ canvas }) => {
    const toggle = canvas.getByRole('button', { name: /characters$/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    await expect(canvas.getByRole('button', { name: 'content: Show less' })).toHaveAttribute('aria-expanded', 'true');
    await expect(canvas.getByText(/Line 60: agreed/)).toBeVisible();
  },
});

const MEGABYTE = 1024 * 1024;
/** 1 MB of argument text, streamed live in 4-character fragments through the real store and parser. */
function* megabyte() {
  const text = JSON.stringify({ path: 'logs/huge.txt', content: 'All work and no play makes a long argument. '.repeat(MEGABYTE / 44 + 1).slice(0, MEGABYTE) });
  yield e.start('c1', { name: 'write_file', location: 'app', risk: 'medium' });
  yield* argumentDeltas('c1', text, 4);
  yield e.complete('c1', text);
}

export const Streaming1MB: Story = {
  render: (args) => (
    <Live items={megabyte} speed={1} batch={2048}>
      <ToolCallCard {...args} />
    </Live>
  ),
  play: async ({ canvas, canvasElement }) => {
    // Wait for the end state only: as a test the replay runs at full speed and may finish before
    // the first look, so the text being written ([data-writing]) may never be seen. First the
    // replay's own end (a megabyte in 4-character fragments takes long on a busy machine), then
    // the frame in which the store shows it.
    await untilReplayed(canvasElement);
    await waitFor(() => expect(card(canvasElement).dataset['status']).toBe('issued'));
    await expect(canvas.getByText('Running')).toBeVisible();
    await expect(canvas.getByRole('button', { name: `content: ${MEGABYTE.toLocaleString('en-US')} characters` })).toBeVisible();
    await expect(canvasElement.querySelector('[data-writing]')).toBeNull();
  },
};

export const Issued = fixed(states['issued'] as unknown[], {
  play: async ({ canvasElement }) => {
    await expect(card(canvasElement).dataset['status']).toBe('issued');
    await expect(within(card(canvasElement)).getByText('Running')).toBeVisible();
  },
});

export const ProgressDeterminate = fixed(states['progressDeterminate'] as unknown[], {
  play: async ({ canvas }) => {
    const bar = canvas.getByRole('progressbar', { name: 'Progress' });
    await expect(bar).toHaveAttribute('value', String(37 / 120));
    await expect(canvas.getByText('37 of 120 · contracts/2024')).toBeVisible();
  },
});

export const ProgressIndeterminate = fixed(states['progressIndeterminate'] as unknown[], {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('progressbar', { name: 'Progress' })).not.toHaveAttribute('value');
    await expect(canvas.getByText('Scanning folders…')).toBeVisible();
  },
});

export const SettledOk = fixed(states['settledOk'] as unknown[], {
  play: async ({ canvasElement, canvas }) => {
    await expect(card(canvasElement).dataset['outcome']).toBe('ok');
    await expect(canvas.getByText('Done')).toBeVisible();
    await expect(canvas.getByText('Took 1.6 sec')).toBeVisible();
  },
});

const failure = (code: string, text: string): Story =>
  fixed(states[code] as unknown[], {
    play: async ({ canvasElement, canvas }) => {
      await expect(card(canvasElement).dataset['outcome']).toBe('error');
      await expect(canvas.getByText(text)).toHaveAttribute('data-code', code);
      // Words first, what to do next, and the code last and small.
      await expect(canvasElement.querySelector('[data-result] .toolgate-card-explain')).toBeVisible();
      await expect(canvasElement.querySelector('[data-result] .toolgate-card-next')).toBeVisible();
      await expect(canvas.getByText(code).tagName).toBe('CODE');
    },
  });

export const Interrupted = failure('INTERRUPTED', 'Interrupted');
export const Rejected = failure('REJECTED', 'Rejected');
export const Invalid = failure('INVALID', 'Invalid arguments');
export const Timeout = failure('TIMEOUT', 'Timed out');
export const Failed = failure('FAILED', 'Failed');

/** The user interrupts the turn here: the card is cancelled at once, without waiting for the server. */
export const CancelledLocally: Story = {
  render: (args) => (
    <Fixed items={openTurn}>
      {(store) => (
        <>
          <ToolCallCard {...args} />
          <button type="button" className="toolgate-button" onClick={() => store.getState().interrupt('turn-1')}>
            Interrupt
          </button>
        </>
      )}
    </Fixed>
  ),
  play: async ({ canvas, canvasElement }) => {
    await expect(card(canvasElement).dataset['status']).toBe('issued');
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: 'Interrupt' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(card(canvasElement).dataset['status']).toBe('cancelled');
    await expect(canvas.getByText('Cancelled here')).toBeVisible();
  },
};

export const CancelledByServer = fixed(states['cancelledByServer'] as unknown[], {
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Cancelled')).toBeVisible();
    await expect(canvas.getByText('Cancelled by the server')).toBeVisible();
  },
});

/** Cancelled here, but the server had already committed: the late outcome is shown, never hidden. */
export const CancelledWithLateOutcome = fixed([...openTurn, interrupt('turn-1'), pause(700), e.settled('c1', true)], {
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Cancelled here')).toBeVisible();
    await expect(canvas.getByText('Still cancelled, but the tool reported after the cancel: Done')).toBeVisible();
  },
});

export const FailedModelStopped = fixed(states['failed'] as unknown[], {
  play: async ({ canvasElement, canvas }) => {
    await expect(card(canvasElement).dataset['outcome']).toBe('failed');
    await expect(canvas.getByText('Stopped')).toBeVisible();
    await expect(canvas.getByText(/reached its output limit/)).toBeVisible();
  },
});

/** A failed result with its message, as runtimes that send one give it: the code, then why. */
export const SettledWithMessage = fixed([...(states['settledOk'] as unknown[]).slice(0, -1), { ...e.settled('c1', false, 'REJECTED'), message: 'declined by the user' }], {
  play: async ({ canvasElement, canvas }) => {
    await expect(card(canvasElement).dataset['outcome']).toBe('error');
    await expect(canvasElement.querySelector('[data-result]')).toHaveTextContent('Not run: the request was refused. Reason: declined by the user Change the request, or ask again if it should run. Code REJECTED');
    await expect(canvas.getByText('declined by the user')).toBeVisible();
  },
});

/** Final arguments that contradict the streamed text: the final ones are shown, with a warning in words. */
export const ArgumentsMismatch = fixed(
  [
    e.start('c1', { name: 'transfer', turnId: 'turn-1', location: 'server', risk: 'high' }),
    ...argumentDeltas('c1', JSON.stringify({ to: 'bob', amount: 5 })),
    pause(400),
    e.complete('c1', { to: 'mallory', amount: 5000000 }),
  ],
  {
    play: async ({ canvas }) => {
      const warning = canvas.getByRole('note');
      await expect(warning).toBeVisible();
      await expect(warning).toHaveTextContent('The final arguments differ from the text streamed before them.');
      await expect(canvas.getByText('mallory')).toBeVisible();
    },
  },
);

/** A key written twice: the preview showed the first value, the arguments end with the last. */
export const DuplicateKey = fixed(
  [e.start('c1', { name: 'transfer', turnId: 'turn-1', location: 'server', risk: 'high' }), ...argumentDeltas('c1', '{"amount":1,"to":"bob","amount":1000000}'), pause(300), e.complete('c1', '{"amount":1,"to":"bob","amount":1000000}')],
  {
    play: async ({ canvas }) => {
      await expect(canvas.getByRole('note')).toHaveTextContent('The key amount is written twice: the last value counts, not the first one shown.');
      await expect(canvas.getByText('1000000')).toBeVisible();
    },
  },
);

/** The call waits for a person: its badge says "Awaiting approval", never "Running", until they decide. */
export const AwaitingApproval = fixed(
  [
    ...callEvents('c1', { name: 'cancel_booking', arguments: { booking: 'H-5521' }, outcome: 'open', risk: 'high' }),
    (store: ToolStreamStore) => store.getState().markApproval('c1', { approval: 'awaiting' }),
  ],
  {
    play: async ({ canvasElement }) => {
      const badge = card(canvasElement).querySelector('.toolgate-badge');
      await waitFor(() => expect(badge).toHaveTextContent('Awaiting approval'));
      await expect(badge).toHaveAttribute('data-approval', 'awaiting');
      await expect(within(card(canvasElement)).queryByText('Running')).toBeNull();
    },
  },
);

/** A person answered in the tool's place ("Respond instead"): the call settles with their answer, marked as theirs. */
export const AnsweredByAPerson = fixed(
  [
    ...callEvents('c1', { name: 'lookup_customer', arguments: { email: 'ada@example.test' }, outcome: 'open' }),
    (store: ToolStreamStore) => store.getState().markApproval('c1', { approval: 'awaiting' }),
    (store: ToolStreamStore) => store.getState().markApproval('c1', { approval: 'responded' }),
    { type: 'tool.stream', phase: 'settled', callId: 'c1', ok: true, output: { name: 'Ada', plan: 'pro' }, answeredBy: 'person' },
  ],
  {
    play: async ({ canvasElement }) => {
      await waitFor(() => expect(card(canvasElement).dataset['status']).toBe('settled'));
      await expect(within(card(canvasElement)).getByText(/^Answered by a person/)).toBeVisible();
      await expect(card(canvasElement).querySelector('[data-answered-by="person"]')).not.toBeNull();
    },
  },
);

/** A person withdrew the request ("Withdraw request"): the card says Withdrawn, not Rejected or Cancelled. */
export const Withdrawn = fixed(
  [
    ...callEvents('c1', { name: 'cancel_booking', arguments: { booking: 'H-5521' }, outcome: 'open', risk: 'high' }),
    (store: ToolStreamStore) => store.getState().markApproval('c1', { approval: 'awaiting' }),
    (store: ToolStreamStore) => store.getState().markApproval('c1', { approval: 'cancelled' }),
    { type: 'tool.stream', phase: 'cancelled', callId: 'c1' },
  ],
  {
    play: async ({ canvasElement }) => {
      await waitFor(() => expect(card(canvasElement).dataset['status']).toBe('cancelled'));
      const badge = card(canvasElement).querySelector('.toolgate-badge');
      await expect(badge).toHaveTextContent('Withdrawn');
      await expect(within(card(canvasElement)).queryByText('Rejected')).toBeNull();
      await expect(within(card(canvasElement)).queryByText('Cancelled by the server')).toBeNull();
    },
  },
);

/** The server's gate pinned the version before it ran: the card shows the arguments that ran, marked. */
export const RanArgumentsRewritten = fixed(
  [
    ...callEvents('c1', { name: 'deploy_service', arguments: { service: 'billing', version: 'latest' }, outcome: 'open' }),
    (store: ToolStreamStore) => store.getState().markApproval('c1', { approval: 'awaiting' }),
    pause(900),
    (store: ToolStreamStore) => store.getState().markApproval('c1', { approval: 'approved', approvedArguments: { service: 'billing', version: '2.4.1' } }),
    pause(1500),
    e.settled('c1', true),
  ],
  {
    play: async ({ canvas }) => {
      const ran = canvas.getByRole('group', { name: 'Arguments that ran' });
      await expect(within(ran).getByText('2.4.1')).toBeVisible();
      await expect(canvas.getByText('Changed before it ran')).toBeVisible();
      await expect(within(canvas.getByRole('group', { name: 'Arguments' })).getByText('latest')).toBeVisible();
    },
  },
);

/** A person edited the amount before approving it: what ran is marked as edited. */
export const RanArgumentsEdited = fixed(
  [
    ...callEvents('c1', { name: 'send_payment', arguments: { to: 'ada@example.test', amount: 500 }, outcome: 'open' }),
    (store: ToolStreamStore) => store.getState().markApproval('c1', { approval: 'approved', approvedArguments: { to: 'ada@example.test', amount: 50 }, edited: true }),
    pause(1200),
    e.settled('c1', true),
  ],
  {
    play: async ({ canvas }) => {
      await expect(canvas.getByText('Edited before approval')).toBeVisible();
      await expect(within(canvas.getByRole('group', { name: 'Arguments that ran' })).getByText('50')).toBeVisible();
    },
  },
);

/** A web search whose runtime sends what it found so far, then the final result (AI SDK, AG-UI, hosted tools). */
const searchOutputs = {
  schema: { properties: { found: { title: 'Pages found' }, top: { title: 'Best match' } } },
  running: [
    e.start('c1', { name: 'web_search', turnId: 'turn-1', location: 'server', risk: 'low' }),
    ...argumentDeltas('c1', '{"query":"tides"}'),
    pause(300),
    e.complete('c1', { query: 'tides' }),
    pause(900),
    e.progress('c1', undefined, { output: { found: 2, top: 'tides.example/today' } }),
  ],
};

export const OutputPreliminary = fixed(searchOutputs.running, {
  args: { outputSchema: searchOutputs.schema },
  play: async ({ canvasElement, canvas }) => {
    const output = canvas.getByRole('group', { name: 'Output (Preliminary)' });
    await expect(within(output).getByText('Pages found')).toBeVisible();
    await expect(within(card(canvasElement)).getByText('Preliminary')).toBeVisible();
    await expect(card(canvasElement).dataset['status']).toBe('issued');
    // "Low risk" is a level of risk, not the same grey as the fact "Server tool".
    const low = within(card(canvasElement)).getByText('Low risk');
    const server = within(card(canvasElement)).getByText('Server tool');
    await expect(getComputedStyle(low).backgroundColor).not.toBe(getComputedStyle(server).backgroundColor);
    await expect(getComputedStyle(low, '::before').content).not.toBe('none');
  },
});

export const OutputFinal = fixed([...searchOutputs.running, e.settled('c1', true, undefined, { output: { found: 7, top: 'tides.example/week' } })], {
  args: { outputSchema: searchOutputs.schema },
  play: async ({ canvasElement, canvas }) => {
    const output = canvas.getByRole('group', { name: 'Output' });
    await expect(within(output).getByText('Best match')).toBeVisible();
    await expect(within(output).getByText('tides.example/week', { exact: false })).toBeVisible();
    await expect(within(card(canvasElement)).queryByText('Preliminary')).toBeNull();
  },
});

export const OutputLargeCollapsed = fixed(
  [...(states['settledOk'] as unknown[]).slice(0, -1), e.settled('c1', true, undefined, { output: Array.from({ length: 250 }, (_, i) => ({ flight: `TG${100 + i}`, fare: 180 + i })) })],
  {
    play: async ({ canvas }) => {
      await expect(canvas.queryByRole('group', { name: 'Output' })).toBeNull();
      const toggle = canvas.getByRole('button', { name: '250 items' });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await userEvent.click(toggle);
      await expect(canvas.getByRole('group', { name: 'Output' })).toBeVisible();
      await expect(canvas.getByText('TG100', { exact: false })).toBeVisible();
    },
  },
);

export const OutputNoneOnSettled = fixed([...searchOutputs.running, e.settled('c1', true)], {
  play: async ({ canvasElement, canvas }) => {
    await expect(card(canvasElement).dataset['status']).toBe('settled');
    await expect(canvas.queryByRole('group', { name: /^Output/ })).toBeNull();
  },
});
