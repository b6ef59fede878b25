import { act } from 'react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ToolCallList, ToolTimeline, ToolgateProvider, createToolStreamStore, type ToolStreamStore } from 'toolgate';
import { callEvents, toolEvents as e } from 'toolgate/testing';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const App = ({ store }: { store: ToolStreamStore }) => (
  <ToolgateProvider store={store}>
    <ToolCallList />
    <ToolTimeline />
  </ToolgateProvider>
);

function filled(): ToolStreamStore {
  let now = 1_000;
  const store = createToolStreamStore({ now: () => (now += 100) });
  for (const event of [...callEvents('a', { name: 'done_call', arguments: { q: '<b>x</b>' } }), ...callEvents('b', { name: 'open_call', arguments: { n: 1 }, outcome: 'open' }), e.progress('b', 0.5)]) {
    store.getState().dispatch(event);
  }
  return store;
}

describe('components on the server', () => {
  it('render the initial state on the server, then hydrate a filled store without a mismatch and go live', async () => {
    const html = renderToString(<App store={createToolStreamStore()} />);
    expect(html).toContain('No tool calls yet');

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.appendChild(container);
    const errors = vi.spyOn(console, 'error');
    // Events that arrived before hydration, open calls included: the server snapshot still matches the HTML.
    const store = filled();
    await act(async () => {
      hydrateRoot(container, <App store={store} />);
    });
    expect(errors.mock.calls).toEqual([]);
    // The open call's card is new on the client, held steady for two frames before it is drawn.
    await waitFor(() => expect(container.querySelectorAll('article')).toHaveLength(2));
    expect(container.textContent).toContain('<b>x</b>');
    expect(container.querySelector('b')).toBeNull();
    container.remove();
    errors.mockRestore();
  });
});
