import { useState } from 'react';
import type { ToolSessionStatus } from 'toolgate/core';
import type { ReferenceSession } from 'toolgate/client';
import type { DemoConfig } from './config';
import { useSessionStatus, useWelcome } from './session-state';

const STATUS_TEXT: Record<ToolSessionStatus, string> = {
  connecting: 'Connecting…',
  open: 'Connected',
  reconnecting: 'Connection lost: reconnecting to resume the session…',
  closed: 'Session closed',
};

export function ConnectionPanel({ session, onNewSession }: { session: ReferenceSession; onNewSession: () => void }) {
  const status = useSessionStatus(session);
  const welcome = useWelcome(session);
  return (
    <section className="connection" aria-label="Connection">
      <p role="status" className="connection-status" data-status={status}>
        <span className="dot" aria-hidden="true" />
        {STATUS_TEXT[status]}
      </p>
      {welcome && (
        <p className="connection-detail">
          Session <code data-session-id={welcome.sessionId}>{welcome.sessionId}</code>
          {welcome.mode === 'preview' ? ' (legacy previews only)' : null}
          {session.restored ? <span data-restored=""> (resumed after a reload)</span> : null}
        </p>
      )}
      {status === 'closed' ? (
        <button type="button" onClick={onNewSession}>
          New session
        </button>
      ) : (
        <button type="button" onClick={() => session.close()}>
          Close session
        </button>
      )}
    </section>
  );
}

export function ThemeSwitch({ initial }: { initial: DemoConfig['theme'] }) {
  const [theme, setTheme] = useState(initial);
  return (
    <label className="theme-switch">
      Theme{' '}
      <select
        value={theme}
        onChange={(event) => {
          const next = event.target.value as DemoConfig['theme'];
          setTheme(next);
          if (next === 'system') delete document.documentElement.dataset.theme;
          else document.documentElement.dataset.theme = next;
        }}
      >
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}
