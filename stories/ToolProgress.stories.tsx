import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { ToolProgress } from 'toolgate';
import { Frame } from './support/scenarios';

/**
 * Progress is application data of any shape. Determinate only when it gives `done`/`total` or a
 * 0..1 fraction; indeterminate otherwise, with any message or the value shown as text. A bare
 * number above 1 (`3`: three files?) and a percentage (`"25%"`, `{ percent: 25 }`) give no
 * fraction the kit can trust, so they are shown as they are.
 */
const meta = {
  title: 'Components/ToolProgress',
  component: ToolProgress,
  tags: ['autodocs'],
  decorators: [(Story) => <Frame>{Story()}</Frame>],
} satisfies Meta<typeof ToolProgress>;
export default meta;
type Story = StoryObj<typeof meta>;

const state = (expected: string, text?: string): Story['play'] => async ({ canvasElement, canvas }) => {
  await expect(canvasElement.querySelector('.toolgate-progress')).toHaveAttribute('data-state', expected);
  await expect(canvas.getByRole('progressbar', { name: 'Progress' })).toBeInTheDocument();
  if (text) await expect(canvas.getByText(text)).toBeVisible();
};

export const DoneOfTotal: Story = { args: { progress: { done: 42, total: 120, message: 'Indexing contracts' } }, play: state('loading', '42 of 120 · Indexing contracts') };
export const Fraction: Story = { args: { progress: 0.66 }, play: state('loading', '66%') };
export const Complete: Story = { args: { progress: { done: 120, total: 120 } }, play: state('complete', '120 of 120') };
/** A count without a total: `3` is shown as 3, never as a 3% bar. */
export const CountWithoutTotal: Story = {
  args: { progress: 3 },
  play: async (context) => {
    await state('indeterminate', '3')?.(context);
    await expect(context.canvas.getByRole('progressbar', { name: 'Progress' })).not.toHaveAttribute('value');
  },
};
/** A percentage in text is not read as a fraction: shown as it is, on an indeterminate bar. */
export const PercentageAsText: Story = { args: { progress: '25%' }, play: state('indeterminate', '25%') };
export const Indeterminate: Story = { args: { progress: 'Waiting for the server…' }, play: state('indeterminate', 'Waiting for the server…') };
export const IndeterminateWithoutText: Story = { args: { progress: null }, play: state('indeterminate') };
export const UnknownShape: Story = {
  args: { progress: { weird: ['<b>x</b>', 3], more: 'y'.repeat(300) } },
  play: async (context) => {
    await state('indeterminate')?.(context);
    await expect(context.canvasElement.querySelector('.toolgate-progress-text')?.textContent).toMatch(/^\{"weird":\["<b>x<\/b>",3\].*…$/);
    await expect(context.canvasElement.querySelector('.toolgate-progress b')).toBeNull();
  },
};

/** Every style rule of the page, with the `@media` conditions around it. */
function* styleRules(rules: CSSRuleList, media: readonly string[] = []): Generator<{ rule: CSSStyleRule; media: readonly string[] }> {
  for (const rule of Array.from(rules)) {
    if (rule instanceof CSSStyleRule) yield { rule, media };
    else if (rule instanceof CSSMediaRule) yield* styleRules(rule.cssRules, [...media, rule.conditionText]);
    else if (rule instanceof CSSGroupingRule) yield* styleRules(rule.cssRules, media);
  }
}

const REDUCE = /prefers-reduced-motion:\s*reduce/;
const moves = (style: CSSStyleDeclaration) =>
  (style.getPropertyValue('transition-duration') !== '' && style.getPropertyValue('transition-duration').split(',').some((d) => parseFloat(d) > 0)) ||
  (style.getPropertyValue('animation-name') !== '' && style.getPropertyValue('animation-name') !== 'none');
const still = (style: CSSStyleDeclaration) =>
  (style.getPropertyValue('transition-property') === 'none' || style.getPropertyValue('transition-duration') === '0s') &&
  style.getPropertyPriority('transition-duration') === 'important';

/**
 * Reduced motion reaches the bar itself. The width of `::-webkit-progress-value` is animated, and a
 * `*` rule never matches a pseudo-element, so the `prefers-reduced-motion: reduce` block must name it.
 *
 * Checked on the stylesheet as this browser parsed it: a page cannot read the computed style of the
 * bar's pseudo-elements (`getComputedStyle` ignores them, their transitions are not in
 * `getAnimations()`), and a story cannot switch `prefers-reduced-motion` (that needs a command of
 * the test runner). Chromium drops `::-moz-progress-bar` rules when it parses them, so that one is
 * checked only where the browser knows it (Firefox).
 */
export const ReducedMotion: Story = {
  args: { progress: { done: 2, total: 5, message: 'Copying' } },
  play: async (context) => {
    await state('loading', '2 of 5 · Copying')?.(context);
    const rules = Array.from(context.canvasElement.ownerDocument.styleSheets).flatMap((sheet) => {
      try {
        return [...styleRules(sheet.cssRules)];
      } catch {
        return []; // another origin's sheet: not the kit's
      }
    });
    const pseudo = (text: string) => /::/.test(text) && text.includes('toolgate');
    const moving = rules.filter(({ rule, media }) => pseudo(rule.selectorText) && !media.some((m) => REDUCE.test(m)) && moves(rule.style));
    // The kit's stylesheet is loaded and animates the bar's value (else the check below proves nothing).
    await expect(moving.map(({ rule }) => rule.selectorText)).toContain('.toolgate-progress progress::-webkit-progress-value');
    const stilled = rules.filter(({ rule, media }) => media.some((m) => REDUCE.test(m)) && still(rule.style)).map(({ rule }) => rule.selectorText);
    // Every pseudo-element that moves is stopped under reduced motion: none is left over.
    await expect(moving.map(({ rule }) => rule.selectorText).filter((selector) => !stilled.includes(selector))).toEqual([]);
    if (CSS.supports('selector(::-moz-progress-bar)')) await expect(stilled).toContain('.toolgate-progress progress::-moz-progress-bar');
  },
};
