// @vitest-environment node
/**
 * Bad input against the real reference server, through the client and the kit's confirmation
 * flow (no browser needed): a confirmation presented with other arguments, and an approval of
 * the gate that names other arguments. Both are refused clearly, and nothing runs.
 */
import { describe, expect, it, vi } from 'vitest';
import { createConfirmationController, ToolRoomError, type ToolRoom } from 'toolgate/core';
import { fingerprintJson } from 'toolgate/json';
import { useReferenceSession, WAIT_MS } from './harness';

const connectSession = useReferenceSession();

const INVOICE = { customerId: 'c_101', amount: 1250, currency: 'EUR', memo: 'Consulting, March' };

const connect = (onError: (reason: string) => void = () => {}) => connectSession({ onError });

describe('bad input: a confirmation presented with other arguments', () => {
  it('is refused by the room with a clear, definite error, and nothing runs', async () => {
    const { server, session } = await connect();
    const id = await session.room.confirmTool('send_invoice', INVOICE);
    const error = await session.room.invokeTool('send_invoice', { ...INVOICE, amount: 99_999 }, id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolRoomError);
    expect(error).toMatchObject({ code: 'CONFIRMATION_INVALID', definite: true });
    expect((error as Error).message).toMatch(/argument/i);
    expect(server.effects).toEqual([expect.objectContaining({ toolName: 'send_invoice', outcome: 'refused', code: 'CONFIRMATION_INVALID' })]);
    expect(server.effects.some((e) => e.outcome === 'accepted')).toBe(false);
  });

  it('ends the kit’s confirmation flow failed (not uncertain) with the room’s reason when the invoke path swaps the arguments', async () => {
    const { server, session } = await connect();
    // A tampered path between the dialog and the room: it invokes other arguments than those confirmed.
    const tampered: ToolRoom = {
      confirmTool: (name, args) => session.room.confirmTool(name, args),
      invokeTool: (name, args, confirmationId) => session.room.invokeTool(name, { ...(args as object), amount: 99_999 }, confirmationId),
    };
    const controller = createConfirmationController({ room: tampered });
    const outcome = controller.request({
      toolName: 'send_invoice',
      arguments: INVOICE,
      descriptor: { effect: 'write', risk: 'medium', requiresConfirmation: true },
    });
    await vi.waitFor(() => expect(controller.getState().status).toBe('reviewing'), { timeout: WAIT_MS });
    expect(controller.approve()).toBe(true);
    await vi.waitFor(() => expect(controller.getState().status).toBe('failed'), { timeout: WAIT_MS });
    expect(controller.getState().current?.outcome).toMatchObject({ status: 'failed', reason: expect.stringMatching(/argument/i) });
    controller.dismiss();
    await expect(outcome).resolves.toMatchObject({ status: 'failed' });
    expect(server.effects.map((e) => [e.outcome, e.code])).toEqual([['refused', 'CONFIRMATION_INVALID']]);
  });
});

describe('bad input: an approval of the gate for other arguments', () => {
  it('is refused (FINGERPRINT_MISMATCH reaches onError), the call is REJECTED and nothing runs', async () => {
    const reasons: string[] = [];
    const { server, session } = await connect((reason) => reasons.push(reason));
    const requests: Record<string, unknown>[] = [];
    session.subscribe((event) => {
      const e = event as Record<string, unknown>;
      if (e['type'] === 'tool.approval-request') requests.push(e);
    });
    const events: Record<string, unknown>[] = [];
    session.subscribe((event) => events.push(event as Record<string, unknown>));
    const turnId = session.startTurn('deploy');
    await vi.waitFor(() => expect(requests).toHaveLength(1), { timeout: WAIT_MS });
    const request = requests[0]!;
    // What the model wrote ("latest"), not what the gate asks about (a pinned release).
    const other = await fingerprintJson({ service: 'billing', version: 'latest', environment: 'production' });
    session.send({ type: 'tool.approval', requestId: request['requestId'] as string, approvalToken: request['approvalToken'] as string, approved: true, fingerprint: other.hex });
    await vi.waitFor(() => expect(events.some((e) => e['type'] === 'turn.ended' && e['turnId'] === turnId)).toBe(true), { timeout: WAIT_MS });

    expect(reasons).toEqual([expect.stringMatching(/FINGERPRINT_MISMATCH: the approval does not match the arguments/)]);
    expect(events.find((e) => e['phase'] === 'settled')).toMatchObject({ ok: false, code: 'REJECTED' });
    expect(server.effects.filter((e) => e.outcome === 'accepted')).toEqual([]);
    expect(server.ignored).toEqual([expect.objectContaining({ reason: 'fingerprint-mismatch' })]);
  });
});
