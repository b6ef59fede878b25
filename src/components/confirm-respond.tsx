/**
 * The dialog's two decisions besides Approve and Deny (docs/protocol.md "Decisions"): "Respond
 * instead" opens a JSON field whose value becomes the call's result (the tool does not run), and
 * "Withdraw request" takes the request back (not a rejection). Offered on the path without a
 * room (the server's gate, app tools), where a call waits for an answer.
 */
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { ignoreRepeat, useConfirmToolDialog } from './confirm-dialog-context';
import { lazyPart } from './lazy-part';

// The answer's form (from the tool's output schema) is the editor's own fields: loaded with the
// editor, by a request that has an output schema, before a person could open it.
const Respond = lazyPart(() => import('./confirm-editor').then((m) => m.RespondForm));

/** "Respond instead" and "Withdraw request", and the answer's field once opened. */
export function ConfirmDecideInstead() {
  // Whether the field is open lives with the dialog: Escape closes it first, and denies nothing then.
  const { view, actions, labels, responding: open, setResponding: setOpen } = useConfirmToolDialog();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { field: useId(), hint: useId(), problem: useId() };
  const field = useRef<HTMLTextAreaElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);
  const outputSchema = view?.outputSchema;
  useEffect(() => {
    if (outputSchema !== undefined) void Respond.preload();
  }, [outputSchema]);
  useEffect(() => {
    // Opening moves focus into the field; closing brings it back to the button that opened it.
    if (open) field.current?.focus();
    else if (wasOpen.current) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  if (view === null || view.path !== 'callback' || (!view.can.respond && !view.can.cancel)) return null;
  const send = (): void => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      setProblem(labels.confirm.invalidJson(error instanceof Error ? error.message : String(error)));
      return;
    }
    setProblem(null);
    actions.respond(value);
  };
  if (open) {
    const json = (
      <div className="toolgate-confirm-field toolgate-confirm-respond">
        <label htmlFor={ids.field}>{labels.confirm.respondEditor}</label>
        <p id={ids.hint} className="toolgate-confirm-hint">
          {labels.confirm.respondHint}
        </p>
        <textarea
          ref={field}
          id={ids.field}
          value={text}
          rows={Math.min(12, Math.max(4, text.split('\n').length))}
          spellCheck={false}
          autoCapitalize="off"
          aria-describedby={problem === null ? ids.hint : `${ids.hint} ${ids.problem}`}
          aria-invalid={problem === null ? undefined : true}
          onChange={(event) => setText(event.target.value)}
        />
        {problem !== null && (
          <p id={ids.problem} className="toolgate-confirm-field-error" role="alert">
            {problem}
          </p>
        )}
        <div className="toolgate-confirm-more">
          <button type="button" className="toolgate-button" onKeyDown={ignoreRepeat} onClick={() => setOpen(false)}>
            {labels.confirm.cancelRespond}
          </button>
          <button type="button" className="toolgate-button toolgate-confirm-send-answer" aria-disabled={view.can.respond ? undefined : true} onKeyDown={ignoreRepeat} onClick={() => view.can.respond && send()}>
            {labels.confirm.submitRespond}
          </button>
        </div>
      </div>
    );
    if (view.outputSchema === undefined) return json;
    // Until the form is there (only if the person opened it before it loaded), the JSON field holds its place.
    return (
      <Suspense fallback={json}>
        <Respond.Part schema={view.outputSchema} canSend={view.can.respond} onSend={(answer) => actions.respond(answer)} onBack={() => setOpen(false)} />
      </Suspense>
    );
  }
  return (
    <div className="toolgate-confirm-more toolgate-confirm-instead">
      {view.can.respond && (
        <button ref={opener} type="button" className="toolgate-button toolgate-confirm-respond-open" onKeyDown={ignoreRepeat} onClick={() => setOpen(true)}>
          {labels.confirm.respond}
        </button>
      )}
      <button type="button" className="toolgate-button toolgate-confirm-withdraw" aria-disabled={view.can.cancel ? undefined : true} onKeyDown={ignoreRepeat} onClick={() => view.can.cancel && actions.cancel()}>
        {labels.confirm.withdraw}
      </button>
    </div>
  );
}
