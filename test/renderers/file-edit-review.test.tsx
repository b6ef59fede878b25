/**
 * `<FileEditReview>` in React: the keys move between hunks and keep or discard them, what is kept
 * reaches `onChange` as exact arguments, long edits are windowed, and the renderer registered for
 * a tool is the dialog's review: what a person kept is what is approved and runs.
 */
import { StrictMode, type ReactElement } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmToolDialog, ToolCallView, ToolgateProvider, createConfirmationController, createToolStreamStore, type ApprovalContext, type JsonValue } from 'toolgate';
import { fingerprintJson } from 'toolgate/json';
import { callEvents } from 'toolgate/testing';
import { FileEditReview, fileEditRenderer, type FileEditArguments } from 'toolgate/renderers';

const wrap = (ui: ReactElement) => render(<StrictMode>{ui}</StrictMode>);
const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';
const OLD = lines(30, (i) => `line ${i}`);
// Three changes, far apart: line 2, line 15, line 28.
const NEW = lines(30, (i) => (i === 2 || i === 15 || i === 28 ? `LINE ${i}` : `line ${i}`));
const proposed = { path: 'notes.txt', oldText: OLD, newText: NEW };

describe('<FileEditReview>', () => {
  it('moves between hunks with j and k (and the arrows), and discards and keeps with n and y', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn((_next: FileEditArguments, _kept: readonly boolean[]) => {});
    wrap(<FileEditReview arguments={proposed} onChange={onChange} />);
    const region = screen.getByRole('region', { name: 'Changes to notes.txt' });
    const heads = within(region).getAllByRole('group');
    expect(heads.map((h) => h.getAttribute('aria-label'))).toEqual([
      'Change 1 of 3, at line 1, kept',
      'Change 2 of 3, at line 12, kept',
      'Change 3 of 3, at line 25, kept',
    ]);
    await user.tab(); // the view toggles
    await user.tab();
    await user.tab();
    expect(heads[0]).toHaveFocus();
    await user.keyboard('j');
    expect(heads[1]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(heads[2]).toHaveFocus();
    await user.keyboard('k');
    expect(heads[1]).toHaveFocus();
    await user.keyboard('n');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange.mock.calls[0]?.[1]).toEqual([true, false, true]);
    expect(onChange.mock.calls[0]?.[0]).toEqual({ ...proposed, newText: lines(30, (i) => (i === 2 || i === 28 ? `LINE ${i}` : `line ${i}`)) });
    expect(heads[1]).toHaveAttribute('aria-label', 'Change 2 of 3, at line 12, discarded');
    expect(screen.getByText('2 of 3 changes kept')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Change 2 discarded; 2 of 3 kept');
    await user.keyboard('y');
    // Every hunk kept again: the proposed arguments themselves.
    expect(onChange.mock.calls[1]?.[0]).toBe(proposed);
  });

  it('keeps and discards with the buttons, named for their hunk', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    wrap(<FileEditReview arguments={proposed} onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'Discard change 3' }));
    expect(onChange.mock.calls[0]?.[0]).toEqual({ ...proposed, newText: lines(30, (i) => (i === 2 || i === 15 ? `LINE ${i}` : `line ${i}`)) });
    expect(screen.getByRole('button', { name: 'Discard change 3' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Keep change 3' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows old and new side by side in the split view', async () => {
    const user = userEvent.setup();
    const { container } = wrap(<FileEditReview arguments={proposed} />);
    await user.click(screen.getByRole('button', { name: 'Split' }));
    expect(screen.getByRole('button', { name: 'Split' })).toHaveAttribute('aria-pressed', 'true');
    const changed = [...container.querySelectorAll('.toolgate-file-edit-pair')].filter((row) => row.querySelector('[data-type="-"]'));
    expect(changed.map((row) => row.textContent)).toEqual(['2-removed: line 2', '15-removed: line 15', '28-removed: line 28'].map((t, i) => t + ['2+added: LINE 2', '15+added: LINE 15', '28+added: LINE 28'][i]));
  });

  it('shows why arguments are not an edit, as text', () => {
    wrap(<FileEditReview arguments={{ path: 'a.txt', oldText: '<b>x</b>' }} />);
    expect(screen.getByRole('alert')).toHaveTextContent('The arguments hold neither `oldText` and `newText` nor a `patch`.');
  });

  it('mounts only some rows of a 10,000-line edit, and End reaches the last hunk', { timeout: 60_000 }, async () => {
    const user = userEvent.setup();
    const big = lines(10_000, (i) => `row ${i}`);
    // 400 changes, one every 25 lines: 2,800 rows.
    const changed = lines(10_000, (i) => (i % 25 === 0 ? `ROW ${i}` : `row ${i}`));
    const { container } = wrap(<FileEditReview arguments={{ path: 'big.txt', oldText: big, newText: changed }} />);
    const region = screen.getByRole('region', { name: 'Changes to big.txt' });
    expect(region).toHaveAttribute('data-windowed');
    expect(container.querySelectorAll('.toolgate-file-edit-line').length).toBeLessThan(200);
    region.querySelector<HTMLElement>('[data-hunk-head="0"]')?.focus();
    await user.keyboard('{End}');
    await waitFor(() => expect(document.activeElement).toHaveAttribute('aria-label', 'Change 400 of 400, at line 9997, kept'));
  });
});

describe('fileEditRenderer in the confirmation dialog', () => {
  it('approves and runs exactly the hunks kept, under their own fingerprint, marked edited', async () => {
    const user = userEvent.setup();
    const confirmations = createConfirmationController();
    const onApprove = vi.fn((_args: JsonValue, _context: ApprovalContext) => 'written');
    wrap(
      <ToolgateProvider confirmations={confirmations} renderers={{ write_file: fileEditRenderer }}>
        <ConfirmToolDialog />
      </ToolgateProvider>,
    );
    const outcome = confirmations.request({
      toolName: 'write_file',
      arguments: proposed,
      descriptor: { title: 'Write notes.txt', effect: 'write', risk: 'medium', requiresConfirmation: true },
      editable: true,
      onApprove,
    });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    // The review takes the place of the tree, and is the dialog's editor: no second Edit button.
    expect(within(dialog).getByRole('region', { name: 'Changes to notes.txt' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Edit' })).toBeNull();
    within(dialog).getByRole('group', { name: 'Change 1 of 3, at line 1, kept' }).focus();
    await user.keyboard('n');
    const kept = { ...proposed, newText: lines(30, (i) => (i === 15 || i === 28 ? `LINE ${i}` : `line ${i}`)) };
    await waitFor(() => expect(confirmations.getState().current).toMatchObject({ status: 'reviewing', edited: true, arguments: kept }));
    await waitFor(() => expect(confirmations.getState().current?.fingerprint).not.toBeNull());
    const expected = await fingerprintJson(kept);
    expect(confirmations.getState().current?.fingerprint?.hex).toBe(expected.hex);
    await waitFor(() => expect(within(dialog).getByText(expected.short)).toBeInTheDocument());
    // The focus stayed on the hunk the person discarded.
    expect(document.activeElement).toHaveAttribute('aria-label', 'Change 1 of 3, at line 1, discarded');
    await user.click(within(dialog).getByRole('button', { name: /^Approve/ }));
    expect(await outcome).toMatchObject({ status: 'done', fingerprint: expected.hex });
    expect(onApprove.mock.calls[0]?.[0]).toEqual(kept);
    expect(onApprove.mock.calls[0]?.[1]).toMatchObject({ edited: true });
  });
});

describe('quick decisions in the dialog', () => {
  it('keeps showing what the person chose while earlier drafts are saved, and ends with the last', async () => {
    const user = userEvent.setup();
    const confirmations = createConfirmationController();
    wrap(
      <ToolgateProvider confirmations={confirmations} renderers={{ write_file: fileEditRenderer }}>
        <ConfirmToolDialog />
      </ToolgateProvider>,
    );
    // The app's own check of a draft answers when the test says, as a slow one would.
    const gates: (() => void)[] = [];
    const validate = () => new Promise<{ ok: true }>((resolve) => gates.push(() => resolve({ ok: true })));
    void confirmations.request({ toolName: 'write_file', arguments: proposed, descriptor: { effect: 'write', risk: 'medium', requiresConfirmation: true }, editable: { validate }, onApprove: () => 'ok' });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog).toHaveAttribute('data-status', 'reviewing'));
    const second = within(dialog).getByRole('group', { name: /^Change 2 of 3/ });
    const labels: string[] = [];
    const observer = new MutationObserver((records) => records.forEach((r) => labels.push((r.target as HTMLElement).getAttribute('aria-label') ?? '')));
    observer.observe(second, { attributes: true, attributeFilter: ['aria-label'] });
    within(dialog).getByRole('group', { name: /^Change 1 of 3/ }).focus();
    await user.keyboard('n');
    await waitFor(() => expect(gates).toHaveLength(1));
    // The second decision is made while the first draft is still being checked.
    await user.keyboard('jn');
    act(() => gates[0]?.());
    const firstOnly = { ...proposed, newText: lines(30, (i) => (i === 15 || i === 28 ? `LINE ${i}` : `line ${i}`)) };
    await waitFor(() => expect(confirmations.getState().current?.arguments).toEqual(firstOnly));
    await waitFor(() => expect(gates).toHaveLength(2));
    expect(second).toHaveAttribute('aria-label', 'Change 2 of 3, at line 12, discarded');
    act(() => gates[1]?.());
    const onlyLast = { ...proposed, newText: lines(30, (i) => (i === 28 ? `LINE ${i}` : `line ${i}`)) };
    await waitFor(() => expect(confirmations.getState().current).toMatchObject({ status: 'reviewing', arguments: onlyLast }));
    await waitFor(() => expect(confirmations.getState().current?.fingerprint).not.toBeNull());
    observer.disconnect();
    const firstDiscarded = labels.indexOf('Change 2 of 3, at line 12, discarded');
    expect(firstDiscarded).toBeGreaterThanOrEqual(0);
    expect(labels.slice(firstDiscarded)).not.toContain('Change 2 of 3, at line 12, kept');
    expect(second).toHaveAttribute('aria-label', 'Change 2 of 3, at line 12, discarded');
  });
});

describe('fileEditRenderer in the call’s card', () => {
  it('reviews the request the call waits for, and Approve below it runs what was kept', async () => {
    const user = userEvent.setup();
    const store = createToolStreamStore();
    const confirmations = createConfirmationController();
    const onApprove = vi.fn((_args: JsonValue, _context: ApprovalContext) => 'written');
    wrap(
      <ToolgateProvider store={store} confirmations={confirmations} renderers={{ write_file: fileEditRenderer }}>
        <ToolCallView callId="w1" />
      </ToolgateProvider>,
    );
    act(() => callEvents('w1', { name: 'write_file', arguments: proposed, outcome: 'open' }).forEach((event) => store.getState().dispatch(event)));
    // Before an approval is asked for, the card shows the edit, read-only.
    expect(await screen.findByRole('region', { name: 'Changes to notes.txt' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Discard change 2' })).toBeNull();
    const outcome = confirmations.request({
      toolName: 'write_file',
      callId: 'w1',
      arguments: proposed,
      descriptor: { effect: 'write', risk: 'medium', requiresConfirmation: true },
      editable: true,
      onApprove,
    });
    await user.click(await screen.findByRole('button', { name: 'Discard change 2' }));
    const kept = { ...proposed, newText: lines(30, (i) => (i === 2 || i === 28 ? `LINE ${i}` : `line ${i}`)) };
    await waitFor(() => expect(confirmations.getState().current).toMatchObject({ status: 'reviewing', edited: true, arguments: kept }));
    const expected = await fingerprintJson(kept);
    await waitFor(() => expect(confirmations.getState().current?.fingerprint?.hex).toBe(expected.hex));
    await user.click(screen.getByRole('button', { name: /^Approve/ }));
    expect(await outcome).toMatchObject({ status: 'done' });
    expect(onApprove.mock.calls[0]?.[0]).toEqual(kept);
  });
});

describe('FileEditReview with syntax colouring', () => {
  it('colours the lines only when turned on, as elements (no HTML), loaded on demand', async () => {
    const edit = { path: 'src/a.ts', oldText: "const a = 1;\n// old\n", newText: "const a = 2;\n// new <b>x</b>\n" };
    const { container, rerender } = render(<FileEditReview arguments={edit} readOnly />);
    expect(container.querySelector('[data-coloured]')).toBeNull();
    expect(container.querySelector('.hljs-keyword')).toBeNull();
    rerender(<FileEditReview arguments={edit} readOnly highlight />);
    await waitFor(() => expect(container.querySelector('.toolgate-file-edit-text[data-coloured] .hljs-keyword')).toHaveTextContent('const'));
    expect([...container.querySelectorAll('.hljs-number')].map((n) => n.textContent)).toEqual(['1', '2']);
    expect([...container.querySelectorAll('.hljs-comment')].map((n) => n.textContent)).toEqual(['// old', '// new <b>x</b>']);
    expect(container.querySelector('b')).toBeNull();
    // A file of a language it does not know stays plain text.
    rerender(<FileEditReview arguments={{ ...edit, path: 'notes.txt' }} readOnly highlight />);
    await waitFor(() => expect(container.querySelector('[data-coloured]')).toBeNull());
  });
});
