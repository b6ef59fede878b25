import { StrictMode, useState } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  ConfirmToolDialog,
  ToolCallList,
  ToolgateProvider,
  createToolStreamStore,
  useAppTool,
  useConfirmationController,
  useHumanTool,
  type AppToolView,
  type ConfirmationController,
  type ToolRenderProps,
  type ToolStreamStore,
} from 'toolgate';
import { callEvents, createScriptedSession, type ScriptedSession } from 'toolgate/testing';

/** A renderer with state of its own: how often it was clicked. */
function Counter({ call }: ToolRenderProps) {
  const [n, setN] = useState(0);
  return (
    <button type="button" onClick={() => setN(n + 1)}>
      {call.callId} clicked {n}
    </button>
  );
}

interface Seen {
  echo?: AppToolView;
  controller?: ConfirmationController;
  replace?: (session: ScriptedSession, store: ToolStreamStore) => void;
}

function Tools({ seen }: { seen: Seen }) {
  seen.echo = useAppTool({ name: 'echo', run: (args) => args });
  useAppTool({ name: 'publish', confirm: true, run: () => 'published' });
  useHumanTool({ name: 'ask', render: ({ respond }) => <button onClick={() => respond('yes')}>Answer</button> });
  seen.controller = useConfirmationController();
  return null;
}

function App({ first, seen }: { first: { session: ScriptedSession; store: ToolStreamStore }; seen: Seen }) {
  const [current, setCurrent] = useState(first);
  seen.replace = (session, store) => setCurrent({ session, store });
  return (
    <ToolgateProvider session={current.session} store={current.store} renderers={{ count: Counter }}>
      <Tools seen={seen} />
      <ToolCallList throttleMs={0} />
      <ConfirmToolDialog />
    </ToolgateProvider>
  );
}

const emitAll = (session: ScriptedSession, events: readonly unknown[]) => act(() => events.forEach((event) => session.emit(event)));
const announcer = (container: HTMLElement) => container.querySelector('.toolgate-list > [role="status"]') as HTMLElement;

describe('a fresh session after closed', () => {
  it('takes a new session and store without a reload, and nothing of the old one leaks into it', async () => {
    const user = userEvent.setup();
    const seen: Seen = {};
    const old = { session: createScriptedSession(), store: createToolStreamStore() };
    const { container } = render(
      <StrictMode>
        <App first={old} seen={seen} />
      </StrictMode>,
    );

    // The old session: a call with a renderer that holds state, an app tool's result, an app
    // tool and a gated server tool waiting for approval, a person's input queued behind them.
    emitAll(old.session, callEvents('c1', { name: 'count', arguments: {}, outcome: 'open' }));
    await user.click(await screen.findByRole('button', { name: 'c1 clicked 0' }));
    // An app-tool call with a card that shows its output: the call id reused after the close.
    emitAll(old.session, callEvents('e1', { name: 'echo', arguments: { said: 'old' }, outcome: 'open', location: 'app' }));
    expect(await act(() => old.session.callTool({ callId: 'e1', name: 'echo', arguments: { said: 'old' } }))).toMatchObject({ ok: true });
    const oldOutput = await waitFor(() => within(screen.getByRole('article', { name: 'echo' })).getByRole('group', { name: 'Output' }));
    expect(oldOutput).toHaveTextContent('old');
    emitAll(old.session, callEvents('p1', { name: 'publish', arguments: {}, outcome: 'open', location: 'app' }));
    const published = old.session.callTool({ callId: 'p1', name: 'publish', arguments: {} });
    const asked = old.session.callTool({ callId: 'h1', name: 'ask', arguments: {} });
    emitAll(old.session, [{ type: 'tool.approval-request', requestId: 'r1', callId: 'g1', name: 'deploy', arguments: {}, risk: 'high' }]);
    await waitFor(() => expect(seen.controller?.getState().waiting).toBe(1));
    expect(seen.echo?.lastResult).not.toBeNull();
    await waitFor(() => expect(announcer(container).textContent).not.toBe(''));

    // It closes: open calls end INTERRUPTED, the list says so.
    act(() => old.session.close());
    expect(await published).toMatchObject({ code: 'INTERRUPTED' });
    expect(await asked).toMatchObject({ code: 'INTERRUPTED' });
    expect(container.querySelector('.toolgate-list-empty')).toHaveTextContent('Session closed');
    expect(announcer(container)).toHaveTextContent('Session closed');

    // A new session and store, in the same page.
    const next = { session: createScriptedSession(), store: createToolStreamStore() };
    act(() => seen.replace?.(next.session, next.store));

    expect(screen.getByText('No tool calls yet')).toBeInTheDocument();
    expect(announcer(container).textContent).toBe('');
    expect(seen.echo).toMatchObject({ status: 'idle', lastResult: null, registered: true, closed: false });
    expect(seen.controller?.getState()).toMatchObject({ current: null, waiting: 0 });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('group', { name: 'Awaiting approval' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Answer' })).toBeNull();
    const hello = await next.session.waitForMessage('hello');
    expect(hello.tools.map((tool) => tool.name)).toEqual(['echo', 'publish', 'ask']);

    // The same call id in the new session gets a new view, with state of its own.
    emitAll(next.session, callEvents('c1', { name: 'count', arguments: {}, outcome: 'open' }));
    expect(await screen.findByRole('button', { name: 'c1 clicked 0' })).toBeInTheDocument();
    // The call id whose card showed an output in the old session: its new card has none until
    // the new session's call runs.
    emitAll(next.session, callEvents('e1', { name: 'echo', arguments: { said: 'new' }, outcome: 'open', location: 'app' }));
    const card = await screen.findByRole('article', { name: 'echo' });
    expect(card).toHaveAttribute('data-status', 'issued');
    expect(within(card).queryByRole('group', { name: 'Output' })).toBeNull();
    expect(card).not.toHaveTextContent('old');
    // …and the new session works: its app tools run in the new host, and the card shows the new output.
    expect(await act(() => next.session.callTool({ callId: 'e1', name: 'echo', arguments: { said: 'new' } }))).toEqual({ ok: true, output: { said: 'new' } });
    expect(seen.echo?.lastResult?.result).toEqual({ ok: true, output: { said: 'new' } });
    const newOutput = await waitFor(() => within(screen.getByRole('article', { name: 'echo' })).getByRole('group', { name: 'Output' }));
    expect(newOutput).toHaveTextContent('new');
    expect(newOutput).not.toHaveTextContent('old');
  });
});
