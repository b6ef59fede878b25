// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../server/jcs';
import { TestClient, useTestServer, type Frame } from './helpers';

const { startServer, connect } = useTestServer();

async function deployRequest(client: TestClient): Promise<Frame> {
  client.send({ type: 'turn.start', prompt: 'deploy' });
  return client.waitFor((f) => f.type === 'tool.approval-request');
}

describe('reference server: the before-tool-call gate', () => {
  it('asks the page to approve a high-risk call with the rewritten arguments, its risk and effect, and waits', async () => {
    const server = await startServer();
    const { client } = await connect();
    const request = await deployRequest(client);
    const callId = request.callId as string;
    expect(request).toMatchObject({
      name: 'deploy_service',
      risk: 'high',
      effect: 'write',
      turnId: expect.stringMatching(/^turn_/),
      requestId: expect.stringMatching(/^apr_/),
    });
    expect(typeof request.seq).toBe('number');
    // The model wrote version "latest"; the gate pinned it, and the request shows what will run.
    expect(client.stream(callId).find((f) => f.phase === 'arguments-complete')!.arguments).toMatchObject({ version: 'latest' });
    expect(request.arguments).toEqual({ service: 'billing', version: '2.7.1', environment: 'production' });
    // The server does not hand out the fingerprint: the page computes it.
    expect(JSON.stringify(request)).not.toContain(fingerprintOf(request.arguments));
    await client.roundTrip();
    expect(client.phases(callId).at(-1)).toBe('arguments-complete');
    expect(server.effects).toEqual([]);
  });

  it('runs the approved call with the rewritten arguments once the fingerprint matches', async () => {
    const server = await startServer();
    const { client } = await connect();
    const request = await deployRequest(client);
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(request.arguments) });
    const settled = await client.waitFor((f) => f.phase === 'settled' && f.callId === request.callId);
    expect(settled.ok).toBe(true);
    expect(client.phases(request.callId as string).filter((p) => p === 'progress').length).toBeGreaterThanOrEqual(4);
    expect(server.effects).toEqual([
      expect.objectContaining({ toolName: 'deploy_service', outcome: 'accepted', arguments: request.arguments, argumentsHash: fingerprintOf(request.arguments) }),
    ]);
  });

  it('accepts the fingerprint in uppercase or with a sha256: prefix', async () => {
    await startServer();
    const { client } = await connect();
    const request = await deployRequest(client);
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: `sha256:${fingerprintOf(request.arguments).toUpperCase()}` });
    const settled = await client.waitFor((f) => f.phase === 'settled');
    expect(settled.ok).toBe(true);
  });

  it('settles a denied call as REJECTED, runs nothing and records the refusal', async () => {
    const server = await startServer();
    const { client } = await connect();
    const request = await deployRequest(client);
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: false, reason: 'not on a Friday', fingerprint: '' });
    const settled = await client.waitFor((f) => f.phase === 'settled');
    expect(settled).toMatchObject({ callId: request.callId, ok: false, code: 'REJECTED' });
    expect(client.phases(request.callId as string)).not.toContain('progress');
    expect(server.effects).toEqual([expect.objectContaining({ toolName: 'deploy_service', outcome: 'refused', code: 'REJECTED', reason: 'not on a Friday' })]);
    const ended = await client.waitFor((f) => f.type === 'turn.ended');
    expect(ended.status).toBe('completed');
  });

  it('refuses an approval whose fingerprint is not that of the arguments it asked about, and runs nothing', async () => {
    const server = await startServer();
    const { client } = await connect();
    const request = await deployRequest(client);
    const modelArguments = client.stream(request.callId as string).find((f) => f.phase === 'arguments-complete')!.arguments;
    // The fingerprint of what the model wrote, not of what the gate asked about.
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(modelArguments) });
    const error = await client.waitFor((f) => f.type === 'error');
    expect(error).toMatchObject({ code: 'FINGERPRINT_MISMATCH', requestId: request.requestId, callId: request.callId });
    const settled = await client.waitFor((f) => f.phase === 'settled');
    expect(settled).toMatchObject({ ok: false, code: 'REJECTED' });
    expect(server.effects.filter((e) => e.outcome === 'accepted')).toEqual([]);
    expect(server.ignored).toEqual([expect.objectContaining({ message: 'tool.approval', reason: 'fingerprint-mismatch' })]);
  });

  it('refuses an approval that names another tool than the call it asked about, and runs nothing', async () => {
    const server = await startServer();
    const { client } = await connect();
    const request = await deployRequest(client);
    // The right arguments, but the approval is of another tool than the call's.
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, toolName: 'read_logs', fingerprint: fingerprintOf(request.arguments) });
    const error = await client.waitFor((f) => f.type === 'error');
    expect(error).toMatchObject({ code: 'FINGERPRINT_MISMATCH', requestId: request.requestId, callId: request.callId, message: expect.stringMatching(/names read_logs/) });
    expect(await client.waitFor((f) => f.phase === 'settled')).toMatchObject({ ok: false, code: 'REJECTED' });
    expect(server.effects.filter((e) => e.outcome === 'accepted')).toEqual([]);
    expect(server.ignored).toEqual([expect.objectContaining({ message: 'tool.approval', reason: 'tool-mismatch' })]);
  });

  it("runs an approval that names the call's own tool", async () => {
    await startServer();
    const { client } = await connect();
    const request = await deployRequest(client);
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, toolName: request.name, fingerprint: fingerprintOf(request.arguments) });
    expect(await client.waitFor((f) => f.phase === 'settled')).toMatchObject({ ok: true });
  });

  it("declares the server tool's description and schema in its request: the page binds grants to that definition", async () => {
    await startServer();
    const { client } = await connect();
    const request = await deployRequest(client);
    expect(request).toMatchObject({ name: 'deploy_service', description: 'Deploy a service release to an environment.', parameters: { type: 'object' } });
  });

  it('refuses an approval without a fingerprint', async () => {
    await startServer();
    const { client } = await connect();
    const request = await deployRequest(client);
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true });
    await client.waitFor((f) => f.type === 'error' && f.code === 'FINGERPRINT_MISMATCH');
    expect((await client.waitFor((f) => f.phase === 'settled')).code).toBe('REJECTED');
  });

  it('ignores and records an approval for a request it does not know or already answered', async () => {
    const server = await startServer();
    const { client } = await connect();
    const request = await deployRequest(client);
    const approval = { type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(request.arguments) };
    client.send(approval);
    client.send(approval);
    client.send({ ...approval, requestId: 'apr_999' });
    await client.waitFor((f) => f.type === 'error' && f.code === 'APPROVAL_IGNORED' && f.requestId === 'apr_999');
    expect(server.ignored.map((r) => r.reason)).toEqual(['unknown-request', 'unknown-request']);
    await client.waitFor((f) => f.type === 'turn.ended');
    expect(server.effects.filter((e) => e.outcome === 'accepted')).toHaveLength(1);
  });

  it('cancels a call that waits for approval when its turn is interrupted, and ignores a later approval', async () => {
    const server = await startServer();
    const { client } = await connect();
    const request = await deployRequest(client);
    client.send({ type: 'turn.interrupt', turnId: request.turnId });
    await client.waitFor((f) => f.phase === 'cancelled' && f.callId === request.callId);
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(request.arguments) });
    await client.waitFor((f) => f.type === 'error' && f.code === 'APPROVAL_IGNORED');
    expect(client.phases(request.callId as string).filter((p) => ['settled', 'cancelled', 'failed'].includes(p))).toEqual(['cancelled']);
    expect(server.effects).toEqual([]);
  });

  it('lets a custom beforeToolCall reject a call (REJECTED) or hold an app call for approval', async () => {
    await startServer({
      beforeToolCall: (call) =>
        call.name === 'search_docs' ? { action: 'reject', message: 'no searching today' } : call.location === 'app' ? { action: 'confirm' } : { action: 'allow' },
    });
    const { client } = await connect();
    await client.runTurn('search');
    expect(client.stream().at(-1)).toMatchObject({ phase: 'settled', ok: false, code: 'REJECTED' });
    const from = client.frames.length;
    client.send({ type: 'turn.start', prompt: 'write' });
    const request = await client.waitFor((f) => f.type === 'tool.approval-request', from);
    expect(request).toMatchObject({ name: 'send_invoice', risk: 'high' });
    expect(client.frames.some((f) => f.type === 'tool.call')).toBe(false);
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(request.arguments) });
    const call = await client.waitFor((f) => f.type === 'tool.call', from);
    expect(call.arguments).toEqual(request.arguments);
  });
});
