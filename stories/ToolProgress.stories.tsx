import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { ToolProgress } from 'toolgate';
import { Frame } from './support/scenarios';

/**
 * Progress is application data of any shape. Determinate when it gives `done`/`total`, a 0..1
 * fraction or a percentage; indeterminate otherwise, with any message or the value shown as text.
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
export const Percentage: Story = { args: { progress: '25%' }, play: state('loading', '25%') };
export const Complete: Story = { args: { progress: { percent: 100 } }, play: state('complete', '100%') };
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
