import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ConfirmToolDialog,
  ToolCallList,
  ToolgateLabelsProvider,
  ToolgateProvider,
  defaultLabels,
  mergeLabels,
  useAppTool,
  useHumanTool,
  type ToolRenderProps,
  type ToolgateLabels,
} from 'toolgate';
import { callEvents, createScriptedSession, toolEvents as e, type ScriptedSession } from 'toolgate/testing';
import { englishWords, marker, markers, visibleText } from './label-markers';


const emitAll = (session: ScriptedSession, events: readonly unknown[]) => act(() => events.forEach((event) => session.emit(event)));

afterEach(() => vi.restoreAllMocks());

describe('labels of the customisation parts', () => {
  it('replace every string of the list, a card in each state, approvals, outputs, a broken view, a person’s input and the dialog', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const labels = markers(defaultLabels, 'L') as ToolgateLabels;
    const session = createScriptedSession();
    const Broken = (_: ToolRenderProps): never => {
      throw new Error('⟂');
    };
    function Tools() {
      useAppTool({ name: 'ko', run: () => ({ zz: [1, 2] }) });
      useHumanTool({ name: 'kh', render: ({ respond }) => <button onClick={() => respond(1)}>⟦✓⟧</button> });
      return null;
    }
    render(
      <StrictMode>
        <ToolgateProvider session={session}>
          <ToolgateLabelsProvider labels={labels}>
            <Tools />
            <ToolCallList throttleMs={0} renderers={{ kr: Broken }} />
            <ConfirmToolDialog />
          </ToolgateLabelsProvider>
        </ToolgateProvider>
      </StrictMode>,
    );
    // An app tool this page ran (its output), then one a person answers (its form holds the slot).
    emitAll(session, callEvents('o', { name: 'ko', arguments: {}, outcome: 'open', location: 'app' }));
    await act(() => session.callTool({ callId: 'o', name: 'ko', arguments: {} }));
    emitAll(session, [e.settled('o')]);
    emitAll(session, callEvents('h', { name: 'kh', arguments: {}, outcome: 'open', location: 'app' }));
    void session.callTool({ callId: 'h', name: 'kh', arguments: {} });
    // Two gated server calls: one shown in the dialog, one waiting its turn.
    for (const id of ['g', 'q']) {
      emitAll(session, callEvents(id, { name: `k${id}`, arguments: { n: 1 }, outcome: 'open', location: 'server', risk: 'high' }));
      emitAll(session, [{ type: 'tool.approval-request', requestId: `r${id}`, callId: id, name: `k${id}`, arguments: { n: 1 }, risk: 'high' }]);
    }
    // A view that throws, and calls in the other states.
    emitAll(session, callEvents('b', { name: 'kr', arguments: {}, outcome: 'open' }));
    emitAll(session, [e.start('p', { name: 'kp', turnId: 't2' }), e.start('s', { name: 'ks', turnId: 't2' }), e.delta('s', '{"zz": 1')]);
    emitAll(session, [...callEvents('i', { name: 'ki', turnId: 't2', arguments: {}, outcome: 'open' }), e.progress('i', { done: 1, total: 3 })]);
    for (const code of ['INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED', 'X_UNKNOWN']) {
      emitAll(session, callEvents(code, { name: `k${code.length}`, turnId: 't2', arguments: {}, outcome: { ok: false, code } }));
    }
    emitAll(session, [...callEvents('c', { name: 'kc', turnId: 't2', arguments: {}, outcome: 'cancelled' }), e.start('f', { name: 'kf', turnId: 't2' }), e.failed('f', '⟂')]);

    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    await screen.findByRole('button', { name: '⟦✓⟧', hidden: true });

    // Data, not labels: thrown messages, result codes, the fingerprint.
    const body = document.body.cloneNode(true) as HTMLElement;
    for (const data of body.querySelectorAll('.toolgate-card-note code, .toolgate-confirm-facts code')) data.remove();
    const words = englishWords();
    const seen = visibleText(body).toLowerCase().match(/[a-z]{3,}/g) ?? [];
    expect(seen.filter((word) => words.has(word))).toEqual([]);
    // …and the markers are there, as a check that the test sees the new labels at all.
    const shown = visibleText(document.body);
    for (const key of ['awaitingApproval', 'approvalQueued', 'output', 'renderFailed', 'personInput', 'confirm.approve', 'confirm.deny', 'confirm.title', 'confirm.status.reviewing', 'confirm.waiting', 'announce', 'status.issued', 'codes.TIMEOUT']) {
      expect(shown, key).toContain(marker.get(`L.${key}`));
    }
  }, 30_000);

  it('merge nested groups: one dialog status replaced keeps the others, and a second locale formats through Intl', async () => {
    const session = createScriptedSession();
    function Tools() {
      useAppTool({ name: 'publish', confirm: true, run: () => null });
      return null;
    }
    render(
      <StrictMode>
        <ToolgateProvider session={session} coalesce={false}>
          <ToolgateLabelsProvider labels={{ locale: 'fr-FR', awaitingApproval: 'En attente de validation', confirm: { approve: 'Valider', status: { reviewing: 'À vous de décider' } } }}>
            <ToolgateLabelsProvider labels={{ confirm: { deny: 'Refuser' }, took: (duration) => `Durée : ${duration}` }}>
              <Tools />
              <ToolCallList announce={false} />
              <ConfirmToolDialog />
            </ToolgateLabelsProvider>
          </ToolgateLabelsProvider>
        </ToolgateProvider>
      </StrictMode>,
    );
    const merged = mergeLabels(defaultLabels, { confirm: { status: { reviewing: 'À vous' } } });
    expect(merged.confirm.status).toEqual({ ...defaultLabels.confirm.status, reviewing: 'À vous' });
    expect(merged.confirm.approve).toBe('Approve');

    emitAll(session, callEvents('p1', { name: 'publish', arguments: { n: 1234.5 }, outcome: 'open', location: 'app' }));
    const result = session.callTool({ callId: 'p1', name: 'publish', arguments: { n: 1234.5 } });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByRole('status')).toHaveTextContent('À vous de décider'));
    expect(within(dialog).getByRole('button', { name: 'Valider' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Refuser' })).toBeInTheDocument();
    const card = await screen.findByRole('article', { name: 'publish', hidden: true });
    expect(within(card).getByRole('group', { name: 'En attente de validation', hidden: true })).toBeInTheDocument();
    act(() => within(card).getByRole('button', { name: 'Valider', hidden: true }).click());
    expect(await result).toEqual({ ok: true, output: null });
    emitAll(session, [e.settled('p1')]);
    // Durations through Intl in the locale: French writes "0 ms" and decimals with a comma.
    expect(within(card).getByText(/^Durée : \d+(,\d)?\s?(ms|s)$/)).toBeInTheDocument();
  });
});
