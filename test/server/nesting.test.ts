// @vitest-environment node
/**
 * Nested calls (docs/protocol.md, "Rules of the stream": `parentCallId` on `start`): in the `research` script a research
 * tool's sub-agent makes three calls of its own, each started with the research call as its
 * parent; the refund among them waits for approval, and its request names the parent too.
 */
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../server/jcs';
import { useTestServer, type Frame, type TestClient } from './helpers';

const { startServer, server, connect } = useTestServer();

async function researchTurn(approve: boolean): Promise<{ client: TestClient; starts: Frame[]; request: Frame; ended: Frame }> {
  await startServer();
  const { client } = await connect();
  client.send({ type: 'turn.start', prompt: 'research' });
  const request = await client.waitFor((f) => f.type === 'tool.approval-request');
  client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: approve, fingerprint: fingerprintOf(request.arguments) });
  const ended = await client.waitFor((f) => f.type === 'turn.ended');
  return { client, starts: client.stream().filter((f) => f.phase === 'start'), request, ended };
}

describe('reference server: the research script nests a sub-agent’s calls under the research call', () => {
  it('starts three calls with the research call as their parent, after it and before it settles', async () => {
    const { client, starts, ended } = await researchTurn(true);
    expect(ended.status).toBe('completed');
    const [research, ...children] = starts;
    expect(research).toMatchObject({ name: 'research', location: 'server' });
    expect(research!.parentCallId).toBeUndefined();
    expect(children.map((c) => [c.name, c.parentCallId])).toEqual([
      ['search_docs', research!.callId],
      ['lookup_order', research!.callId],
      ['issue_refund', research!.callId],
    ]);
    // The parent settles last, once its sub-agent is done, and reports how each child ended.
    const settled = client.stream().filter((f) => f.phase === 'settled');
    expect(settled.at(-1)).toMatchObject({ callId: research!.callId, ok: true });
    const output = server().session(client.frames[0]!.sessionId)!.results.get(research!.callId);
    expect(output).toMatchObject({
      ok: true,
      output: {
        calls: [
          { name: 'search_docs', ok: true },
          { name: 'lookup_order', ok: true },
          { name: 'issue_refund', ok: true },
        ],
      },
    });
  });

  it('asks approval for the nested refund with a request that names its parent, and records one refund once approved', async () => {
    const { starts, request } = await researchTurn(true);
    const research = starts.find((s) => s.name === 'research')!;
    const refund = starts.find((s) => s.name === 'issue_refund')!;
    expect(request).toMatchObject({ callId: refund.callId, name: 'issue_refund', risk: 'high', parentCallId: research.callId });
    expect(server().effects.filter((e) => e.toolName === 'issue_refund')).toMatchObject([{ outcome: 'accepted', callId: refund.callId }]);
  });

  it('answers the nested refund REJECTED when denied, refunds nothing, and the research call still settles with what its sub-agent did', async () => {
    const { client, starts } = await researchTurn(false);
    const refund = starts.find((s) => s.name === 'issue_refund')!;
    expect(client.stream(refund.callId).at(-1)).toMatchObject({ phase: 'settled', ok: false, code: 'REJECTED' });
    expect(server().effects.filter((e) => e.toolName === 'issue_refund')).toMatchObject([{ outcome: 'refused', code: 'REJECTED' }]);
    const research = starts.find((s) => s.name === 'research')!;
    expect(client.stream(research.callId).at(-1)).toMatchObject({ phase: 'settled', ok: true });
  });

  it('cancels the research call and its sub-agent’s open calls at once on interrupt', async () => {
    await startServer();
    const { client } = await connect();
    client.send({ type: 'turn.start', prompt: 'research' });
    const request = await client.waitFor((f) => f.type === 'tool.approval-request');
    client.send({ type: 'turn.interrupt', turnId: request.turnId });
    await client.waitFor((f) => f.type === 'turn.ended');
    const starts = client.stream().filter((f) => f.phase === 'start');
    const last = (callId: string) => client.stream(callId).at(-1)!.phase;
    expect(Object.fromEntries(starts.map((s) => [s.name, last(s.callId)]))).toEqual({
      research: 'cancelled',
      search_docs: 'settled',
      lookup_order: 'settled',
      issue_refund: 'cancelled',
    });
    expect(server().effects.filter((e) => e.toolName === 'issue_refund' && e.outcome === 'accepted')).toEqual([]);
  });
});
