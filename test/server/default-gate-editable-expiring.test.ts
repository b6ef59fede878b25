// @vitest-environment node
/**
 * The default gate's editable, expiring and always-asked requests: schedule_payment asked editable and expiring (after the
 * turn's params.approvalTtlMs, else two minutes), send_reminder asked although it is not high risk.
 */
import { describe, expect, it } from 'vitest';
import { PAYMENT_APPROVAL_TTL_MS, defaultBeforeToolCall, type GateCall } from '../../server/agent-tools';
import { createManualTimer } from '../../server/timer';
import { useTestServer, type Frame } from './helpers';

const { startServer, connect } = useTestServer();

const call = (name: string, risk: GateCall['risk'], params: Record<string, unknown> = {}): GateCall => ({
  sessionId: 's',
  callId: 'c',
  turnId: 't',
  name,
  location: 'server',
  risk,
  effect: 'write',
  arguments: { to: 'Acme Supplies', amount: 420 },
  params,
});

describe('the default gate: editable, expiring and always-asked requests', () => {
  it('asks about schedule_payment with an editable request that expires after the turn’s approvalTtlMs', () => {
    expect(defaultBeforeToolCall(call('schedule_payment', 'high', { approvalTtlMs: 3_000 }))).toEqual({ action: 'confirm', editable: true, expiresInMs: 3_000 });
  });

  it('lets a schedule_payment request wait two minutes when the turn names no sensible approvalTtlMs', () => {
    for (const approvalTtlMs of [undefined, 'soon', 0, 999, Infinity, 3_600_001]) {
      expect(defaultBeforeToolCall(call('schedule_payment', 'high', { approvalTtlMs }))).toEqual({ action: 'confirm', editable: true, expiresInMs: PAYMENT_APPROVAL_TTL_MS });
    }
  });

  it('asks about send_reminder although it is not high risk, and lets other medium-risk tools through', () => {
    expect(defaultBeforeToolCall(call('send_reminder', 'medium'))).toEqual({ action: 'confirm' });
    expect(defaultBeforeToolCall(call('send_email', 'medium'))).toEqual({ action: 'allow' });
  });

  it('puts editable and expiresAt on the payment script’s request, from the turn’s params', async () => {
    const timer = createManualTimer();
    await startServer({ timer });
    const { client } = await connect();
    client.send({ type: 'turn.start', prompt: 'payment', params: { approvalTtlMs: 5_000 } });
    const request: Frame = await client.waitFor((f) => f.type === 'tool.approval-request');
    expect(request).toMatchObject({ name: 'schedule_payment', editable: true, expiresAt: timer.now() + 5_000, arguments: { to: 'Acme Supplies', amount: 420 } });
  });
});
