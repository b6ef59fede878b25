/** A plain-text table: one column per [heading, cell] pair, columns padded to their widest cell. */
export function table<T>(rows: readonly T[], columns: readonly (readonly [string, (row: T) => string])[]): string {
  const cells = [columns.map(([heading]) => heading), ...rows.map((row) => columns.map(([, cell]) => cell(row)))];
  const widths = columns.map((_, c) => Math.max(...cells.map((line) => (line[c] ?? '').length)));
  const render = (line: string[]) => line.map((cell, c) => cell.padEnd(widths[c] as number)).join('  ').trimEnd();
  return [render(cells[0] as string[]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(render)].join('\n');
}
