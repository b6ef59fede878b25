/**
 * `<TerminalOutput>`: a command's output as it streams, with its ANSI colours, in a box that follows
 * the end until the person scrolls up, windowed past a few thousand lines, with a copy button and a
 * status said politely, once per change (never once per line).
 */
import { forwardRef, useCallback, useEffect, useMemo, useReducer, useRef, useState, type CSSProperties, type HTMLAttributes, type UIEvent } from 'react';
import { cx } from '../../components/cx';
import { useIsomorphicLayoutEffect } from '../../hooks/use-isomorphic-layout-effect';
import { createAnsiLines, type AnsiLine, type AnsiRun } from './ansi-lines';

/**
 * Where a command is: still running, finished, or failed.
 *
 * @example
 * const status: TerminalStatus = 'running';
 */
export type TerminalStatus = 'running' | 'done' | 'failed';

/**
 * The words of `<TerminalOutput>`, for another language or tone.
 *
 * @example
 * const labels: Partial<TerminalLabels> = { copy: 'Copier', copied: 'Copié' };
 */
export interface TerminalLabels {
  copy: string;
  copied: string;
  copyFailed: string;
  jumpToEnd: (newLines: number) => string;
  status: (status: TerminalStatus, exitCode: number | undefined) => string;
  empty: string;
}

const DEFAULT_LABELS: TerminalLabels = {
  copy: 'Copy output',
  copied: 'Copied',
  copyFailed: 'Could not copy',
  jumpToEnd: (n) => (n > 0 ? `Jump to end (${n} new ${n === 1 ? 'line' : 'lines'})` : 'Jump to end'),
  status: (status, exitCode) =>
    status === 'running'
      ? 'Running'
      : status === 'done'
        ? exitCode === undefined || exitCode === 0
          ? 'Finished'
          : `Finished with exit code ${exitCode}`
        : exitCode === undefined
          ? 'Failed'
          : `Failed with exit code ${exitCode}`,
  empty: 'No output yet',
};

/**
 * The props of `<TerminalOutput>`.
 *
 * @example
 * const props: TerminalOutputProps = { text: '\u001b[32mPASS\u001b[0m 12 tests\n', status: 'done', exitCode: 0, label: 'Output of npm test' };
 */
export interface TerminalOutputProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  /** The output so far (it may hold ANSI escape sequences); pass the whole text again as it grows. */
  text: string;
  status?: TerminalStatus;
  exitCode?: number;
  /** The accessible name of the scroll box, e.g. "Output of npm test". */
  label?: string;
  /** The scroll box's greatest height (any CSS length); 20rem by default. */
  maxHeight?: string;
  /** Past this many lines only the lines in view (and a margin) are in the page. 2,000 by default. */
  windowAfter?: number;
  labels?: Partial<TerminalLabels>;
}

const OVERSCAN = 30;
const FALLBACK_LINE_PX = 18;

/**
 * A command's streaming output with ANSI colours: follows the end until the person scrolls up.
 *
 * @example
 * <TerminalOutput text={output} status={running ? 'running' : 'done'} exitCode={code} label="Output of npm test" />
 */
export const TerminalOutput = forwardRef<HTMLDivElement, TerminalOutputProps>(function TerminalOutput(
  { text, status, exitCode, label = 'Command output', maxHeight = '20rem', windowAfter = 2000, labels: given, className, ...rest },
  ref,
) {
  const labels = useMemo(() => ({ ...DEFAULT_LABELS, ...given }), [given]);
  const parser = useRef(createAnsiLines());
  const lines = useMemo(() => parser.current.push(text), [text]);
  const box = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const [lineHeight, setLineHeight] = useState(FALLBACK_LINE_PX);
  const [view, setView] = useState({ top: 0, height: 0 });
  const [seenLines, setSeenLines] = useState(0);
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  const windowed = lines.length > windowAfter;
  const first = windowed ? Math.max(0, Math.floor(view.top / lineHeight) - OVERSCAN) : 0;
  const last = windowed ? Math.min(lines.length, Math.ceil((view.top + view.height) / lineHeight) + OVERSCAN) : lines.length;

  // Measure one line once it is in the page: windowing places lines by this height.
  useIsomorphicLayoutEffect(() => {
    const line = box.current?.querySelector<HTMLElement>('.toolgate-terminal-line');
    const measured = line?.getBoundingClientRect().height ?? 0;
    if (measured > 0 && Math.abs(measured - lineHeight) > 0.5) setLineHeight(measured);
  }, [lines.length > 0, lineHeight]);

  // Follow the end: after new output, scroll down unless the person has scrolled up.
  useIsomorphicLayoutEffect(() => {
    const el = box.current;
    if (el === null) return;
    if (following.current) {
      el.scrollTop = el.scrollHeight;
      setSeenLines(lines.length);
    }
    setView((v) => (v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));
  }, [lines, lineHeight]);

  const onScroll = useCallback(
    (event: UIEvent<HTMLDivElement>) => {
      const el = event.currentTarget;
      const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - lineHeight;
      following.current = atEnd;
      if (atEnd) setSeenLines(lines.length);
      setView({ top: el.scrollTop, height: el.clientHeight });
      rest.onScroll?.(event);
    },
    [lineHeight, lines.length, rest.onScroll],
  );

  const jumpToEnd = () => {
    const el = box.current;
    if (el === null) return;
    following.current = true;
    el.scrollTop = el.scrollHeight;
    setSeenLines(lines.length);
    rerender();
    el.focus();
  };

  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (copy === 'idle') return;
    const timer = setTimeout(() => setCopy('idle'), 2000);
    return () => clearTimeout(timer);
  }, [copy]);
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(lines.map((l) => l.text).join('\n'));
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };

  const unseen = following.current ? 0 : Math.max(0, lines.length - seenLines);
  const spacer = (count: number): CSSProperties => ({ height: count * lineHeight });

  return (
    <div ref={ref} className={cx('toolgate-terminal', className)} data-status={status} {...rest} onScroll={undefined}>
      <div className="toolgate-terminal-bar">
        <button type="button" className="toolgate-button toolgate-terminal-copy" onClick={onCopy} disabled={lines.length === 0}>
          {copy === 'copied' ? labels.copied : copy === 'failed' ? labels.copyFailed : labels.copy}
        </button>
        {!following.current && (
          <button type="button" className="toolgate-button toolgate-terminal-jump" onClick={jumpToEnd}>
            {labels.jumpToEnd(unseen)}
          </button>
        )}
        {status !== undefined && (
          <span className="toolgate-terminal-status" data-status={status}>
            {labels.status(status, exitCode)}
          </span>
        )}
      </div>
      <div
        ref={box}
        className="toolgate-terminal-screen"
        role="region"
        aria-label={label}
        // A scroll box is reached by keyboard, so that a person can scroll it with the arrow keys.
        tabIndex={0}
        style={{ maxHeight }}
        onScroll={onScroll}
        data-windowed={windowed ? '' : undefined}
      >
        {lines.length === 0 ? (
          <div className="toolgate-terminal-empty">{labels.empty}</div>
        ) : (
          <>
            {first > 0 && <div aria-hidden style={spacer(first)} />}
            {lines.slice(first, last).map((line, index) => (
              <Line key={first + index} line={line} />
            ))}
            {last < lines.length && <div aria-hidden style={spacer(lines.length - last)} />}
          </>
        )}
      </div>
      {/* Said once per change of status, never per line. */}
      <div className="toolgate-sr-only" role="status">
        {status === undefined ? '' : `${label}: ${labels.status(status, exitCode)}`}
      </div>
    </div>
  );
});

function Line({ line }: { line: AnsiLine }) {
  return (
    <div className="toolgate-terminal-line">
      {line.runs.length === 0 ? '\u00a0' : line.runs.map((run, index) => <Run key={index} run={run} />)}
    </div>
  );
}

const NAMED = /^(bright-)?(black|red|green|yellow|blue|magenta|cyan|white)$/;

function Run({ run }: { run: AnsiRun }) {
  const fg = run.inverse ? run.bg : run.fg;
  const bg = run.inverse ? run.fg : run.bg;
  const style: CSSProperties = {};
  const classes = ['toolgate-ansi'];
  if (fg !== undefined) {
    if (NAMED.test(fg)) classes.push(`toolgate-ansi-fg-${fg}`);
    else style.color = `rgb(${fg})`;
  } else if (run.inverse) classes.push('toolgate-ansi-fg-inverse');
  if (bg !== undefined) {
    if (NAMED.test(bg)) classes.push(`toolgate-ansi-bg-${bg}`);
    else style.backgroundColor = `rgb(${bg})`;
  } else if (run.inverse) classes.push('toolgate-ansi-bg-inverse');
  if (run.bold) classes.push('toolgate-ansi-bold');
  if (run.dim) classes.push('toolgate-ansi-dim');
  if (run.italic) classes.push('toolgate-ansi-italic');
  if (run.underline) classes.push('toolgate-ansi-underline');
  if (run.strikethrough) classes.push('toolgate-ansi-strike');
  return (
    <span className={classes.join(' ')} style={style}>
      {run.text}
    </span>
  );
}
