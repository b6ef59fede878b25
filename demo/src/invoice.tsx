import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ToolError, useAppTool, useConfirmationController, type CheckOutcome, type ConfirmationOutcome, type ToolDescriptor } from 'toolgate';
import { formatFingerprint } from 'toolgate/json';
import type { ReferenceEffect, ReferenceSession } from 'toolgate/client';

/** The latest write through the room, as the page shows it. */
export interface WriteRecord {
  readonly outcome: ConfirmationOutcome;
  /** Full SHA-256 hex of the canonical arguments that were approved. */
  readonly fingerprint: string | null;
  readonly confirmationId: string | null;
  readonly callId: string | null;
}

interface Invoice {
  customerId: string;
  amount: number;
  currency: string;
  memo?: string;
}

const invoiceParameters = {
  type: 'object',
  properties: {
    customerId: { type: 'string', title: 'Customer' },
    amount: { type: 'number', title: 'Amount' },
    currency: { type: 'string', title: 'Currency' },
    memo: { type: 'string', title: 'Memo' },
  },
  required: ['customerId', 'amount', 'currency'],
} as const;

const EXAMPLE_INVOICE: Invoice = { customerId: 'c_102', amount: 320, currency: 'EUR', memo: 'Support plan, April' };

/** The room's descriptor of send_invoice (docs/protocol.md, "Rooms"), asked once per session. */
function useDescriptor(session: ReferenceSession): () => Promise<Partial<ToolDescriptor> | undefined> {
  const cache = useRef<{ session: ReferenceSession; promise: Promise<Partial<ToolDescriptor> | undefined> } | null>(null);
  return useCallback(() => {
    if (cache.current?.session !== session) {
      const promise = session.room.describeTools().then(
        ({ tools }) => {
          const tool = tools.find((t) => t.name === 'send_invoice');
          if (!tool) return undefined;
          return {
            title: 'Send an invoice',
            description: tool.description,
            effect: tool.effect,
            risk: tool.risk,
            requiredAction: tool.requiredAction,
            requiresConfirmation: tool.requiresConfirmation,
          };
        },
        // Without a descriptor the flow treats it as a write that needs confirmation: the safe side.
        () => undefined,
      );
      cache.current = { session, promise };
    }
    return cache.current.promise;
  }, [session]);
}

/**
 * The application's own check after an unknown outcome (docs/protocol.md, "Rooms": find out
 * whether the destination performed the operation before a deliberate retry of a write): the room's record.
 */
function checkInRoom(session: ReferenceSession): CheckOutcome {
  return async ({ confirmationId }) => {
    if (confirmationId === null) return { status: 'unknown', reason: 'no confirmation id to look up' };
    const effects = await session.room.listEffects({ toolName: 'send_invoice', confirmationId });
    const accepted = effects.find((e) => e.outcome === 'accepted');
    if (accepted) return { status: 'done', output: accepted.result ?? 'found in the room record' };
    return { status: 'not-done', reason: 'the room has no invoice sent with this confirmation' };
  };
}

/**
 * send_invoice, the app tool of the `write` script: the page shows the exact invoice, and on
 * approval confirms it in the room and invokes it with the same snapshot and confirmation id.
 */
export function InvoiceTool({ session, onResult }: { session: ReferenceSession; onResult: (record: WriteRecord) => void }) {
  const confirmations = useConfirmationController();
  const describe = useDescriptor(session);
  useAppTool<Invoice>({
    name: 'send_invoice',
    description: 'Send an invoice through the room after the user confirms it.',
    parameters: invoiceParameters,
    // The person's review happens inside run; the server's own client-tool timeout still applies.
    timeoutMs: Infinity,
    async run(invoice, { signal, callId, turnId }) {
      const descriptor = await describe();
      const outcome = await confirmations.request({
        toolName: 'send_invoice',
        arguments: invoice,
        descriptor,
        callId,
        turnId,
        signal,
        checkOutcome: checkInRoom(session),
        onResult: (result, view) =>
          onResult({ outcome: result, fingerprint: view.fingerprint?.hex ?? null, confirmationId: view.confirmationId, callId }),
      });
      switch (outcome.status) {
        case 'done':
          return { invoice: outcome.output, confirmationId: outcome.confirmationId, fingerprint: outcome.fingerprint };
        case 'denied':
          throw new ToolError('REJECTED', outcome.reason ?? 'the user declined the invoice');
        case 'refused':
          throw new ToolError('REJECTED', outcome.reason);
        case 'failed':
          throw new Error(outcome.reason);
        case 'uncertain':
          throw new Error(`the invoice may or may not have been sent: ${outcome.reason}`);
      }
    },
  });
  return null;
}

const OUTCOME_TEXT: Record<ConfirmationOutcome['status'], string> = {
  done: 'Sent',
  denied: 'Denied',
  refused: 'Refused',
  failed: 'Failed',
  responded: 'Answered by you',
  cancelled: 'Withdrawn',
  expired: 'Expired',
  uncertain: 'Outcome unknown (the answer was lost): check before retrying',
};

export function WritePanel({
  session,
  lastWrite,
  onResult,
}: {
  session: ReferenceSession;
  lastWrite: WriteRecord | null;
  onResult: (record: WriteRecord) => void;
}) {
  const confirmations = useConfirmationController();
  const describe = useDescriptor(session);
  const [record, setRecord] = useState<readonly ReferenceEffect[] | null>(null);
  const [checkError, setCheckError] = useState<string | null>(null);
  const id = useId();
  useEffect(() => setRecord(null), [session]);

  const propose = async () => {
    const descriptor = await describe();
    await confirmations
      .request({
        toolName: 'send_invoice',
        arguments: EXAMPLE_INVOICE,
        descriptor,
        checkOutcome: checkInRoom(session),
        onResult: (result, view) => onResult({ outcome: result, fingerprint: view.fingerprint?.hex ?? null, confirmationId: view.confirmationId, callId: null }),
      })
      .catch(() => undefined);
  };

  const readRecord = () => {
    setCheckError(null);
    session.room.listEffects({ toolName: 'send_invoice' }).then(setRecord, (error: unknown) =>
      setCheckError(error instanceof Error ? error.message : String(error)),
    );
  };

  const outcome = lastWrite?.outcome;
  const output = outcome?.status === 'done' ? (outcome.output as { invoiceId?: unknown; amount?: unknown; currency?: unknown } | null) : null;
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Room write: send_invoice</h2>
      <p className="hint">
        Approve confirms the exact invoice in the room (confirmTool), then invokes it with that confirmation id. The room consumes a
        confirmation once.
      </p>
      <div className="actions">
        <button type="button" onClick={() => void propose()}>
          Propose an invoice
        </button>
        <button type="button" onClick={readRecord}>
          Read the room’s record
        </button>
      </div>
      {lastWrite && outcome ? (
        <dl className="write-result" data-outcome={outcome.status}>
          <dt>Outcome</dt>
          <dd data-write-outcome={outcome.status}>
            {OUTCOME_TEXT[outcome.status]}
            {'reason' in outcome && outcome.reason ? `: ${outcome.reason}` : null}
          </dd>
          {output && (
            <>
              <dt>Invoice</dt>
              <dd>
                {String(output.invoiceId ?? '')} · {String(output.amount ?? '')} {String(output.currency ?? '')}
              </dd>
            </>
          )}
          {lastWrite.fingerprint && (
            <>
              <dt>Fingerprint</dt>
              <dd>
                <code title={lastWrite.fingerprint} data-fingerprint={lastWrite.fingerprint}>
                  {formatFingerprint(lastWrite.fingerprint)}
                </code>
              </dd>
            </>
          )}
          {lastWrite.confirmationId && (
            <>
              <dt>Confirmation</dt>
              <dd>
                <code>{lastWrite.confirmationId}</code>
              </dd>
            </>
          )}
        </dl>
      ) : (
        <p className="hint">No invoice yet: run the “write” prompt or propose one.</p>
      )}
      {checkError && <p role="alert">{checkError}</p>}
      {record && (
        <p role="status" data-room-record={record.filter((e) => e.outcome === 'accepted').length}>
          The room recorded {record.filter((e) => e.outcome === 'accepted').length} sent and{' '}
          {record.filter((e) => e.outcome !== 'accepted').length} refused or failed send_invoice calls in this server’s life.
        </p>
      )}
    </section>
  );
}
