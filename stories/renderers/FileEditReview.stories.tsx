import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo, useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ConfirmToolDialog, ToolgateProvider, createConfirmationController, type JsonValue } from 'toolgate';
import { FileEditReview, fileEditRenderer, keepHunks, readFileEdit, type FileEditArguments } from 'toolgate/renderers';
import { Frame } from '../support/scenarios';

/**
 * A proposed file edit reviewed hunk by hunk (`toolgate/renderers`): unified or split, each change
 * kept or discarded by button or key (on a change's heading: `j` or Down for the next, `k` or Up
 * for the previous, `y` keeps, `n` discards), windowed for long files. Registered for a tool with
 * `fileEditRenderer`, it is the confirmation dialog's review: what is kept is what runs.
 */
const meta = {
  title: 'Renderers/FileEditReview',
  component: FileEditReview,
  tags: ['autodocs'],
  decorators: [(Story) => <Frame>{Story()}</Frame>],
} satisfies Meta<typeof FileEditReview>;
export default meta;
type Story = StoryObj<typeof meta>;

const OLD = [
  "import { readFile } from 'node:fs/promises';",
  '',
  'export async function loadConfig(path) {',
  "  const text = await readFile(path, 'utf8');",
  '  return JSON.parse(text);',
  '}',
  '',
  'export function mergeConfig(base, extra) {',
  '  return Object.assign({}, base, extra);',
  '}',
  '',
  'export function hasKey(config, key) {',
  '  return Object.hasOwn(config, key);',
  '}',
  '',
  'export function configPath(dir) {',
  "  return dir + '/config.json';",
  '}',
  '',
].join('\n');
const NEW = [
  "import { readFile } from 'node:fs/promises';",
  "import { join } from 'node:path';",
  '',
  'export async function loadConfig(path) {',
  "  const text = await readFile(path, 'utf8');",
  '  return JSON.parse(text);',
  '}',
  '',
  'export function mergeConfig(base, extra) {',
  '  return { ...base, ...extra };',
  '}',
  '',
  'export function hasKey(config, key) {',
  '  return Object.hasOwn(config, key);',
  '}',
  '',
  'export function configPath(dir) {',
  "  return join(dir, 'config.json');",
  '}',
  '',
].join('\n');
const edit = { path: 'src/config.js', oldText: OLD, newText: NEW };

/** Tab forward until the focus is on a change's heading (the roving stop of the list). */
async function tabToChange() {
  for (let i = 0; i < 40; i++) {
    await userEvent.tab();
    if (document.activeElement?.hasAttribute('data-hunk-head')) return document.activeElement as HTMLElement;
  }
  throw new Error('No change heading took the focus');
}

function Controlled(props: { arguments: FileEditArguments; current?: FileEditArguments; defaultView?: 'unified' | 'split'; windowAfter?: number; highlight?: boolean }) {
  const [current, setCurrent] = useState<FileEditArguments | undefined>(props.current);
  return (
    <>
      <FileEditReview arguments={props.arguments} current={current} defaultView={props.defaultView} windowAfter={props.windowAfter} highlight={props.highlight} onChange={(next) => setCurrent(next)} />
      <output data-testid="kept-text">{current === undefined || !('newText' in current) ? '' : String(current.newText)}</output>
    </>
  );
}

/** Three changes, in one column: the keys move between them and discard one. */
export const Unified: Story = {
  args: { arguments: edit },
  render: (args) => <Controlled arguments={args.arguments as FileEditArguments} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('region', { name: 'Changes to src/config.js' })).toBeVisible();
    await expect(canvas.getByText('3 of 3 changes kept')).toBeVisible();
    const first = await tabToChange();
    await expect(first).toHaveAccessibleName('Change 1 of 3, at line 1, kept');
    await userEvent.keyboard('j');
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Change 2 of 3, at line 6, kept'));
    await userEvent.keyboard('n');
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Change 2 of 3, at line 6, discarded'));
    await expect(canvas.getByText('2 of 3 changes kept')).toBeVisible();
    await expect(canvas.getByTestId('kept-text')).toHaveTextContent('return Object.assign({}, base, extra);');
    await expect(canvas.getByTestId('kept-text')).toHaveTextContent("return join(dir, 'config.json');");
    // Back to every change kept: y on the same change.
    await userEvent.keyboard('y');
    await waitFor(() => expect(canvas.getByText('3 of 3 changes kept')).toBeVisible());
  },
};

/** With syntax colouring (`highlight`): lowlight is loaded on demand, and the keys work as before. */
export const Coloured: Story = {
  args: { arguments: edit, highlight: true },
  render: (args) => <Controlled arguments={args.arguments as FileEditArguments} highlight />,
  play: async ({ canvas, canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelector('.toolgate-file-edit-text[data-coloured] .hljs-keyword')).not.toBeNull());
    const first = await tabToChange();
    await expect(first).toHaveAccessibleName('Change 1 of 3, at line 1, kept');
    await userEvent.keyboard('n');
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Change 1 of 3, at line 1, discarded'));
    await expect(canvas.getByText('2 of 3 changes kept')).toBeVisible();
  },
};

/** The same edit side by side: before on the left, after on the right; the layout switch is a pair of pressed buttons. */
export const Split: Story = {
  args: { arguments: edit, defaultView: 'split' },
  render: (args) => <Controlled arguments={args.arguments as FileEditArguments} defaultView="split" />,
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.getByRole('button', { name: 'Split' })).toHaveAttribute('aria-pressed', 'true');
    const rows = [...canvasElement.querySelectorAll('.toolgate-file-edit-pair')];
    const replaced = rows.find((row) => row.textContent?.includes('Object.assign'));
    await expect(replaced?.textContent).toContain('{ ...base, ...extra }');
    const first = await tabToChange();
    await userEvent.keyboard('{End}');
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Change 3 of 3, at line 14, kept'));
    await expect(first).toHaveAttribute('tabindex', '-1');
    await userEvent.keyboard('n');
    await waitFor(() => expect(canvas.getByText('2 of 3 changes kept')).toBeVisible());
  },
};

const partly = (() => {
  const read = readFileEdit(edit);
  if (!read.ok) throw new Error(read.reason);
  return keepHunks(read.edit, [true, false, true]);
})();

/** Opened again after a change was discarded: the arguments now say which changes are kept. */
export const PartlyKept: Story = {
  args: { arguments: edit, current: partly },
  render: (args) => <Controlled arguments={args.arguments as FileEditArguments} current={args.current as FileEditArguments} />,
  play: async ({ canvas }) => {
    await expect(canvas.getByText('2 of 3 changes kept')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Discard change 2' })).toHaveAttribute('aria-pressed', 'true');
    await tabToChange();
    await userEvent.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Change 2 of 3, at line 6, discarded'));
    await userEvent.keyboard('y');
    await waitFor(() => expect(canvas.getByText('3 of 3 changes kept')).toBeVisible());
    await expect(canvas.getByTestId('kept-text')).toHaveTextContent('return { ...base, ...extra };');
  },
};

const rows = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';
const big = {
  path: 'data/fixtures.csv',
  oldText: rows(10_000, (i) => `${i},item ${i},${i * 3}`),
  // A change every 25 lines: 400 changes, 2,800 rows.
  newText: rows(10_000, (i) => (i % 25 === 0 ? `${i},item ${i},${i * 3 + 1}` : `${i},item ${i},${i * 3}`)),
};

/** 10,000 lines with 400 changes: only the rows in view are in the page, and the keys still reach every change. */
export const TenThousandLines: Story = {
  args: { arguments: big },
  render: (args) => <Controlled arguments={args.arguments as FileEditArguments} />,
  play: async ({ canvas, canvasElement }) => {
    const region = canvas.getByRole('region', { name: 'Changes to data/fixtures.csv' });
    await expect(region).toHaveAttribute('data-windowed');
    await expect(canvasElement.querySelectorAll('.toolgate-file-edit-line').length).toBeLessThan(400);
    await tabToChange();
    await userEvent.keyboard('{End}');
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Change 400 of 400, at line 9997, kept'));
    await expect(region).toHaveTextContent('10000,item 10000,30001');
    await userEvent.keyboard('n');
    await waitFor(() => expect(canvas.getByText('399 of 400 changes kept')).toBeVisible());
    await userEvent.keyboard('k');
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Change 399 of 400, at line 9972, kept'));
    await userEvent.keyboard('{Home}');
    await waitFor(() => expect(document.activeElement).toHaveAccessibleName('Change 1 of 400, at line 22, kept'));
    await expect(region).toHaveTextContent('25,item 25,76');
  },
};

/** Arguments that are not an edit: the reason, as text. */
export const NotAnEdit: Story = {
  args: { arguments: { path: 'src/config.js', patch: '@@ -1,2 +1,2 @@\n-only one line\n' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(/^The patch cannot be read/);
  },
};

function DialogPage() {
  const confirmations = useMemo(() => createConfirmationController(), []);
  const [ran, setRan] = useState<string>('nothing yet');
  const propose = () => {
    void confirmations.request({
      toolName: 'write_file',
      arguments: edit,
      descriptor: { title: 'Write src/config.js', effect: 'write', risk: 'medium', requiresConfirmation: true },
      editable: true,
      onApprove: (args: JsonValue) => {
        setRan((args as { newText: string }).newText);
        return 'written';
      },
    });
  };
  return (
    <ToolgateProvider confirmations={confirmations} renderers={{ write_file: fileEditRenderer }}>
      <button type="button" className="toolgate-button" onClick={propose}>
        Propose write_file
      </button>
      <pre data-testid="ran">{ran}</pre>
      <ConfirmToolDialog />
    </ToolgateProvider>
  );
}

/**
 * The renderer registered for `write_file` is the dialog's review: discarding a change edits the
 * request (a new fingerprint, marked edited), and what runs is what was kept.
 */
export const InTheDialog: Story = {
  args: { arguments: edit },
  render: () => <DialogPage />,
  play: async ({ canvas, canvasElement }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Propose write_file' }));
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    const before = dialog.querySelector('.toolgate-confirm-fingerprint')?.textContent;
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus());
    await tabToChange();
    await userEvent.keyboard('{End}');
    await userEvent.keyboard('n');
    await waitFor(() => expect(dialog.querySelector('[data-edited]')).not.toBeNull());
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    await waitFor(() => expect(dialog.querySelector('.toolgate-confirm-fingerprint')?.textContent).not.toBe(before));
    await expect(document.activeElement).toHaveAccessibleName('Change 3 of 3, at line 14, discarded');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(canvas.getByTestId('ran')).toHaveTextContent("return dir + '/config.json';"));
    await expect(canvas.getByTestId('ran')).toHaveTextContent('return { ...base, ...extra };');
  },
};
