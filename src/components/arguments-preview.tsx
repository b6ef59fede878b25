import { createContext, forwardRef, memo, useContext, useMemo, useRef, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import type { ArgumentsPath } from '../core/json/arguments-parser';
import { formatNumber, useLabels, type ToolgateLabels } from '../wording/labels';
import { cx } from './cx';

/**
 * The part of a tool's JSON Schema the preview reads: titles, descriptions, properties, required, items.
 *
 * @example
 * const schema: ArgumentsSchema = { properties: { to: { title: 'Recipient' }, amount: { description: 'In euros' } }, required: ['to'] };
 */
export interface ArgumentsSchema {
  title?: string;
  description?: string;
  properties?: Readonly<Record<string, ArgumentsSchema>>;
  required?: readonly string[];
  items?: ArgumentsSchema | readonly ArgumentsSchema[];
  [keyword: string]: unknown;
}

/**
 * Props of {@link ArgumentsPreview}.
 *
 * @example
 * const props: ArgumentsPreviewProps = { value: call.partialArguments, path: call.writingPath, schema: tool.parameters, complete: call.status === 'issued' };
 */
export interface ArgumentsPreviewProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /** The arguments: `call.partialArguments` while they stream, then the final value. `undefined` while nothing is written. */
  value: unknown;
  /** The path being written (`call.writingPath`): that value is marked. */
  path?: ArgumentsPath | undefined;
  /** The tool's JSON Schema: field labels from titles and descriptions, required fields not yet written shown as pending. */
  schema?: ArgumentsSchema | undefined;
  /** The arguments are final: a required field still absent is shown as missing, not pending. */
  complete?: boolean;
  /** Why the argument text is not JSON (`call.argumentsError`): the raw `text` is shown instead, marked. */
  error?: string | undefined;
  /** The raw argument text, shown when `error` is set. */
  text?: string;
  /** Strings longer than this start collapsed (default 200). */
  stringLimit?: number;
  /** Arrays and objects with more entries than this start collapsed (default 100). */
  collapseAfter?: number;
  /** Entries shown per "show more" (default 100). */
  pageSize?: number;
  /** Containers this deep start collapsed, so hostile nesting cannot exhaust the page (default 8). */
  collapseDepth?: number;
}

interface TreeOptions {
  labels: ToolgateLabels;
  stringLimit: number;
  collapseAfter: number;
  pageSize: number;
  collapseDepth: number;
  complete: boolean;
}
const Tree = createContext<TreeOptions | null>(null);
const useTree = () => useContext(Tree) as TreeOptions;

const own = (object: object | undefined, key: string): boolean => object !== undefined && Object.hasOwn(object, key);
const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** The schema of `key` inside `schema` (own properties only: a key named `__proto__` stays a key). */
function childSchema(schema: ArgumentsSchema | undefined, key: string | number): ArgumentsSchema | undefined {
  if (!schema) return undefined;
  if (typeof key === 'number') {
    const items = schema.items;
    return Array.isArray(items) ? (items[key] as ArgumentsSchema | undefined) : (items as ArgumentsSchema | undefined);
  }
  const properties = schema.properties;
  const child = isObject(properties) && own(properties, key) ? properties[key] : undefined;
  return isObject(child) ? child : undefined;
}

/**
 * A JSON value as a tree that grows while the arguments stream in. Text only, never markup:
 * every string is rendered as a React text node. Long strings and large containers start
 * collapsed behind disclosure buttons that state what they hold; nothing is cut silently.
 *
 * @example
 * const call = useToolCall(callId);
 * <ArgumentsPreview value={call.partialArguments} path={call.writingPath} schema={tool.parameters} />
 */
export const ArgumentsPreview = forwardRef<HTMLDivElement, ArgumentsPreviewProps>(function ArgumentsPreview(
  { value, path, schema, complete = false, error, text = '', stringLimit = 200, collapseAfter = 100, pageSize = 100, collapseDepth = 8, className, ...rest },
  ref,
) {
  const labels = useLabels();
  const options = useMemo(
    () => ({ labels, stringLimit, collapseAfter, pageSize: Math.max(1, pageSize), collapseDepth, complete }),
    [labels, stringLimit, collapseAfter, pageSize, collapseDepth, complete],
  );
  const invalid = error !== undefined;
  const empty = value === undefined && !schema?.properties;
  const state = invalid ? 'invalid' : value === undefined ? 'empty' : path ? 'writing' : 'ready';
  return (
    <div
      role="group"
      aria-label={labels.arguments}
      {...rest}
      ref={ref}
      className={cx('toolgate-args', className)}
      data-state={state}
    >
      <Tree.Provider value={options}>
        {invalid ? (
          <>
            <p className="toolgate-args-error">
              <strong>{labels.notJson}</strong> <span>{error}</span>
            </p>
            <span className="toolgate-args-raw-label">{labels.rawText}</span>
            <pre className="toolgate-args-raw">
              <LongText text={text} />
            </pre>
          </>
        ) : empty ? (
          <span className="toolgate-args-waiting">{labels.waitingForArguments}</span>
        ) : (
          <JsonNode value={value === undefined ? {} : value} schema={schema} writing={path} depth={0} />
        )}
      </Tree.Provider>
    </div>
  );
});

interface NodeProps {
  value: unknown;
  schema: ArgumentsSchema | undefined;
  /** The rest of the path being written, when it runs through this node (`[]`: this node). */
  writing: ArgumentsPath | undefined;
  depth: number;
  /** The field this value is (its title or key; `items[2]` in an array): its toggle says which field it opens. */
  name?: string | undefined;
}

// Memoised on the value's identity: the parser shares closed subtrees between previews, so a
// fragment re-renders only the branch it lands in.
const JsonNode = memo(function JsonNode({ value, schema, writing, depth, name }: NodeProps) {
  const here = writing?.length === 0;
  if (isObject(value) && typeof value !== 'function') return <Container value={value} schema={schema} writing={writing} depth={depth} name={name} />;
  const type = value === null ? 'null' : typeof value;
  return (
    <>
      {type === 'string' ? (
        <LongText text={value as string} className="toolgate-json-string" writing={here} name={name} />
      ) : (
        <span className={`toolgate-json-${type}`} data-writing={here ? '' : undefined}>
          {String(value)}
        </span>
      )}
      {here && <WritingNote />}
    </>
  );
});

function WritingNote() {
  return <span className="toolgate-sr-only">{useTree().labels.writing}</span>;
}

/**
 * Opens or closes one value. Its name says which field it opens ("note: 1 field"), the visible
 * text last, so the name still contains what is seen.
 */
function ToggleButton({ open, setOpen, name, text }: { open: boolean; setOpen: (open: boolean) => void; name: string | undefined; text: string }) {
  const { labels } = useTree();
  return (
    <button type="button" className="toolgate-toggle" aria-expanded={open} aria-label={name === undefined ? undefined : labels.toggleOf(name, text)} onClick={() => setOpen(!open)}>
      {text}
    </button>
  );
}

function LongText({ text, className, writing, name }: { text: string; className?: string; writing?: boolean; name?: string | undefined }) {
  const { labels, stringLimit } = useTree();
  const [open, setOpen] = useState(false);
  const long = text.length > stringLimit;
  // Never cut a surrogate pair in half.
  const cut = stringLimit - (/[\uD800-\uDBFF]/.test(text.charAt(stringLimit - 1)) ? 1 : 0);
  return (
    <>
      <span className={className} data-writing={writing ? '' : undefined} data-state={long ? (open ? 'open' : 'closed') : undefined}>
        {long && !open ? `${text.slice(0, cut)}…` : text}
      </span>
      {long && (
        <ToggleButton open={open} setOpen={setOpen} name={name} text={open ? labels.showLess : labels.characters(text.length, formatNumber(text.length, labels.locale))} />
      )}
    </>
  );
}

/**
 * The rows of a container's children by key, each kept with the child value it shows. Dropped
 * when the schema or depth changes (they shape the row), and trimmed when keys go away.
 */
function useRowCache(schema: ArgumentsSchema | undefined, depth: number, count: number): Map<string | number, { child: unknown; row: ReactNode }> {
  const ref = useRef<{ schema: ArgumentsSchema | undefined; depth: number; rows: Map<string | number, { child: unknown; row: ReactNode }> } | null>(null);
  if (ref.current === null || ref.current.schema !== schema || ref.current.depth !== depth || ref.current.rows.size > count + 16) {
    ref.current = { schema, depth, rows: new Map() };
  }
  return ref.current.rows;
}

function Container({ value, schema, writing, depth, name }: NodeProps & { value: object }) {
  const { labels, collapseAfter, pageSize, collapseDepth, complete } = useTree();
  const isArray = Array.isArray(value);
  const keys = isArray ? undefined : Object.keys(value);
  const count = isArray ? (value as unknown[]).length : (keys as string[]).length;
  const [open, setOpen] = useState(() => depth === 0 || (count <= collapseAfter && depth < collapseDepth));
  const [shown, setShown] = useState(pageSize);
  const next = writing?.[0];
  const rows: ReactNode[] = [];
  const makeRow = (key: string | number, node: ReactNode, state?: string) => {
    const field = childSchema(schema, key);
    return (
      <li key={`${state ?? ''}${key}`} data-state={state}>
        {!isArray && <span className="toolgate-json-key">{field?.title ?? key}</span>}
        {field?.description && <span className="toolgate-json-description">{field.description}</span>}
        {node}
      </li>
    );
  };
  const row = (key: string | number, node: ReactNode, state?: string) => rows.push(makeRow(key, node, state));
  // From the child's schema already read for the row: reading the schema again costs every row a lookup.
  const nameOf = (key: string | number, sub: ArgumentsSchema | undefined): string => (isArray ? `${name ?? ''}[${key}]` : (sub?.title ?? String(key)));
  const cache = useRowCache(schema, depth, count);
  for (let i = 0; i < Math.min(count, shown); i++) {
    const key = isArray ? i : (keys as string[])[i] as string;
    const child = (value as Record<string | number, unknown>)[key];
    if (next === key) {
      // The child on the written path: the only one whose value changes while the text streams.
      const sub = childSchema(schema, key);
      row(key, <JsonNode value={child} schema={sub} writing={writing?.slice(1)} depth={depth + 1} name={nameOf(key, sub)} />);
      continue;
    }
    // A sibling: the parser shares a closed child between previews, so the same value gets the
    // same element, which React skips without rendering or comparing anything below it.
    let kept = cache.get(key);
    if (kept === undefined || kept.child !== child) {
      const sub = childSchema(schema, key);
      kept = { child, row: makeRow(key, <JsonNode value={child} schema={sub} writing={undefined} depth={depth + 1} name={nameOf(key, sub)} />) };
      cache.set(key, kept);
    }
    rows.push(kept.row);
  }
  const present = (key: string | number) => (isArray ? typeof key === 'number' && key < count : own(value, String(key)));
  if (next !== undefined && writing?.length === 1 && !present(next)) {
    row(next, <span className="toolgate-json-pending" data-writing="">…<WritingNote /></span>, 'writing');
  }
  if (!isArray) {
    for (const key of schema?.required ?? []) {
      if (typeof key !== 'string' || own(value, key) || key === next) continue;
      row(key, <span className="toolgate-json-pending">{complete ? labels.missingField : labels.pendingField}</span>, complete ? 'missing' : 'pending');
    }
  }
  const summary = isArray ? labels.items(count, formatNumber(count, labels.locale)) : labels.fields(count, formatNumber(count, labels.locale));
  const left = count - shown;
  return (
    <>
      {depth > 0 && count > 0 && (
        <ToggleButton open={open} setOpen={setOpen} name={name} text={summary} />
      )}
      {rows.length === 0 ? (
        <span className="toolgate-json-empty" data-writing={writing?.length === 0 ? '' : undefined}>
          {isArray ? '[]' : '{}'}
        </span>
      ) : (
        open && (
          <ul className={isArray ? 'toolgate-json-array' : 'toolgate-json-object'} data-writing={writing?.length === 0 ? '' : undefined}>
            {rows}
            {left > 0 && (
              <li className="toolgate-json-more">
                <button type="button" className="toolgate-toggle" onClick={() => setShown(shown + pageSize)}>
                  {labels.showMore(formatNumber(Math.min(pageSize, left), labels.locale), formatNumber(left, labels.locale))}
                </button>{' '}
                <button type="button" className="toolgate-toggle" onClick={() => setShown(count)}>
                  {labels.showAll}
                </button>
              </li>
            )}
          </ul>
        )
      )}
    </>
  );
}
