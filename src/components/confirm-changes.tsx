/**
 * What a person changed in the arguments, as a list a screen reader reads well: one line per
 * change (`amount: 500 → 50`), against the arguments as they were proposed.
 */
import { forwardRef, useMemo, type ComponentPropsWithoutRef } from 'react';
import { diffJson, formatJsonPath, type JsonChange } from '../core/json/json-diff';
import type { JsonValue } from '../core/json/json-value';
import type { ConfirmToolLabels } from '../wording/confirm-labels';
import { useConfirmToolDialog } from './confirm-dialog-context';
import { cx } from './cx';

/** A value as one line of JSON text, cut at `limit` characters (the tree above shows it whole). */
function short(value: JsonValue, limit = 80): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** One change as a sentence of the labels. */
export function describeChange(change: JsonChange, labels: ConfirmToolLabels): string {
  const path = formatJsonPath(change.path);
  switch (change.kind) {
    case 'added':
      return labels.changeAdded(path, short(change.after));
    case 'removed':
      return labels.changeRemoved(path, short(change.before));
    case 'changed':
      return labels.changeChanged(path, short(change.before), short(change.after));
  }
}

/**
 * Props of {@link ConfirmToolDialogChanges}: a `<section>`'s, and how many changes to list.
 *
 * @example
 * const props: ConfirmToolDialogChangesProps = { limit: 20 };
 */
export interface ConfirmToolDialogChangesProps extends Omit<ComponentPropsWithoutRef<'section'>, 'children'> {
  /** At most this many changes are listed (default 50); a line says when there are more. */
  limit?: number;
}

/**
 * The changes a person made to the arguments, against the ones proposed (the model's, or the
 * gate's): one line per change, `path: before → after`. Shown once an edit was saved; nothing
 * while the arguments are as proposed.
 *
 * @example
 * <ConfirmToolDialogContent>
 *   <ConfirmToolDialogArguments />
 *   <ConfirmToolDialogChanges limit={20} />
 * </ConfirmToolDialogContent>
 */
export const ConfirmToolDialogChanges = forwardRef<HTMLElement, ConfirmToolDialogChangesProps>(function ConfirmToolDialogChanges({ limit = 50, className, ...rest }, ref) {
  const { view, editing, labels } = useConfirmToolDialog();
  const original = view?.original ?? null;
  const current = view?.arguments ?? null;
  const diff = useMemo(() => diffJson(original, current, { limit }), [original, current, limit]);
  if (view === null || !view.edited || editing) return null;
  return (
    <section {...rest} ref={ref} className={cx('toolgate-confirm-changes', className)} aria-label={labels.confirm.changes}>
      <span className="toolgate-confirm-result-label">{labels.confirm.changes}</span>
      {diff.changes.length === 0 ? (
        <p>{labels.confirm.noChanges}</p>
      ) : (
        <ul>
          {diff.changes.map((change, index) => (
            <li key={index} data-kind={change.kind}>
              {describeChange(change, labels.confirm)}
            </li>
          ))}
        </ul>
      )}
      {diff.truncated && <p>{labels.confirm.changesCut}</p>}
    </section>
  );
});
