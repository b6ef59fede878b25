/**
 * Shared pieces of the customisation stories: a flight search with its own view, a few app tools
 * (one asks first, one is answered by a person), scripts for the server's side, and a page that
 * puts them together. Not a story file itself.
 */
import { useId, useState, type CSSProperties, type ReactNode } from 'react';
import { z } from 'zod';
import {
  ToolStatusBadge,
  defineToolRenderer,
  formatNumber,
  useAppTool,
  useHumanTool,
  useInterrupt,
  useLabels,
  type PersonInputProps,
  type ToolRenderProps,
} from 'toolgate';
import { callEvents, step, toolEvents as e, type ScriptedSession, type ScriptStep } from 'toolgate/testing';

export { ScriptedApp } from '../app-tools/support';

/* --------------------------------------------------------- a tool's own view */

export const flightSchema = z.object({
  from: z.string(),
  to: z.string(),
  date: z.string(),
  passengers: z.number().int().min(1),
});

const fares = z.object({ fares: z.array(z.object({ airline: z.string(), price: z.number() })) });

const box: CSSProperties = {
  display: 'grid',
  gap: '0.375rem',
  padding: '0.75rem',
  border: '1px solid var(--toolgate-border)',
  borderRadius: 'var(--toolgate-radius)',
  background: 'var(--toolgate-bg)',
  color: 'var(--toolgate-fg)',
};

/**
 * A flight search shown as a flight: the route grows while the model writes it, the date and
 * passengers once the arguments are complete and valid, then the fares the page's app tool found.
 */
export const FlightCard = defineToolRenderer(flightSchema, function FlightCard({ call, partialArguments, arguments: args, argumentsError, result }) {
  const headingId = useId();
  const labels = useLabels();
  const route = args ?? partialArguments;
  const found = result?.ok ? fares.safeParse(result.output) : undefined;
  return (
    <article aria-labelledby={headingId} style={box} data-tool={call.name}>
      <div style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', flexWrap: 'wrap' }}>
        <h3 id={headingId} style={{ margin: 0, fontSize: '1rem' }}>
          Flight {route?.from ?? '…'} → {route?.to ?? '…'}
        </h3>
        <ToolStatusBadge status={call.status} ok={call.ok} code={call.code} />
      </div>
      {args && (
        <p style={{ margin: 0 }} data-testid="details">
          {args.date}, {args.passengers === 1 ? '1 passenger' : `${args.passengers} passengers`}
        </p>
      )}
      {argumentsError && (
        <p style={{ margin: 0 }} data-testid="invalid">
          Cannot show this search: {argumentsError}
        </p>
      )}
      {found?.success && (
        <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }} aria-label="Fares">
          {found.data.fares.map((fare) => (
            <li key={fare.airline}>
              {fare.airline}: {formatNumber(fare.price, labels.locale)} EUR
            </li>
          ))}
        </ul>
      )}
    </article>
  );
});

/** A view with a bug: it reads a field the model never sends. */
export function BrokenFares({ call }: ToolRenderProps) {
  const args = call.arguments as { currency: { code: string } } | undefined;
  if (call.status === 'pending' || call.status === 'streaming') return <p>Looking up fares…</p>;
  return <p>Fares in {args?.currency.code.toUpperCase()}</p>;
}

export const renderers = { search_flights: FlightCard, compare_fares: BrokenFares };

/* ------------------------------------------------------------ the app tools */

/** The page's own tools: `search_flights` looks fares up, `convert_currency` converts, `book_flight` asks first, `pick_seat` asks a person. */
export function TravelTools({ waitsForPerson = true }: { waitsForPerson?: boolean }) {
  useAppTool({
    name: 'search_flights',
    description: 'Find fares for a flight',
    validate: flightSchema,
    run: ({ to }) => ({ fares: [{ airline: 'Nordic Air', price: 129 }, { airline: `${to} Express`, price: 1249.5 }] }),
  });
  useAppTool({
    name: 'convert_currency',
    description: 'Convert an amount at today’s rate',
    validate: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
    run: ({ amount, to }) => ({ amount: Math.round(amount * 1150) / 100, currency: to }),
  });
  useAppTool({
    name: 'book_flight',
    description: 'Book a seat on a flight',
    validate: z.object({ flight: z.string(), seat: z.string() }),
    confirm: true,
    run: ({ flight, seat }) => ({ booked: `${flight} ${seat}` }),
  });
  useHumanTool({
    name: 'pick_seat',
    description: 'Ask the traveller to pick a seat',
    validate: z.object({ flight: z.string(), seats: z.array(z.string()).min(1) }),
    waitsForPerson,
    render: (props) => <SeatPicker {...props} />,
  });
  return null;
}

/** What a person answers `pick_seat` with: one of the free seats, or not now. */
function SeatPicker({ args, respond, cancel }: PersonInputProps<{ flight: string; seats: string[] }, { seat: string }>) {
  const [seat, setSeat] = useState('');
  const legendId = useId();
  return (
    <form
      aria-labelledby={legendId}
      style={{ display: 'grid', gap: '0.5rem' }}
      onSubmit={(event) => {
        event.preventDefault();
        if (seat) respond({ seat });
      }}
    >
      <fieldset style={{ border: 0, margin: 0, padding: 0, display: 'flex', gap: '0.75rem', flexWrap: 'wrap' }}>
        <legend id={legendId} style={{ marginBottom: '0.25rem' }}>
          Pick a seat on {args.flight}
        </legend>
        {args.seats.map((option) => (
          <label key={option} style={{ display: 'inline-flex', gap: '0.25rem', alignItems: 'center' }}>
            <input type="radio" name="seat" value={option} checked={seat === option} onChange={() => setSeat(option)} />
            {option}
          </label>
        ))}
      </fieldset>
      <div style={{ display: 'flex', gap: '0.5rem' }}>
        <button type="submit" className="toolgate-button">
          Choose this seat
        </button>
        <button type="button" className="toolgate-button" onClick={() => cancel('the traveller will choose later')}>
          Not now
        </button>
      </div>
    </form>
  );
}

/** Stops the turn, as a Stop button in a chat would. */
export function InterruptButton({ turnId = 'turn-1' }: { turnId?: string }) {
  const interrupt = useInterrupt();
  return (
    <button type="button" className="toolgate-button" onClick={() => interrupt(turnId)}>
      Stop the turn
    </button>
  );
}

/* ------------------------------------------------------------------ scripts */

/**
 * The server's side of one app-tool call: its stream events (the model writing the arguments),
 * the call, and once the page answers, `settled` with the result's code (the server's `settled`
 * carries no output: the card gets it from the page's host).
 */
export function appCall(callId: string, name: string, args: Record<string, unknown>, turnId = 'turn-1'): ScriptStep[] {
  return [
    ...callEvents(callId, { name, turnId, arguments: args, outcome: 'open', location: 'app', chunk: 6 }).flatMap((event) => [step.emit(event), step.delay(60)]),
    step.call({ callId, turnId, name, arguments: args }),
    step.run(async (session: ScriptedSession) => {
      const result = await session.waitForResult(callId);
      // An interrupted call is cancelled on the server too; any other answer settles it.
      session.emit(!result.ok && result.code === 'INTERRUPTED' ? e.cancelled(callId) : e.settled(callId, result.ok, result.ok ? undefined : result.code));
    }),
  ];
}

/** A server tool that streams, settles and needs nothing from the page. */
export function serverCall(callId: string, name: string, args: unknown, turnId = 'turn-1'): ScriptStep[] {
  return callEvents(callId, { name, turnId, arguments: args, location: 'server', chunk: 6 }).flatMap((event) => [step.emit(event), step.delay(60)]);
}

/**
 * A server tool behind the server's before-tool-call gate: it waits for a person's approval, then
 * runs (settled) or answers REJECTED. `answer: false` leaves the answer out (another step gives it).
 */
export function gatedCall(callId: string, name: string, args: Record<string, unknown>, { turnId = 'turn-1', answer = true } = {}): ScriptStep[] {
  const requestId = `r-${callId}`;
  return [
    ...callEvents(callId, { name, turnId, arguments: args, outcome: 'open', location: 'server', risk: 'high' }).map((event) => step.emit(event)),
    step.emit({ type: 'tool.approval-request', requestId, callId, name, arguments: args, risk: 'high', effect: 'write' }),
    ...(answer ? [settleOnApproval(callId)] : []),
  ];
}

/** Once the page answers the gate for `callId`: settled when approved, REJECTED when denied. Does not hold the script up. */
export function settleOnApproval(callId: string): ScriptStep {
  return step.run((session) => {
    void session.waitForMessage('tool.approval', (m) => m.requestId === `r-${callId}`).then(
      (m) => session.emit(e.settled(callId, m.approved, m.approved ? undefined : 'REJECTED')),
      () => {},
    );
  });
}

export const trip = { from: 'LIS', to: 'OSL', date: '2025-06-12', passengers: 2 };

/** A column of story parts with a caption each. */
export function Column({ caption, children }: { caption: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} style={{ display: 'grid', gap: '0.5rem', alignContent: 'start' }}>
      <h2 id={id} style={{ margin: 0, fontSize: '1rem' }}>
        {caption}
      </h2>
      {children}
    </section>
  );
}
