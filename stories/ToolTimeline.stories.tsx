import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { ToolCallList, ToolTimeline } from 'toolgate';
import { eventScript, pause, toolEvents as e } from 'toolgate/testing';
import { nestedEvents, paced, sessionEvents } from './support/calls';
import { Fixed, Scripted } from './support/scenarios';

/**
 * The session's calls as bars over time: hatched while the model wrote the arguments (what
 * waited), solid while the call ran, coloured by how it ended. Each bar has a text equivalent.
 */
const meta = {
  title: 'Components/ToolTimeline',
  component: ToolTimeline,
  tags: ['autodocs'],
} satisfies Meta<typeof ToolTimeline>;
export default meta;
type Story = StoryObj<typeof meta>;

const session = [
  e.start('a', { name: 'search_flights' }),
  e.delta('a', '{"from":"LHR"'),
  pause(600),
  e.complete('a', { from: 'LHR' }),
  e.start('b', { name: 'get_weather' }),
  e.delta('b', '{"city":"Lisbon"}'),
  pause(300),
  e.complete('b', { city: 'Lisbon' }),
  pause(900),
  e.settled('b', true),
  e.start('c', { name: 'book_hotel' }),
  e.delta('c', '{"nights":'),
  pause(800),
  e.failed('c', 'stopped'),
  e.settled('a', false, 'TIMEOUT'),
  e.start('d', { name: 'send_email' }),
  e.complete('d', { to: 'ada@example.test' }),
  pause(500),
  e.cancelled('d'),
  e.start('f', { name: 'write_file' }),
  e.complete('f', { path: 'trip.md' }),
  pause(700),
];

export const Session: Story = {
  render: (args) => (
    <Fixed items={session}>
      <ToolTimeline {...args} />
    </Fixed>
  ),
  play: async ({ canvas }) => {
    const rows = within(canvas.getByRole('figure', { name: /^Timeline/ })).getAllByRole('listitem').filter((li) => li.dataset['status']);
    await expect(rows.map((row) => row.dataset['outcome'])).toEqual(['error', 'ok', 'failed', 'cancelled', 'open']);
    await expect(rows[0]).toHaveTextContent(/search_flights: Timed out, started .*, arguments 600 ms, ran 2 sec/);
    await expect(rows[1]).toHaveTextContent(/get_weather: Done, started .*, arguments 300 ms, ran 900 ms/);
    await expect(rows[2]).toHaveTextContent(/book_hotel: Stopped, started .*, arguments 800 ms$/);
  },
};

/** A scripted session played live beside its list: the bars grow as the calls run. */
export const Live: StoryObj<{ speed: number }> = {
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  render: ({ speed }) => (
    <Scripted script={() => eventScript(paced(sessionEvents(), 25))} speed={speed}>
      <ToolTimeline />
      <ToolCallList announce={false} />
    </Scripted>
  ),
  play: async ({ canvas }) => {
    const figure = canvas.getByRole('figure', { name: /^Timeline/ });
    await waitFor(() => expect(within(figure).getAllByRole('listitem').filter((li) => li.dataset['status'] === 'settled')).toHaveLength(4));
  },
};

/** Calls a sub-agent made inside another are listed under it, their names indented; bars keep one axis. */
export const NestedCalls: Story = {
  render: () => (
    <Fixed items={nestedEvents()}>
      <ToolTimeline />
    </Fixed>
  ),
  play: async ({ canvasElement }) => {
    const names = [...canvasElement.querySelectorAll('.toolgate-timeline-name')].map((name) => `${'  '.repeat(Number(getComputedStyle(name.closest('li') as Element).getPropertyValue('--toolgate-depth') || 0))}${name.textContent}`);
    await expect(names).toEqual(['research', '  web_search', '    fetch_page', '  write_notes', '  send_email', 'summarise']);
    const indent = (name: string) => parseFloat(getComputedStyle([...canvasElement.querySelectorAll<HTMLElement>('.toolgate-timeline-name')].find((el) => el.textContent === name) as HTMLElement).paddingInlineStart);
    await expect(indent('fetch_page')).toBeGreaterThan(indent('web_search'));
    await expect(indent('web_search')).toBeGreaterThan(indent('research'));
  },
};
