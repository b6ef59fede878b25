/**
 * What changed between two JSON values, as a list of changes at paths: what a person reads before
 * approving arguments they edited: a diff against the model's arguments (docs/protocol.md, "Edits,
 * grants and batches").
 *
 * Written here rather than taken from `jsondiffpatch` or `diff`: the first gives a delta format
 * for machines (its readable formatters write HTML as strings), the second diffs lines of text, so
 * a changed field of a form would show as changed lines of pretty-printed JSON instead of as that
 * field. A list of `path: before → after` is what a screen reader reads well and what a form can
 * mark next to its fields, and it costs about a hundred lines.
 */

import type { JsonValue } from './json-value';
import { formatPathKey } from './standard-schema';

/**
 * One step of a path into a JSON value: an object key or an array index.
 *
 * @example
 * const path: readonly JsonPathStep[] = ['legs', 0, 'from'];
 */
export type JsonPathStep = string | number;

/**
 * One difference: a value `added` where there was none, `removed`, or `changed` (`before` and
 * `after` both given). Paths are never empty except for a change of the whole value.
 *
 * @example
 * const change: JsonChange = { path: ['amount'], kind: 'changed', before: 500, after: 50 };
 */
export type JsonChange =
  | { readonly path: readonly JsonPathStep[]; readonly kind: 'added'; readonly after: JsonValue }
  | { readonly path: readonly JsonPathStep[]; readonly kind: 'removed'; readonly before: JsonValue }
  | { readonly path: readonly JsonPathStep[]; readonly kind: 'changed'; readonly before: JsonValue; readonly after: JsonValue };

/**
 * Options of {@link diffJson}.
 *
 * @example
 * diffJson(model, edited, { limit: 50 } satisfies JsonDiffOptions);
 */
export interface JsonDiffOptions {
  /** At most this many changes are listed (default 500); `truncated` says when more were left out. */
  limit?: number;
}

/**
 * The changes, in the order of `after` (removed keys after the kept ones), and whether the list was
 * cut at `limit`. Frozen.
 *
 * @example
 * const { changes, truncated }: JsonDiff = diffJson(before, after);
 */
export interface JsonDiff {
  readonly changes: readonly JsonChange[];
  readonly truncated: boolean;
}

/** Arrays up to this many cells of the longest-common-subsequence table are aligned; longer ones by position. */
const ALIGN_CELLS = 40_000;

/**
 * The changes that turn `before` into `after`. Objects are compared key by key (own keys only:
 * `__proto__` is an ordinary key here); arrays are aligned on their equal elements where they are
 * small enough, so that an element inserted in the middle reads as one `added`, not as every later
 * element changed; longer arrays are compared by position. Values of different kinds (an object and
 * an array, a number and a string) are one `changed`.
 *
 * @example
 * diffJson({ to: 'bob', amount: 500 }, { to: 'bob', amount: 50, memo: 'rent' }).changes
 * // [{ path: ['amount'], kind: 'changed', before: 500, after: 50 }, { path: ['memo'], kind: 'added', after: 'rent' }]
 */
export function diffJson(before: JsonValue, after: JsonValue, options: JsonDiffOptions = {}): JsonDiff {
  const limit = Math.max(0, options.limit ?? 500);
  const changes: JsonChange[] = [];
  let truncated = false;
  const push = (change: JsonChange): boolean => {
    if (changes.length >= limit) {
      truncated = true;
      return false;
    }
    changes.push(Object.freeze({ ...change, path: Object.freeze(change.path) }) as JsonChange);
    return true;
  };

  // An explicit stack (arguments may be deep, and a diff must not overflow where the preview did
  // not) of comparisons still to make and changes already found, popped in document order.
  const work: Step[] = [{ compare: [before, after, null] }];
  while (work.length > 0 && !truncated) {
    const step = work.pop() as Step;
    if ('change' in step) {
      const { at, ...rest } = step.change;
      push({ ...rest, path: stepsOf(at) } as JsonChange);
      continue;
    }
    const [a, b, path] = step.compare;
    if (a === b) continue;
    const kindA = kindOf(a);
    if (kindA !== kindOf(b) || kindA === 'scalar') {
      if (!sameJson(a, b)) push({ path: stepsOf(path), kind: 'changed', before: a, after: b });
      continue;
    }
    const next: Step[] = [];
    if (kindA === 'array') diffArrays(a as readonly JsonValue[], b as readonly JsonValue[], path, next);
    else diffObjects(a as Record<string, JsonValue>, b as Record<string, JsonValue>, path, next);
    for (let i = next.length - 1; i >= 0; i--) work.push(next[i] as Step);
  }
  return Object.freeze({ changes: Object.freeze(changes), truncated });
}

/**
 * A path as a chain from its last step back to the root: each level adds one link instead of
 * copying the path, so a value nested thousands of levels deep costs in proportion to its size.
 */
type Path = { readonly step: JsonPathStep; readonly parent: Path } | null;

const stepsOf = (path: Path): JsonPathStep[] => {
  const steps: JsonPathStep[] = [];
  for (let link = path; link !== null; link = link.parent) steps.push(link.step);
  return steps.reverse();
};

const at = (path: Path, step: JsonPathStep): Path => ({ step, parent: path });

type Found =
  | { readonly at: Path; readonly kind: 'added'; readonly after: JsonValue }
  | { readonly at: Path; readonly kind: 'removed'; readonly before: JsonValue };

/** A comparison still to make, or a change found, in the order they are listed. */
type Step = { readonly compare: readonly [JsonValue, JsonValue, Path] } | { readonly change: Found };

type Kind = 'array' | 'object' | 'scalar';
const kindOf = (value: JsonValue): Kind => (Array.isArray(value) ? 'array' : typeof value === 'object' && value !== null ? 'object' : 'scalar');

function diffObjects(
  a: Record<string, JsonValue>,
  b: Record<string, JsonValue>,
  path: Path,
  out: Step[],
): void {
  for (const key of Object.keys(b)) {
    const next = b[key] as JsonValue;
    if (!Object.hasOwn(a, key)) out.push({ change: { at: at(path, key), kind: 'added', after: next } });
    else out.push({ compare: [a[key] as JsonValue, next, at(path, key)] });
  }
  for (const key of Object.keys(a)) {
    if (!Object.hasOwn(b, key)) out.push({ change: { at: at(path, key), kind: 'removed', before: a[key] as JsonValue } });
  }
}

function diffArrays(
  a: readonly JsonValue[],
  b: readonly JsonValue[],
  path: Path,
  out: Step[],
): void {
  // Indexes: an added or changed element is named by its place in the edited array (`after`), a
  // removed one by its place in the array it was removed from (`before`).
  const compare = (i: number, j: number): void => void out.push({ compare: [a[i] as JsonValue, b[j] as JsonValue, at(path, j)] });
  const added = (j: number): void => void out.push({ change: { at: at(path, j), kind: 'added', after: b[j] as JsonValue } });
  const removed = (i: number): void => void out.push({ change: { at: at(path, i), kind: 'removed', before: a[i] as JsonValue } });
  const table = a.length === b.length ? null : alignment(a, b);
  if (table === null) {
    // Same length (an edit in place), or too large to align: by position.
    const common = Math.min(a.length, b.length);
    for (let i = 0; i < common; i++) compare(i, i);
    for (let j = common; j < b.length; j++) added(j);
    for (let i = common; i < a.length; i++) removed(i);
    return;
  }
  // Walk the longest common subsequence of equal elements; what lies between two matches is
  // paired by position (a change inside), and what is left over is added or removed.
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  let i = 0;
  let j = 0;
  const gapA: number[] = [];
  const gapB: number[] = [];
  const flush = (): void => {
    const paired = Math.min(gapA.length, gapB.length);
    for (let k = 0; k < paired; k++) compare(gapA[k] as number, gapB[k] as number);
    for (let k = paired; k < gapB.length; k++) added(gapB[k] as number);
    for (let k = paired; k < gapA.length; k++) removed(gapA[k] as number);
    gapA.length = 0;
    gapB.length = 0;
  };
  while (i < n || j < m) {
    if (i < n && j < m && table.equal(i, j) && (table.cells[i * width + j] as number) === (table.cells[(i + 1) * width + j + 1] as number) + 1) {
      flush();
      i++;
      j++;
    } else if (j < m && (i === n || (table.cells[i * width + j + 1] as number) >= (table.cells[(i + 1) * width + j] as number))) {
      gapB.push(j++);
    } else {
      gapA.push(i++);
    }
  }
  flush();
}

/** How much comparing elements may cost while aligning one array, in values visited. */
const ALIGN_BUDGET = 2_000_000;

/**
 * The table of longest common subsequences of `a` and `b` (suffix lengths), or `null` when the
 * arrays are too large to align or comparing their elements would cost more than the budget.
 */
function alignment(a: readonly JsonValue[], b: readonly JsonValue[]): { cells: Uint32Array; equal(i: number, j: number): boolean } | null {
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > ALIGN_CELLS) return null;
  const width = m + 1;
  const cells = new Uint32Array((n + 1) * width);
  const same = new Uint8Array(n * m);
  const budget = { left: ALIGN_BUDGET };
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const equal = sameJson(a[i] as JsonValue, b[j] as JsonValue, budget);
      if (budget.left < 0) return null;
      same[i * m + j] = equal ? 1 : 0;
      cells[i * width + j] = equal
        ? (cells[(i + 1) * width + j + 1] as number) + 1
        : Math.max(cells[(i + 1) * width + j] as number, cells[i * width + j + 1] as number);
    }
  }
  return { cells, equal: (i, j) => same[i * m + j] === 1 };
}

/**
 * Whether two JSON values are equal as JSON: the same scalars (`0` and `-0` alike, as their
 * canonical JSON is), the same keys with equal values in any order, equal elements in order:
 * exactly when their canonical JSON texts (RFC 8785) are equal (a property test holds the two
 * equal). The one comparison of JSON values in the kit: the store's argument check, the card,
 * the editor and the app-tool host all use it.
 *
 * @example
 * sameJson({ a: 1, b: [2] }, { b: [2], a: 1 }) // true
 */
export function sameJson(a: unknown, b: unknown, budget?: { left: number }): boolean {
  // Read as JSON: a value that is neither array nor plain object compares as a scalar, by identity.
  const work: [JsonValue, JsonValue][] = [[a as JsonValue, b as JsonValue]];
  while (work.length > 0) {
    if (budget !== undefined && --budget.left < 0) return false;
    const [x, y] = work.pop() as [JsonValue, JsonValue];
    if (x === y) continue;
    const kind = kindOf(x);
    if (kind !== kindOf(y) || kind === 'scalar') return false;
    if (kind === 'array') {
      const xs = x as readonly JsonValue[];
      const ys = y as readonly JsonValue[];
      if (xs.length !== ys.length) return false;
      for (let i = 0; i < xs.length; i++) work.push([xs[i] as JsonValue, ys[i] as JsonValue]);
      continue;
    }
    const xo = x as Record<string, JsonValue>;
    const yo = y as Record<string, JsonValue>;
    const keys = Object.keys(xo);
    if (keys.length !== Object.keys(yo).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(yo, key)) return false;
      work.push([xo[key] as JsonValue, yo[key] as JsonValue]);
    }
  }
  return true;
}

/**
 * A path as a person reads it: `legs[0].from`, `["odd key"]`, or `(the whole value)` for the root
 * (`root` replaces that text).
 *
 * @example
 * formatJsonPath(['legs', 0, 'from']) // 'legs[0].from'
 */
export function formatJsonPath(path: readonly JsonPathStep[], root = '(the whole value)'): string {
  if (path.length === 0) return root;
  const text = path.map((step) => formatPathKey(step)).join('');
  return text.startsWith('.') ? text.slice(1) : text;
}
