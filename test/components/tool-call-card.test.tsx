import { Profiler } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolCallCard, ToolCallList, createToolStreamStore } from 'toolgate';
import { callEvents, toolEvents as e } from 'toolgate/testing';
import { renderWith, timedStore } from './helpers';
import { cardsUnder } from './tree-rows';

describe('ToolCallCard', () => {
  it('re-renders only for its own call while 50 calls stream', () => {
    const store = createToolStreamStore();
    const dispatch = (event: unknown) => act(() => store.getState().dispatch(event));
    const ids = Array.from({ length: 50 }, (_, i) => `c${i}`);
    for (const id of ids) {
      store.getState().dispatch(e.start(id, { name: `tool_${id}` }));
      store.getState().dispatch(e.delta(id, '{"items":['));
    }
    const commits = new Map<string, number>();
    renderWith(
      store,
      <ToolCallList
        windowAfter={Infinity}
        renderCall={(id) => (
          <Profiler id={id} onRender={(profiled) => commits.set(profiled, (commits.get(profiled) ?? 0) + 1)}>
            <ToolCallCard callId={id} />
          </Profiler>
        )}
      />,
    );
    commits.clear();

    // Every call streams, one event at a time: each card commits once per fragment of its own.
    for (let round = 0; round < 3; round++) for (const id of ids) dispatch(e.delta(id, `${round},`));
    for (const id of ids) expect(commits.get(id)).toBe(3);

    // Only c7 streams: no other card commits at all.
    commits.clear();
    for (let i = 0; i < 5; i++) dispatch(e.delta('c7', '1,'));
    expect([...commits]).toEqual([['c7', 5]]);
  }, 30_000);

  it('shows argument strings holding HTML or script as text, creating no element from them', async () => {
    const store = createToolStreamStore();
    const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script><b>bold</b>';
    for (const event of callEvents('c1', { name: 'write_note', arguments: { [hostile]: hostile, list: [hostile] }, chunk: 7, outcome: 'open' })) {
      store.getState().dispatch(event);
    }
    const { container } = renderWith(store, <ToolCallCard callId="c1" />);
    await screen.findByRole('article', { name: 'write_note' });
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(container.textContent).toContain(hostile);
    expect(within(container).getAllByText(hostile)).toHaveLength(3); // the key, the value and the array item
  });

  it('shows argument text that is not JSON raw, under a clear marker', async () => {
    const store = createToolStreamStore();
    store.getState().dispatch(e.start('c1', { name: 'search' }));
    store.getState().dispatch(e.delta('c1', '{"q": "cats"} and then <b>prose</b>'));
    const { container } = renderWith(store, <ToolCallCard callId="c1" />);
    const args = await screen.findByRole('group', { name: 'Arguments' });
    expect(args.dataset.state).toBe('invalid');
    expect(within(args).getByText('Not valid JSON')).toBeInTheDocument();
    expect(container.querySelector('pre')?.textContent).toBe('{"q": "cats"} and then <b>prose</b>');
    expect(container.querySelector('b')).toBeNull();
  });

  it('shows the status, result code and time taken of a settled failure', async () => {
    const { store, send, wait } = timedStore();
    renderWith(store, <ToolCallCard callId="c1" />);
    send(...callEvents('c1', { name: 'fetch_page', arguments: { url: 'https://example.test' }, outcome: 'open' }));
    await wait(1500);
    send(e.settled('c1', false, 'TIMEOUT'));
    const card = screen.getByRole('article', { name: 'fetch_page' });
    expect(card.dataset.outcome).toBe('error');
    expect(within(card).getByText('Timed out').dataset.code).toBe('TIMEOUT');
    expect(within(card).getByText('TIMEOUT').tagName).toBe('CODE');
    expect(within(card).getByText('Took 1.5 sec')).toBeInTheDocument();
  });

  it('says who cancelled, and shows an outcome that arrived after a local cancel', () => {
    const { store, send } = timedStore();
    renderWith(
      store,
      <>
        <ToolCallCard callId="here" />
        <ToolCallCard callId="there" />
      </>,
    );
    send(...callEvents('here', { name: 'transfer', turnId: 't1', arguments: {}, outcome: 'open' }));
    send(...callEvents('there', { name: 'lookup', turnId: 't2', arguments: {}, outcome: 'cancelled' }));
    act(() => store.getState().interrupt('t1'));
    const here = screen.getByRole('article', { name: 'transfer' });
    expect(within(here).getByText('Cancelled here')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'lookup' })).getByText('Cancelled by the server')).toBeInTheDocument();
    send(e.settled('here', true));
    expect(here.dataset.status).toBe('cancelled');
    expect(within(here).getByText('Still cancelled, but the tool reported after the cancel: Done')).toBeInTheDocument();
  });

  it("shows the model's reason when it stopped writing the arguments", () => {
    const { store, send } = timedStore();
    renderWith(store, <ToolCallCard callId="c1" />);
    send(e.start('c1', { name: 'search' }), e.delta('c1', '{"q": "ca'), e.failed('c1', 'max tokens reached'));
    const card = screen.getByRole('article', { name: 'search' });
    expect(within(card).getByText('Stopped')).toBeInTheDocument();
    expect(within(card).getByText('max tokens reached')).toBeInTheDocument();
    expect(within(card).getByText('ca')).toBeInTheDocument();
  });

  it('shows progress only while the call runs', async () => {
    const { store, send } = timedStore();
    renderWith(store, <ToolCallCard callId="c1" />);
    send(...callEvents('c1', { arguments: {}, outcome: 'open' }), e.progress('c1', { done: 2, total: 8 }));
    expect(await screen.findByRole('progressbar', { name: 'Progress' })).toHaveAttribute('value', '0.25');
    send(e.settled('c1'));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});

describe('ToolCallList', () => {
  it('lists calls in order, grouped by turn, and says when there are none or the session closed', async () => {
    const store = createToolStreamStore();
    renderWith(store, <ToolCallList />);
    expect(screen.getByRole('region', { name: 'Tool calls' })).toHaveTextContent('No tool calls yet');
    act(() => {
      for (const [id, turnId] of [['a', 't1'], ['b', 't2'], ['c', 't1']] as const) store.getState().dispatch(e.start(id, { name: `n_${id}`, turnId }));
    });
    // New calls' cards are held steady for two frames before they are drawn.
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    // A turn is a row of the list's tree; its calls are the rows under it.
    const turns = screen.getAllByRole('row', { name: /^Turn/ });
    expect(turns.map((t) => cardsUnder(t).map((a) => a.getAttribute('data-status')))).toHaveLength(2);
    expect(cardsUnder(turns[0] as HTMLElement).map((a) => within(a).getByText(/^n_/).textContent)).toEqual(['n_a', 'n_c']);
    expect(cardsUnder(turns[1] as HTMLElement).map((a) => a.textContent)).toEqual([expect.stringContaining('n_b')]);
    expect(screen.getByText('Turn 1')).toBeInTheDocument();
    act(() => store.getState().dispatch(e.closed()));
    expect(screen.getByRole('region', { name: 'Tool calls' })).toHaveTextContent('Session closed');
    expect(screen.queryByRole('article')).toBeNull();
  });

  it('marks calls built from legacy previews, and groups those without a turn apart', async () => {
    const store = createToolStreamStore();
    renderWith(store, <ToolCallList />);
    act(() => store.getState().dispatch(e.preview('p1', '{"city": "Par', { name: 'weather' })));
    const card = await screen.findByRole('article', { name: 'weather' });
    expect(card.dataset.source).toBe('preview');
    expect(within(card).getByText('Preview')).toBeInTheDocument();
    expect(cardsUnder(screen.getByRole('row', { name: 'Other calls' }))).toEqual([card]);
  });
});
