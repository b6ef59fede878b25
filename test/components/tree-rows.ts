/**
 * Reading `<ToolCallList>`'s treegrid as a person with a screen reader does: rows by level, and
 * the rows a row holds (those after it, one level deeper or more, up to the next row at its level).
 */
import { screen, within } from '@testing-library/react';

/** The rows below `row` in the tree, at any depth. */
export function rowsUnder(row: HTMLElement): HTMLElement[] {
  const grid = row.closest('[role="treegrid"]') as HTMLElement;
  const rows = within(grid).getAllByRole('row');
  const level = Number(row.getAttribute('aria-level'));
  const out: HTMLElement[] = [];
  for (const next of rows.slice(rows.indexOf(row) + 1)) {
    if (Number(next.getAttribute('aria-level')) <= level) break;
    out.push(next);
  }
  return out;
}

/** The cards under a turn's or a call's row. */
export function cardsUnder(row: HTMLElement): HTMLElement[] {
  return rowsUnder(row).flatMap((r) => within(r).queryAllByRole('article'));
}

/** The row of a turn, by its title. */
export const turnRow = (name: string | RegExp) => screen.getByRole('row', { name });
