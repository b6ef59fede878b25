import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolTimeline, formatTime } from 'toolgate';
import { toolEvents as e } from 'toolgate/testing';
import { renderWith, timedStore } from './helpers';

describe('ToolTimeline', () => {
  it('lays calls out on one axis, coloured by outcome, each with a text equivalent', async () => {
    const start = Date.UTC(2025, 0, 1, 9);
    const { store, send, wait } = timedStore(start);
    renderWith(store, <ToolTimeline now={start + 4000} />);
    send(e.start('a', { name: 'search' }), e.delta('a', '{"q":'));
    await wait(500);
    send(e.complete('a', { q: 1 }), e.start('b', { name: 'fetch' }));
    await wait(1500);
    send(e.settled('a', true), e.complete('b', {}));
    await wait(1000);
    send(e.settled('b', false, 'TIMEOUT'), e.start('c', { name: 'open_call' }));

    const rows = within(screen.getByRole('figure', { name: /Timeline/ })).getAllByRole('listitem').slice(0, 3);
    expect(rows.map((row) => row.dataset.outcome)).toEqual(['ok', 'error', 'open']);
    expect(rows[0]).toHaveTextContent(`search: Done, started ${formatTime(start)}, arguments 500 ms, ran 1.5 sec`);
    expect(rows[1]).toHaveTextContent('fetch: Timed out, started');
    expect(rows[1]).toHaveTextContent('arguments 1.5 sec, ran 1 sec');
    // An open call runs to `now`: 1 s after it started, still writing its arguments.
    expect(rows[2]).toHaveTextContent('open_call: Waiting');
    expect(rows[2]).toHaveTextContent('arguments 1 sec');

    // Bars as fractions of the 4 s span.
    const [writing, running] = [...(rows[0] as HTMLElement).querySelectorAll<HTMLElement>('[data-phase]')];
    expect(writing?.style.width).toBe('12.5%');
    expect(running?.style.insetInlineStart).toBe('12.5%');
    expect(running?.style.width).toBe('37.5%');
    expect((rows[0] as HTMLElement).querySelector('.toolgate-timeline-track')).toHaveAttribute('aria-hidden', 'true');
  });
});

describe('ToolTimeline: nested calls', () => {
  it('lists each call a sub-agent made inside another right after it, one list deeper, with its name indented and its bar on the same axis', async () => {
    const start = Date.UTC(2025, 0, 1, 9);
    const { store, send, wait } = timedStore(start);
    renderWith(store, <ToolTimeline now={start + 4000} />);
    send(e.start('research', { name: 'research' }));
    await wait(1000);
    send(e.start('later', { name: 'later' }), e.start('search', { name: 'web_search', parentCallId: 'research' }));
    await wait(1000);
    send(e.start('fetch', { name: 'fetch_page', parentCallId: 'search' }), e.start('stray', { name: 'stray', parentCallId: 'not-a-call' }));

    const figure = screen.getByRole('figure', { name: /Timeline/ });
    const top = within(figure).getAllByRole('list')[0] as HTMLElement;
    const items = (list: HTMLElement) => [...list.children].filter((child) => child.tagName === 'LI') as HTMLElement[];
    const name = (item: HTMLElement) => item.querySelector('.toolgate-timeline-name')?.textContent;
    // Tree order: the calls made inside research come under it, before the call that began between them.
    expect(items(top).map(name)).toEqual(['research', 'later', 'stray']);
    const research = items(top)[0] as HTMLElement;
    const inside = research.querySelector(':scope > ol') as HTMLElement;
    expect(items(inside).map(name)).toEqual(['web_search']);
    const search = items(inside)[0] as HTMLElement;
    expect(search.style.getPropertyValue('--toolgate-depth')).toBe('1');
    const deeper = items(search.querySelector(':scope > ol') as HTMLElement)[0] as HTMLElement;
    expect(name(deeper)).toBe('fetch_page');
    expect(deeper.style.getPropertyValue('--toolgate-depth')).toBe('2');
    expect(research.style.getPropertyValue('--toolgate-depth')).toBe('');
    // One axis at every depth: fetch_page began at 2 s of the 4 s span.
    expect(deeper.querySelector<HTMLElement>('[data-phase]')?.style.insetInlineStart).toBe('50%');
  });
});
