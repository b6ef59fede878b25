import { useEffect, useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { AuditView } from 'toolgate';
import { createAuditLog, type AuditLog, type AuditRecord } from 'toolgate/audit';

/**
 * The audit trail of a session: each record (requested, decided, ran, settled) and whether the
 * hash chain verifies. The records here are appended by a real audit log, as the client appends
 * them for each call a person, a grant or a rule decided.
 */
const meta = {
  title: 'Components/AuditView',
  component: AuditView,
  tags: ['autodocs'],
  parameters: { layout: 'padded' },
} satisfies Meta<typeof AuditView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Three calls: approved and run, denied with a reason, answered by a person instead of running. */
async function fill(log: AuditLog): Promise<void> {
  let at = Date.UTC(2026, 0, 5, 9, 30);
  const next = () => (at += 1500);
  const send = { to: 'ada@example.test', amount: 5 };
  void log.append({ type: 'requested', callId: 'call_1', toolName: 'send_money', definitionFingerprint: null, arguments: send, at: next() });
  void log.append({ type: 'decided', callId: 'call_1', kind: 'approve', by: 'person', at: next() });
  void log.append({ type: 'ran', callId: 'call_1', arguments: send, at: next() });
  void log.append({ type: 'settled', callId: 'call_1', code: 'OK', output: { receipt: 'r-9' }, at: next() });
  void log.append({ type: 'requested', callId: 'call_2', toolName: 'deploy_service', definitionFingerprint: null, arguments: { version: 'latest' }, at: next() });
  void log.append({ type: 'decided', callId: 'call_2', kind: 'deny', by: 'person', reason: 'not on a Friday', at: next() });
  void log.append({ type: 'settled', callId: 'call_2', code: 'REJECTED', at: next() });
  void log.append({ type: 'requested', callId: 'call_3', toolName: 'lookup_order', definitionFingerprint: null, arguments: { orderId: 'ord_1042' }, at: next() });
  void log.append({ type: 'decided', callId: 'call_3', kind: 'respond', by: 'person', at: next() });
  void log.append({ type: 'settled', callId: 'call_3', code: 'OK', output: { status: 'shipped' }, at: next() });
  await log.idle();
}

function Trail({ tamper }: { tamper: boolean }) {
  const [log, setLog] = useState<AuditLog | null>(null);
  useEffect(() => {
    let current = true;
    const made = createAuditLog();
    void fill(made).then(() => {
      if (!current) return;
      if (!tamper) return setLog(made);
      // The same records, with one reason changed afterwards: the chain shows where.
      const records = made.getState().records.map((record) => (record.seq === 5 ? ({ ...record, reason: 'approved after all' } as AuditRecord) : record));
      setLog(createAuditLog({ records }));
    });
    return () => {
      current = false;
    };
  }, [tamper]);
  return log === null ? <p>Appending records…</p> : <AuditView log={log} />;
}

/** Ten records of three calls; the chain verifies. */
export const Verified: Story = {
  args: { log: createAuditLog() },
  render: () => <Trail tamper={false} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent('Chain verified: 10 records'));
    expect(canvas.getAllByRole('row')).toHaveLength(11);
    expect(canvas.getByText('deny by person: not on a Friday')).toBeInTheDocument();
  },
};

/** One decision's reason was changed after the fact: the chain is broken at that record. */
export const Tampered: Story = {
  args: { log: createAuditLog() },
  render: () => <Trail tamper />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByRole('status')).toHaveTextContent(/^Chain broken at record 5: record 5 does not match its hash/));
    expect(canvasElement.querySelector('[data-broken]')).toHaveAttribute('data-type', 'decided');
  },
};
