import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useMemo, useRef, useState } from 'react';
import { expect, userEvent, waitFor } from 'storybook/test';
import { ToolCallCard, ToolgateProvider, createToolStreamStore } from 'toolgate';
import { toolEvents as e } from 'toolgate/testing';

/**
 * No flashing, the default (no `steady` prop anywhere): a call that starts and ends within a frame
 * or two shows its end only; a call that runs longer shows "Running" first. The line under the card
 * lists every status the card ever had in the page, as a MutationObserver saw it, and keeps the
 * card's height at each of those commits (`data-heights`): one height means no layout jump.
 */
function SteadyPage() {
  const store = useMemo(() => createToolStreamStore(), []);
  const [calls, setCalls] = useState<string[]>([]);
  const [seen, setSeen] = useState<string[]>([]);
  const [heights, setHeights] = useState<number[]>([]);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = box.current;
    if (root === null) return;
    const note = (status: string | null | undefined) => status && setSeen((all) => (all[all.length - 1] === status ? all : [...all, status]));
    const measure = () => {
      const card = root.querySelector('article');
      if (card === null) return;
      const height = Math.round(card.getBoundingClientRect().height);
      setHeights((all) => (all.includes(height) ? all : [...all, height]));
    };
    // Each commit, as it happens: a status that was in the page for one commit is caught too.
    const observer = new MutationObserver((records) => {
      measure();
      for (const record of records) {
        if (record.type === 'attributes') note((record.target as HTMLElement).dataset['status']);
        else for (const node of record.addedNodes) if (node instanceof HTMLElement && node.tagName === 'ARTICLE') note(node.dataset['status']);
      }
    });
    observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
    return () => observer.disconnect();
  }, []);
  const start = (id: string) => {
    setSeen([]);
    setHeights([]);
    setCalls([id]);
    store.getState().dispatch(e.start(id, { name: 'read_file' }));
    store.getState().dispatch(e.delta(id, '{"path":"notes.txt"}'));
    store.getState().dispatch(e.complete(id, { path: 'notes.txt' }));
  };
  const quick = () => {
    const id = `quick-${Date.now()}`;
    start(id);
    // The answer comes in the next task, as a second WebSocket frame would: within the same frame.
    queueMicrotask(() => store.getState().dispatch(e.settled(id, true)));
  };
  return (
    <ToolgateProvider store={store}>
      <p>
        <button type="button" className="toolgate-button" onClick={quick}>
          Run a quick call
        </button>{' '}
        <button type="button" className="toolgate-button" onClick={() => start(`slow-${Date.now()}`)}>
          Start a slow call
        </button>{' '}
        <button type="button" className="toolgate-button" onClick={() => calls[0] && store.getState().dispatch(e.settled(calls[0], true))}>
          Finish it
        </button>
      </p>
      <div ref={box}>
        {calls.map((id) => (
          <ToolCallCard key={id} callId={id} />
        ))}
      </div>
      <p data-testid="seen" data-heights={heights.join(' ')}>
        Statuses shown: {seen.join(', ') || 'none yet'}</p>
    </ToolgateProvider>
  );
}

const meta = {
  title: 'Components/SteadyCards',
  component: SteadyPage,
  parameters: { layout: 'padded' },
} satisfies Meta<typeof SteadyPage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A call whose start and end arrive together: the card appears settled, never running. */
export const QuickCall: Story = {
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Run a quick call' }));
    await waitFor(() => expect(canvas.getByRole('article', { name: 'read_file' })).toHaveAttribute('data-status', 'settled'));
    await expect(canvas.getByTestId('seen')).toHaveTextContent(/^Statuses shown: settled$/);
    // Every commit that touched the card saw it at one height: no layout jump.
    await expect(canvas.getByTestId('seen').dataset['heights']).toMatch(/^\d+$/);
  },
};

/** A call that runs longer than two frames: "Running" first, then its end. */
export const SlowCall: Story = {
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Start a slow call' }));
    await waitFor(() => expect(canvas.getByRole('article', { name: 'read_file' })).toHaveAttribute('data-status', 'issued'));
    await userEvent.click(canvas.getByRole('button', { name: 'Finish it' }));
    await waitFor(() => expect(canvas.getByRole('article', { name: 'read_file' })).toHaveAttribute('data-status', 'settled'));
    await expect(canvas.getByTestId('seen')).toHaveTextContent(/^Statuses shown: issued, settled$/);
  },
};
