/**
 * `<ToolgateDevtools client>`: the panel an app mounts in development. It records the client's
 * session from the moment it mounts (or shows a recorder made earlier), lists the events with
 * filters, steps through a call's history with its approval and audit records, and exports the
 * session as a recording `replayEvents` plays back, or imports one to inspect it.
 */
import { useEffect, useId, useMemo, useState, useSyncExternalStore, type ChangeEvent } from 'react';
import type { AuditLog } from '../core/audit';
import type { ToolgateClient } from '../core';
import { parseRecording, type ToolgateRecording } from '../testing/recording';
import { AuditView } from './audit-view';
import { CallApprovalView } from './call-approval';
import { CallHistory } from './call-history';
import { styles } from './devtools-styles';
import { callHistory, createCallHistory, createLatestEntries, filterChoices, type DevtoolsFilter } from './entry-filter';
import { EventsList } from './events-list';
import { createDevtoolsRecorder, type DevtoolsEntry, type DevtoolsRecorder, type DevtoolsRecorderState } from './recorder';
import { recordingToJson, toRecording } from './recording-export';
import { inspectRecording } from './recording-inspect';

/**
 * Props of {@link ToolgateDevtools}.
 *
 * @example
 * const props: ToolgateDevtoolsProps = { client, auditLog, onExport: (recording) => save(recording) };
 */
export interface ToolgateDevtoolsProps {
  /** The client from `createToolgate()`. */
  client: ToolgateClient;
  /** A recorder made earlier (`createDevtoolsRecorder(client)`), to show what happened before the panel mounted. */
  recorder?: DevtoolsRecorder | undefined;
  /** The audit log the app keeps: each call's records are shown with the chain verified. */
  auditLog?: AuditLog | undefined;
  /** A recording to show at first instead of the live session (a story, a bug report). */
  initialRecording?: ToolgateRecording | undefined;
  /** Told of each export (besides the download), e.g. to keep it in a test. */
  onExport?: ((recording: ToolgateRecording) => void) | undefined;
  /** How many of the latest events the list shows (default 300). */
  maxEvents?: number | undefined;
  /** The panel's own theme (its `data-theme`); by default it takes the page's. */
  theme?: 'light' | 'dark' | 'system' | undefined;
}

const EMPTY: DevtoolsRecorderState = { entries: [], length: 0, full: false, choices: { callIds: [], types: [], turnIds: [] }, byCall: new Map() };
const quiet = () => () => {};

function useRecorder(client: ToolgateClient, given: DevtoolsRecorder | undefined): DevtoolsRecorderState & { recorder: DevtoolsRecorder | undefined } {
  // The panel's own recorder listens while the panel is mounted (made in an effect: a render
  // changes nothing outside the component).
  const [own, setOwn] = useState<DevtoolsRecorder | undefined>(undefined);
  useEffect(() => {
    if (given !== undefined) return undefined;
    const made = createDevtoolsRecorder(client);
    setOwn(made);
    return () => made.stop();
  }, [client, given]);
  const recorder = given ?? own;
  const state = useSyncExternalStore(recorder?.subscribe ?? quiet, recorder?.getState ?? (() => EMPTY), () => EMPTY);
  return { ...state, recorder };
}

function download(text: string): void {
  if (typeof URL.createObjectURL !== 'function') return;
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `toolgate-recording-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The devtools panel for a client: events (filter by call, type and turn; refused frames with
 * their reasons), a call's history step by step (arrow keys on the stepper) with its approval and
 * audit records, and a recording to export or import. Mount it in development only; it loads
 * nothing into an app that does not import `toolgate/devtools`.
 *
 * @example
 * import { ToolgateDevtools } from 'toolgate/devtools';
 * {import.meta.env.DEV && <ToolgateDevtools client={client} auditLog={auditLog} />}
 */
export function ToolgateDevtools({ client, recorder: given, auditLog, initialRecording, onExport, maxEvents, theme }: ToolgateDevtoolsProps) {
  const live = useRecorder(client, given);
  const [imported, setImported] = useState<{ name: string; entries: DevtoolsEntry[] } | undefined>(() =>
    initialRecording === undefined ? undefined : { name: 'the given recording', entries: inspectRecording(initialRecording) },
  );
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [filter, setFilter] = useState<DevtoolsFilter>({});
  const [selected, setSelected] = useState<{ callId: string; step: number } | undefined>(undefined);
  const [selectedIndex, setSelectedIndex] = useState<number | undefined>(undefined);
  const id = useId();

  // Live, each frame costs what the panel shows (the latest events, the recorder's own indexes),
  // not the whole session: the bench measures a session with the panel open.
  const entries = imported?.entries ?? live.entries;
  const length = imported?.entries.length ?? live.length;
  const importedChoices = useMemo(() => (imported ? filterChoices(imported.entries) : undefined), [imported]);
  const choices = importedChoices ?? live.choices;
  const max = maxEvents ?? 300;
  // Kept across frames: a frame tests only the entries added since the one before.
  const [latest] = useState(createLatestEntries);
  const [history] = useState(createCallHistory);
  const { shown, more } = useMemo(() => latest(entries, length, filter, max), [latest, entries, length, filter, max]);
  const selectedCall = selected?.callId;
  const steps = useMemo(() => {
    if (selectedCall === undefined) return [];
    if (imported) return history(imported.entries, selectedCall);
    return history(live.byCall.get(selectedCall) ?? [], selectedCall);
    // `live.length`: the call's list grows in place; a new frame reads what it added.
  }, [history, imported, live.byCall, live.length, selectedCall]);
  const stepAt = selected === undefined ? 0 : Math.min(selected.step, Math.max(steps.length - 1, 0));
  const callAt = useMemo(() => {
    for (let i = stepAt; i >= 0; i--) if (steps[i]?.call !== undefined) return steps[i]?.call;
    return undefined;
  }, [steps, stepAt]);

  const select = (entry: DevtoolsEntry) => {
    setSelectedIndex(entry.index);
    if (entry.callId === undefined) return setSelected(undefined);
    const history = imported ? callHistory(imported.entries, entry.callId) : callHistory(live.byCall.get(entry.callId) ?? [], entry.callId);
    const step = history.findIndex((item) => item.index === entry.index);
    setSelected({ callId: entry.callId, step: step < 0 ? history.length - 1 : step });
  };

  const exportRecording = () => {
    live.recorder?.flush();
    const source = imported?.entries ?? (live.recorder ? live.recorder.getState().entries.slice(0, live.recorder.getState().length) : []);
    const recording = toRecording(source);
    const written = recordingToJson(recording);
    if (!written.ok) return setProblem(written.reason);
    setProblem(undefined);
    onExport?.(recording);
    download(written.text);
  };

  const importRecording = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file === undefined) return;
    const read = parseRecording(await file.text());
    if (!read.ok) return setProblem(`${file.name}: ${read.reason}`);
    setProblem(undefined);
    setSelected(undefined);
    setSelectedIndex(undefined);
    setImported({ name: file.name, entries: inspectRecording(read.recording) });
  };

  const choose = (key: keyof DevtoolsFilter) => (event: ChangeEvent<HTMLSelectElement>) => setFilter((f) => ({ ...f, [key]: event.target.value || undefined }));

  return (
    <section className="toolgate-theme toolgate-devtools" data-theme={theme} style={styles.root} aria-labelledby={`${id}-title`}>
      <header style={styles.header}>
        <h2 id={`${id}-title`} style={styles.title}>
          Toolgate devtools
        </h2>
        <span style={styles.muted} role="status">
          {imported ? `Showing ${imported.name} (${imported.entries.length} entries)` : `Live: ${live.length} entries${live.full ? ' (full: recording stopped)' : ''}`}
        </span>
        <button type="button" style={styles.control} onClick={exportRecording}>
          Export recording
        </button>
        <label style={styles.control}>
          Import recording
          <input type="file" accept="application/json,.json" onChange={(event) => void importRecording(event)} style={{ marginLeft: 6, maxWidth: 180 }} />
        </label>
        {imported ? (
          <button type="button" style={styles.control} onClick={() => (setImported(undefined), setSelected(undefined), setSelectedIndex(undefined))}>
            Back to live
          </button>
        ) : (
          <button type="button" style={styles.control} onClick={() => (live.recorder?.clear(), setSelected(undefined), setSelectedIndex(undefined))}>
            Clear
          </button>
        )}
      </header>
      {problem !== undefined && (
        <p role="alert" style={styles.refused}>
          {problem}
        </p>
      )}
      <div style={styles.filters} role="group" aria-label="Filters">
        <label>
          Call{' '}
          <select style={styles.control} value={filter.callId ?? ''} onChange={choose('callId')}>
            <option value="">all</option>
            {choices.callIds.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </label>
        <label>
          Type{' '}
          <select style={styles.control} value={filter.type ?? ''} onChange={choose('type')}>
            <option value="">all</option>
            {choices.types.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </label>
        <label>
          Turn{' '}
          <select style={styles.control} value={filter.turnId ?? ''} onChange={choose('turnId')}>
            <option value="">all</option>
            {choices.turnIds.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={filter.refusedOnly === true} onChange={(event) => setFilter((f) => ({ ...f, refusedOnly: event.target.checked }))} /> Refused only
        </label>
      </div>
      <div style={styles.columns}>
        <div style={styles.pane} role="region" aria-label="Session events" tabIndex={0}>
          <EventsList entries={shown} more={more} selected={selectedIndex} onSelect={select} />
        </div>
        <div style={styles.pane} role="region" aria-label="Call history" tabIndex={0}>
          {selected === undefined ? (
            <p style={styles.muted}>Choose an event to see its call’s history.</p>
          ) : (
            <CallHistory
              callId={selected.callId}
              steps={steps}
              step={stepAt}
              onStep={(step) => {
                const to = Math.min(Math.max(step, 0), Math.max(steps.length - 1, 0));
                setSelected({ callId: selected.callId, step: to });
                setSelectedIndex(steps[to]?.index);
              }}
            >
              <CallApprovalView call={callAt} approvals={imported ? undefined : client.approvals} steps={steps} />
              {auditLog !== undefined && !imported && <AuditView log={auditLog} callId={selected.callId} />}
            </CallHistory>
          )}
        </div>
      </div>
    </section>
  );
}
