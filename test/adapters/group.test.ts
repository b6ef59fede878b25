import { describe, expect, it } from 'vitest';
import type { ToolStreamEvent } from 'toolgate/core';
import { group } from './group';

const start = (callId: string, name: string): ToolStreamEvent => ({ type: 'tool.stream', phase: 'start', callId, turnId: 't', name });

describe('the group() test helper', () => {
  it('records a second start for the same call instead of replacing the call', () => {
    const events: ToolStreamEvent[] = [
      start('a', 'first'),
      { type: 'tool.stream', phase: 'arguments-delta', callId: 'a', delta: '{}' },
      start('a', 'second'),
    ];
    const grouped = group(events);
    expect(grouped.repeatedStarts).toEqual([events[2]]);
    // The call keeps what it had, so nothing the first start brought is hidden.
    expect(grouped.calls).toHaveLength(1);
    expect(grouped.calls[0]).toMatchObject({ name: 'first', deltas: ['{}'] });
    expect(grouped.calls[0]!.events.map((e) => e.phase)).toEqual(['start', 'arguments-delta', 'start']);
  });

  it('records no repeated start when every call starts once', () => {
    expect(group([start('a', 'x'), start('b', 'y')]).repeatedStarts).toEqual([]);
  });
});
