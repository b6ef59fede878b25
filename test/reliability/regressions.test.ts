// @vitest-environment node
/**
 * Minimal cases of bugs the reliability properties found, kept as plain tests so each stays
 * fixed on its own (the property that found it is named in each test).
 */
import { describe, expect, it } from 'vitest';
import { explainToolEvent, initialToolStreamState, stepToolEvent } from 'toolgate/core';

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
});
