import { useMemo, useState, type ComponentPropsWithoutRef } from 'react';
import type { AppToolHost } from '../core/app-tools/app-tool-host';
import type { ToolStreamStore } from '../core/stream/store';
import { formatNumber, useLabels, type ToolgateLabels } from '../wording/labels';
import { useAppToolCall } from '../hooks/use-app-tool-call';
import { useToolCall } from '../hooks/use-tool-call';
import { ArgumentsPreview, type ArgumentsSchema } from './arguments-preview';
import { cx } from './cx';

/**
 * Props of {@link ToolCallOutput}.
 *
 * @example
 * const props: ToolCallOutputProps = { callId: 'c1', schema: weatherTool.outputSchema, collapseAbove: 4000 };
 */
export interface ToolCallOutputProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  callId: string;
  /** Default: the provider's store. */
  store?: ToolStreamStore;
  /** Default: the provider's app-tool host. */
  host?: AppToolHost;
  /** The JSON Schema of the tool's output: field labels from titles and descriptions, as for the arguments. */
  schema?: ArgumentsSchema | undefined;
  /** An output whose JSON text is longer than this starts collapsed, behind a button that says what it holds (default 2,000). */
  collapseAbove?: number;
}

/** The length of a value's JSON text, for deciding whether it starts collapsed. */
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/** What a collapsed output says it holds: its fields, items or characters. */
function summaryOf(value: unknown, labels: ToolgateLabels): string {
  const format = (n: number) => formatNumber(n, labels.locale);
  if (Array.isArray(value)) return labels.items(value.length, format(value.length));
  if (typeof value === 'object' && value !== null) {
    const count = Object.keys(value).length;
    return labels.fields(count, format(count));
  }
  const length = String(value).length;
  return labels.characters(length, format(length));
}

/**
 * A call's output, as a tree like its arguments (schema-aware, text only): the call's own output
 * where its runtime sends one (a bridge, a provider's hosted tool), else the answer this page gave
 * as an app tool. A preliminary output is marked "Preliminary" and shown only while the call runs.
 * Nothing for a call without one (a server tool whose result says only ok or a code). A large output
 * starts collapsed behind a button that says what it holds.
 *
 * @example
 * <ToolCallOutput callId={callId} schema={tools.weather.outputSchema} />
 */
export function ToolCallOutput({ callId, store, host, schema, collapseAbove = 2000, className, ...rest }: ToolCallOutputProps) {
  const call = useToolCall(callId, store);
  const { result } = useAppToolCall(callId, host);
  const labels = useLabels();
  // A preliminary output stands for the call only while it runs: once the call ends without a
  // final one (settled with none, cancelled), the card shows no output rather than a stale one.
  const preliminary = call?.output !== undefined && call.outputPreliminary === true;
  const own = preliminary && call.status !== 'issued' ? undefined : call?.output;
  const output = own !== undefined ? own : result?.ok ? result.output : undefined;
  const large = useMemo(() => jsonLength(output) > collapseAbove, [output, collapseAbove]);
  const [opened, setOpened] = useState<boolean | undefined>(undefined);
  if (output === undefined || output === null) return null;
  const marked = preliminary && own !== undefined;
  const open = opened ?? !large;
  // Not a landmark: a page holds many cards, and landmarks must be told apart. The tree is the group named Output.
  return (
    <div {...rest} className={cx('toolgate-card-output', className)} data-preliminary={marked ? '' : undefined} data-state={open ? 'open' : 'closed'}>
      <span className="toolgate-card-output-label">
        <span aria-hidden="true">{labels.output}</span>
        {marked && (
          <span className="toolgate-chip" data-preliminary="">
            {labels.outputPreliminary}
          </span>
        )}
        {large && (
          <button type="button" className="toolgate-toggle" aria-expanded={open} onClick={() => setOpened(!open)}>
            {open ? labels.showLess : summaryOf(output, labels)}
          </button>
        )}
      </span>
      {open && <ArgumentsPreview value={output} schema={schema} complete aria-label={marked ? `${labels.output} (${labels.outputPreliminary})` : labels.output} />}
    </div>
  );
}
