import { describe, expect, it } from 'vitest';
import { TOOL_RESULT_CODES, TOOL_STREAM_PHASES } from 'toolgate/core';

describe('the wire', () => {
  it('names the seven tool.stream phases in lifecycle order', () => {
    expect(TOOL_STREAM_PHASES).toEqual([
      'start', 'arguments-delta', 'arguments-complete', 'progress', 'settled', 'cancelled', 'failed',
    ]);
  });
  it('names the five failure codes of a tool result', () => {
    expect(TOOL_RESULT_CODES).toEqual(['INTERRUPTED', 'REJECTED', 'INVALID', 'TIMEOUT', 'FAILED']);
  });
});
