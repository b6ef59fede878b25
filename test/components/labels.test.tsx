import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import {
  ArgumentsPreview,
  ToolCallList,
  ToolTimeline,
  ToolgateLabelsProvider,
  ToolgateProvider,
  defaultLabels,
  mergeLabels,
  type ToolgateLabels,
  type ToolgateLabelsOverride,
} from 'toolgate';
import { callEvents, toolEvents as e } from 'toolgate/testing';
import { timedStore } from './helpers';
import { englishWords, marker, markers, visibleText } from './label-markers';


describe('labels', () => {
  it('replace every string the kit shows, in every state', async () => {
    const user = userEvent.setup();
    const labels = markers(defaultLabels, 'L') as ToolgateLabels;
    const { store, send, wait } = timedStore();
    const schema = { properties: { zq: { title: 'Zq' } }, required: ['zq', 'vv'] };
    const { container } = render(
      <StrictMode>
        <ToolgateProvider store={store}>
          <ToolgateLabelsProvider labels={labels}>
            <ToolCallList schemas={{ kp: schema }} />
            <ToolTimeline now={Date.UTC(2025, 0, 1, 9, 1)} />
            <ArgumentsPreview value={{ xs: Array.from({ length: 300 }, (_, i) => i), s: 'q'.repeat(500) }} />
          </ToolgateLabelsProvider>
        </ToolgateProvider>
      </StrictMode>,
    );
    // A legacy preview first: once the session speaks tool.stream, previews are ignored.
    send(e.preview('pv', '{"zz": 1', { name: 'kv' }));
    send(e.start('p', { name: 'kp', location: 'app', risk: 'high' }));
    send(e.start('s', { name: 'ks', risk: 'medium', location: 'server' }), e.delta('s', '{"zz": "q'));
    send(...callEvents('i', { name: 'ki', turnId: 't2', arguments: { n: 1 }, outcome: 'open' }), e.progress('i', { done: 1, total: 3 }));
    send(...callEvents('j', { name: 'kj', turnId: 't2', arguments: [], outcome: 'open' }), e.progress('j', 'zzz'));
    send(...callEvents('ok', { name: 'kk', arguments: { a: [1, { b: null }] } }));
    for (const code of ['INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED', 'X_UNKNOWN']) {
      send(...callEvents(code, { name: `k${code.length}`, arguments: {}, outcome: { ok: false, code } }));
    }
    send(...callEvents('cs', { name: 'kc', arguments: {}, outcome: 'cancelled' }));
    send(...callEvents('late', { name: 'kl', turnId: 't3', arguments: {}, outcome: 'open' }));
    act(() => store.getState().interrupt('t3'));
    send(e.settled('late', false, 'FAILED'));
    send(e.start('f', { name: 'kf' }), e.delta('f', '{"zz": 1'), e.failed('f', 'zzz'));
    send(e.start('bad', { name: 'kb' }), e.delta('bad', '{"a": 1} zz'));
    await wait(1500);

    // Open the disclosures, so that their expanded labels show too.
    // Each toggle is named after its field (labels.toggleOf), which says the summary (items, characters) too.
    for (const toggle of screen.getAllByRole('button', { name: marker.get('L.toggleOf') as string })) await user.click(toggle);
    expect(screen.getByRole('button', { name: marker.get('L.showAll') as string })).toBeInTheDocument();

    const words = englishWords();
    // Data, not labels: the parser's reason for invalid JSON (the core's diagnostic) and the wire's result codes.
    for (const data of container.querySelectorAll('.toolgate-args-error span, .toolgate-card-note code')) data.remove();
    const seen = visibleText(container).toLowerCase().match(/[a-z]{3,}/g) ?? [];
    expect(seen.filter((word) => words.has(word))).toEqual([]);
    // …and the markers are there: a few of them, as a check that the test sees the labels at all.
    const shown = visibleText(container);
    for (const key of ['status.pending', 'codes.TIMEOUT', 'unknownCode', 'cancelledBy.local', 'cancelledBy.server', 'lateOutcome', 'modelStopped', 'notJson', 'rawText', 'pendingField', 'took', 'elapsed', 'progressOf', 'timelineRow', 'turn', 'noTurn', 'announce', 'legacyPreview', 'location.app', 'risk.high', 'showMore', 'showLess']) {
      expect(shown, key).toContain(marker.get(`L.${key}`));
    }
  }, 30_000);

  it('merge one level deep and nest, each provider over the one above', () => {
    const fr: ToolgateLabelsOverride = { locale: 'fr-FR', status: { settled: 'Terminé' } };
    expect(mergeLabels(defaultLabels, fr).status).toEqual({ ...defaultLabels.status, settled: 'Terminé' });
    const { store, send } = timedStore();
    render(
      <ToolgateProvider store={store}>
        <ToolgateLabelsProvider labels={fr}>
          <ToolgateLabelsProvider labels={{ codes: { TIMEOUT: 'Délai dépassé' } }}>
            <ToolCallList announce={false} />
          </ToolgateLabelsProvider>
        </ToolgateLabelsProvider>
      </ToolgateProvider>,
    );
    send(...callEvents('a', { name: 'one', arguments: { n: 12345.5 } }), ...callEvents('b', { name: 'two', arguments: {}, outcome: { ok: false, code: 'TIMEOUT' } }));
    expect(screen.getByText('Terminé')).toBeInTheDocument();
    expect(screen.getByText('Délai dépassé')).toBeInTheDocument();
    expect(screen.getAllByText(/^Took 0 ms$/)).toHaveLength(2);
  });
});
