// @vitest-environment node
// The gate's edits, expiry and deny reasons, over a real socket: edited arguments only where the request was
// editable, validated against the tool's schema, bound to the fingerprint of the server's own
// canonical JSON of the edit, and run exactly; requests that expire, and refuse a late decision;
// a deny's reason is the call's result the model reads.
import { describe, expect, it } from 'vitest';
import type { ReferenceServerOptions } from '../../server/server';
import { fingerprintOf } from '../../server/jcs';
import { createManualTimer } from '../../server/timer';
import { useTestServer, type Frame, type TestClient } from './helpers';

const { startServer, server, connect } = useTestServer();

/** A server whose gate asks about every high-risk call, editable and/or expiring as told. */
async function gated(decision: { editable?: boolean; expiresInMs?: number }, options: ReferenceServerOptions = {}) {
  await startServer({
    beforeToolCall: (call) => (call.risk === 'high' ? { action: 'confirm', ...decision } : { action: 'allow' }),
    ...options,
  });
  const { client, welcome } = await connect({});
  client.send({ type: 'turn.start', prompt: 'deploy' });
  const request = await client.waitFor((f) => f.type === 'tool.approval-request');
  return { client, welcome, request, server: server() };
}

const settledOf = (client: TestClient, request: Frame) => client.waitFor((f) => f.phase === 'settled' && f.callId === request.callId);
const accepted = () => server().effects.filter((e) => e.outcome === 'accepted');

describe('reference server: edit, then approve', () => {
  it('marks the request editable, and runs exactly the edit approved with the fingerprint of its canonical JSON', async () => {
    const { client, request } = await gated({ editable: true });
    expect(request).toMatchObject({ editable: true, arguments: { service: 'billing', version: 'latest', environment: 'production' } });
    // Keys in another order: the fingerprint is of the canonical form, not of the text sent.
    const edit = { version: '2.7.0', environment: 'staging', service: 'billing' };
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, arguments: edit, fingerprint: fingerprintOf(edit) });
    expect(await settledOf(client, request)).toMatchObject({ ok: true });
    expect(accepted()).toEqual([
      expect.objectContaining({ toolName: 'deploy_service', arguments: edit, argumentsHash: fingerprintOf(edit), approval: { automatic: false, edited: true } }),
    ]);
  });

  it('refuses edited arguments on a request it did not mark editable, and runs nothing', async () => {
    const { client, request } = await gated({});
    expect(request.editable).toBeUndefined();
    const edit = { ...request.arguments, environment: 'staging' };
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, arguments: edit, fingerprint: fingerprintOf(edit) });
    expect(await client.waitFor((f) => f.type === 'error')).toMatchObject({ code: 'EDIT_REFUSED', requestId: request.requestId });
    expect(await settledOf(client, request)).toMatchObject({ ok: false, code: 'REJECTED' });
    expect(accepted()).toEqual([]);
    expect(server().ignored).toEqual([expect.objectContaining({ message: 'tool.approval', reason: 'edit-not-allowed' })]);
  });

  it("refuses an edit that breaks the tool's schema as INVALID, and runs nothing", async () => {
    const { client, request, welcome } = await gated({ editable: true });
    const edit = { service: 'billing', version: '2.7.0', environment: 'moon' };
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, arguments: edit, fingerprint: fingerprintOf(edit) });
    expect(await client.waitFor((f) => f.type === 'error')).toMatchObject({ code: 'EDIT_REFUSED' });
    expect(await settledOf(client, request)).toMatchObject({ ok: false, code: 'INVALID' });
    expect(server().session(welcome.sessionId as string)!.results.get(request.callId as string)).toMatchObject({ ok: false, code: 'INVALID', message: expect.stringMatching(/environment/) });
    expect(accepted()).toEqual([]);
  });

  it('refuses an edit whose fingerprint is not that of the edit (the original arguments’), and runs nothing', async () => {
    const { client, request } = await gated({ editable: true });
    const edit = { ...request.arguments, environment: 'staging' };
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, arguments: edit, fingerprint: fingerprintOf(request.arguments) });
    expect(await client.waitFor((f) => f.type === 'error')).toMatchObject({ code: 'FINGERPRINT_MISMATCH' });
    expect(await settledOf(client, request)).toMatchObject({ ok: false, code: 'REJECTED' });
    expect(accepted()).toEqual([]);
  });

  it('still runs the arguments asked about when an editable request is approved unedited', async () => {
    const { client, request } = await gated({ editable: true });
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(request.arguments), automatic: true });
    expect(await settledOf(client, request)).toMatchObject({ ok: true });
    // A grant's answer: the effect record says so, beside the arguments.
    expect(accepted()).toEqual([expect.objectContaining({ arguments: request.arguments, approval: { automatic: true, edited: false } })]);
  });
});

describe('reference server: expiry', () => {
  it('sends expiresAt, ends an unanswered request at that time, and refuses a late decision', async () => {
    const timer = createManualTimer();
    const { client, request, welcome } = await gated({ expiresInMs: 30_000 }, { timer });
    expect(request.expiresAt).toBe(timer.now() + 30_000);
    await timer.advance(29_999);
    await client.roundTrip();
    expect(client.phases(request.callId as string)).not.toContain('settled');
    await timer.advance(1);
    expect(await settledOf(client, request)).toMatchObject({ ok: false, code: 'REJECTED' });
    expect(server().session(welcome.sessionId as string)!.results.get(request.callId as string)).toMatchObject({ ok: false, code: 'REJECTED', message: expect.stringMatching(/expired/) });
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(request.arguments) });
    expect(await client.waitFor((f) => f.type === 'error')).toMatchObject({ code: 'APPROVAL_EXPIRED', requestId: request.requestId });
    expect(accepted()).toEqual([]);
    expect(server().ignored).toEqual([expect.objectContaining({ message: 'tool.approval', reason: 'expired' })]);
  });

  it('runs a request approved in time, and its expiry then changes nothing', async () => {
    const timer = createManualTimer();
    const { client, request } = await gated({ expiresInMs: 30_000 }, { timer, speed: Infinity });
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(request.arguments) });
    expect(await settledOf(client, request)).toMatchObject({ ok: true });
    await timer.advance(60_000);
    await client.roundTrip();
    expect(client.phases(request.callId as string).filter((p) => p === 'settled')).toHaveLength(1);
    expect(accepted()).toHaveLength(1);
  });
});

describe('reference server: deny with a reason', () => {
  it("makes the person's reason the call's result, the one the model reads", async () => {
    const { client, request, welcome } = await gated({ editable: true });
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: false, reason: 'billing is frozen this week', fingerprint: '' });
    expect(await settledOf(client, request)).toMatchObject({ ok: false, code: 'REJECTED' });
    expect(server().session(welcome.sessionId as string)!.results.get(request.callId as string)).toEqual({
      ok: false,
      code: 'REJECTED',
      message: 'billing is frozen this week',
    });
    expect(server().effects).toEqual([expect.objectContaining({ toolName: 'deploy_service', outcome: 'refused', code: 'REJECTED', approval: { automatic: false, edited: false } })]);
  });

  it("records a grant's deny as automatic in the effect record", async () => {
    const { client, request } = await gated({});
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: false, reason: 'denied for this session', automatic: true });
    expect(await settledOf(client, request)).toMatchObject({ ok: false, code: 'REJECTED' });
    expect(server().effects).toEqual([expect.objectContaining({ outcome: 'refused', reason: 'denied for this session', approval: { automatic: true, edited: false } })]);
  });
});
