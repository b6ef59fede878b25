import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolProgress, defaultLabels, readToolProgress } from 'toolgate';

describe('ToolProgress', () => {
  it.each([
    [{ done: 3, total: 10 }, 0.3, '3 of 10'],
    [{ current: 2, max: 4, message: 'page 2' }, 0.5, '2 of 4 · page 2'],
    [{ completed: 12, total: 10 }, 1, '12 of 10'],
    [0.25, 0.25, undefined],
    [1, 1, undefined],
    [0, 0, undefined],
    [{ fraction: 0.5, stage: 'upload' }, 0.5, 'upload'],
    [{ progress: 0.1 }, 0.1, undefined],
    [{ step: 2, of: 5, stage: 'linking' }, 0.4, '2 of 5 · linking'],
  ])('is determinate for %j', (progress, value, text) => {
    expect(readToolProgress(progress, defaultLabels)).toEqual({ value, text });
  });

  it.each([
    [undefined, undefined],
    [null, undefined],
    ['Uploading…', 'Uploading…'],
    [{ stage: 'fetching' }, 'fetching'],
    [{ done: 5, total: 0 }, '{"done":5,"total":0}'],
    [{ weird: [1, 2] }, '{"weird":[1,2]}'],
    [[1, 2, 3], '[1,2,3]'],
    [-5, '-5'],
    [150, '150'],
    ['<b>150%</b>', '<b>150%</b>'],
    [{ done: 3 }, '{"done":3}'],
    [{ progress: 42 }, '{"progress":42}'],
  ])('is indeterminate for %j, shown as text', (progress, text) => {
    expect(readToolProgress(progress, defaultLabels)).toEqual({ value: undefined, text });
  });

  // Issue: a bare number above 1 is a count as often as a percentage ("3 files"), so only done/total
  // or a 0..1 fraction draws a determinate bar; a number that gives neither is shown as it is.
  it.each([
    [3, '3'],
    [42, '42'],
    [100, '100'],
    [1.5, '1.5'],
    ['42%', '42%'],
    [{ percent: 80 }, '{"percent":80}'],
    [{ percent: 80, message: 'Uploading' }, 'Uploading'],
  ])('never reads %j as a percentage: indeterminate, shown as text', (progress, text) => {
    expect(readToolProgress(progress, defaultLabels)).toEqual({ value: undefined, text });
  });

  it('draws no bar for a count of 3, and says 3 beside an indeterminate bar', () => {
    const { container } = render(
      <StrictMode>
        <ToolProgress progress={3} />
      </StrictMode>,
    );
    const root = container.firstElementChild as HTMLElement;
    const bar = container.querySelector('progress') as HTMLProgressElement;
    expect(root.dataset.state).toBe('indeterminate');
    expect(bar).not.toHaveAttribute('value');
    expect(bar).toHaveAttribute('aria-valuetext', '3');
    expect(root).toHaveTextContent(/^3$/);
  });

  it('bounds the text of a huge value of unknown shape, and survives values JSON cannot encode', () => {
    expect(readToolProgress({ blob: 'x'.repeat(10_000) }, defaultLabels).text).toHaveLength(201);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(readToolProgress(cyclic, defaultLabels)).toEqual({ value: undefined, text: '[object Object]' });
    expect(readToolProgress({ n: 10n }, defaultLabels).value).toBeUndefined();
  });

  it('renders a determinate bar with its text, or an indeterminate one', () => {
    const { container, rerender } = render(
      <StrictMode>
        <ToolProgress progress={{ done: 1, total: 4 }} />
      </StrictMode>,
    );
    const root = container.firstElementChild as HTMLElement;
    const bar = container.querySelector('progress') as HTMLProgressElement;
    expect(root.dataset.state).toBe('loading');
    expect(bar).toHaveAttribute('value', '0.25');
    expect(bar).toHaveAttribute('aria-valuetext', '25%, 1 of 4');
    expect(bar).toHaveAccessibleName('Progress');
    expect(root).toHaveTextContent('1 of 4');

    rerender(
      <StrictMode>
        <ToolProgress progress={{ odd: '<script>alert(1)</script>' }} className="mine" style={{ width: 10 }} />
      </StrictMode>,
    );
    expect(root.dataset.state).toBe('indeterminate');
    expect(root).toHaveClass('toolgate-progress', 'mine');
    expect(root.style.width).toBe('10px');
    expect(container.querySelector('progress')).not.toHaveAttribute('value');
    expect(container.querySelector('script')).toBeNull();
    expect(root).toHaveTextContent('{"odd":"<script>alert(1)</script>"}');

    rerender(
      <StrictMode>
        <ToolProgress progress={1} />
      </StrictMode>,
    );
    expect(root.dataset.state).toBe('complete');
  });
});
