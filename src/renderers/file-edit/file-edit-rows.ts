/**
 * The rows `<FileEditReview>` draws, one per screen line: a heading row per hunk, then its lines,
 * either as a unified diff writes them or side by side (removed lines on the left paired with the
 * added lines that replace them on the right). Internal to the view.
 */
import type { FileEditHunk } from './file-edit-hunks';

/** One side of a line: its number in its file, its text and what happened to it. */
export interface DiffCell {
  readonly no: number;
  readonly text: string;
  /** `' '` unchanged, `'-'` removed, `'+'` added. */
  readonly type: ' ' | '-' | '+';
}

export type DiffRow =
  | { readonly kind: 'hunk'; readonly hunk: number }
  /** Unified: one line, with its number in the old file, the new file, or both. */
  | { readonly kind: 'line'; readonly hunk: number; readonly type: ' ' | '-' | '+'; readonly oldNo?: number; readonly newNo?: number; readonly text: string }
  /** Split: the old side and the new side of one screen line (either may be empty). */
  | { readonly kind: 'pair'; readonly hunk: number; readonly left?: DiffCell; readonly right?: DiffCell }
  /** "No newline at end of file", after the line it is about. */
  | { readonly kind: 'note'; readonly hunk: number; readonly text: string };

const typeOf = (line: string): ' ' | '-' | '+' | '\\' => {
  const c = line[0];
  return c === '-' || c === '+' || c === '\\' ? c : ' ';
};

/** Unified rows: each hunk's heading, then its lines in order. */
export function unifiedRows(hunks: readonly FileEditHunk[]): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const hunk of hunks) {
    rows.push({ kind: 'hunk', hunk: hunk.index });
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    for (const line of hunk.lines) {
      const type = typeOf(line);
      const text = line.slice(1);
      if (type === '\\') rows.push({ kind: 'note', hunk: hunk.index, text: text.trim() });
      else if (type === '-') rows.push({ kind: 'line', hunk: hunk.index, type, oldNo: oldNo++, text });
      else if (type === '+') rows.push({ kind: 'line', hunk: hunk.index, type, newNo: newNo++, text });
      else rows.push({ kind: 'line', hunk: hunk.index, type, oldNo: oldNo++, newNo: newNo++, text });
    }
  }
  return rows;
}

/** Split rows: context on both sides; a run of removed lines beside the run of added lines after it. */
export function splitRows(hunks: readonly FileEditHunk[]): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const hunk of hunks) {
    rows.push({ kind: 'hunk', hunk: hunk.index });
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    let removed: DiffCell[] = [];
    let added: DiffCell[] = [];
    const flush = () => {
      for (let i = 0; i < Math.max(removed.length, added.length); i++) {
        const left = removed[i];
        const right = added[i];
        rows.push({ kind: 'pair', hunk: hunk.index, ...(left ? { left } : {}), ...(right ? { right } : {}) });
      }
      removed = [];
      added = [];
    };
    for (const line of hunk.lines) {
      const type = typeOf(line);
      const text = line.slice(1);
      if (type === '-') {
        // A removal after additions starts a new run.
        if (added.length > 0) flush();
        removed.push({ no: oldNo++, text, type });
      } else if (type === '+') {
        added.push({ no: newNo++, text, type });
      } else if (type === '\\') {
        flush();
        rows.push({ kind: 'note', hunk: hunk.index, text: text.trim() });
      } else {
        flush();
        rows.push({ kind: 'pair', hunk: hunk.index, left: { no: oldNo++, text, type }, right: { no: newNo++, text, type } });
      }
    }
    flush();
  }
  return rows;
}
