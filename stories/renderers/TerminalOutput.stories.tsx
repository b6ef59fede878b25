import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor } from 'storybook/test';
import { TerminalOutput, type TerminalOutputProps } from 'toolgate/renderers';
import { Frame } from '../support/scenarios';

/**
 * A command's output as it streams (`toolgate/renderers`): ANSI colours parsed into text runs (never
 * HTML), following the end until the person scrolls up, windowed past 2,000 lines, a copy button,
 * and its status said once per change. The sixteen colours keep 4.5:1 in both themes.
 */
const meta = {
  title: 'Renderers/TerminalOutput',
  component: TerminalOutput,
  tags: ['autodocs'],
  decorators: [(Story) => <Frame>{Story()}</Frame>],
} satisfies Meta<typeof TerminalOutput>;
export default meta;
type Story = StoryObj<typeof meta>;

const ESC = '\u001b';
const NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];
const palette =
  NAMES.map((name, i) => `${ESC}[3${i}m${name}${ESC}[0m ${ESC}[9${i}mbright ${name}${ESC}[0m`).join('\n') +
  `\n${ESC}[1mbold${ESC}[0m ${ESC}[3mitalic${ESC}[0m ${ESC}[4munderline${ESC}[0m ${ESC}[9mstruck${ESC}[0m ${ESC}[7minverse${ESC}[0m\n`;

const testRun = [
  `${ESC}[1m> npm test${ESC}[0m`,
  '',
  ` ${ESC}[32m✓${ESC}[0m parser keeps a colour across lines ${ESC}[2m(3 ms)${ESC}[0m`,
  ` ${ESC}[32m✓${ESC}[0m copies plain text ${ESC}[2m(12 ms)${ESC}[0m`,
  ` ${ESC}[31m✗${ESC}[0m follows the end ${ESC}[2m(40 ms)${ESC}[0m`,
  '',
  `${ESC}[31m${ESC}[1mTests:${ESC}[0m ${ESC}[31m1 failed${ESC}[0m, ${ESC}[32m2 passed${ESC}[0m, 3 total`,
  '',
].join('\n');

/** Every named colour, bright variant and decoration, in this theme. */
export const Colours: Story = {
  args: { text: palette, status: 'done', exitCode: 0, label: 'Colour test' },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('region', { name: 'Colour test' })).toBeVisible();
    await expect(canvasElement.querySelectorAll('.toolgate-ansi-fg-red, .toolgate-ansi-fg-bright-red')).toHaveLength(2);
    await expect(canvas.getByText('Finished')).toBeVisible();
  },
};

/** A test run that failed: the status says so and gives the exit code. */
export const Failed: Story = {
  args: { text: testRun, status: 'failed', exitCode: 1, label: 'Output of npm test' },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Failed with exit code 1', { selector: '.toolgate-terminal-status' })).toBeVisible();
    await expect(canvas.getByRole('status')).toHaveTextContent('Output of npm test: Failed with exit code 1');
  },
};

/** Nothing printed yet. */
export const Empty: Story = {
  args: { text: '', status: 'running', label: 'Output of npm install' },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No output yet')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Copy output' })).toBeDisabled();
  },
};

function Streaming(props: Omit<TerminalOutputProps, 'text'>) {
  const [lines, setLines] = useState(40);
  const text = Array.from({ length: lines }, (_, i) => `${ESC}[2m${String(i + 1).padStart(4)}${ESC}[0m building module ${i + 1}`).join('\n') + '\n';
  return (
    <>
      <button type="button" className="toolgate-button" onClick={() => setLines((n) => n + 10)}>
        Print 10 more lines
      </button>
      <TerminalOutput {...props} text={text} maxHeight="12rem" />
    </>
  );
}

/**
 * Output that keeps coming: the box follows the end; once the person scrolls up it stays where they
 * are and offers to jump to the end, saying how many lines came since.
 */
export const FollowsTheEnd: Story = {
  args: { text: '', status: 'running', label: 'Output of npm run build' },
  render: (args) => <Streaming status={args.status} label={args.label} />,
  play: async ({ canvas }) => {
    const screenBox = canvas.getByRole('region', { name: 'Output of npm run build' });
    const atEnd = () => screenBox.scrollTop + screenBox.clientHeight >= screenBox.scrollHeight - 2;
    await waitFor(() => expect(atEnd()).toBe(true));
    await userEvent.click(canvas.getByRole('button', { name: 'Print 10 more lines' }));
    await waitFor(() => expect(screenBox).toHaveTextContent('building module 50'));
    await waitFor(() => expect(atEnd()).toBe(true));

    // The person scrolls up: new output no longer moves the box.
    screenBox.scrollTop = 0;
    screenBox.dispatchEvent(new Event('scroll'));
    await waitFor(() => expect(canvas.getByRole('button', { name: /^Jump to end/ })).toBeVisible());
    await userEvent.click(canvas.getByRole('button', { name: 'Print 10 more lines' }));
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Jump to end (10 new lines)' })).toBeVisible());
    await expect(screenBox.scrollTop).toBe(0);

    await userEvent.click(canvas.getByRole('button', { name: 'Jump to end (10 new lines)' }));
    await waitFor(() => expect(atEnd()).toBe(true));
    await expect(screenBox).toHaveFocus();
    await expect(canvas.queryByRole('button', { name: /^Jump to end/ })).toBeNull();
  },
};

/** 10,000 lines: only those in view (and a margin) are in the page; the box still scrolls through all. */
export const TenThousandLines: Story = {
  args: {
    text: Array.from({ length: 10_000 }, (_, i) => `${ESC}[3${i % 7}mline ${i + 1}${ESC}[0m`).join('\n') + '\n',
    status: 'done',
    exitCode: 0,
    label: 'Output of a long log',
  },
  play: async ({ canvas, canvasElement }) => {
    const screenBox = canvas.getByRole('region', { name: 'Output of a long log' });
    await waitFor(() => expect(screenBox).toHaveTextContent('line 10000'));
    await expect(canvasElement.querySelectorAll('.toolgate-terminal-line').length).toBeLessThan(300);
    screenBox.scrollTop = 0;
    screenBox.dispatchEvent(new Event('scroll'));
    await waitFor(() => expect(screenBox).toHaveTextContent('line 1 '.trim()));
    await waitFor(() => expect(screenBox.textContent).toMatch(/^line 1line 2/));
  },
};
