/**
 * An MCP server's question to the person (elicitation), as a dialog. Form mode is the editor's
 * schema form (the same fields, errors and marks as "edit, then approve"); the answer is checked
 * against the schema before it is sent, so `accept` never carries content the schema refuses.
 * URL mode shows where the link goes (host in ASCII, its registrable part emphasised, warnings
 * for tricks) and opens nothing until the person clicks "Open". Escape and the close button
 * answer `cancel`; "Decline" answers `decline`.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { FormFields } from '../../components/confirm-editor';
import { draftOf, formOf, initialValues, type FormValues } from '../../components/confirm-edit-form';
import { cx } from '../../components/cx';
import type { ArgumentsIssue } from '../../core/approval/confirmation-types';
import type { JsonValue } from '../../core/json/json-value';
import { useLabels } from '../../wording/labels';
import { checkElicitationContent, describeUrl, readElicitationRequest, type ElicitationRequest, type ElicitationSchema, type ElicitResult, type UrlTarget, type UrlWarning } from './elicitation-request';

/**
 * The words of {@link ElicitationDialog}.
 *
 * @example
 * const labels: Partial<ElicitationLabels> = { accept: 'Envoyer', decline: 'Refuser' };
 */
export interface ElicitationLabels {
  title: (serverName: string | undefined) => string;
  accept: string;
  decline: string;
  cancel: string;
  open: (registrable: string) => string;
  goesTo: string;
  refused: (reason: string) => string;
  warning: Record<UrlWarning, string>;
}

const DEFAULT_LABELS: ElicitationLabels = {
  title: (server) => (server ? `${server} asks` : 'A server asks'),
  accept: 'Submit',
  decline: 'Decline',
  cancel: 'Cancel',
  open: (registrable) => `Open ${registrable}`,
  goesTo: 'This link goes to',
  refused: (reason) => `This request cannot be shown: ${reason}.`,
  warning: {
    userinfo: 'The link hides a name before the real address: it goes to the address shown here, not to that name.',
    punycode: 'The address uses international characters, shown here in their ASCII form: it may imitate another address.',
    insecure: 'The link is not encrypted (http).',
    'ip-address': 'The link goes to a bare IP address, not a named site.',
  },
};

/**
 * Props of {@link ElicitationDialog}.
 *
 * @example
 * const props: ElicitationDialogProps = { request: null, onResult: (answer) => console.log(answer) };
 */
export interface ElicitationDialogProps {
  /** The request to show (`null`: the dialog is closed). Read with `readElicitationRequest`, so any input is safe. */
  request: ElicitationRequest | null;
  /** The person's answer, once: MCP's `ElicitResult`. */
  onResult: (result: ElicitResult) => void;
  /** The server's name, for the title. */
  serverName?: string;
  /** Opens a URL-mode link after the person clicked "Open" (default: a new tab, `noopener,noreferrer`). */
  openUrl?: (href: string) => void;
  labels?: Partial<ElicitationLabels>;
  className?: string;
}

const defaultOpen = (href: string): void => {
  window.open(href, '_blank', 'noopener,noreferrer');
};

/**
 * An MCP elicitation request as a dialog: a form with Submit, Decline and Cancel, or, in URL mode,
 * the link's domain and an "Open" button. Answers MCP's `ElicitResult` through `onResult`.
 *
 * @example
 * const { request, respond } = useElicitation();
 * <ElicitationDialog request={request} serverName="GitHub" onResult={respond} />
 */
export function ElicitationDialog({ request, onResult, serverName, openUrl = defaultOpen, labels: given, className }: ElicitationDialogProps) {
  const labels = useMemo(() => ({ ...DEFAULT_LABELS, ...given }), [given]);
  const read = useMemo(() => (request === null ? null : readElicitationRequest(request)), [request]);
  // One answer per request: a second click, or Escape after Submit, answers nothing.
  const answered = useRef<ElicitationRequest | null>(null);
  const answer = (result: ElicitResult): void => {
    if (request === null || answered.current === request) return;
    answered.current = request;
    onResult(result);
  };
  return (
    <Dialog.Root open={request !== null} onOpenChange={(open) => !open && answer({ action: 'cancel' })}>
      <Dialog.Portal>
        <Dialog.Overlay className="toolgate-confirm-overlay" />
        <Dialog.Content className={cx('toolgate-confirm toolgate-elicitation', className)} data-mode={read?.ok ? (read.request.mode ?? 'form') : 'refused'}>
          <Dialog.Title className="toolgate-confirm-title">{labels.title(serverName)}</Dialog.Title>
          {read && !read.ok && (
            <>
              <Dialog.Description className="toolgate-confirm-description">{labels.refused(read.reason)}</Dialog.Description>
              <div className="toolgate-confirm-actions">
                <button type="button" className="toolgate-button" onClick={() => answer({ action: 'decline' })}>
                  {labels.decline}
                </button>
              </div>
            </>
          )}
          {read?.ok && read.request.mode === 'url' && <UrlPart key={read.request.url} request={read.request} labels={labels} answer={answer} openUrl={openUrl} />}
          {read?.ok && read.request.mode !== 'url' && <FormPart key={JSON.stringify(read.request)} request={read.request} labels={labels} answer={answer} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

interface PartProps {
  labels: ElicitationLabels;
  answer: (result: ElicitResult) => void;
}

/** The two answers other than accepting, the same in both modes: Cancel (no choice made) and Decline (the person said no). */
function CancelAndDecline({ labels, answer }: PartProps) {
  return (
    <>
      <button type="button" className="toolgate-button" onClick={() => answer({ action: 'cancel' })}>
        {labels.cancel}
      </button>
      <button type="button" className="toolgate-button toolgate-confirm-deny" onClick={() => answer({ action: 'decline' })}>
        {labels.decline}
      </button>
    </>
  );
}

function FormPart({ request, labels, answer }: PartProps & { request: Extract<ElicitationRequest, { requestedSchema: ElicitationSchema }> }) {
  const confirmLabels = useLabels().confirm;
  const schema = request.requestedSchema;
  const form = useMemo(() => formOf(schema as unknown as Record<string, unknown>), [schema]);
  const defaults = useMemo(() => {
    const out: Record<string, JsonValue> = {};
    for (const [key, property] of Object.entries(schema.properties)) if (property.default !== undefined) out[key] = property.default;
    return out;
  }, [schema]);
  const [values, setValues] = useState<FormValues>(() => (form ? initialValues(form, defaults) : {}));
  const [issues, setIssues] = useState<readonly ArgumentsIssue[]>([]);
  const box = useRef<HTMLDivElement>(null);
  const made = useMemo(() => (form ? draftOf(form, values, {}) : null), [form, values]);
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, []);
  useEffect(() => {
    if (issues.length > 0) box.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [issues]);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (made === null) return answer({ action: 'accept', content: {} });
    if (made.errors.size > 0) {
      box.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const checked = checkElicitationContent(schema, made.draft);
    if (!checked.ok) return setIssues(checked.issues.map((issue) => ({ path: issue.key === undefined ? [] : [issue.key], message: issue.message })));
    answer({ action: 'accept', content: checked.content });
  };
  return (
    <div ref={box} className="toolgate-confirm-editor">
      <Dialog.Description className="toolgate-confirm-description">{request.message}</Dialog.Description>
      <form aria-label={request.message} noValidate onSubmit={submit}>
        {form && made && <FormFields form={form} values={values} setValues={setValues} errors={made.errors} issues={issues} labels={confirmLabels} />}
        <div className="toolgate-confirm-actions">
          <CancelAndDecline labels={labels} answer={answer} />
          <button type="submit" className="toolgate-button toolgate-confirm-approve">
            {labels.accept}
          </button>
        </div>
      </form>
    </div>
  );
}

function UrlPart({ request, labels, answer, openUrl }: PartProps & { request: Extract<ElicitationRequest, { mode: 'url' }>; openUrl: (href: string) => void }) {
  const target = describeUrl(request.url) as UrlTarget;
  return (
    <>
      <Dialog.Description className="toolgate-confirm-description">{request.message}</Dialog.Description>
      <p className="toolgate-elicitation-target">
        {labels.goesTo}{' '}
        <span className="toolgate-elicitation-host" data-host={target.host}>
          {target.subdomain}
          <strong data-registrable="">{target.registrable}</strong>
        </span>
      </p>
      {target.warnings.length > 0 && (
        <ul className="toolgate-confirm-field-error" aria-label="Warnings">
          {target.warnings.map((warning) => (
            <li key={warning} data-warning={warning}>
              {labels.warning[warning]}
            </li>
          ))}
        </ul>
      )}
      <div className="toolgate-confirm-actions">
        <CancelAndDecline labels={labels} answer={answer} />
        <button
          type="button"
          className="toolgate-button toolgate-confirm-approve"
          onClick={() => {
            openUrl(target.href);
            answer({ action: 'accept' });
          }}
        >
          {labels.open(target.registrable)}
        </button>
      </div>
    </>
  );
}
