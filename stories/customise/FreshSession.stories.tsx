import { useEffect, useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ToolCallList, ToolgateProvider, createToolStreamStore, useAppTools } from 'toolgate';
import { createScriptedSession, type ScriptedSession } from 'toolgate/testing';
import { Frame, storySpeed } from '../support/scenarios';
import { TravelTools, appCall, gatedCall, renderers, serverCall, trip } from './support';

interface Args {
  /** How fast the scripted sessions play: 1 is real time (instant when run as a test). */
  speed: number;
}

/**
 * `closed` is final, and a new session gets a new store: hand the provider the new session (and,
 * when you make stores yourself, the new store) and the page carries on without a reload. Nothing
 * of the old session leaks into the new one: its calls, its app tools' results, approvals still
 * waiting, the announcer's last words, the state inside tool views.
 */
const meta = {
  title: 'Customise/A fresh session after closed',
  args: { speed: 1 },
  argTypes: { speed: { control: { type: 'range', min: 0.25, max: 8, step: 0.25 } } },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const first = () => [...appCall('f1', 'search_flights', trip), ...gatedCall('g1', 'cancel_hotel', { booking: 'H-5521' })];
const second = () => serverCall('w1', 'weather', { city: 'Oslo', days: 3 });

interface Current {
  number: number;
  session: ScriptedSession;
  store: ReturnType<typeof createToolStreamStore>;
}

const open = (number: number, speed: number): Current => ({
  number,
  session: createScriptedSession({ speed: storySpeed(speed) }),
  store: createToolStreamStore(),
});

/** The results each app tool holds: empty again in a new session. */
function Results() {
  const tools = useAppTools();
  const done = tools.filter((tool) => tool.lastResult !== null).map((tool) => tool.name);
  return <p data-testid="results">App tools with a result: {done.length ? done.join(', ') : 'none'}</p>;
}

function Page({ speed }: Args) {
  const [current, setCurrent] = useState(() => open(1, speed));
  useEffect(() => {
    // After the provider has wired the session (parents' effects run after their children's).
    void current.session.play(current.number === 1 ? first() : second());
    return () => current.session.stop();
  }, [current]);
  return (
    <ToolgateProvider session={current.session} store={current.store}>
      <Frame>
        <TravelTools />
        <div style={{ display: 'flex', gap: '0.5rem', alignItems: 'center' }}>
          <button type="button" className="toolgate-button" onClick={() => current.session.close()}>
            Close the session
          </button>
          <button type="button" className="toolgate-button" onClick={() => setCurrent(open(current.number + 1, speed))}>
            Start a new session
          </button>
          <span data-testid="session">Session {current.number}</span>
        </div>
        <Results />
        <ToolCallList renderers={renderers} />
      </Frame>
    </ToolgateProvider>
  );
}

/** A session with a flight search and an approval waiting is closed, then replaced by a new one. */
export const SessionReplacedAfterClose: Story = {
  render: ({ speed }) => <Page key={speed} speed={speed} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('article', { name: 'Flight LIS → OSL' });
    await canvas.findByRole('group', { name: 'Awaiting approval' });
    await waitFor(() => expect(canvas.getByTestId('results')).toHaveTextContent('search_flights'));

    await userEvent.click(canvas.getByRole('button', { name: 'Close the session' }));
    await expect(canvas.getByText('Session closed', { selector: '.toolgate-list-empty' })).toBeVisible();
    await expect(canvas.queryByRole('group', { name: 'Awaiting approval' })).toBeNull();

    await userEvent.click(canvas.getByRole('button', { name: 'Start a new session' }));
    await expect(canvas.getByTestId('session')).toHaveTextContent('Session 2');
    const weather = await canvas.findByRole('article', { name: 'weather' });
    await waitFor(() => expect(weather).toHaveAttribute('data-status', 'settled'));
    await expect(canvas.queryByRole('article', { name: 'Flight LIS → OSL' })).toBeNull();
    await expect(canvas.queryByRole('group', { name: 'Awaiting approval' })).toBeNull();
    await expect(canvas.getByTestId('results')).toHaveTextContent('none');
    await expect(canvasElement.querySelector('.toolgate-list > [role="status"]')?.textContent).not.toContain('Session closed');
  },
};
