import { useId, type Dispatch, type SetStateAction } from 'react';
import { useAppTool } from 'toolgate';

/** One edit an app tool applied, with the callId that made it (unique within one session). */
export interface DocumentOperation {
  readonly callId: string;
  readonly turnId: string;
  readonly tool: string;
  readonly summary: string;
}

export interface DocumentState {
  readonly title: string;
  readonly body: string;
  readonly operations: readonly DocumentOperation[];
}

export const emptyDocument: DocumentState = { title: '', body: '', operations: [] };

const titleParameters = {
  type: 'object',
  properties: { title: { type: 'string', title: 'Title' } },
  required: ['title'],
} as const;

const insertParameters = {
  type: 'object',
  properties: {
    text: { type: 'string', title: 'Text' },
    position: { type: 'string', enum: ['start', 'end'], title: 'Position' },
  },
  required: ['text'],
} as const;

/**
 * Every run is applied: no deduplication by callId here. The kit's app-tool host already runs a
 * call once (docs/protocol.md, "App tools": one result per call; a repeated callId gets the first answer, and the client
 * drops replayed events by `seq`), and a new session gets a new host and a fresh document (app.tsx).
 * A skip here would be wrong as well as redundant: the server numbers callIds per session from
 * `call_1`, so an old callId is no proof that an edit already happened, and a skip would hide a
 * double run from the tests, which count the edits against the server's tool calls.
 */
function apply(doc: DocumentState, op: DocumentOperation, edit: (doc: DocumentState) => Partial<DocumentState>): DocumentState {
  return { ...doc, ...edit(doc), operations: [...doc.operations, op] };
}

/** The app tools the server's scripts call on the document: set_title and insert_text. */
export function DocumentTools({ setDoc }: { setDoc: Dispatch<SetStateAction<DocumentState>> }) {
  useAppTool<{ title: string }>({
    name: 'set_title',
    description: 'Set the document title.',
    parameters: titleParameters,
    run({ title }, { signal, callId, turnId }) {
      // Interrupted before it committed: change nothing (docs/protocol.md, "App tools").
      if (signal.aborted) return null;
      setDoc((doc) => apply(doc, { callId, turnId, tool: 'set_title', summary: `title “${title}”` }, () => ({ title })));
      return { title };
    },
  });

  useAppTool<{ text: string; position?: 'start' | 'end' }>({
    name: 'insert_text',
    description: 'Insert text into the document, at its start or its end (the default).',
    parameters: insertParameters,
    run({ text, position = 'end' }, { signal, callId, turnId }) {
      if (signal.aborted) return null;
      setDoc((doc) =>
        apply(doc, { callId, turnId, tool: 'insert_text', summary: `${text.length} characters at the ${position}` }, (d) => ({
          body: position === 'start' ? text + d.body : d.body + text,
        })),
      );
      return { inserted: text.length, position };
    },
  });

  return null;
}

export function DocumentPanel({ doc }: { doc: DocumentState }) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Document</h2>
      <p className="hint">Edited in this page by the app tools set_title and insert_text.</p>
      <article className="document" aria-labelledby={`${id}-doc-title`}>
        <h3 id={`${id}-doc-title`} data-document-title={doc.title}>
          {doc.title || 'Untitled'}
        </h3>
        <div className="document-body" tabIndex={0} role="region" aria-label="Document text" data-length={doc.body.length}>
          {doc.body || <span className="hint">No text yet.</span>}
        </div>
      </article>
      <h3 className="subheading">Edits applied</h3>
      {doc.operations.length === 0 ? (
        <p className="hint">None yet.</p>
      ) : (
        <ol className="operations" aria-label="Edits applied">
          {doc.operations.map((op) => (
            <li key={op.callId} data-call-id={op.callId} data-turn-id={op.turnId}>
              <code>{op.tool}</code> {op.summary} <span className="hint">({op.callId})</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
