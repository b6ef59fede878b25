import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ToolCallList, ToolgateProvider, createToolStreamStore, type ToolCallListProps, type ToolStreamStore } from 'toolgate';
import { callEvents, toolEvents as e } from 'toolgate/testing';
import { cardsUnder, rowsUnder } from './tree-rows';

/** A research call whose sub-agent made three calls (one of them a call of its own), and a later call. */
function nestedSession(store: ToolStreamStore) {
  act(() => {
    const send = (events: unknown[]) => events.forEach((event) => store.getState().dispatch(event));
    send(callEvents('research', { name: 'research', turnId: 't1', arguments: { topic: 'tides' }, outcome: 'open' }));
    send([e.start('search', { name: 'web_search', turnId: 't1', parentCallId: 'research' }), e.complete('search', { q: 'tides' }), e.settled('search')]);
    send([e.start('fetch', { name: 'fetch_page', turnId: 't1', parentCallId: 'search' }), e.complete('fetch', { url: 'https://example.test' })]);
    send([e.start('notes', { name: 'write_notes', turnId: 't1', parentCallId: 'research' })]);
    send(callEvents('summary', { name: 'summarise', turnId: 't2', arguments: {}, outcome: { ok: true } }));
  });
}

function setup(props: ToolCallListProps = {}) {
  const store = createToolStreamStore();
  const view = render(
    <StrictMode>
      <ToolgateProvider store={store}>
        <ToolCallList announce={false} {...props} />
      </ToolgateProvider>
    </StrictMode>,
  );
  return { store, ...view };
}

const row = (name: string | RegExp) => screen.getByRole('row', { name });
const rowNames = () => screen.queryAllByRole('row').map((r) => r.getAttribute('aria-labelledby') ? (document.getElementById(r.getAttribute('aria-labelledby') as string)?.textContent ?? '') : (r.textContent ?? '').replace(/^[▾▸]\s*/, ''));
const positions = (r: HTMLElement) => ['aria-level', 'aria-posinset', 'aria-setsize'].map((a) => r.getAttribute(a)).join(' ');

describe('ToolCallList: calls nested under the call that made them', () => {
  it('shows the calls a sub-agent made under their parent, each row saying its level, place and siblings', async () => {
    const { store } = setup();
    nestedSession(store);
    const grid = screen.getByRole('treegrid', { name: 'Tool calls' });
    expect(grid).toHaveAttribute('aria-rowcount', '7');
    expect(rowNames()).toEqual(['Turn 1', 'research, Running', 'web_search, Done', 'fetch_page, Running', 'write_notes, Waiting', 'Turn 2', 'summarise, Done']);
    expect(positions(row('Turn 1'))).toBe('1 1 2');
    expect(positions(row('research, Running'))).toBe('2 1 1');
    expect(positions(row('web_search, Done'))).toBe('3 1 2');
    expect(positions(row('fetch_page, Running'))).toBe('4 1 1');
    expect(positions(row('write_notes, Waiting'))).toBe('3 2 2');
    expect(screen.getAllByRole('row').map((r) => r.getAttribute('aria-rowindex'))).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    // The open calls' cards are held steady for two frames before they are drawn.
    await waitFor(() => expect(cardsUnder(row('research, Running')).map((card) => card.dataset['status'])).toEqual(['settled', 'issued', 'pending']));
    expect(row('research, Running')).toHaveAttribute('aria-expanded', 'true');
    expect(row('write_notes, Waiting')).not.toHaveAttribute('aria-expanded');
  });

  it('closes and opens a call’s nested calls with its button, which says how many there are', async () => {
    const user = userEvent.setup();
    const { store } = setup();
    nestedSession(store);
    const research = row('research, Running');
    await user.click(within(research).getByRole('button', { name: '2 calls inside' }));
    expect(research).toHaveAttribute('aria-expanded', 'false');
    expect(rowsUnder(research)).toEqual([]);
    expect(screen.queryByRole('row', { name: /web_search/ })).toBeNull();
    await user.click(within(research).getByRole('button', { name: '2 calls inside' }));
    expect(rowsUnder(research)).toHaveLength(3);
  });

  it('starts with the calls of `defaultCollapsed` closed', () => {
    const { store } = setup({ defaultCollapsed: ['research'] });
    nestedSession(store);
    expect(row('research, Running')).toHaveAttribute('aria-expanded', 'false');
    expect(rowNames()).toEqual(['Turn 1', 'research, Running', 'Turn 2', 'summarise, Done']);
  });
});

describe('ToolCallList: the keyboard (one tab stop, arrow keys between rows)', () => {
  it('has one tab stop, the active row, and moves it with Up, Down, Home and End', async () => {
    const user = userEvent.setup();
    const { store } = setup();
    nestedSession(store);
    const tabStops = () => screen.getAllByRole('row').filter((r) => r.tabIndex === 0);
    expect(tabStops()).toEqual([row('Turn 1')]);
    await user.tab();
    expect(document.activeElement).toBe(row('Turn 1'));
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(row('web_search, Done'));
    expect(tabStops()).toEqual([row('web_search, Done')]);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(row('summarise, Done'));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(row('Turn 2'));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(row('Turn 1'));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(row('Turn 1'));
  });

  it('closes with Left, opens with Right, climbs to the parent with Left, and enters the cell with Right', async () => {
    const user = userEvent.setup();
    const { store } = setup();
    nestedSession(store);
    act(() => row('fetch_page, Running').focus());
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(row('web_search, Done'));
    await user.keyboard('{ArrowLeft}');
    expect(row('web_search, Done')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('row', { name: /fetch_page/ })).toBeNull();
    await user.keyboard('{ArrowRight}');
    expect(row('web_search, Done')).toHaveAttribute('aria-expanded', 'true');
    // Open, a leaf or an open row: Right moves into the row's cell (the card), Left back out.
    await user.keyboard('{ArrowRight}');
    const cell = within(row('web_search, Done')).getByRole('gridcell');
    expect(document.activeElement).toBe(cell);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(row('fetch_page, Running')).getByRole('gridcell'));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(row('fetch_page, Running'));
    // Left: to the parent, close it, to its parent, close that, to the turn.
    await user.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(row('Turn 1'));
    expect(row('research, Running')).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{Enter}');
    expect(row('Turn 1')).toHaveAttribute('aria-expanded', 'false');
    expect(rowNames()).toEqual(['Turn 1', 'Turn 2', 'summarise, Done']);
  });

  it('leaves keys inside a card to the card', async () => {
    const user = userEvent.setup();
    const { store } = setup();
    nestedSession(store);
    const button = within(row('research, Running')).getByRole('button', { name: '2 calls inside' });
    act(() => button.focus());
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(button);
  });

  it('hands the focus to the row now in its place when the focused row is filtered away', () => {
    const { store, rerender } = setup();
    nestedSession(store);
    act(() => row('web_search, Done').focus());
    rerender(
      <StrictMode>
        <ToolgateProvider store={store}>
          <ToolCallList announce={false} filter={{ name: 'notes' }} />
        </ToolgateProvider>
      </StrictMode>,
    );
    expect(rowNames()).toEqual(['Turn 1', 'research, Running', 'write_notes, Waiting']);
    expect(document.activeElement).toBe(row('write_notes, Waiting'));
  });
});

describe('ToolCallList: the filter', () => {
  it('shows only calls matching the tool name and status, with the calls that lead to them, and says how many match', async () => {
    const user = userEvent.setup();
    const { store } = setup({ filterControls: true });
    nestedSession(store);
    const search = screen.getByRole('search');
    await user.type(within(search).getByRole('searchbox', { name: 'Tool name' }), 'PAGE');
    expect(rowNames()).toEqual(['Turn 1', 'research, Running', 'web_search, Done', 'fetch_page, Running']);
    expect(row('research, Running')).toHaveAttribute('data-match', 'context');
    expect(row('fetch_page, Running')).not.toHaveAttribute('data-match');
    expect(within(search).getByRole('status')).toHaveTextContent('1 call of 5');
    await user.clear(within(search).getByRole('searchbox'));
    await user.selectOptions(within(search).getByRole('combobox', { name: 'Status' }), 'Done');
    expect(rowNames()).toEqual(['Turn 1', 'research, Running', 'web_search, Done', 'Turn 2', 'summarise, Done']);
    expect(within(search).getByRole('status')).toHaveTextContent('2 calls of 5');
  });

  it('follows a status that changes while filtered, and says when nothing matches', () => {
    const onFilterChange = () => {};
    const { store } = setup({ filterControls: true, defaultFilter: { statuses: ['settled'] }, onFilterChange });
    act(() => store.getState().dispatch(e.start('a', { name: 'write', turnId: 't1' })));
    expect(screen.getByText('No calls match the filter')).toBeInTheDocument();
    act(() => callEvents('a', { arguments: {}, outcome: { ok: true } }).slice(1).forEach((event) => store.getState().dispatch(event)));
    expect(rowNames()).toEqual(['Turn 1', 'write, Done']);
  });
});

describe('ToolCallList: long sessions', () => {
  it('mounts only the rows in view past `windowAfter`, each still saying its place among all', () => {
    const { store } = setup({ windowAfter: 50 });
    act(() => {
      for (let i = 0; i < 500; i++) store.getState().dispatch(e.start(`c${i}`, { name: `tool_${i}`, turnId: 't1' }));
    });
    const grid = screen.getByRole('treegrid');
    expect(grid).toHaveAttribute('data-windowed');
    expect(grid).toHaveAttribute('aria-rowcount', '501');
    const mounted = screen.getAllByRole('row');
    expect(mounted.length).toBeLessThan(20);
    expect(mounted[1]).toHaveAttribute('aria-setsize', '500');
    expect(mounted.map((r) => r.getAttribute('aria-rowindex'))).toEqual(mounted.map((_, i) => String(i + 1)));
  });

  it('loads the windowing past `windowAfter`, which then sizes the box for every row and keeps what it mounts', async () => {
    const { store } = setup({ windowAfter: 50 });
    act(() => {
      for (let i = 0; i < 500; i++) store.getState().dispatch(e.start(`c${i}`, { name: `tool_${i}`, turnId: 't1' }));
    });
    const rowgroup = screen.getByRole('treegrid').querySelector<HTMLElement>('[role="rowgroup"]') as HTMLElement;
    // One turn heading (40 px estimated) and 500 cards (180 px each), written by the windowing once loaded.
    await waitFor(() => expect(rowgroup.style.height).toBe(`${40 + 500 * 180}px`));
    const mounted = screen.getAllByRole('row');
    expect(mounted.length).toBeLessThan(20);
    expect(mounted[1]?.style.transform).toBe('translate3d(0, 40px, 0)');
  });

  it('keeps the rows it had mounted when a growing list starts windowing', () => {
    const { store } = setup({ windowAfter: 20 });
    act(() => {
      for (let i = 0; i < 10; i++) store.getState().dispatch(e.start(`c${i}`, { name: `tool_${i}`, turnId: 't1' }));
    });
    const first = row('tool_0, Waiting');
    expect(screen.getByRole('treegrid')).not.toHaveAttribute('data-windowed');
    act(() => {
      for (let i = 10; i < 40; i++) store.getState().dispatch(e.start(`c${i}`, { name: `tool_${i}`, turnId: 't1' }));
    });
    expect(screen.getByRole('treegrid')).toHaveAttribute('data-windowed');
    // The same element: the row (and the card's own state in it) was not mounted again.
    expect(row('tool_0, Waiting')).toBe(first);
  });

  it('mounts every row up to `windowAfter`', () => {
    const { store } = setup();
    act(() => {
      for (let i = 0; i < 29; i++) store.getState().dispatch(e.start(`c${i}`, { name: `tool_${i}`, turnId: 't1' }));
    });
    expect(screen.getByRole('treegrid')).not.toHaveAttribute('data-windowed');
    expect(screen.getAllByRole('row')).toHaveLength(30);
  });
});
