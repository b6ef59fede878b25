/**
 * Each state of a card is a sentence a person understands, with the next step where there is one
 * (docs/guarantees.md, "On the card"): the five failure codes, a cancel, a model that stopped, an
 * outcome after a cancel; a call waiting for a person shows no running clock; the time shown is
 * the time now whenever the card draws, not that of the last tick.
 */
import { Profiler } from 'react';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolCallCard, ToolgateLabelsProvider, defaultLabels } from 'toolgate';
import { callEvents, toolEvents as e } from 'toolgate/testing';
import { renderWith, timedStore } from './helpers';

const codes = ['INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED'] as const;

describe('a card says its state in words', () => {
  it('explains each failure code in its own sentence with a next step, and keeps the code last and small', () => {
    const { store, send } = timedStore();
    renderWith(
      store,
      <>
        {codes.map((code) => (
          <ToolCallCard key={code} callId={code} />
        ))}
      </>,
    );
    for (const code of codes) send(...callEvents(code, { name: `tool_${code.toLowerCase()}`, arguments: {}, outcome: { ok: false, code } }));
    const lines = codes.map((code) => screen.getByRole('article', { name: `tool_${code.toLowerCase()}` }).querySelector('[data-result]') as HTMLElement);
    const sentences = lines.map((line) => (line.querySelector('.toolgate-card-explain') as HTMLElement).textContent);
    expect(new Set(sentences).size).toBe(5);
    for (const [i, code] of codes.entries()) {
      expect(lines[i]?.textContent).toBe(`${defaultLabels.explain[code]} ${defaultLabels.next[code]} Code ${code}`);
      expect(lines[i]?.textContent).not.toMatch(/^Result/);
      expect(lines[i]?.lastElementChild?.className).toBe('toolgate-card-code');
    }
    expect(lines[3]?.textContent).toMatch(/^Timed out: no result came in time/);
  });

  it("gives the result's own message as the reason, between the sentence and the next step", () => {
    const { store, send } = timedStore();
    renderWith(store, <ToolCallCard callId="c1" />);
    send(...callEvents('c1', { name: 'send_email', arguments: {}, outcome: 'open' }), { ...e.settled('c1', false, 'REJECTED'), message: 'declined by the user' });
    const line = screen.getByRole('article').querySelector('[data-result]') as HTMLElement;
    expect(line.textContent).toBe('Not run: the request was refused. Reason: declined by the user Change the request, or ask again if it should run. Code REJECTED');
  });

  it('says what a cancel and a stop mean, and that a late outcome leaves the call cancelled', () => {
    const { store, send } = timedStore();
    renderWith(
      store,
      <>
        <ToolCallCard callId="here" />
        <ToolCallCard callId="stop" />
      </>,
    );
    send(...callEvents('here', { name: 'transfer', turnId: 't1', arguments: {}, outcome: 'open' }));
    send(e.start('stop', { name: 'write_file', turnId: 't2' }), e.delta('stop', '{"pa'), e.failed('stop', 'length limit'));
    act(() => store.getState().interrupt('t1'));
    send(e.settled('here', false, 'FAILED'));
    const here = screen.getByRole('article', { name: 'transfer' });
    expect(within(here).getByText('Cancelled here').parentElement?.textContent).toBe(`Cancelled here ${defaultLabels.cancelledWhy.local}`);
    expect(within(here).getByText(/^Still cancelled, but the tool reported after the cancel: Failed$/)).toBeInTheDocument();
    const stop = screen.getByRole('article', { name: 'write_file' });
    expect(stop.querySelector('[data-stopped]')?.textContent).toBe('The model stopped: length limit The call never ran: its arguments were not finished.');
  });

  it('takes the sentences from the labels', () => {
    const { store, send } = timedStore();
    renderWith(
      store,
      <ToolgateLabelsProvider labels={{ explain: { TIMEOUT: 'Zu langsam.' }, next: { TIMEOUT: 'Nochmal.' }, resultCode: 'Kode' }}>
        <ToolCallCard callId="c1" />
      </ToolgateLabelsProvider>,
    );
    send(...callEvents('c1', { arguments: {}, outcome: { ok: false, code: 'TIMEOUT' } }));
    expect(screen.getByRole('article').querySelector('[data-result]')?.textContent).toBe('Zu langsam. Nochmal. Kode TIMEOUT');
  });
});

describe('the time a card shows', () => {
  it('shows no running time while the call waits for a person, and counts again once approved', async () => {
    const { store, send, wait } = timedStore();
    renderWith(store, <ToolCallCard callId="c1" />);
    send(...callEvents('c1', { name: 'transfer', arguments: { amount: 5 }, outcome: 'open' }));
    act(() => store.getState().markApproval('c1', { approval: 'awaiting' }));
    await wait(3000);
    const card = await screen.findByRole('article', { name: 'transfer' });
    expect(card.querySelector('.toolgate-card-time')).toBeNull();
    expect(card.dataset.approval).toBe('awaiting');
    act(() => store.getState().markApproval('c1', { approval: 'approved', approvedArguments: { amount: 5 } }));
    expect(card.querySelector('.toolgate-card-time')).not.toBeNull();
  });

  it('reads the time now when the call changes between ticks: half a second of streaming reads 500 ms, not the time at the last tick', async () => {
    const { store, send, clock, wait } = timedStore();
    // steady={false}: this counts the clock's time, not when a new state is first drawn.
    renderWith(store, <ToolCallCard callId="p1" clock={clock} steady={false} />);
    send(e.start('p1', { name: 'research' }), e.delta('p1', '{"q": "ca'));
    // Less than the card's one-second tick: only the call's own change draws the card again.
    await wait(500);
    send(e.delta('p1', 'ts"}'), e.complete('p1', { q: 'cats' }));
    expect(screen.getByRole('article', { name: 'research' }).querySelector('.toolgate-card-time')?.textContent).toBe('500 ms so far');
  });

  it('reads the time now when only a fragment of the arguments arrives between ticks (the header is not drawn again for it)', async () => {
    const { store, send, clock, wait } = timedStore();
    renderWith(store, <ToolCallCard callId="f1" clock={clock} steady={false} />);
    send(e.start('f1', { name: 'writer' }), e.delta('f1', '{"text": "a'));
    const time = () => screen.getByRole('article', { name: 'writer' }).querySelector('.toolgate-card-time')?.textContent;
    expect(time()).toBe('0 ms so far');
    await wait(300);
    // Still streaming: the status, name and start are the same, only the arguments grew.
    send(e.delta('f1', 'bc'));
    expect(screen.getByRole('article', { name: 'writer' }).textContent).toContain('abc');
    expect(time()).toBe('300 ms so far');
  });

  it('counts the running time of fifty open calls with one timer and no render of their cards', async () => {
    const { store, send, clock, wait } = timedStore();
    const ids = Array.from({ length: 50 }, (_, i) => `c${i}`);
    let renders = 0;
    const timers: number[] = [];
    const counted = { ...clock, setTimeout: (callback: () => void, ms: number) => (timers.push(ms), clock.setTimeout(callback, ms)) };
    renderWith(
      store,
      <Profiler id="cards" onRender={() => renders++}>
        {ids.map((id) => (
          // steady={false}: this counts the timers and renders of the running time alone.
          <ToolCallCard key={id} callId={id} clock={counted} steady={false} />
        ))}
      </Profiler>,
    );
    send(...ids.map((id) => e.start(id, { name: `tool_${id}` })));
    const before = renders;
    const timersBefore = timers.length;
    await wait(3000);
    expect(renders).toBe(before);
    // One timer for all fifty, set again each second.
    expect(timers.length - timersBefore).toBe(3);
    for (const id of ids) expect(screen.getByRole('article', { name: `tool_${id}` }).querySelector('.toolgate-card-time')?.textContent).toBe('3 sec so far');
  });
});
