/**
 * Cards say what happened (docs/protocol.md, "On the card", "The wire"): the result's message beside its
 * code, a warning when the final arguments contradict the streamed text or a key is written
 * twice, and, for a settled call whose arguments were edited or rewritten before they ran, the
 * arguments that ran, marked as such.
 */
import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolCallCard, ToolgateProvider, createAppToolHost, createToolStreamStore, type ToolStreamStore } from 'toolgate';
import { callEvents, createScriptedSession, toolEvents as e } from 'toolgate/testing';
import { renderWith } from './helpers';

function storeOf(events: unknown[], then?: (store: ToolStreamStore) => void): ToolStreamStore {
  const store = createToolStreamStore();
  for (const event of events) store.getState().dispatch(event);
  then?.(store);
  return store;
}

const note = (container: HTMLElement, selector: string) => container.querySelector(selector) as HTMLElement | null;

describe('ToolCallCard says what happened', () => {
  it("shows the result's message as the reason, beside the code's sentence: REJECTED, declined by the user", () => {
    const store = storeOf([...callEvents('c1', { name: 'send_email', arguments: { to: 'ada' }, outcome: 'open' }), { ...e.settled('c1', false, 'REJECTED'), message: 'declined by the user' }]);
    const { container } = renderWith(store, <ToolCallCard callId="c1" />);
    expect(note(container, '[data-result]')?.textContent).toBe('Not run: the request was refused. Reason: declined by the user Change the request, or ask again if it should run. Code REJECTED');
    expect(within(note(container, '[data-result]') as HTMLElement).getByText('REJECTED').tagName).toBe('CODE');
  });

  it("shows only the code's sentence when the result has no message (some agent runtimes send none)", () => {
    const store = storeOf(callEvents('c1', { arguments: {}, outcome: { ok: false, code: 'TIMEOUT' } }));
    const { container } = renderWith(store, <ToolCallCard callId="c1" />);
    expect(note(container, '[data-result]')?.textContent).toBe('Timed out: no result came in time, so the call was stopped. It may have had an effect: check before trying again. Code TIMEOUT');
  });

  it('warns, in words, when the final arguments contradict the streamed text, and shows the final ones', async () => {
    const store = storeOf([e.start('c1', { name: 'pay' }), e.delta('c1', '{"to":"bob","amount":5}'), e.complete('c1', { to: 'mallory', amount: 5000000 })]);
    const { container } = renderWith(store, <ToolCallCard callId="c1" />);
    const warning = await screen.findByRole('note');
    expect(warning.dataset.warning).toBe('arguments-mismatch');
    expect(warning.textContent).toBe('The final arguments differ from the text streamed before them. The final arguments are shown.');
    expect(within(screen.getByRole('group', { name: 'Arguments' })).getByText('mallory')).toBeInTheDocument();
    expect(container.textContent).not.toContain('bob');
  });

  it('warns of a key written twice, naming where, from the moment it repeats', async () => {
    const store = storeOf([e.start('c1', { name: 'pay' }), e.delta('c1', '{"amount":1,"to":"bob",')]);
    const { container } = renderWith(store, <ToolCallCard callId="c1" />);
    await screen.findByRole('article', { name: /pay/ });
    expect(note(container, '[data-warning]')).toBeNull();
    act(() => store.getState().dispatch(e.delta('c1', '"amount":1000000}')));
    expect(screen.getByRole('note').textContent).toBe('The key amount is written twice: the last value counts, not the first one shown.');
  });

  it('shows the arguments that ran, marked "Changed before it ran", when the gate rewrote them', () => {
    const store = storeOf(callEvents('d1', { name: 'deploy', arguments: { version: 'latest' }, outcome: 'open' }), (s) => {
      s.getState().markApproval('d1', { approval: 'approved', approvedArguments: { version: '2.4.1' } });
      s.getState().dispatch(e.settled('d1', true));
    });
    const { container } = renderWith(store, <ToolCallCard callId="d1" />);
    const ran = note(container, '[data-ran]') as HTMLElement;
    expect(ran.dataset.ran).toBe('rewritten');
    expect(within(ran).getByText('Changed before it ran')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Arguments that ran' })).getByText('2.4.1')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Arguments' })).getByText('latest')).toBeInTheDocument();
  });

  it('marks arguments a person edited "Edited before approval"', () => {
    const store = storeOf(callEvents('p1', { name: 'pay', arguments: { amount: 500 }, outcome: 'open' }), (s) => {
      s.getState().markApproval('p1', { approval: 'approved', approvedArguments: { amount: 50 }, edited: true });
      s.getState().dispatch(e.settled('p1', true));
    });
    const { container } = renderWith(store, <ToolCallCard callId="p1" />);
    expect((note(container, '[data-ran]') as HTMLElement).dataset.ran).toBe('edited');
    expect(screen.getByText('Edited before approval')).toBeInTheDocument();
  });

  it('shows no second set of arguments when what ran is what the model wrote, or before the call settled', () => {
    const same = storeOf(callEvents('a', { arguments: { b: 1, a: 2 }, outcome: 'open' }), (s) => {
      s.getState().markApproval('a', { approval: 'approved', approvedArguments: { a: 2, b: 1 } });
      s.getState().dispatch(e.settled('a', true));
    });
    expect(note(renderWith(same, <ToolCallCard callId="a" />).container, '[data-ran]')).toBeNull();
    const running = storeOf(callEvents('r', { arguments: { v: 1 }, outcome: 'open' }), (s) => s.getState().markApproval('r', { approval: 'approved', approvedArguments: { v: 2 } }));
    expect(note(renderWith(running, <ToolCallCard callId="r" />).container, '[data-ran]')).toBeNull();
  });
});

describe("ToolCallCard and an app tool this page ran", () => {
  it("shows the validator's message for INVALID beside the code, when the server's settled gives none", async () => {
    const session = createScriptedSession();
    const host = createAppToolHost();
    host.register({ name: 'set_title', validate: z.object({ title: z.string() }), run: () => 'set' });
    const { container } = render(
      <ToolgateProvider session={session} host={host} coalesce={false}>
        <ToolCallCard callId="a1" />
      </ToolgateProvider>,
    );
    act(() => {
      for (const event of callEvents('a1', { name: 'set_title', location: 'app', arguments: { title: 5 }, outcome: 'open' })) session.emit(event);
    });
    const result = await act(() => session.callTool({ callId: 'a1', turnId: 'turn-1', name: 'set_title', arguments: { title: 5 } }));
    expect(result).toMatchObject({ ok: false, code: 'INVALID' });
    act(() => session.emit(e.settled('a1', false, 'INVALID')));
    const line = note(container, '[data-result]') as HTMLElement;
    expect(line.textContent).toBe(`Not run: the arguments did not match what the tool accepts. Reason: ${(result as { message: string }).message} The model can try again with corrected arguments. Code INVALID`);
    expect((result as { message: string }).message).toMatch(/title/);
  });
});
