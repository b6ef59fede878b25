// @vitest-environment node
/**
 * After a resume the page learns what still waits for its answer (docs/protocol.md, "Sessions that
 * survive a reload"): the welcome lists the app-tool call out to it and the approval requests of the gate
 * (`waiting`), and the ones the replay does not carry (sent at or before the page's lastSeq) come
 * again after the replay, each as it was first sent, marked `resent` and without a seq. What was
 * answered is never listed nor sent again.
 */
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../server/jcs';
import { TestClient, resumeOf, useTestServer, type Frame } from './helpers';

const { startServer, connect } = useTestServer();

/** The frames after the welcome of a resumed connection, without the welcome. */
function afterWelcome(client: TestClient): Frame[] {
  const at = client.frames.findIndex((f) => f.type === 'session.welcome');
  return client.frames.slice(at + 1);
}

describe('reference server: what still waits is sent again after a resume', () => {
  it('lists a pending approval request in the welcome of a resume, and the replay from seq 0 carries it in its place, sent once', async () => {
    await startServer();
    const first = await connect();
    first.client.send({ type: 'turn.start', prompt: 'deploy' });
    const request = await first.client.waitFor((f) => f.type === 'tool.approval-request');
    await first.client.terminate();

    const again = await connect(resumeOf(first.welcome, 0));
    expect(again.welcome.waiting).toEqual({ calls: [], approvals: [request.requestId] });
    await again.client.roundTrip();
    expect(afterWelcome(again.client).filter((f) => f.type === 'tool.approval-request')).toEqual([request]);
  });

  it('sends a pending approval request again after the replay when the page resumes after it: the same request id and arguments, marked resent, without a seq', async () => {
    const server = await startServer();
    const first = await connect();
    first.client.send({ type: 'turn.start', prompt: 'deploy' });
    const request = await first.client.waitFor((f) => f.type === 'tool.approval-request');
    await first.client.terminate();

    const again = await connect(resumeOf(first.welcome, request.seq as number));
    const resent = await again.client.waitFor((f) => f.type === 'tool.approval-request' && f.resent === true);
    const { seq: _seq, ...original } = request;
    expect(resent).toEqual({ ...original, resent: true });
    // After the whole replay: every sequenced event came before it.
    const frames = afterWelcome(again.client);
    expect(frames.indexOf(resent)).toBe(frames.length - 1);
    expect(frames.filter((f) => typeof f.seq === 'number').map((f) => f.seq)).toEqual(
      first.client.events().filter((f) => f.seq > request.seq).map((f) => f.seq),
    );

    // Answered once with the resent id, the call runs once.
    const fingerprint = fingerprintOf(resent.arguments);
    again.client.send({ type: 'tool.approval', requestId: resent.requestId, approvalToken: resent.approvalToken, approved: true, fingerprint });
    await again.client.waitFor((f) => f.type === 'turn.ended');
    expect(server.effects.filter((e) => e.toolName === 'deploy_service')).toMatchObject([{ outcome: 'accepted', callId: resent.callId }]);
    expect(server.ignored).toEqual([]);
  });

  it('sends the app-tool call out to the page again, once, and takes the answer of the page that resumed', async () => {
    const server = await startServer();
    const first = await connect();
    first.client.send({ type: 'turn.start', prompt: 'write' });
    const call = await first.client.waitFor((f) => f.type === 'tool.call');
    await first.client.terminate();

    const again = await connect(resumeOf(first.welcome, call.seq as number));
    expect(again.welcome.waiting).toEqual({ calls: [call.callId], approvals: [] });
    const resent = await again.client.waitFor((f) => f.type === 'tool.call' && f.resent === true);
    const { seq: _seq, ...original } = call;
    expect(resent).toEqual({ ...original, resent: true });
    expect(afterWelcome(again.client).filter((f) => f.type === 'tool.call')).toHaveLength(1);
    again.client.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: { ok: false, code: 'FAILED', message: 'outcome unknown: the page reloaded while it ran' } });
    await again.client.waitFor((f) => f.type === 'turn.ended');
    expect(server.session(first.welcome.sessionId)!.results.get(call.callId as string)).toEqual({
      ok: false,
      code: 'FAILED',
      message: 'outcome unknown: the page reloaded while it ran',
    });
    expect(server.ignored).toEqual([]);
  });

  it('lists and sends nothing once everything was answered', async () => {
    await startServer();
    const first = await connect();
    first.client.send({ type: 'turn.start', prompt: 'edit' });
    let answered = 0;
    for (let i = 0; i < 3; i++) {
      const call = await first.client.waitFor((f) => f.type === 'tool.call', answered);
      answered = first.client.frames.indexOf(call) + 1;
      first.client.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: { ok: true, output: null } });
    }
    await first.client.waitFor((f) => f.type === 'turn.ended');
    await first.client.terminate();
    const again = await connect(resumeOf(first.welcome, first.client.events().at(-1)!.seq as number));
    expect(again.welcome.waiting).toEqual({ calls: [], approvals: [] });
    await again.client.roundTrip();
    expect(afterWelcome(again.client).filter((f) => f.resent === true)).toEqual([]);
  });
});
