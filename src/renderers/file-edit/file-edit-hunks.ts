/**
 * A proposed file edit read as hunks (with `diff`, jsdiff), and the arguments that keep only the
 * hunks a person kept. No React: the view (`file-edit-review.tsx`) and its tests share it.
 *
 * What runs must be what was kept (docs/architecture.md, "From the dialog to a run"): the kept
 * result is new arguments that go through the confirmation's edit path, which checks them and
 * gives them a fingerprint of their own.
 */
import { applyPatch, FILE_HEADERS_ONLY, formatPatch, parsePatch, structuredPatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';

/**
 * The arguments of a file-editing tool: the whole old and new text, or a unified patch of one
 * file. Other fields (an encoding, a reason) are kept as they are in the edited arguments.
 *
 * @example
 * const texts: FileEditArguments = { path: 'src/a.ts', oldText: 'let a = 1;\n', newText: 'const a = 1;\n' };
 * const patch: FileEditArguments = { path: 'src/a.ts', patch: unifiedDiff }; // as `diff -u` or `git diff` writes it
 */
export type FileEditArguments =
  | { readonly path: string; readonly oldText: string; readonly newText: string; readonly [extra: string]: unknown }
  | { readonly path: string; readonly patch: string; readonly [extra: string]: unknown };

/**
 * One hunk of an edit: where it sits in the old and the new file, and its lines as a unified diff
 * writes them (`' '` context, `'-'` removed, `'+'` added, `'\\'` "no newline at end of file").
 *
 * @example
 * const hunk: FileEditHunk = { index: 0, oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-let a = 1;', '+const a = 1;'] };
 */
export interface FileEditHunk {
  /** Its place in the edit, from 0. */
  readonly index: number;
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/**
 * A proposed edit read into hunks by {@link readFileEdit}.
 *
 * @example
 * const read = readFileEdit({ path: 'a.txt', oldText: 'a\n', newText: 'b\n' });
 * if (read.ok) read.edit.hunks.length // 1
 */
export interface FileEdit {
  readonly path: string;
  /** `texts`: old and new text were given; `patch`: a unified patch was. */
  readonly form: 'texts' | 'patch';
  readonly hunks: readonly FileEditHunk[];
  /** The arguments as proposed. */
  readonly arguments: FileEditArguments;
  /** Too many changes to find each hunk quickly: the edit is one hunk, from the first change to the last. */
  readonly coarse: boolean;
}

/**
 * What {@link readFileEdit} gives: the edit, or why the arguments are not one.
 *
 * @example
 * const read: FileEditRead = readFileEdit(args);
 * if (!read.ok) console.warn(read.reason);
 */
export type FileEditRead = { readonly ok: true; readonly edit: FileEdit } | { readonly ok: false; readonly reason: string };

/** Lines of context around each change, as `diff -u` writes them. */
const CONTEXT = 3;
/**
 * Past this many added and removed lines, finding the smallest diff costs more than a frame
 * allows (it grows with the square of the changes: 1,000 changed lines of 10,000 took over a
 * second), so the edit is shown as one change from the first differing line to the last.
 */
const MAX_EDIT_LENGTH = 1000;

/** The whole change as one hunk: the lines between the common start and the common end. */
function wholeChange(oldText: string, newText: string): FileEditHunk {
  const a = oldText.split('\n');
  const b = newText.split('\n');
  // A final newline leaves an empty last element: it is not a line.
  if (a[a.length - 1] === '') a.pop();
  if (b[b.length - 1] === '') b.pop();
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const removed = a.slice(start, a.length - end);
  const added = b.slice(start, b.length - end);
  return Object.freeze({
    index: 0,
    oldStart: removed.length === 0 ? start : start + 1,
    oldLines: removed.length,
    newStart: added.length === 0 ? start : start + 1,
    newLines: added.length,
    lines: Object.freeze([...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)]),
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const freezeHunk = (hunk: StructuredPatchHunk, index: number): FileEditHunk =>
  Object.freeze({
    index,
    oldStart: hunk.oldStart,
    oldLines: hunk.oldLines,
    newStart: hunk.newStart,
    newLines: hunk.newLines,
    lines: Object.freeze([...hunk.lines]),
  });

/**
 * Read a file edit's arguments (`{ path, oldText, newText }` or `{ path, patch }`) into hunks.
 * Never throws: arguments that are not an edit, or a patch that cannot be read or touches more
 * than one file, give `ok: false` and a reason to show.
 *
 * @example
 * const read = readFileEdit({ path: 'notes.md', oldText: 'a\nb\n', newText: 'a\nc\n' });
 * read.ok && read.edit.hunks[0]?.lines // [' a', '-b', '+c']
 */
export function readFileEdit(args: unknown): FileEditRead {
  if (!isRecord(args)) return { ok: false, reason: 'The arguments are not an object.' };
  const path = args['path'];
  if (typeof path !== 'string' || path === '') return { ok: false, reason: 'The arguments name no file (`path`).' };
  const { oldText, newText, patch } = args as { oldText?: unknown; newText?: unknown; patch?: unknown };
  if (typeof patch === 'string') {
    let parsed: StructuredPatch[];
    try {
      parsed = parsePatch(patch);
    } catch (error) {
      return { ok: false, reason: `The patch cannot be read: ${error instanceof Error ? error.message : String(error)}` };
    }
    const files = parsed.filter((file) => file.hunks.length > 0);
    if (files.length > 1) return { ok: false, reason: `The patch changes ${files.length} files; a review shows one.` };
    const hunks = (files[0]?.hunks ?? []).map(freezeHunk);
    return { ok: true, edit: Object.freeze({ path, form: 'patch', hunks: Object.freeze(hunks), arguments: args as FileEditArguments, coarse: false }) };
  }
  if (typeof oldText === 'string' && typeof newText === 'string') {
    const diff = structuredPatch(path, path, oldText, newText, undefined, undefined, { context: CONTEXT, maxEditLength: MAX_EDIT_LENGTH });
    const hunks = diff === undefined ? [wholeChange(oldText, newText)] : diff.hunks.map(freezeHunk);
    return { ok: true, edit: Object.freeze({ path, form: 'texts', hunks: Object.freeze(hunks), arguments: args as FileEditArguments, coarse: diff === undefined }) };
  }
  return { ok: false, reason: 'The arguments hold neither `oldText` and `newText` nor a `patch`.' };
}

/**
 * The kept hunks renumbered as if only they were ever proposed: each keeps its place in the old
 * file, and its place in the new one moves by what the kept hunks before it add or remove.
 */
function renumber(hunks: readonly FileEditHunk[]): StructuredPatchHunk[] {
  let shift = 0;
  return hunks.map((hunk) => {
    const out = { oldStart: hunk.oldStart, oldLines: hunk.oldLines, newStart: hunk.oldStart + shift, newLines: hunk.newLines, lines: [...hunk.lines] };
    // A hunk that adds to an empty old range starts one line earlier in unified-diff numbering.
    if (hunk.oldLines === 0 && hunk.newLines > 0) out.newStart += 1;
    if (hunk.newLines === 0 && hunk.oldLines > 0) out.newStart -= 1;
    shift += hunk.newLines - hunk.oldLines;
    return out;
  });
}

/**
 * The arguments that apply only the kept hunks: `kept[i]` says whether hunk `i` is kept. With
 * every hunk kept they are the proposed arguments themselves (nothing was edited); otherwise a new
 * object with the same fields but `newText` (the old text with only the kept hunks applied) or
 * `patch` (a patch of only the kept hunks). Throws when the hunks cannot be applied to `oldText`
 * (never for hunks `readFileEdit` made from it).
 *
 * @example
 * const read = readFileEdit({ path: 'a.txt', oldText: 'a\nb\n', newText: 'A\nb\nB\n' });
 * if (read.ok) keepHunks(read.edit, [false, true]); // oldText with only the second hunk applied
 */
export function keepHunks(edit: FileEdit, kept: readonly boolean[]): FileEditArguments {
  const chosen = edit.hunks.filter((hunk) => kept[hunk.index] !== false);
  if (chosen.length === edit.hunks.length) return edit.arguments;
  const hunks = renumber(chosen);
  if (edit.form === 'texts') {
    const args = edit.arguments as FileEditArguments & { oldText: string };
    if (chosen.length === 0) return { ...args, newText: args.oldText };
    const applied = applyPatch(args.oldText, { oldFileName: edit.path, newFileName: edit.path, oldHeader: undefined, newHeader: undefined, hunks }, { fuzzFactor: 0 });
    if (applied === false) throw new Error(`toolgate: the kept hunks of ${edit.path} do not apply to its old text.`);
    return { ...args, newText: applied };
  }
  const args = edit.arguments as FileEditArguments & { patch: string };
  const [file] = parsePatch(args.patch).filter((f) => f.hunks.length > 0);
  const patch = formatPatch({
    oldFileName: file?.oldFileName ?? edit.path,
    newFileName: file?.newFileName ?? edit.path,
    oldHeader: file?.oldHeader,
    newHeader: file?.newHeader,
    hunks,
  }, FILE_HEADERS_ONLY);
  return { ...args, patch };
}

/**
 * Which of the proposed hunks the current arguments keep, read back from them (after an edit was
 * saved, a review opened again shows what was kept): a proposed hunk is kept when the current
 * arguments still hold it at the same place in the old file with the same lines.
 *
 * @example
 * keptHunksOf(read.edit, request.arguments) // [true, false]
 */
export function keptHunksOf(edit: FileEdit, current: unknown): boolean[] {
  if (current === edit.arguments) return edit.hunks.map(() => true);
  const now = readFileEdit(current);
  if (!now.ok) return edit.hunks.map(() => true);
  const key = (hunk: FileEditHunk) => `${hunk.oldStart}\u0000${hunk.lines.filter((line) => line[0] === '-' || line[0] === '+').join('\n')}`;
  const present = new Set(now.edit.hunks.map(key));
  return edit.hunks.map((hunk) => present.has(key(hunk)));
}
