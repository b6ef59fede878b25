import { StrictMode, useState } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ToolCallList,
  ToolgateProvider,
  createToolStreamStore,
  defineToolRenderer,
  useAppTool,
  type ToolRenderProps,
} from 'toolgate';
import { callEvents, createScriptedSession, toolEvents as e } from 'toolgate/testing';
import { renderWith } from './helpers';

const flight = z.object({ from: z.string(), to: z.string(), passengers: z.number().int() });

/** Shows what it was given, as text: the state of the call, partial and final arguments, the result. */
const FlightCard = defineToolRenderer(flight, ({ call, partialArguments, arguments: args, argumentsError, result }) => (
  <article aria-label={`flight ${call.callId}`}>
    <p data-testid="status">{call.status}</p>
    <p data-testid="partial">{partialArguments ? `${partialArguments.from ?? '?'}→${partialArguments.to ?? '?'}` : 'none'}</p>
    <p data-testid="final">{args ? `${args.from}→${args.to} ×${args.passengers}` : 'none'}</p>
    {argumentsError && <p data-testid="invalid">{argumentsError}</p>}
    {result?.ok && <p data-testid="output">{JSON.stringify(result.output)}</p>}
  </article>
));

const of = (label: string) => within(screen.getByRole('article', { name: label }));

afterEach(() => vi.restoreAllMocks());

describe('per-tool renderers', () => {
  it('give a tool its own view of the live call: partial arguments while streaming, then the checked final arguments', async () => {
    const store = createToolStreamStore();
    const send = (...events: unknown[]) => act(() => events.forEach((event) => store.getState().dispatch(event)));
    renderWith(store, <ToolCallList renderers={{ search_flights: FlightCard }} />);
    send(e.start('f1', { name: 'search_flights' }), e.delta('f1', '{"from": "LIS", "to": "OS'));
    // Each new running state is held steady for two frames before the view gets it.
    await waitFor(() => expect(of('flight f1').getByTestId('status')).toHaveTextContent('streaming'));
    expect(of('flight f1').getByTestId('partial')).toHaveTextContent('LIS→OS');
    expect(of('flight f1').getByTestId('final')).toHaveTextContent('none');
    send(e.delta('f1', 'L", "passengers": 2}'), e.complete('f1', { from: 'LIS', to: 'OSL', passengers: 2 }));
    await waitFor(() => expect(of('flight f1').getByTestId('status')).toHaveTextContent('issued'));
    expect(of('flight f1').getByTestId('final')).toHaveTextContent('LIS→OSL ×2');
  });

  it('withhold complete arguments that fail the schema, and say why', async () => {
    const store = createToolStreamStore();
    for (const event of callEvents('f1', { name: 'search_flights', arguments: { from: 'LIS', to: 7 }, outcome: 'open' })) store.getState().dispatch(event);
    renderWith(store, <ToolCallList renderers={{ search_flights: FlightCard }} />);
    await screen.findByRole('article', { name: 'flight f1' });
    expect(of('flight f1').getByTestId('final')).toHaveTextContent('none');
    expect(of('flight f1').getByTestId('invalid')).toHaveTextContent(/arguments\.to/);
    expect(of('flight f1').getByTestId('invalid')).toHaveTextContent(/arguments\.passengers/);
  });

  it("show the default card for a tool without one, and prefer the list's renderer to the provider's", () => {
    const store = createToolStreamStore();
    for (const event of [...callEvents('a', { name: 'search_flights', arguments: { from: 'A', to: 'B', passengers: 1 } }), ...callEvents('b', { name: 'weather', arguments: { city: 'Oslo' } }), ...callEvents('c', { name: 'note', arguments: {} })]) {
      store.getState().dispatch(event);
    }
    const FromProvider = (props: ToolRenderProps) => <p>provider view of {props.call.name}</p>;
    const FromList = (props: ToolRenderProps) => <p>list view of {props.call.name}</p>;
    render(
      <StrictMode>
        <ToolgateProvider store={store} renderers={{ weather: FromProvider, note: FromProvider }}>
          <ToolCallList announce={false} renderers={{ search_flights: FlightCard, note: FromList }} />
        </ToolgateProvider>
      </StrictMode>,
    );
    expect(of('flight a').getByTestId('final')).toHaveTextContent('A→B ×1');
    expect(screen.getByText('provider view of weather')).toBeInTheDocument();
    expect(screen.getByText('list view of note')).toBeInTheDocument();
    // No renderer anywhere: the default card, named by its tool.
    const store2 = createToolStreamStore();
    for (const event of callEvents('d', { name: 'unknown_tool', arguments: { x: 1 } })) store2.getState().dispatch(event);
    renderWith(store2, <ToolCallList announce={false} renderers={{ search_flights: FlightCard }} />);
    expect(screen.getByRole('article', { name: 'unknown_tool' })).toHaveAttribute('data-status', 'settled');
  });

  it('show an error card (tool name and message as text) for a renderer that throws, keep the other calls, and try again when the call changes', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const store = createToolStreamStore();
    const send = (...events: unknown[]) => act(() => events.forEach((event) => store.getState().dispatch(event)));
    const Broken = ({ call }: ToolRenderProps) => {
      if (call.status !== 'settled') throw new Error(`no fares for ${call.callId} yet`);
      return <p>fares for {call.callId}</p>;
    };
    renderWith(store, <ToolCallList renderers={{ search_flights: FlightCard, fares: Broken }} />);
    send(...callEvents('f1', { name: 'search_flights', arguments: { from: 'A', to: 'B', passengers: 1 }, outcome: 'open' }));
    send(...callEvents('x1', { name: 'fares', arguments: {}, outcome: 'open' }));
    send(...callEvents('n1', { name: 'note', arguments: { text: 'hi' } }));

    const broken = await screen.findByRole('article', { name: 'fares' });
    await screen.findByRole('article', { name: 'flight f1' });
    expect(broken).toHaveAttribute('data-state', 'render-error');
    expect(broken).toHaveTextContent('The view of fares failed');
    expect(within(broken).getByText('no fares for x1 yet')).toBeInTheDocument();
    // The rest of the list is untouched.
    expect(of('flight f1').getByTestId('final')).toHaveTextContent('A→B ×1');
    expect(screen.getByRole('article', { name: 'note' })).toHaveAttribute('data-status', 'settled');
    expect(errors).toHaveBeenCalled();

    // The call moves on: the view is tried again and now renders.
    send(e.settled('x1'));
    expect(screen.queryByRole('article', { name: 'fares' })).toBeNull();
    expect(screen.getByText('fares for x1')).toBeInTheDocument();
  });

  it("show the output of an app tool this page ran, on the default card and to its renderer, each call its own", async () => {
    const session = createScriptedSession();
    function Tools() {
      useAppTool({ name: 'search_flights', validate: flight, run: ({ to, passengers }) => ({ fares: [to, passengers * 100] }) });
      useAppTool({ name: 'pick', run: (args) => ({ picked: args['n'] }) });
      return null;
    }
    render(
      <StrictMode>
        <ToolgateProvider session={session} coalesce={false}>
          <Tools />
          <ToolCallList announce={false} renderers={{ search_flights: FlightCard }} />
        </ToolgateProvider>
      </StrictMode>,
    );
    const run = async (callId: string, name: string, args: Record<string, unknown>) => {
      act(() => callEvents(callId, { name, arguments: args, outcome: 'open', location: 'app' }).forEach((event) => session.emit(event)));
      await act(() => session.callTool({ callId, name, arguments: args }));
      act(() => session.emit(e.settled(callId)));
    };
    await run('f1', 'search_flights', { from: 'LIS', to: 'OSL', passengers: 2 });
    await run('p1', 'pick', { n: 1 });
    await run('p2', 'pick', { n: 2 });
    expect(of('flight f1').getByTestId('output')).toHaveTextContent('{"fares":["OSL",200]}');
    // The host keeps only a tool's latest result; the card of the older call still shows its own.
    const cards = screen.getAllByRole('article', { name: 'pick' });
    expect(within(cards[0] as HTMLElement).getByRole('group', { name: 'Output' })).toHaveTextContent(/picked\W*1/);
    expect(within(cards[1] as HTMLElement).getByRole('group', { name: 'Output' })).toHaveTextContent(/picked\W*2/);
  });

  it('keep a renderer’s own state while its call streams', async () => {
    const user = userEvent.setup();
    const store = createToolStreamStore();
    const send = (...events: unknown[]) => act(() => events.forEach((event) => store.getState().dispatch(event)));
    const Counter = ({ call }: ToolRenderProps) => {
      const [n, setN] = useState(0);
      return (
        <button type="button" onClick={() => setN(n + 1)}>
          {call.callId} clicked {n}
        </button>
      );
    };
    renderWith(store, <ToolCallList announce={false} renderers={{ count: Counter }} />);
    send(e.start('k1', { name: 'count' }), e.delta('k1', '{"a":'));
    await user.click(await screen.findByRole('button', { name: 'k1 clicked 0' }));
    send(e.delta('k1', '1}'), e.complete('k1', { a: 1 }));
    expect(screen.getByRole('button', { name: 'k1 clicked 1' })).toBeInTheDocument();
  });
});
