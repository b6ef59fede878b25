/**
 * A call that waits for a person reads "Awaiting approval", never "Running": on its card in the
 * list, in the timeline (words and bar), in the status announcer, and in `useAppTool`'s status.
 * Once the person decides, the call reads as what it then is.
 */
import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  ToolCallList,
  ToolStatusAnnouncer,
  ToolTimeline,
  ToolgateProvider,
  createToolStreamStore,
  useAppTool,
  useConfirmationController,
  type AppToolView,
  type ConfirmationController,
} from 'toolgate';
import { callEvents, createManualClock, createScriptedSession } from 'toolgate/testing';
import { renderWith, timedStore } from './helpers';

/** The status badge of the card of the one call named `name`. */
const badgeOf = (name: string) => within(screen.getByRole('article', { name: new RegExp(name) })).getByText(/./, { selector: '.toolgate-badge' });

describe('a call waiting for a person', () => {
  it('reads "Awaiting approval", never "Running", on its card in the list, then "Running" once approved', async () => {
    const store = createToolStreamStore();
    renderWith(store, <ToolCallList />);
    act(() => callEvents('c1', { name: 'transfer', arguments: { amount: 5 }, outcome: 'open' }).forEach((event) => store.getState().dispatch(event)));
    await waitFor(() => expect(badgeOf('transfer')).toHaveTextContent('Running'));
    act(() => store.getState().markApproval('c1', { approval: 'awaiting' }));
    expect(badgeOf('transfer')).toHaveTextContent('Awaiting approval');
    expect(badgeOf('transfer')).toHaveAttribute('data-approval', 'awaiting');
    expect(screen.queryByText('Running')).toBeNull();
    act(() => store.getState().markApproval('c1', { approval: 'approved', approvedArguments: { amount: 5 } }));
    expect(badgeOf('transfer')).toHaveTextContent('Running');
  });

  it('reads "Awaiting approval" in the timeline, with a waiting bar and no running time', async () => {
    const start = Date.UTC(2025, 0, 1, 9);
    const { store, send, wait } = timedStore(start);
    renderWith(store, <ToolTimeline now={start + 3000} />);
    send(...callEvents('c1', { name: 'transfer', arguments: { amount: 5 }, outcome: 'open' }));
    await wait(1000);
    act(() => store.getState().markApproval('c1', { approval: 'awaiting' }));
    const row = within(screen.getByRole('figure', { name: /Timeline/ })).getAllByRole('listitem')[0] as HTMLElement;
    expect(row).toHaveTextContent('transfer: Awaiting approval');
    expect(row).not.toHaveTextContent('Running');
    expect(row).not.toHaveTextContent(/ran \d/);
    expect(row.querySelector('[data-phase="running"]')).toBeNull();
    expect(row.querySelector('[data-phase="awaiting"]')).not.toBeNull();
    // The legend names the waiting bar.
    expect(within(screen.getByRole('figure', { name: /Timeline/ })).getByText('Awaiting approval', { selector: '.toolgate-timeline-legend *' })).toBeTruthy();
    act(() => store.getState().markApproval('c1', { approval: 'approved', approvedArguments: { amount: 5 } }));
    expect(row).toHaveTextContent('transfer: Running');
    expect(row.querySelector('[data-phase="running"]')).not.toBeNull();
  });

  it('is announced as "Awaiting approval", never "Running"', async () => {
    const store = createToolStreamStore();
    const clock = createManualClock();
    renderWith(store, <ToolStatusAnnouncer clock={clock} throttleMs={0} />);
    act(() => {
      for (const event of callEvents('c1', { name: 'transfer', arguments: {}, outcome: 'open' })) store.getState().dispatch(event);
      store.getState().markApproval('c1', { approval: 'awaiting' });
    });
    await act(() => clock.advance(10));
    expect(screen.getByRole('status')).toHaveTextContent('transfer: Awaiting approval');
    expect(screen.getByRole('status')).not.toHaveTextContent('Running');
  });
});

describe("useAppTool's status while its call waits for a person", () => {
  it('is "awaiting-approval", never "running", and the card in the list says so; after approval it runs', async () => {
    const session = createScriptedSession();
    const seen: { views: AppToolView['status'][]; view?: AppToolView; confirmations?: ConfirmationController } = { views: [] };
    let release!: () => void;
    const running = new Promise<void>((resolve) => (release = resolve));
    function Transfer() {
      const view = useAppTool({ name: 'transfer', confirm: true, run: () => running.then(() => 'sent') });
      seen.view = view;
      seen.views.push(view.status);
      seen.confirmations = useConfirmationController();
      return <p data-testid="status">{view.status}</p>;
    }
    render(
      <StrictMode>
        <ToolgateProvider session={session}>
          <Transfer />
          <ToolCallList />
        </ToolgateProvider>
      </StrictMode>,
    );
    act(() => callEvents('p1', { name: 'transfer', arguments: { amount: 500 }, outcome: 'open', location: 'app' }).forEach((event) => session.emit(event)));
    const result = session.callTool({ callId: 'p1', turnId: 't1', name: 'transfer', arguments: { amount: 500 } });
    await waitFor(() => expect(seen.confirmations?.getState().current).toMatchObject({ callId: 'p1', status: 'reviewing' }), { timeout: 10_000 });
    expect(seen.view).toMatchObject({ status: 'awaiting-approval', awaitingApproval: true, callId: 'p1' });
    // From the moment it waits for the person until they decide, it never reads "running".
    const waited = seen.views.slice(seen.views.indexOf('awaiting-approval'));
    expect(waited.length).toBeGreaterThan(0);
    expect(waited.every((status) => status === 'awaiting-approval')).toBe(true);
    expect(screen.getByTestId('status')).toHaveTextContent('awaiting-approval');
    expect(badgeOf('transfer')).toHaveTextContent('Awaiting approval');
    act(() => void seen.confirmations?.approve());
    await waitFor(() => expect(seen.view?.status).toBe('running'));
    expect(badgeOf('transfer')).toHaveTextContent('Running');
    release();
    await expect(result).resolves.toEqual({ ok: true, output: 'sent' });
    await waitFor(() => expect(seen.view?.status).toBe('idle'));
  }, 20_000);
});

describe("an app tool's call before it runs", () => {
  it('reads "Waiting its turn" behind another call of the page, then "Checking arguments" while its validator works, never "Running" until it runs', async () => {
    const session = createScriptedSession();
    let releaseRun!: () => void;
    const running = new Promise<void>((resolve) => (releaseRun = resolve));
    let releaseCheck!: () => void;
    const checked = new Promise<void>((resolve) => (releaseCheck = resolve));
    let checks = 0;
    // A validator that takes its time on the second call (an async refinement, say).
    const validate = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: async (value: unknown) => {
          if (++checks === 2) await checked;
          return { value: value as { n: number } };
        },
      },
    };
    function Work() {
      useAppTool({ name: 'work', validate, run: ({ n }) => (n === 1 ? running.then(() => 'first') : 'second') });
      return null;
    }
    render(
      <StrictMode>
        <ToolgateProvider session={session}>
          <Work />
          <ToolCallList />
        </ToolgateProvider>
      </StrictMode>,
    );
    const badges = () => screen.getAllByRole('article').map((card) => within(card).getByText(/./, { selector: '.toolgate-badge' }).textContent);
    act(() => {
      for (const [callId, n] of [['w1', 1], ['w2', 2]] as const) callEvents(callId, { name: 'work', arguments: { n }, outcome: 'open', location: 'app' }).forEach((event) => session.emit(event));
    });
    const first = session.callTool({ callId: 'w1', turnId: 't1', name: 'work', arguments: { n: 1 } });
    const second = session.callTool({ callId: 'w2', turnId: 't1', name: 'work', arguments: { n: 2 } });
    await waitFor(() => expect(badges()).toEqual(['Running', 'Waiting its turn']));
    expect(screen.getAllByText('Waiting its turn')[0]).toHaveAttribute('data-app-status', 'queued');
    releaseRun();
    await expect(first).resolves.toEqual({ ok: true, output: 'first' });
    // The server settles the first once it has the page's answer.
    act(() => session.emit({ type: 'tool.stream', phase: 'settled', callId: 'w1', ok: true }));
    await waitFor(() => expect(badges()).toEqual(['Done', 'Checking arguments']));
    releaseCheck();
    await expect(second).resolves.toEqual({ ok: true, output: 'second' });
    expect(badges()).toEqual(['Done', 'Running']);
  }, 20_000);
});
