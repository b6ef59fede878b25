/**
 * Keeping and discarding hunks of a proposed file edit gives exactly the text (or patch) of the
 * kept hunks, under a fingerprint of its own, and through the confirmation's edit path that is
 * what runs.
 */
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController, type ApprovalContext, type JsonValue } from 'toolgate/core';
import { fingerprintJson } from 'toolgate/json';
import { keepHunks, keptHunksOf, readFileEdit, type FileEdit } from 'toolgate/renderers';
import { shown } from '../core/confirmation-helpers';

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';
// Twenty lines; the edit changes line 2, removes line 10 and adds two lines after line 18.
const OLD = lines(20, (i) => `line ${i}`);
const NEW = lines(20, (i) => (i === 2 ? 'LINE 2' : `line ${i}`))
  .replace('line 10\n', '')
  .replace('line 18\n', 'line 18\nadded a\nadded b\n');

function read(args: unknown): FileEdit {
  const result = readFileEdit(args);
  if (!result.ok) throw new Error(result.reason);
  return result.edit;
}

describe('readFileEdit', () => {
  it('reads old and new text into the hunks diff -u would write', () => {
    const edit = read({ path: 'notes.txt', oldText: OLD, newText: NEW });
    expect(edit.form).toBe('texts');
    expect(edit.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      [1, 5, 1, 5],
      [7, 7, 7, 6],
      [16, 5, 15, 7],
    ]);
    expect(edit.hunks[1]?.lines).toEqual([' line 7', ' line 8', ' line 9', '-line 10', ' line 11', ' line 12', ' line 13']);
  });

  it('gives a reason, never a throw, for arguments that are not an edit', () => {
    expect(readFileEdit(null)).toEqual({ ok: false, reason: 'The arguments are not an object.' });
    expect(readFileEdit({ oldText: 'a', newText: 'b' })).toMatchObject({ ok: false, reason: expect.stringContaining('path') });
    expect(readFileEdit({ path: 'a', oldText: 'a' })).toMatchObject({ ok: false, reason: expect.stringContaining('neither') });
    const two = '--- a\n+++ a\n@@ -1 +1 @@\n-x\n+y\n--- b\n+++ b\n@@ -1 +1 @@\n-x\n+y\n';
    expect(readFileEdit({ path: 'a', patch: two })).toEqual({ ok: false, reason: 'The patch changes 2 files; a review shows one.' });
    expect(readFileEdit({ path: 'a', patch: '@@ -1,2 +1,2 @@\n-x\n' })).toMatchObject({ ok: false, reason: expect.stringContaining('cannot be read') });
  });
});

describe('keepHunks, old and new text', () => {
  const proposed = { path: 'notes.txt', oldText: OLD, newText: NEW, reason: 'tidy' };
  const edit = read(proposed);

  it('keeps the proposed arguments themselves when every hunk is kept', () => {
    expect(keepHunks(edit, [true, true, true])).toBe(proposed);
  });

  it('applies only the kept hunks to the old text, exactly', () => {
    const middleOnly = lines(20, (i) => `line ${i}`).replace('line 10\n', '');
    expect(keepHunks(edit, [false, true, false])).toEqual({ ...proposed, newText: middleOnly });
    const firstAndLast = lines(20, (i) => (i === 2 ? 'LINE 2' : `line ${i}`)).replace('line 18\n', 'line 18\nadded a\nadded b\n');
    expect(keepHunks(edit, [true, false, true])).toEqual({ ...proposed, newText: firstAndLast });
    expect(keepHunks(edit, [false, false, false])).toEqual({ ...proposed, newText: OLD });
  });

  it('gives the kept result a fingerprint of its own', async () => {
    const kept = keepHunks(edit, [false, true, false]) as unknown as JsonValue;
    const expected = { newText: lines(20, (i) => `line ${i}`).replace('line 10\n', ''), oldText: OLD, path: 'notes.txt', reason: 'tidy' };
    expect((await fingerprintJson(kept)).hex).toBe((await fingerprintJson(expected)).hex);
    expect((await fingerprintJson(kept)).hex).not.toBe((await fingerprintJson(proposed)).hex);
  });

  it('reads back which hunks arguments keep', () => {
    expect(keptHunksOf(edit, proposed)).toEqual([true, true, true]);
    expect(keptHunksOf(edit, keepHunks(edit, [true, false, true]))).toEqual([true, false, true]);
    expect(keptHunksOf(edit, keepHunks(edit, [false, false, false]))).toEqual([false, false, false]);
  });

  it('keeps the end of a file without a final newline as proposed', () => {
    const e = read({ path: 'a', oldText: 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj', newText: 'A\nb\nc\nd\ne\nf\ng\nh\ni\nJ' });
    expect(e.hunks).toHaveLength(2);
    expect(keepHunks(e, [false, true])).toMatchObject({ newText: 'a\nb\nc\nd\ne\nf\ng\nh\ni\nJ' });
    expect(keepHunks(e, [true, false])).toMatchObject({ newText: 'A\nb\nc\nd\ne\nf\ng\nh\ni\nj' });
  });
});

describe('an edit with too many changes to find one by one', () => {
  it('is one hunk from the first changed line to the last, and discarding it gives the old text', () => {
    const old = lines(10_000, (i) => `row ${i}`);
    const changed = lines(10_000, (i) => (i % 2 === 0 && i > 3 && i < 9998 ? `ROW ${i}` : `row ${i}`));
    const started = performance.now();
    const edit = read({ path: 'big.txt', oldText: old, newText: changed });
    // Not a timing test: a smallest diff of these took 30 s on this machine; this bound only says it was not attempted.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(edit.coarse).toBe(true);
    expect(edit.hunks).toHaveLength(1);
    expect(edit.hunks[0]).toMatchObject({ oldStart: 4, oldLines: 9993, newStart: 4, newLines: 9993 });
    expect(keepHunks(edit, [false])).toMatchObject({ newText: old });
    expect(keepHunks(edit, [true])).toMatchObject({ newText: changed });
  });
});

describe('keepHunks, a unified patch', () => {
  const PATCH = [
    '--- notes.txt',
    '+++ notes.txt',
    '@@ -1,3 +1,3 @@',
    ' line 1',
    '-line 2',
    '+LINE 2',
    ' line 3',
    '@@ -9,3 +9,4 @@',
    ' line 9',
    '+line 9.5',
    ' line 10',
    ' line 11',
    '@@ -15,3 +16,2 @@',
    ' line 15',
    '-line 16',
    ' line 17',
    '',
  ].join('\n');
  const proposed = { path: 'notes.txt', patch: PATCH };
  const edit = read(proposed);

  it('reads the patch’s hunks', () => {
    expect(edit.form).toBe('patch');
    expect(edit.hunks.map((h) => [h.oldStart, h.newStart])).toEqual([
      [1, 1],
      [9, 9],
      [15, 16],
    ]);
  });

  it('writes a patch of only the kept hunks, renumbered in the new file', () => {
    const kept = keepHunks(edit, [false, true, true]) as { patch: string };
    expect(kept.patch).toBe(
      ['--- notes.txt', '+++ notes.txt', '@@ -9,3 +9,4 @@', ' line 9', '+line 9.5', ' line 10', ' line 11', '@@ -15,3 +16,2 @@', ' line 15', '-line 16', ' line 17', ''].join('\n'),
    );
    const lastOnly = keepHunks(edit, [false, false, true]) as { patch: string };
    // Without the added line before it, the last hunk starts at line 15 of the new file.
    expect(lastOnly.patch).toContain('@@ -15,3 +15,2 @@');
    expect(keptHunksOf(edit, lastOnly)).toEqual([false, false, true]);
  });

  it('applies to the file as the kept hunks say', async () => {
    const { applyPatch } = await import('diff');
    const file = lines(20, (i) => `line ${i}`);
    const kept = keepHunks(edit, [true, false, true]) as { patch: string };
    expect(applyPatch(file, kept.patch)).toBe(lines(20, (i) => (i === 2 ? 'LINE 2' : `line ${i}`)).replace('line 16\n', ''));
  });
});

describe('through the confirmation’s edit path', () => {
  it('runs what was kept, marked edited, under the kept arguments’ fingerprint', async () => {
    const confirmations = createConfirmationController();
    const onApprove = vi.fn((_args: JsonValue, _context: ApprovalContext) => 'written');
    const proposed = { path: 'notes.txt', oldText: OLD, newText: NEW };
    const outcome = confirmations.request({
      toolName: 'write_file',
      arguments: proposed,
      descriptor: { effect: 'write', risk: 'medium', requiresConfirmation: true },
      editable: true,
      onApprove,
    });
    const first = await shown(confirmations);
    const edit = read(first.original);
    const kept = keepHunks(edit, [true, false, true]);
    expect(confirmations.edit()).toBe(true);
    expect(await confirmations.submitEdit(kept)).toEqual({ ok: true });
    const edited = await shown(confirmations);
    expect(edited.edited).toBe(true);
    expect(edited.fingerprint?.hex).toBe((await fingerprintJson(kept as unknown as JsonValue)).hex);
    expect(keptHunksOf(edit, edited.arguments)).toEqual([true, false, true]);
    expect(confirmations.approve()).toBe(true);
    expect(await outcome).toMatchObject({ status: 'done', fingerprint: edited.fingerprint?.hex });
    expect(onApprove.mock.calls[0]?.[0]).toEqual(kept);
  });
});
