// @vitest-environment node
// Typed decisions over a real socket (docs/protocol.md "Decisions", "Signed approvals"): respond
// settles the call with the person's answer, marked as theirs, and runs nothing; cancel withdraws
// the call (cancelled, not rejected); a decision without the request's valid token runs nothing.
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../server/jcs';
import { useTestServer, type Frame, type TestClient } from './helpers';

const { startServer, server, connect } = useTestServer();

/** A server whose gate asks about every high-risk call; one `deploy` turn started, its request in hand. */
async function gated() {
  await startServer({ beforeToolCall: (call) => (call.risk === 'high' ? { action: 'confirm' } : { action: 'allow' }) });
  const { client, welcome } = await connect({});
  client.send({ type: 'turn.start', prompt: 'deploy' });
  const request = await client.waitFor((f) => f.type === 'tool.approval-request');
  return { client, welcome, request };
}

const endOf = (client: TestClient, request: Frame) =>
  client.waitFor((f) => f.type === 'tool.stream' && f.callId === request.callId && (f.phase === 'settled' || f.phase === 'cancelled'));
const accepted = () => server().effects.filter((e) => e.outcome === 'accepted');
const resultOf = (welcome: Frame, request: Frame) => server().session(welcome.sessionId as string)!.results.get(request.callId as string);

describe('reference server: typed decisions', () => {
  it('signs each approval request with a token', async () => {
    const { request } = await gated();
    expect(request.approvalToken).toMatch(/^tg1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('respond: the person’s answer is the call’s result, marked as answered by a person, and the tool does not run', async () => {
    const { client, welcome, request } = await gated();
    const output = { deployed: false, note: 'Already on 2.7.0; nothing to do.' };
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: false, decision: 'respond', output, fingerprint: fingerprintOf(request.arguments) });
    expect(await endOf(client, request)).toMatchObject({ phase: 'settled', ok: true, output, answeredBy: 'person' });
    expect(resultOf(welcome, request)).toEqual({ ok: true, output });
    expect(accepted()).toEqual([]);
    expect(server().effects).toEqual([expect.objectContaining({ toolName: 'deploy_service', outcome: 'refused', code: 'RESPONDED' })]);
  });

  it('cancel: the call is cancelled, not rejected, and the model is told it was withdrawn', async () => {
    const { client, welcome, request } = await gated();
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: false, decision: 'cancel', fingerprint: fingerprintOf(request.arguments) });
    expect(await endOf(client, request)).toMatchObject({ phase: 'cancelled' });
    const result = resultOf(welcome, request);
    expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/^cancelled: the person withdrew the request/) });
    expect(result).not.toMatchObject({ code: 'REJECTED' });
    expect(accepted()).toEqual([]);
  });

  it('keeps the older shape: no decision, approved false is a deny with its reason', async () => {
    const { client, welcome, request } = await gated();
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: false, reason: 'not today', fingerprint: fingerprintOf(request.arguments) });
    expect(await endOf(client, request)).toMatchObject({ phase: 'settled', ok: false, code: 'REJECTED' });
    expect(resultOf(welcome, request)).toEqual({ ok: false, code: 'REJECTED', message: 'not today' });
  });

  it('refuses a decision whose kind contradicts approved, or a respond without output, as BAD_MESSAGE', async () => {
    const { client, request } = await gated();
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, decision: 'cancel', fingerprint: fingerprintOf(request.arguments) });
    const first = await client.waitFor((f) => f.type === 'error');
    expect(first).toMatchObject({ code: 'BAD_MESSAGE' });
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: false, decision: 'respond', fingerprint: fingerprintOf(request.arguments) });
    expect(await client.waitFor((f) => f.type === 'error' && f !== first)).toMatchObject({ code: 'BAD_MESSAGE', message: expect.stringMatching(/output/) });
    expect(accepted()).toEqual([]);
  });
});

describe('reference server: signed approvals', () => {
  it.each([
    ['missing', (_token: string) => undefined],
    ['forged (its MAC changed)', (token: string) => `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`],
    ['not a token', () => 'tg1.e30.AAAA'],
  ])('a decision with a %s token runs nothing and is refused APPROVAL_TOKEN_INVALID', async (_label, tamper) => {
    const { client, request } = await gated();
    const approvalToken = tamper(request.approvalToken as string);
    client.send({ type: 'tool.approval', requestId: request.requestId, ...(approvalToken === undefined ? {} : { approvalToken }), approved: true, fingerprint: fingerprintOf(request.arguments) });
    expect(await client.waitFor((f) => f.type === 'error')).toMatchObject({ code: 'APPROVAL_TOKEN_INVALID', requestId: request.requestId, reason: expect.any(String) });
    expect(await endOf(client, request)).toMatchObject({ phase: 'settled', ok: false, code: 'REJECTED' });
    expect(accepted()).toEqual([]);
    expect(server().ignored).toEqual([expect.objectContaining({ message: 'tool.approval', reason: 'approval-token' })]);
  });

  it('a replayed token (one already used for another request) runs nothing', async () => {
    const { client, request } = await gated();
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(request.arguments) });
    expect(await endOf(client, request)).toMatchObject({ phase: 'settled', ok: true });
    expect(accepted()).toHaveLength(1);
    await client.waitFor((f) => f.type === 'turn.ended');
    client.send({ type: 'turn.start', prompt: 'deploy' });
    const second = await client.waitFor((f) => f.type === 'tool.approval-request' && f.requestId !== request.requestId);
    expect(second.approvalToken).not.toBe(request.approvalToken);
    // The first request's token, with the second request's id and matching fingerprint.
    client.send({ type: 'tool.approval', requestId: second.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(second.arguments) });
    expect(await client.waitFor((f) => f.type === 'error')).toMatchObject({ code: 'APPROVAL_TOKEN_INVALID', requestId: second.requestId });
    expect(await endOf(client, second)).toMatchObject({ phase: 'settled', ok: false, code: 'REJECTED' });
    expect(accepted()).toHaveLength(1);
  });
});
