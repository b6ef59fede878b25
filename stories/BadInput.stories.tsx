import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { ToolCallCard } from 'toolgate';
import { callEvents, pause, toolEvents as e } from 'toolgate/testing';
import { Fixed, Live } from './support/scenarios';

/**
 * What a model or an application may send that the kit must survive: markup in arguments,
 * huge arrays, text that is not JSON, progress of any shape. All of it is shown as text.
 */
const meta = {
  title: 'Bad input',
  component: ToolCallCard,
  tags: ['autodocs'],
  args: { callId: 'c1' },
} satisfies Meta<typeof ToolCallCard>;
export default meta;
type Story = StoryObj<typeof meta>;

const HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">click</a>';

export const HtmlInArguments: Story = {
  render: (args) => (
    <Fixed items={callEvents('c1', { name: 'render_page', arguments: { html: HOSTILE, [HOSTILE]: [HOSTILE] }, chunk: 9, outcome: { ok: true } })}>
      <ToolCallCard {...args} />
    </Fixed>
  ),
  play: async ({ canvasElement, canvas }) => {
    // Shown as text, three times (value, key, array item); no element made from it, nothing ran.
    await expect(canvas.getAllByText(HOSTILE)).toHaveLength(3);
    await expect(canvasElement.querySelector('article img, article script, article a')).toBeNull();
  },
};

/** An array of 10,000 items streams in; it stays collapsed (the page stays responsive) and opens page by page. */
export const HugeArray: Story = {
  render: (args) => (
    <Live items={() => callEvents('c1', { name: 'import_rows', arguments: { table: 'events', rows: Array.from({ length: 10_000 }, (_, i) => i * 7) }, chunk: 16, outcome: 'open' })} speed={1}>
      <ToolCallCard {...args} />
    </Live>
  ),
  play: async ({ canvas, canvasElement }) => {
    const toggle = await waitFor(() => canvas.getByRole('button', { name: 'rows: 10,000 items' }));
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(canvasElement.querySelectorAll('.toolgate-json-array > li:not(.toolgate-json-more)')).toHaveLength(100);
    await userEvent.tab();
    await expect(canvas.getByRole('button', { name: 'Show 100 more (9,900 left)' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await expect(canvasElement.querySelectorAll('.toolgate-json-array > li:not(.toolgate-json-more)')).toHaveLength(200);
    await expect(canvas.getByText('1393')).toBeInTheDocument();
  },
};

/** Argument text that can never become JSON: the raw text under a clear marker, not a guess. */
export const ArgumentsNotJson: Story = {
  render: (args) => (
    <Fixed items={[e.start('c1', { name: 'search' }), e.delta('c1', '{"query": "cats", '), pause(200), e.delta('c1', 'oops this is prose <b>not JSON</b>'), e.complete('c1', '{"query": "cats", oops')]}>
      <ToolCallCard {...args} />
    </Fixed>
  ),
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('group', { name: 'Arguments' })).toHaveAttribute('data-state', 'invalid');
    await expect(canvas.getByText('Not valid JSON')).toBeVisible();
    await expect(canvasElement.querySelector('pre')).toHaveTextContent('{"query": "cats", oops this is prose <b>not JSON</b>');
    await expect(canvasElement.querySelector('article b')).toBeNull();
  },
};

/** Progress is application data: shapes the kit does not know are shown as bounded text. */
export const ProgressOfUnknownShape: Story = {
  render: (args) => (
    <Fixed items={[...callEvents('c1', { name: 'crawl', arguments: { site: 'example.test' }, outcome: 'open' }), e.progress('c1', { phase: ['a', 'b'], html: '<i>x</i>', nested: { deep: 'x'.repeat(400) } })]}>
      <ToolCallCard {...args} />
    </Fixed>
  ),
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('progressbar', { name: 'Progress' })).not.toHaveAttribute('value');
    await expect(canvasElement.querySelector('.toolgate-progress-text')?.textContent).toMatch(/^\{"phase":\["a","b"\],"html":"<i>x<\/i>".*…$/);
    await expect(canvasElement.querySelector('article i')).toBeNull();
  },
};
