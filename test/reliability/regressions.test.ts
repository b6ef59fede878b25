// @vitest-environment node
/**
 * Minimal cases of bugs the reliability properties found, kept as plain tests so each stays
 * fixed on its own (the property that found it is named in each test).
 */
import { describe, expect, it } from 'vitest';
import { callOf, explainToolEvent, initialToolStreamState, reduceToolEvent, stepToolEvent, type ToolStreamState } from 'toolgate/core';
import { toolEvents as e } from 'toolgate/testing';

describe('found by the reducer property', () => {
  it('explainToolEvent never throws and agrees with the reducer on an event whose getter throws', () => {
    const state = initialToolStreamState();
    const hostile = {
      get type(): string {
        throw new Error('a getter that throws');
      },
    };
    expect(() => explainToolEvent(state, hostile)).not.toThrow();
    expect(explainToolEvent(state, hostile)).toEqual(stepToolEvent(state, hostile).verdict);
  });

  it('keeps a call the user cancelled while only previews showed it cancelled when its tool.stream start arrives', () => {
    const events = [
      e.preview('c1', '{"q": "ca', { turnId: 't1' }),
      { type: 'toolgate.interrupt', turnId: 't1' },
      e.start('c1', { turnId: 't1' }),
      e.delta('c1', '{"q": "cats"}'),
      e.complete('c1', { q: 'cats' }),
      e.settled('c1', true),
    ];
    const states = events.reduce<ToolStreamState[]>((all, event, i) => [...all, reduceToolEvent(all[i] as ToolStreamState, event, { now: i })], [
      initialToolStreamState(),
    ]);
    expect(callOf(states[2] as ToolStreamState, 'c1')?.status).toBe('cancelled');
    const last = callOf(states[6] as ToolStreamState, 'c1');
    // Terminal and sticky: the stream takes the call over, still cancelled here, with what was shown,
    // and the server's later outcome is kept as lateOutcome, never hidden.
    expect(last).toMatchObject({ source: 'stream', status: 'cancelled', cancelledBy: 'local', argumentsText: '{"q": "ca', lateOutcome: { ok: true } });
    expect(last?.partialArguments).toEqual({ q: 'ca' });
  });
});
