/**
 * Reading `<ToolCallList>`'s treegrid in play functions: the rows a row holds are those after it,
 * one level deeper or more, up to the next row at its level.
 */

/** The rows below `row` in the tree, at any depth (of those mounted). */
export function rowsUnder(row: HTMLElement): HTMLElement[] {
  const grid = row.closest('[role="treegrid"]') as HTMLElement;
  const rows = [...grid.querySelectorAll<HTMLElement>('[role="row"]')];
  const level = Number(row.getAttribute('aria-level'));
  const out: HTMLElement[] = [];
  for (const next of rows.slice(rows.indexOf(row) + 1)) {
    if (Number(next.getAttribute('aria-level')) <= level) break;
    out.push(next);
  }
  return out;
}

/** The cards under a turn's or a call's row. */
export const cardsUnder = (row: HTMLElement): HTMLElement[] => rowsUnder(row).flatMap((r) => [...r.querySelectorAll<HTMLElement>('article')]);
