import { useId, useSyncExternalStore } from 'react';
import type { DiagnosticsLog } from './diagnostics';

const SOURCE: Record<'connection' | 'store', string> = { connection: 'client', store: 'store' };

/** What the client and the store refused, newest last; the page keeps working meanwhile. */
export function DiagnosticsPanel({ log }: { log: DiagnosticsLog }) {
  const entries = useSyncExternalStore(log.subscribe, log.getSnapshot, log.getSnapshot);
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Diagnostics</h2>
      <p className="hint">Frames and messages that were refused (onError), with the reason.</p>
      {/* The live region exists before its first entry, so that entries are announced. */}
      <div role="log" aria-label="Refused frames and messages" className="diagnostics" tabIndex={entries.length > 0 ? 0 : undefined}>
        <ol>
          {entries.map((entry) => (
            <li key={entry.id} data-source={entry.source}>
              <span className="tag">{SOURCE[entry.source]}</span> {entry.reason}
            </li>
          ))}
        </ol>
      </div>
      {entries.length === 0 && <p className="hint">Nothing refused so far.</p>}
      {entries.length > 0 && (
        <button type="button" onClick={() => log.clear()}>
          Clear diagnostics
        </button>
      )}
    </section>
  );
}
