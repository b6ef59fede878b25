import { useCallback, useMemo, useState } from 'react';
import { ConfirmToolDialog, ToolCallList, ToolTimeline, ToolgateProvider, type ArgumentsSchema } from 'toolgate';
import { ApprovalsPanel } from './approvals';
import type { ReferenceSession } from 'toolgate/client';
import type { DemoConfig } from './config';
import { ConnectionPanel, ThemeSwitch } from './connection';
import { DiagnosticsPanel } from './diagnostics-panel';
import type { DiagnosticsLog } from './diagnostics';
import { DocumentPanel, DocumentTools, emptyDocument, type DocumentState } from './document';
import { FaultsPanel } from './faults';
import { InvoiceTool, WritePanel, type WriteRecord } from './invoice';
import { PromptsPanel } from './prompts';
import { openSession } from './session';
import { useWelcome } from './session-state';

export interface AppProps {
  config: DemoConfig;
  diagnostics: DiagnosticsLog;
  initialSession: ReferenceSession;
}

export function App({ config, diagnostics, initialSession }: AppProps) {
  const [session, setSession] = useState(initialSession);
  const [doc, setDoc] = useState<DocumentState>(emptyDocument);
  const [lastWrite, setLastWrite] = useState<WriteRecord | null>(null);
  const [together, setTogether] = useState(false);
  const onStoreError = useCallback((reason: string) => diagnostics.add('store', reason), [diagnostics]);
  const newSession = useCallback(() => {
    // The document and the last write belong to the session that made them: a new session starts
    // with neither (its callIds start again at call_1, so old edits must not stand beside new ones).
    // The document tools apply their edit synchronously inside run, so nothing of the old session
    // can land after this reset.
    setDoc(emptyDocument);
    setLastWrite(null);
    setSession(openSession(config, diagnostics));
  }, [config, diagnostics]);

  const welcome = useWelcome(session);
  // Field titles and required fields for the argument previews, and the form of an editable
  // approval request (the server checks the edit against the same schema), from what the model is offered.
  const schemas = useMemo(() => {
    const entries = (welcome?.tools ?? []).filter((t) => t.parameters).map((t) => [t.name, t.parameters as ArgumentsSchema] as const);
    return Object.fromEntries(entries);
  }, [welcome]);

  return (
    // A new session object gets a new store, app-tool host and confirmation queue.
    <ToolgateProvider session={session} room={session.room} onError={onStoreError} schemas={schemas}>
      <a className="skip-link" href="#calls">
        Skip to the tool calls
      </a>
      <header className="masthead">
        <h1>toolgate live demo</h1>
        <ConnectionPanel session={session} onNewSession={newSession} />
        <ThemeSwitch initial={config.theme} />
      </header>
      <main className="layout">
        <div className="column">
          <PromptsPanel session={session} defaultSpeed={config.speed} approvalTtlMs={config.approvalTtlMs} />
          <FaultsPanel session={session} />
        </div>
        <div className="column column-wide">
          <section id="calls" className="panel" aria-labelledby="calls-title" tabIndex={-1}>
            <h2 id="calls-title">Tool calls</h2>
            <ToolCallList schemas={schemas} />
          </section>
          <section className="panel" aria-labelledby="timeline-title">
            <h2 id="timeline-title">Timeline</h2>
            <ToolTimeline />
          </section>
        </div>
        <div className="column">
          <ApprovalsPanel session={session} together={together} onTogetherChange={setTogether} />
          <DocumentPanel doc={doc} />
          <WritePanel session={session} lastWrite={lastWrite} onResult={setLastWrite} />
          <DiagnosticsPanel log={diagnostics} />
        </div>
      </main>
      <DocumentTools setDoc={setDoc} />
      <InvoiceTool session={session} onResult={setLastWrite} />
      {/* Deciding together in the list replaces the dialog, which would otherwise show the first request on top of it. */}
      {!together && <ConfirmToolDialog />}
    </ToolgateProvider>
  );
}
