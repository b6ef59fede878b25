import { useId, useState } from 'react';
import { useInterrupt } from 'toolgate';
import type { ReferenceSession } from 'toolgate/client';
import { useSessionStatus, useTurns, useWelcome } from './session-state';

/** Shown until the welcome lists the server's own scripts. */
const FALLBACK_SCRIPTS = [
  { name: 'search', description: 'A low-risk server tool with progress.' },
  { name: 'deploy', description: 'A high-risk server tool behind an approval.' },
  { name: 'write', description: 'An invoice through the room, confirmed first.' },
];

const PACING = [
  { value: 0.25, label: 'Slow (¼ speed)' },
  { value: 1, label: 'Realistic' },
  { value: 4, label: 'Fast (4×)' },
  { value: Infinity, label: 'Instant' },
];

export interface PromptsPanelProps {
  session: ReferenceSession;
  defaultSpeed: number;
  /** Sent with every turn as `params.approvalTtlMs`: how long the server's expiring approval requests wait. */
  approvalTtlMs?: number | undefined;
}

export function PromptsPanel({ session, defaultSpeed, approvalTtlMs }: PromptsPanelProps) {
  const welcome = useWelcome(session);
  const status = useSessionStatus(session);
  const { active, turns } = useTurns(session);
  const interrupt = useInterrupt();
  const [speed, setSpeed] = useState(defaultSpeed);
  const id = useId();
  const scripts = welcome?.scripts ?? FALLBACK_SCRIPTS;
  const pacing = PACING.some((p) => p.value === speed) ? PACING : [...PACING, { value: speed, label: `${speed}×` }];
  const last = turns.at(-1);
  const closed = status === 'closed';

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Prompts</h2>
      <p className="hint">Each prompt starts a scripted model turn on the server; one turn runs at a time.</p>
      <label className="field">
        Pacing{' '}
        <select value={String(speed)} onChange={(event) => setSpeed(Number(event.target.value))}>
          {pacing.map((p) => (
            <option key={p.label} value={String(p.value)}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <ul className="prompts">
        {scripts.map((script) => (
          <li key={script.name}>
            <button
              type="button"
              disabled={closed || active !== undefined}
              aria-describedby={`${id}-${script.name}`}
              onClick={() => session.startTurn(script.name, { speed, ...(approvalTtlMs === undefined ? {} : { params: { approvalTtlMs } }) })}
            >
              {script.name}
            </button>
            <span id={`${id}-${script.name}`} className="hint">
              {script.description}
            </span>
          </li>
        ))}
      </ul>
      <div className="turn-bar">
        <button type="button" className="danger" disabled={active === undefined} onClick={() => active && interrupt(active.turnId)}>
          Interrupt
        </button>
        <p role="status" className="turn-status" data-turn-status={active ? 'running' : (last?.status ?? 'none')} data-turns={turns.length}>
          {active
            ? `Turn ${active.turnId} (${active.prompt}) is running.`
            : last
              ? `Turn ${last.turnId} (${last.prompt}) ${last.status}.`
              : 'No turn yet.'}
        </p>
      </div>
    </section>
  );
}
