// @vitest-environment node
// The reference server's own audit chain (docs/architecture.md "The reference server"), and the
// definition fingerprint its signed approval requests carry: the one the page computes.
import { describe, expect, it } from 'vitest';
import { fingerprintToolDefinition } from 'toolgate/server';
import { verifyAuditLog } from 'toolgate/audit';
import { useTestServer, type Frame } from './helpers';

const { startServer, server, connect } = useTestServer();

const claimsOf = (token: string): Record<string, unknown> => JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as Record<string, unknown>;
const endOf = (client: { waitFor(check: (f: Frame) => boolean): Promise<Frame> }, request: Frame) =>
  client.waitFor((f) => f.type === 'tool.stream' && f.callId === request.callId && (f.phase === 'settled' || f.phase === 'cancelled'));

describe('reference server: its audit chain and the definition it signs', () => {
  it('signs the definition fingerprint the page computes from the request, not null', async () => {
    await startServer({ beforeToolCall: () => ({ action: 'confirm' }) });
    const { client } = await connect({});
    client.send({ type: 'turn.start', prompt: 'deploy' });
    const request = await client.waitFor((f) => f.type === 'tool.approval-request');
    const definition = await fingerprintToolDefinition({
      name: request.name,
      description: request.description,
      parameters: request.parameters,
      descriptor: { ...(request.effect === undefined ? {} : { effect: request.effect }), risk: request.risk, requiresConfirmation: true },
    });
    expect(claimsOf(request.approvalToken as string).definitionFingerprint).toBe(definition.hex);
  });

  it('keeps requested, decided and settled for a denied call, with the page’s reason, and nothing for a call nobody decided', async () => {
    await startServer({ beforeToolCall: (call) => (call.risk === 'high' ? { action: 'confirm' } : { action: 'allow' }) });
    const { client, welcome } = await connect({});
    client.send({ type: 'turn.start', prompt: 'search' });
    await client.waitFor((f) => f.type === 'turn.ended');
    client.send({ type: 'turn.start', prompt: 'deploy' });
    const request = await client.waitFor((f) => f.type === 'tool.approval-request');
    const { fingerprintOf } = await import('../../server/jcs');
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: false, decision: 'deny', reason: 'not today', fingerprint: fingerprintOf(request.arguments) });
    await endOf(client, request);
    const records = server().session(welcome.sessionId as string)!.audit.records;
    expect(records.map((r) => r.type)).toEqual(['requested', 'decided', 'settled']);
    expect(records[1]).toMatchObject({ kind: 'deny', by: 'person', reason: 'not today', callId: request.callId });
    expect(records[2]).toMatchObject({ code: 'REJECTED', outputFingerprint: null });
    expect(await verifyAuditLog(records)).toMatchObject({ ok: true, length: 3 });
  });

  it('records no decision for an answer whose token was refused: nothing ran and nobody’s decision was acted on', async () => {
    await startServer({ beforeToolCall: () => ({ action: 'confirm' }) });
    const { client, welcome } = await connect({});
    client.send({ type: 'turn.start', prompt: 'deploy' });
    const request = await client.waitFor((f) => f.type === 'tool.approval-request');
    const { fingerprintOf } = await import('../../server/jcs');
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: 'tg1.e30.AAAA', approved: true, fingerprint: fingerprintOf(request.arguments) });
    await endOf(client, request);
    expect(server().session(welcome.sessionId as string)!.audit.records.map((r) => r.type)).toEqual(['requested']);
  });
});
