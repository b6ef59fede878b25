import { act } from 'react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { describe, expect, it, vi } from 'vitest';
import { ToolgateProvider, createToolStreamStore, useToolCalls, type ToolStreamStore } from 'toolgate';
import { toolEvents as e } from 'toolgate/testing';

function Names() {
  const names = useToolCalls((s) => s.order.map((id) => `${s.calls[id]?.name}:${s.calls[id]?.status}`));
  return <p>{`calls[${names.join(',')}]`}</p>;
}
const App = ({ store }: { store: ToolStreamStore }) => (
  <ToolgateProvider store={store}>
    <Names />
  </ToolgateProvider>
);

// Tell React this is a test environment that wraps updates in act() (testing-library is not used here).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('server rendering', () => {
  it('renders the initial state on the server, then hydrates without a mismatch and goes live', async () => {
    const html = renderToString(<App store={createToolStreamStore()} />);
    expect(html).toContain('calls[]');

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.appendChild(container);
    const errors = vi.spyOn(console, 'error');
    const store = createToolStreamStore();
    // Events that arrived before hydration: the server snapshot still matches the HTML.
    store.getState().dispatch(e.start('c1', { name: 'search' }));
    await act(async () => {
      hydrateRoot(container, <App store={store} />);
    });
    expect(errors.mock.calls).toEqual([]);
    expect(container.textContent).toBe('calls[search:pending]');
    act(() => store.getState().dispatch(e.delta('c1', '{')));
    expect(container.textContent).toBe('calls[search:streaming]');
    container.remove();
  });
});
