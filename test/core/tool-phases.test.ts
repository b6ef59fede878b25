/**
 * One spec per phase (src/core/stream/tool-phases.ts): validation, the lifecycle table, the reducer and
 * the testing builders (with their defaults) follow it, so they cannot drift apart.
 */
import { describe, expect, it } from 'vitest';
import { TOOL_STREAM_PHASES } from 'toolgate/core';
import { toolEvents } from 'toolgate/testing';
import { CALL_TRANSITIONS } from '../../src/core/stream/call-lifecycle';
import { TOOL_CALL_STATUSES } from '../../src/core/stream/call-status';
import { TOOL_PHASES } from '../../src/core/stream/tool-phases';
import { validateToolEvent } from '../../src/core/stream/validate-event';
import { PHASE_DEFAULTS } from '../../src/testing/tool-events';

describe('one spec per phase', () => {
  it('has a spec for every phase of the wire, and for nothing else', () => {
    expect(Object.keys(TOOL_PHASES)).toEqual([...TOOL_STREAM_PHASES]);
  });

  it('is where the lifecycle table comes from: each phase moves a call exactly as its spec says', () => {
    for (const status of TOOL_CALL_STATUSES) {
      for (const phase of TOOL_STREAM_PHASES) {
        if (phase === 'start') continue;
        expect(CALL_TRANSITIONS[status][phase], `${status} -> ${phase}`).toBe(TOOL_PHASES[phase].moves[status]);
      }
    }
  });

  it.each(TOOL_STREAM_PHASES)('gives the testing builders a valid %s event from its defaults alone', (phase) => {
    const event = toolEvents.phase(phase, 'c1');
    expect(validateToolEvent(event)).toEqual({ kind: 'event', event });
  });

  it.each(TOOL_STREAM_PHASES)('validates exactly the fields the %s spec names: others are not copied', (phase) => {
    const event = { ...toolEvents.phase(phase, 'c1'), extra: 'not on the wire', approval: 'approved' };
    const checked = validateToolEvent(event);
    expect(checked.kind).toBe('event');
    expect(Object.keys((checked as { event: object }).event).sort()).toEqual(['type', 'phase', 'callId', ...Object.keys(PHASE_DEFAULTS[phase])].sort());
  });
});
