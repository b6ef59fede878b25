/**
 * The panel's look, as inline style objects on the kit's custom properties (docs/theming.md), so
 * the dark theme works and the kit's stylesheet carries nothing for an app that never opens it.
 */
import type { CSSProperties } from 'react';

const border = '1px solid var(--_toolgate-border, #d5d8dd)';

export const styles = {
  root: { border, borderRadius: 'var(--toolgate-radius, 8px)', fontSize: 13, display: 'grid', gap: 8, padding: 8 },
  header: { display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' },
  title: { fontSize: 14, fontWeight: 600, margin: 0 },
  muted: { color: 'var(--_toolgate-muted, #55595f)' },
  filters: { display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' },
  columns: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: 8 },
  pane: { border, borderRadius: 6, padding: 6, minWidth: 0, overflow: 'auto', maxHeight: 420, background: 'var(--_toolgate-surface, #f6f7f9)' },
  list: { listStyle: 'none', margin: 0, padding: 0, fontFamily: 'var(--toolgate-mono, monospace)' },
  row: { display: 'block', width: '100%', textAlign: 'left', font: 'inherit', color: 'inherit', background: 'transparent', border: 'none', padding: '2px 4px', cursor: 'pointer' },
  rowSelected: { outline: '2px solid var(--_toolgate-focus, #2459c0)', outlineOffset: -2 },
  refused: { color: 'var(--_toolgate-error-fg, #b3261e)' },
  pre: { fontFamily: 'var(--toolgate-mono, monospace)', whiteSpace: 'pre-wrap', wordBreak: 'break-word', margin: 0 },
  stepper: { display: 'flex', gap: 8, alignItems: 'center', padding: 4, borderRadius: 4 },
  section: { borderTop: border, paddingTop: 6, marginTop: 6 },
  h3: { fontSize: 13, fontWeight: 600, margin: '0 0 4px' },
  control: { font: 'inherit', color: 'inherit', background: 'var(--_toolgate-bg, #fff)', border, borderRadius: 4, padding: '2px 6px' },
} satisfies Record<string, CSSProperties>;
