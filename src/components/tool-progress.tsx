import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { formatNumber, useLabels, type ToolgateLabels } from '../wording/labels';
import { cx } from './cx';

/**
 * What a progress value says: a fraction done (0..1) when its shape gives one, and any text it carries.
 *
 * @example
 * const { value, text }: ToolProgressReading = readToolProgress({ done: 3, total: 10 }, defaultLabels);
 * // value 0.3, text '3 of 10'
 */
export interface ToolProgressReading {
  /** 0..1, or `undefined` when the shape gives no fraction (indeterminate). */
  value: number | undefined;
  /** What to show beside the bar: `3 of 10`, a message, or the value itself when it gives no fraction. */
  text: string | undefined;
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const pick = (o: Record<string, unknown>, keys: string[]) => keys.map((k) => (Object.hasOwn(o, k) ? o[k] : undefined)).find(num);
const clamp = (v: number) => Math.min(1, Math.max(0, v));
/**
 * A number is a fraction only within 0..1. Above 1 it says nothing about how far along a call is:
 * `3` may be 3 files or 3%, so it is shown as text on an indeterminate bar, never as a 3% bar.
 */
const fraction = (v: number | undefined) => (v === undefined || v < 0 || v > 1 ? undefined : v);
const MAX_TEXT = 200;

/** Any value as bounded text (progress is application data: its shape is never trusted). */
function asText(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

/**
 * Read a progress value of any shape. It is determinate only when it gives `done` of `total`
 * (`{ done, total }`, or `current`/`completed`/`loaded`/`processed`/`value`/`step` with
 * `total`/`max`/`count`/`steps`/`of`), or a 0..1 fraction (a bare number, or `fraction`/`ratio`/
 * `progress` in an object), with an optional `message`. Anything else is indeterminate and shown
 * as text: a bare `3` may count files, so it is never read as 3%, and neither are `"42%"` or
 * `{ percent: 42 }` (they are shown as they are).
 *
 * @example
 * readToolProgress({ done: 3, total: 10 }, labels) // { value: 0.3, text: '3 of 10' }
 */
export function readToolProgress(progress: unknown, labels: ToolgateLabels): ToolProgressReading {
  if (progress === undefined || progress === null) return { value: undefined, text: undefined };
  if (num(progress)) return { value: fraction(progress), text: fraction(progress) === undefined ? String(progress) : undefined };
  if (!Array.isArray(progress) && typeof progress === 'object') {
    const o = progress as Record<string, unknown>;
    const message = ['message', 'label', 'status', 'stage', 'text'].map((k) => (Object.hasOwn(o, k) ? o[k] : undefined)).find((v) => typeof v === 'string') as string | undefined;
    const done = pick(o, ['done', 'completed', 'current', 'loaded', 'processed', 'value', 'step']);
    const total = pick(o, ['total', 'max', 'count', 'steps', 'of']);
    if (done !== undefined && total !== undefined && total > 0 && done >= 0) {
      const of = labels.progressOf(formatNumber(done, labels.locale), formatNumber(total, labels.locale));
      return { value: clamp(done / total), text: message ? `${of} · ${asText(message)}` : of };
    }
    const share = fraction(pick(o, ['fraction', 'ratio', 'progress']));
    if (share !== undefined) return { value: share, text: message && asText(message) };
    if (message !== undefined) return { value: undefined, text: asText(message) };
  }
  return { value: undefined, text: asText(progress) };
}

/**
 * Props of {@link ToolProgress}.
 *
 * @example
 * <ToolProgress progress={call.progress} />
 */
export interface ToolProgressProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /** The call's latest progress (`call.progress`): any shape. */
  progress: unknown;
}

/**
 * A progress bar: determinate when the progress gives a fraction, indeterminate otherwise, with
 * its text beside it. `data-state` is `loading`, `complete` or `indeterminate` (as Radix Progress).
 *
 * @example
 * <ToolProgress progress={call.progress} />
 */
export const ToolProgress = forwardRef<HTMLDivElement, ToolProgressProps>(function ToolProgress({ progress, className, ...rest }, ref) {
  const labels = useLabels();
  const { value, text } = readToolProgress(progress, labels);
  const percent = value === undefined ? undefined : new Intl.NumberFormat(labels.locale, { style: 'percent' }).format(value);
  return (
    <div {...rest} ref={ref} className={cx('toolgate-progress', className)} data-state={value === undefined ? 'indeterminate' : value >= 1 ? 'complete' : 'loading'}>
      <progress aria-label={labels.progress} max={1} value={value} aria-valuetext={value === undefined ? text : text ? `${percent}, ${text}` : percent} />
      {(text ?? percent) && <span className="toolgate-progress-text">{text ?? percent}</span>}
    </div>
  );
});
