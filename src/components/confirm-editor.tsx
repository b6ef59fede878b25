/**
 * The editor of an editable request ("edit, then approve"): a form of the tool's JSON Schema where
 * it has one, else the arguments as JSON text checked as they are typed. "Save" submits the draft,
 * which the controller checks again; an invalid one keeps the editor open with each problem beside
 * its field. Nothing is approved from here: a saved edit is fingerprinted afresh and reviewed.
 */
import { forwardRef, useEffect, useId, useMemo, useRef, useState, type ComponentPropsWithoutRef, type FormEvent, type ReactNode } from 'react';
import type { ArgumentsIssue, ConfirmationView } from '../core/approval/confirmation-types';
import { formatJsonPath } from '../core/json/json-diff';
import { checkJsonSchema } from '../core/json/json-schema-check';
import type { ConfirmToolLabels } from '../wording/confirm-labels';
import { ignoreRepeat, useConfirmToolDialog } from './confirm-dialog-context';
import { draftOf, formOf, initialValues, placeIssues, type FieldError, type FormField, type FormValues } from './confirm-edit-form';
import { cx } from './cx';

/**
 * Props of {@link ConfirmToolDialogEditor}: a `<div>`'s.
 *
 * @example
 * const props: ConfirmToolDialogEditorProps = { className: 'my-editor' };
 */
export type ConfirmToolDialogEditorProps = Omit<ComponentPropsWithoutRef<'div'>, 'children'>;

/**
 * The editor of the shown request while a person edits it (after "Edit arguments"): a form of
 * the request's JSON Schema (text, number, checkbox and select fields, nested objects as groups,
 * anything else as JSON text), or one JSON text field checked as it is typed when there is no
 * schema to build a form from. Required fields carry a visible mark, explained above the fields.
 * Each problem shows beside its field and is read before the field's hint, as an error
 * (`aria-invalid`, `aria-describedby`, `aria-errormessage`). "Save", the primary button while
 * editing, submits the draft (checked again by the controller); "Cancel editing" and Escape leave
 * the arguments as they were. Nothing when no edit is open.
 *
 * @example
 * <ConfirmToolDialogContent>
 *   <ConfirmToolDialogArguments />
 *   <ConfirmToolDialogEditor />
 * </ConfirmToolDialogContent>
 */
export const ConfirmToolDialogEditor = forwardRef<HTMLDivElement, ConfirmToolDialogEditorProps>(function ConfirmToolDialogEditor(props, ref) {
  const { view, editing } = useConfirmToolDialog();
  if (view === null || !editing) return null;
  // One draft per request: another request starts afresh.
  return <EditorBody key={view.id} {...props} ref={ref} view={view} />;
});

const EditorBody = forwardRef<HTMLDivElement, ConfirmToolDialogEditorProps & { view: ConfirmationView }>(function EditorBody({ view, className, ...rest }, ref) {
  const { actions, labels } = useConfirmToolDialog();
  const form = useMemo(() => formOf(view.schema), [view.schema]);
  const [values, setValues] = useState<FormValues>(() => (form ? initialValues(form, view.arguments) : {}));
  const [text, setText] = useState(() => JSON.stringify(view.arguments, null, 2));
  const box = useRef<HTMLDivElement | null>(null);
  const busy = view.status === 'revising';

  const made = useMemo(() => (form ? draftOf(form, values, view.arguments) : null), [form, values, view.arguments]);
  const live = useMemo(() => (form ? undefined : liveCheck(text, view.schema, labels.confirm)), [form, text, view.schema, labels.confirm]);

  const focusInvalid = (): void => {
    const invalid = box.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
  };
  // The first field on opening; the first invalid one when a submitted edit comes back rejected.
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);
  const issues = view.issues;
  useEffect(() => {
    if (issues.length > 0) focusInvalid();
  }, [issues]);

  const save = (event?: FormEvent): void => {
    event?.preventDefault();
    if (busy) return;
    if (made) {
      if (made.errors.size > 0) return focusInvalid();
      void actions.submitEdit(made.draft);
      return;
    }
    let draft: unknown;
    try {
      draft = JSON.parse(text);
    } catch {
      return focusInvalid();
    }
    void actions.submitEdit(draft);
  };

  const refs = (element: HTMLDivElement | null): void => {
    box.current = element;
    if (typeof ref === 'function') ref(element);
    else if (ref) ref.current = element;
  };
  return (
    <div {...rest} ref={refs} className={cx('toolgate-confirm-editor', className)} data-busy={busy ? '' : undefined}>
      <form aria-label={labels.confirm.editor} noValidate onSubmit={save}>
        {form && made ? (
          <FormFields form={form} values={values} setValues={setValues} errors={made.errors} issues={issues} labels={labels.confirm} />
        ) : (
          <JsonField text={text} setText={setText} problem={live ?? (issues.length > 0 ? issues.map(describeIssue).join(' ') : undefined)} labels={labels.confirm} />
        )}
        <div className="toolgate-confirm-actions">
          <button type="button" className="toolgate-button" onKeyDown={ignoreRepeat} onClick={() => actions.cancelEdit()}>
            {labels.confirm.cancelEdit}
          </button>
          {/* Save is the one primary action while editing: Deny and Approve are not shown until the edit is saved or cancelled. */}
          <button type="submit" className="toolgate-button toolgate-confirm-save" aria-disabled={busy ? true : undefined} onKeyDown={ignoreRepeat}>
            {labels.confirm.submitEdit}
          </button>
        </div>
      </form>
    </div>
  );
});

const describeIssue = (issue: ArgumentsIssue): string => (issue.path.length > 0 ? `${formatJsonPath(issue.path)}: ${issue.message}` : issue.message);

/** What is wrong with the JSON text as it stands: not JSON, or not what the schema allows. */
function liveCheck(text: string, schema: Record<string, unknown> | undefined, labels: ConfirmToolLabels): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return labels.invalidJson(error instanceof Error ? error.message : String(error));
  }
  if (schema === undefined) return undefined;
  const checked = checkJsonSchema(schema, value);
  return checked.ok ? undefined : checked.message;
}

function JsonField({ text, setText, problem, labels }: { text: string; setText: (text: string) => void; problem: string | undefined; labels: ConfirmToolLabels }) {
  const id = useId();
  return (
    <div className="toolgate-confirm-field">
      <label htmlFor={id}>{labels.editorJson}</label>
      <textarea
        id={id}
        value={text}
        rows={Math.min(16, Math.max(4, text.split('\n').length))}
        spellCheck={false}
        autoCapitalize="off"
        aria-invalid={problem !== undefined ? true : undefined}
        aria-describedby={problem !== undefined ? `${id}-error` : undefined}
        aria-errormessage={problem !== undefined ? `${id}-error` : undefined}
        onChange={(event) => setText(event.target.value)}
      />
      {problem !== undefined && <FieldError id={`${id}-error`} message={problem} labels={labels} />}
    </div>
  );
}

/** The form's fields, its legend and its problems: shared with the elicitation form (toolgate/renderers). Internal. */
export interface FormProps {
  form: FormField;
  values: FormValues;
  setValues: (update: (values: FormValues) => FormValues) => void;
  errors: ReadonlyMap<string, FieldError>;
  issues: readonly ArgumentsIssue[];
  labels: ConfirmToolLabels;
}

/**
 * A field's error, read as one: hidden words say "Error:" first (the colour and the border say it
 * to the eye), and the field lists it before its hint in `aria-describedby`.
 */
function FieldError({ id, message, labels }: { id: string; message: string; labels: ConfirmToolLabels }) {
  return (
    <p id={id} className="toolgate-confirm-field-error">
      <span className="toolgate-sr-only">{labels.errorPrefix}</span> {message}
    </p>
  );
}

const hasRequired = (field: FormField): boolean => (field.kind === 'object' ? field.fields.some(hasRequired) : field.required);

export function FormFields(props: FormProps) {
  const { form, issues, labels } = props;
  const placed = useMemo(() => placeIssues(form, issues), [form, issues]);
  return (
    <>
      {/* The mark is explained once, above the fields; screen readers hear aria-required on each field instead. */}
      {hasRequired(form) && (
        <p className="toolgate-confirm-legend" aria-hidden="true">
          {labels.requiredLegend(labels.requiredMark)}
        </p>
      )}
      {placed.rest.length > 0 && (
        <div role="alert">
          <div className="toolgate-confirm-field-error" role="group" aria-label={labels.editIssues}>
            <strong>{labels.editIssues}</strong>
            <ul>
              {placed.rest.map((message, index) => (
                <li key={index}>{message}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {form.kind === 'object' && form.fields.map((field) => <Field key={field.key} field={field} props={props} issues={placed.byField} />)}
    </>
  );
}

function Field({ field, props, issues }: { field: FormField; props: FormProps; issues: ReadonlyMap<string, string[]> }): ReactNode {
  const id = useId();
  if (field.kind === 'object') {
    return (
      <fieldset className="toolgate-confirm-fieldset">
        <legend>{field.label}</legend>
        {field.description && <p className="toolgate-confirm-hint">{field.description}</p>}
        {field.fields.map((child) => (
          <Field key={child.key} field={child} props={props} issues={issues} />
        ))}
      </fieldset>
    );
  }
  const { values, setValues, errors, labels } = props;
  const error = errors.get(field.key);
  const message = error ? (error.kind === 'not-a-number' ? labels.notANumber : labels.invalidJson(error.message)) : issues.get(field.key)?.join(' ');
  const invalid = message !== undefined;
  // The error first: a person hears what is wrong before the field's hint.
  const describedBy = [invalid ? `${id}-error` : '', field.description ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': describedBy,
    'aria-errormessage': invalid ? `${id}-error` : undefined,
    'aria-required': field.required ? true : undefined,
  } as const;
  const set = (value: string | boolean): void => setValues((previous) => ({ ...previous, [field.key]: value }));
  const raw = values[field.key];
  const label = field.kind === 'json' ? `${field.label} ${labels.asJson}` : field.label;
  let control: ReactNode;
  switch (field.kind) {
    case 'boolean':
      control = <input {...common} type="checkbox" checked={raw === true} onChange={(event) => set(event.target.checked)} />;
      break;
    case 'enum':
      control = (
        <select {...common} value={typeof raw === 'string' ? raw : ''} onChange={(event) => set(event.target.value)}>
          {(!field.required || raw === '') && <option value="">—</option>}
          {field.options.map((option, index) => (
            <option key={index} value={String(index)}>
              {field.optionLabels?.[index] ?? (typeof option === 'string' ? option : JSON.stringify(option))}
            </option>
          ))}
        </select>
      );
      break;
    case 'json':
      control = <textarea {...common} value={typeof raw === 'string' ? raw : ''} rows={3} spellCheck={false} onChange={(event) => set(event.target.value)} />;
      break;
    default:
      control = (
        <input
          {...common}
          type="text"
          inputMode={field.kind === 'integer' ? 'numeric' : field.kind === 'number' ? 'decimal' : undefined}
          autoComplete="off"
          value={typeof raw === 'string' ? raw : ''}
          onChange={(event) => set(event.target.value)}
        />
      );
  }
  return (
    <div className="toolgate-confirm-field" data-kind={field.kind}>
      <label htmlFor={id}>
        {label}
        {field.required && (
          <span className="toolgate-confirm-required" aria-hidden="true">
            {' '}
            {labels.requiredMark}
          </span>
        )}
      </label>
      {control}
      {invalid && <FieldError id={`${id}-error`} message={message} labels={labels} />}
      {field.description && (
        <p id={`${id}-hint`} className="toolgate-confirm-hint">
          {field.description}
        </p>
      )}
    </div>
  );
}


/**
 * "Respond instead" as a form of the tool's output schema (the editor's own fields), or its JSON
 * text checked against that schema when no form can be built from it. Loaded with the editor,
 * only by a request that has an output schema. Nothing is sent until the answer is valid.
 */
export function RespondForm({ schema, canSend, onSend, onBack }: { schema: Record<string, unknown>; canSend: boolean; onSend: (answer: unknown) => void; onBack: () => void }) {
  const { labels } = useConfirmToolDialog();
  const form = useMemo(() => formOf(schema), [schema]);
  const [values, setValues] = useState<FormValues>(() => (form ? initialValues(form, null) : {}));
  const [text, setText] = useState('');
  const [issues, setIssues] = useState<readonly ArgumentsIssue[]>([]);
  const box = useRef<HTMLDivElement | null>(null);
  const hint = useId();
  const made = useMemo(() => (form ? draftOf(form, values, null) : null), [form, values]);
  const focusInvalid = (): void => box.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  useEffect(() => {
    // Opening moves focus into the first field, as the JSON field does.
    box.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);
  useEffect(() => {
    if (issues.length > 0) focusInvalid();
  }, [issues]);
  const live = form ? undefined : text.trim() === '' ? undefined : liveCheck(text, schema, labels.confirm);
  const send = (event?: FormEvent): void => {
    event?.preventDefault();
    if (!canSend) return;
    let answer: unknown;
    if (made) {
      if (made.errors.size > 0) return focusInvalid();
      answer = made.draft;
    } else {
      try {
        answer = JSON.parse(text);
      } catch {
        return focusInvalid();
      }
    }
    // The answer must be what the tool could have returned: checked against its output schema.
    const checked = checkJsonSchema(schema, answer);
    if (!checked.ok) {
      setIssues([{ path: [], message: checked.message }]);
      return;
    }
    setIssues([]);
    onSend(answer);
  };
  return (
    <div ref={box} className="toolgate-confirm-field toolgate-confirm-respond" data-form={form ? '' : undefined}>
      <form aria-label={labels.confirm.respond} aria-describedby={hint} noValidate onSubmit={send}>
        <p id={hint} className="toolgate-confirm-hint">
          {labels.confirm.respondHint}
        </p>
        {form && made ? (
          <FormFields form={form} values={values} setValues={setValues} errors={made.errors} issues={issues} labels={labels.confirm} />
        ) : (
          <JsonField text={text} setText={setText} problem={live ?? (issues.length > 0 ? issues.map(describeIssue).join(' ') : undefined)} labels={{ ...labels.confirm, editorJson: labels.confirm.respondEditor }} />
        )}
        <div className="toolgate-confirm-more">
          <button type="button" className="toolgate-button" onKeyDown={ignoreRepeat} onClick={onBack}>
            {labels.confirm.cancelRespond}
          </button>
          <button type="submit" className="toolgate-button toolgate-confirm-send-answer" aria-disabled={canSend ? undefined : true} onKeyDown={ignoreRepeat}>
            {labels.confirm.submitRespond}
          </button>
        </div>
      </form>
    </div>
  );
}
