/**
 * The page's diagnostics: every reason the client or the store refused something (malformed
 * frames, repeats, refusals from the server). A tiny external store for useSyncExternalStore.
 */
export interface Diagnostic {
  readonly id: number;
  readonly source: 'connection' | 'store';
  readonly reason: string;
}

export interface DiagnosticsLog {
  add(source: Diagnostic['source'], reason: string): void;
  clear(): void;
  subscribe(listener: () => void): () => void;
  getSnapshot(): readonly Diagnostic[];
}

const LIMIT = 200;

export function createDiagnosticsLog(): DiagnosticsLog {
  let entries: readonly Diagnostic[] = [];
  let next = 1;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  return {
    add(source, reason) {
      entries = [...entries, { id: next++, source, reason }].slice(-LIMIT);
      notify();
    },
    clear() {
      entries = [];
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getSnapshot: () => entries,
  };
}
