/**
 * Outputs on the card (docs/protocol.md, "Rules of the stream": `settled` may carry `output` and `message`, `progress` a
 * preliminary `output` that replaces the last one): the output as a schema-aware tree like the
 * arguments, a preliminary one marked and shown only while the call runs, a large one collapsed
 * behind a button that says what it holds, a failure with its message, and nothing for a call
 * settled without one.
 */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ToolCallCard, ToolCallList, ToolCallOutput, createToolStreamStore, type ToolStreamStore } from 'toolgate';
import { callEvents, toolEvents as e } from 'toolgate/testing';
import { renderWith } from './helpers';

function storeOf(events: unknown[]): ToolStreamStore {
  const store = createToolStreamStore();
  for (const event of events) store.getState().dispatch(event);
  return store;
}

const open = (callId: string, name = 'web_search') => callEvents(callId, { name, arguments: { query: 'tides' }, outcome: 'open' });
const progress = (callId: string, output: unknown) => ({ type: 'tool.stream', phase: 'progress', callId, output });
const settled = (callId: string, fields: Record<string, unknown>) => ({ type: 'tool.stream', phase: 'settled', callId, ok: true, ...fields });
const outputGroup = () => screen.queryByRole('group', { name: /^Output/ });

describe('the output on a card', () => {
  it('shows a final output as a tree, with field labels from the output schema', () => {
    const store = storeOf([...open('c1'), settled('c1', { output: { hits: 3, top: { url: 'https://tides.example' } } })]);
    const schema = { properties: { hits: { title: 'Results found' }, top: { title: 'Best match' } } };
    renderWith(store, <ToolCallCard callId="c1" outputSchema={schema} />);
    const tree = within(outputGroup() as HTMLElement);
    expect(tree.getByText('Results found')).toBeInTheDocument();
    expect(tree.getByText('Best match')).toBeInTheDocument();
    expect(tree.getByText('https://tides.example', { exact: false })).toBeInTheDocument();
    expect(screen.queryByText('Preliminary')).toBeNull();
  });

  it('marks a preliminary output "Preliminary", replaces it with the next, and unmarks the final one', async () => {
    const store = storeOf([...open('c1'), progress('c1', { found: 1 })]);
    const { container } = renderWith(store, <ToolCallCard callId="c1" />);
    expect(await screen.findByRole('group', { name: /^Output/ })).toHaveAccessibleName('Output (Preliminary)');
    expect(within(container.querySelector('.toolgate-card-output') as HTMLElement).getByText('Preliminary')).toBeInTheDocument();
    expect(within(outputGroup() as HTMLElement).getByText('1')).toBeInTheDocument();

    act(() => store.getState().dispatch(progress('c1', { found: 2 })));
    expect(within(outputGroup() as HTMLElement).getByText('2')).toBeInTheDocument();
    expect(within(outputGroup() as HTMLElement).queryByText('1')).toBeNull();

    act(() => store.getState().dispatch(settled('c1', { output: { found: 5 } })));
    expect(outputGroup()).toHaveAccessibleName('Output');
    expect(within(outputGroup() as HTMLElement).getByText('5')).toBeInTheDocument();
    expect(screen.queryByText('Preliminary')).toBeNull();
  });

  it('shows no output for a call settled without one, even after preliminary ones', () => {
    const store = storeOf([...open('c1'), progress('c1', { found: 1 }), settled('c1', {})]);
    renderWith(store, <ToolCallCard callId="c1" />);
    expect(outputGroup()).toBeNull();
    expect(screen.queryByText('Preliminary')).toBeNull();
  });

  it('shows no output for a settled call of a server that sends none', () => {
    const store = storeOf(callEvents('c1', { name: 'send_email', arguments: { to: 'ada' } }));
    const { container } = renderWith(store, <ToolCallCard callId="c1" />);
    expect(outputGroup()).toBeNull();
    expect(container.querySelector('.toolgate-card-output')).toBeNull();
  });

  it('shows no preliminary output once the call is cancelled', async () => {
    const store = storeOf([...open('c1'), progress('c1', { found: 1 })]);
    renderWith(store, <ToolCallCard callId="c1" />);
    expect(await screen.findByRole('group', { name: /^Output/ })).not.toBeNull();
    act(() => store.getState().dispatch(e.cancelled('c1')));
    expect(outputGroup()).toBeNull();
  });

  it('collapses a large output behind a button that says what it holds, and opens it on request', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: i, name: `row ${i}` }));
    const store = storeOf([...open('c1', 'query_db'), settled('c1', { output: rows })]);
    renderWith(store, <ToolCallCard callId="c1" />);
    expect(outputGroup()).toBeNull();
    const button = screen.getByRole('button', { name: '300 items' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(button);
    expect(outputGroup()).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('keeps a small output open, and takes the threshold from collapseAbove', () => {
    const store = storeOf([...open('c1'), settled('c1', { output: { hits: 3 } })]);
    renderWith(store, <ToolCallOutput callId="c1" collapseAbove={4} />);
    expect(screen.getByRole('button', { name: '1 field' })).toBeInTheDocument();
    expect(outputGroup()).toBeNull();
  });

  it("shows a failure with its message and no output: Failed, reason: disk full", () => {
    const store = storeOf([...open('c1', 'write_file'), settled('c1', { ok: false, code: 'FAILED', message: 'disk full' })]);
    const { container } = renderWith(store, <ToolCallCard callId="c1" />);
    expect(container.querySelector('[data-result]')?.textContent).toBe('Failed: the tool ran and reported an error. Reason: disk full Try again once the cause is fixed. Code FAILED');
    expect(outputGroup()).toBeNull();
  });

  it('shows an output as text, never as markup', () => {
    const store = storeOf([...open('c1'), settled('c1', { output: { html: '<img src=x onerror=alert(1)>' } })]);
    const { container } = renderWith(store, <ToolCallCard callId="c1" />);
    expect(container.querySelector('img')).toBeNull();
    expect(within(outputGroup() as HTMLElement).getByText('<img src=x onerror=alert(1)>', { exact: false })).toBeInTheDocument();
  });

  it("gives each call in ToolCallList its own tool's output schema, by name and never from the prototype", () => {
    const store = storeOf([
      ...open('c1', 'web_search'),
      settled('c1', { output: { hits: 3 } }),
      ...open('c2', 'constructor'),
      settled('c2', { output: { hits: 4 } }),
    ]);
    const outputSchemas = { web_search: { properties: { hits: { title: 'Results found' } } } };
    renderWith(store, <ToolCallList outputSchemas={outputSchemas} announce={false} />);
    const [first, second] = screen.getAllByRole('group', { name: /^Output/ });
    expect(within(first!).getByText('Results found')).toBeInTheDocument();
    // `constructor` is not a tool in the map: its output keeps its own key for a label.
    expect(within(second!).queryByText('Results found')).toBeNull();
    expect(within(second!).getByText('hits', { exact: false })).toBeInTheDocument();
  });
});
