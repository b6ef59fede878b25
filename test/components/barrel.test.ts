import { describe, expect, it } from 'vitest';
import * as toolgate from 'toolgate';
import * as core from 'toolgate/core';

describe('the toolgate entry', () => {
  it('exports the components, their hooks and the labels', () => {
    for (const name of ['ToolCallList', 'ToolCallCard', 'ArgumentsPreview', 'ToolStatusBadge', 'ToolProgress', 'ToolTimeline', 'ToolStatusAnnouncer', 'ToolgateLabelsProvider', 'useLabels', 'defaultLabels', 'mergeLabels', 'useCallDuration', 'useStatusAnnouncer', 'useToolTimeline', 'readToolProgress']) {
      expect(toolgate, name).toHaveProperty(name);
    }
  });

  it('keeps toolgate/core free of them', () => {
    expect(core).not.toHaveProperty('ToolCallCard');
    expect(core).not.toHaveProperty('defaultLabels');
  });
});
