import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolStatusAnnouncer } from 'toolgate';
import { callEvents, toolEvents as e } from 'toolgate/testing';
import { renderWith, timedStore } from './helpers';

describe('ToolStatusAnnouncer', () => {
  it('announces status changes politely, at most once per throttle window, the rest together after it', async () => {
    const { store, clock, send, wait } = timedStore();
    renderWith(store, <ToolStatusAnnouncer clock={clock} throttleMs={1000} />);
    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveAttribute('aria-atomic', 'true');
    expect(region).toBeEmptyDOMElement();

    send(e.start('c1', { name: 'search' }));
    expect(region).toHaveTextContent('search: Waiting');

    // Fragments are not read out; the status they lead to is, once the window has passed.
    send(e.delta('c1', '{"q":'), e.delta('c1', '"cats"}'), e.complete('c1', { q: 'cats' }), e.start('c2', { name: 'fetch' }));
    expect(region).toHaveTextContent(/^search: Waiting$/);
    await wait(999);
    expect(region).toHaveTextContent(/^search: Waiting$/);
    await wait(1);
    expect(region).toHaveTextContent(/^search: Running\. fetch: Waiting$/);

    // Within the next window, a call's later status replaces its earlier one.
    send(e.settled('c1', false, 'TIMEOUT'));
    await wait(500);
    send(...callEvents('c2', { name: 'fetch', arguments: {} }).slice(1));
    await wait(500);
    expect(region).toHaveTextContent(/^search: Timed out\. fetch: Done$/);
  });

  it('announces a local cancel and the close of the session, and not calls that were already there', async () => {
    const { store, clock, send, wait } = timedStore();
    send(e.start('old', { name: 'earlier' }));
    renderWith(store, <ToolStatusAnnouncer clock={clock} throttleMs={1000} />);
    const region = screen.getByRole('status');
    send(e.start('c1', { name: 'transfer', turnId: 't9' }));
    expect(region).toHaveTextContent(/^transfer: Waiting$/);
    await wait(1000);
    act(() => store.getState().interrupt());
    expect(region).toHaveTextContent(/^earlier: Cancelled\. transfer: Cancelled$/);
    await wait(1000);
    send(e.closed());
    expect(region).toHaveTextContent(/^Session closed$/);
  });
});
