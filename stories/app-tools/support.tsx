/**
 * Shared pieces of the app-tool stories: a scripted session per story, and a small card that
 * shows one tool's live state from `useAppTool`. Not a story file itself.
 */
import { useEffect, useId, useState, type CSSProperties, type ReactNode } from 'react';
import { ToolgateProvider, type AppToolView, type ToolResult } from 'toolgate';
import { createScriptedSession, type ScriptedSession, type ScriptedSessionOptions, type ScriptStep } from 'toolgate/testing';
import { Frame, storySpeed } from '../support/scenarios';

export { Frame, storySpeed };

/**
 * A scripted session made once per mount, played once it is wired, at the story's speed
 * (instant under test). `children` may take the session.
 */
export function ScriptedApp({
  script,
  speed,
  options,
  children,
}: {
  script?: (session: ScriptedSession) => readonly ScriptStep[];
  speed: number;
  options?: Omit<ScriptedSessionOptions, 'script' | 'speed'>;
  children: ReactNode | ((session: ScriptedSession) => ReactNode);
}) {
  const [session] = useState(() => createScriptedSession({ ...options, speed: storySpeed(speed) }));
  useEffect(() => {
    if (script === undefined) return;
    // Parents' effects run after their children's: by now the tools are registered and the
    // provider has bound the session (hello sent), so the script's first call finds them.
    void session.play(script(session));
    return () => session.stop();
  }, [session, script]);
  return (
    <ToolgateProvider session={session}>
      <Frame>{typeof children === 'function' ? children(session) : children}</Frame>
    </ToolgateProvider>
  );
}

const STATUS_TEXT: Record<AppToolView['status'], string> = { idle: 'Idle', queued: 'Queued', 'awaiting-approval': 'Awaiting approval', running: 'Running' };

const badge = (status: AppToolView['status']): CSSProperties => ({
  display: 'inline-block',
  padding: '0.125rem 0.5rem',
  borderRadius: '999px',
  fontSize: '0.8125rem',
  fontWeight: 600,
  background: status === 'idle' ? 'var(--toolgate-surface)' : 'var(--toolgate-open-bg)',
  color: status === 'idle' ? 'var(--toolgate-fg)' : 'var(--toolgate-open-fg)',
  border: '1px solid var(--toolgate-border)',
});

const card: CSSProperties = {
  display: 'grid',
  gap: '0.5rem',
  padding: '0.75rem 1rem',
  border: '1px solid var(--toolgate-border)',
  borderRadius: 'var(--toolgate-radius)',
  background: 'var(--toolgate-bg)',
  color: 'var(--toolgate-fg)',
  minWidth: '16rem',
};

const terms: CSSProperties = { display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.25rem 0.75rem', margin: 0 };
const mono: CSSProperties = { fontFamily: 'var(--toolgate-mono)', fontSize: '0.8125rem', margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' };

/** One line for a result: `ok: <output>` or `CODE: message`. */
export function describeResult(result: ToolResult): string {
  return result.ok ? `ok: ${JSON.stringify(result.output)}` : `${result.code}${result.message ? `: ${result.message}` : ''}`;
}

/** A text for application progress (its shape is the tool's own: render it, never trust it). */
export function describeProgress(progress: unknown): string {
  if (progress === undefined) return '';
  if (typeof progress === 'string') return progress;
  return JSON.stringify(progress) ?? String(progress);
}

/**
 * One app tool's state, as `useAppTool` gives it: status, the current call (id, arguments,
 * progress), how many wait, and the last result. `children` go below (a tool's own controls).
 */
export function AppToolCard({ view, title, children }: { view: AppToolView; title?: string; children?: ReactNode }) {
  const headingId = useId();
  return (
    <article aria-labelledby={headingId} style={card} data-tool={view.name} data-status={view.status}>
      <div style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', justifyContent: 'space-between' }}>
        <h3 id={headingId} style={{ margin: 0, fontSize: '1rem' }}>
          {title ?? view.name}
        </h3>
        <span style={badge(view.status)} data-testid="status">
          {STATUS_TEXT[view.status]}
          {view.queued > 0 ? ` · ${view.queued} waiting` : ''}
        </span>
      </div>
      <dl style={terms}>
        <dt>Tool</dt>
        <dd style={{ ...mono, margin: 0 }}>{view.name}</dd>
        <dt>Call</dt>
        <dd style={{ margin: 0 }} data-testid="call">
          {view.callId === null ? 'none' : `${view.callId} (${view.awaitingApproval ? 'awaiting approval' : (view.current?.status ?? '')})`}
        </dd>
        {view.callId !== null && (
          <>
            <dt>Arguments</dt>
            <dd style={{ margin: 0 }}>
              <pre style={mono}>{JSON.stringify(view.arguments)}</pre>
            </dd>
          </>
        )}
        {view.progress !== undefined && (
          <>
            <dt>Progress</dt>
            <dd style={{ margin: 0 }} data-testid="progress">
              {describeProgress(view.progress)}
            </dd>
          </>
        )}
        <dt>Last result</dt>
        <dd style={{ margin: 0 }} data-testid="last-result">
          {view.lastResult === null ? 'none yet' : `${view.lastResult.callId} → ${describeResult(view.lastResult.result)}`}
        </dd>
      </dl>
      {children}
    </article>
  );
}
