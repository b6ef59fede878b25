import { useEffect, useId, useState } from 'react';
import type { ReferenceFault, ReferenceSession } from 'toolgate/client';
import { useSessionStatus } from './session-state';

interface FaultButton {
  label: string;
  fault: ReferenceFault;
}

const GROUPS: { title: string; faults: FaultButton[] }[] = [
  {
    title: 'Room',
    faults: [
      { label: 'Drop the next invoke response', fault: { fault: 'drop-invoke-response' } },
      { label: 'Delay room responses by 3 s', fault: { fault: 'delay-responses', ms: 3000 } },
      { label: 'Stop delaying room responses', fault: { fault: 'delay-responses', ms: 0 } },
    ],
  },
  {
    title: 'Connection',
    faults: [
      { label: 'Disconnect now', fault: { fault: 'disconnect' } },
      { label: 'Disconnect after 10 events', fault: { fault: 'disconnect', afterEvents: 10 } },
      { label: 'Close the session now', fault: { fault: 'close-session' } },
      { label: 'Close the session after 10 events', fault: { fault: 'close-session', afterEvents: 10 } },
    ],
  },
  {
    title: 'Malformed frames',
    faults: [
      { label: 'Text that is not JSON', fault: { fault: 'malformed', frame: 'invalid-json' } },
      { label: 'JSON that is not an object', fault: { fault: 'malformed', frame: 'not-an-object' } },
      { label: 'An unknown phase', fault: { fault: 'malformed', frame: 'unknown-phase' } },
      { label: 'An event without callId', fault: { fault: 'malformed', frame: 'missing-call-id' } },
      { label: 'An unknown event type', fault: { fault: 'malformed', frame: 'unknown-type' } },
      { label: 'A repeated seq', fault: { fault: 'malformed', frame: 'repeat-seq' } },
    ],
  },
];

function describe(frame: Record<string, unknown>): string {
  const { type: _type, fault, ...rest } = frame;
  const details = Object.entries(rest).map(([k, v]) => `${k} ${String(v)}`);
  return details.length > 0 ? `${String(fault)} (${details.join(', ')})` : String(fault);
}

export function FaultsPanel({ session }: { session: ReferenceSession }) {
  const status = useSessionStatus(session);
  const [acknowledged, setAcknowledged] = useState<string | null>(null);
  const id = useId();
  useEffect(() => {
    setAcknowledged(null);
    return session.onFrame((frame) => {
      if (frame.type === 'fault.ack') setAcknowledged(describe(frame));
    });
  }, [session]);

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Faults</h2>
      <p className="hint">Ask the server to misbehave, then watch the page cope.</p>
      {GROUPS.map((group) => (
        <fieldset key={group.title} className="faults">
          <legend>{group.title}</legend>
          {group.faults.map((item) => (
            <button key={item.label} type="button" disabled={status === 'closed'} onClick={() => session.injectFault(item.fault)}>
              {item.label}
            </button>
          ))}
        </fieldset>
      ))}
      <button type="button" disabled={status === 'closed'} onClick={() => session.injectFault({ fault: 'reset' })}>
        Disarm every fault
      </button>
      <p role="status" className="hint">
        {acknowledged ? `The server armed: ${acknowledged}.` : 'No fault armed yet.'}
      </p>
    </section>
  );
}
