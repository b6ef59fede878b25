// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../server/jcs';
import { createManualTimer } from '../../server/timer';
import { autoAnswer, useTestServer, type Frame } from './helpers';

const { startServer, connect } = useTestServer();

const ok = (output: unknown = null) => ({ ok: true, output });

describe('reference server: app tools', () => {
  it('calls an offered app tool with callId, turnId, epoch, name and arguments, and settles it with the page’s result', async () => {
    const server = await startServer();
    const { client, welcome } = await connect();
    client.send({ type: 'turn.start', prompt: 'write' });
    const call = await client.waitFor((f) => f.type === 'tool.call');
    expect(call).toEqual({
      type: 'tool.call',
      callId: expect.stringMatching(/^call_/),
      turnId: expect.stringMatching(/^turn_/),
      epoch: 0,
      name: 'send_invoice',
      arguments: { customerId: 'c_101', amount: 1250, currency: 'EUR', memo: 'Consulting, March' },
      seq: expect.any(Number),
    });
    expect(client.phases(call.callId as string)).toEqual(['start', ...Array(client.phases(call.callId as string).length - 2).fill('arguments-delta'), 'arguments-complete']);
    client.send({ type: 'tool.result', callId: call.callId, epoch: call.epoch, result: ok({ invoiceId: 'inv-1001' }) });
    const settled = await client.waitFor((f) => f.phase === 'settled');
    expect(settled).toMatchObject({ callId: call.callId, ok: true });
    expect(settled.output).toBeUndefined();
    expect(server.session(welcome.sessionId as string)!.results.get(call.callId as string)).toEqual(ok({ invoiceId: 'inv-1001' }));
  });

  it('passes a failure code of the page through to settled', async () => {
    await startServer();
    const { client } = await connect();
    autoAnswer(client, () => ({ ok: false, code: 'REJECTED', message: 'the user said no' }));
    await client.runTurn('write');
    expect(client.stream().at(-1)).toMatchObject({ phase: 'settled', ok: false, code: 'REJECTED' });
  });

  it('runs app calls one at a time in arrival order: the next starts only after the previous has its result', async () => {
    await startServer();
    const { client } = await connect();
    client.send({ type: 'turn.start', prompt: 'edit' });
    const first = await client.waitFor((f) => f.type === 'tool.call');
    // All three calls are issued by now; only the first went to the page.
    await client.waitFor((f) => f.phase === 'arguments-complete' && client.stream().filter((s) => s.phase === 'arguments-complete').length === 3);
    await client.roundTrip();
    expect(client.frames.filter((f) => f.type === 'tool.call').map((f) => f.name)).toEqual(['set_title']);
    client.send({ type: 'tool.result', callId: first.callId, epoch: first.epoch, result: ok() });
    const second = await client.waitFor((f) => f.type === 'tool.call' && f !== first);
    expect(second.name).toBe('insert_text');
    expect(client.frames.indexOf(second)).toBeGreaterThan(client.frames.findIndex((f) => f.phase === 'settled' && f.callId === first.callId));
    client.send({ type: 'tool.result', callId: second.callId, epoch: second.epoch, result: ok() });
    const third = await client.waitFor((f) => f.type === 'tool.call' && f !== first && f !== second);
    expect((third.arguments as Frame).text).toMatch(/Fixes/);
  });

  it('answers TIMEOUT when the page gives no result within the client-tool timeout, and moves on', async () => {
    const timer = createManualTimer();
    const server = await startServer({ timer, clientToolTimeoutMs: 5000 });
    const { client, welcome } = await connect();
    client.send({ type: 'turn.start', prompt: 'edit' });
    const first = await client.waitFor((f) => f.type === 'tool.call');
    await timer.advance(4999);
    await client.roundTrip();
    expect(client.phases(first.callId as string)).not.toContain('settled');
    await timer.advance(1);
    const settled = await client.waitFor((f) => f.phase === 'settled' && f.callId === first.callId);
    expect(settled).toMatchObject({ ok: false, code: 'TIMEOUT' });
    expect(server.session(welcome.sessionId as string)!.results.get(first.callId as string)).toMatchObject({ code: 'TIMEOUT' });
    const second = await client.waitFor((f) => f.type === 'tool.call' && f !== first);
    expect(second.name).toBe('insert_text');
    // The late answer changes nothing and is recorded.
    client.send({ type: 'tool.result', callId: first.callId, epoch: first.epoch, result: ok() });
    const ignored = await client.waitFor((f) => f.type === 'error' && f.code === 'RESULT_IGNORED');
    expect(ignored).toMatchObject({ reason: 'finished-call', callId: first.callId });
    expect(server.ignored.at(-1)).toMatchObject({ message: 'tool.result', reason: 'finished-call' });
  });

  it('ignores and records a result for an unknown call, a call not yet sent, a stale epoch, or a malformed result', async () => {
    const server = await startServer();
    const { client } = await connect();
    client.send({ type: 'turn.start', prompt: 'edit' });
    const first = await client.waitFor((f) => f.type === 'tool.call');
    await client.waitFor((f) => client.stream().filter((s) => s.phase === 'arguments-complete').length === 3);
    const queued = client.stream().filter((s) => s.phase === 'arguments-complete')[1]!.callId;
    client.send({ type: 'tool.result', callId: 'call_404', epoch: 0, result: ok() });
    client.send({ type: 'tool.result', callId: queued, epoch: 0, result: ok() });
    client.send({ type: 'tool.result', callId: first.callId, epoch: 7, result: ok() });
    client.send({ type: 'tool.result', callId: first.callId, epoch: first.epoch, result: { ok: 'yes' } });
    client.send({ type: 'tool.result', callId: first.callId, epoch: first.epoch, result: { ok: false, code: 'OOPS' } });
    await client.roundTrip();
    expect(server.ignored.map((r) => r.reason)).toEqual(['unknown-call', 'not-awaiting-result', 'stale-epoch', 'malformed-result', 'malformed-result']);
    // The call still waits, and a proper result settles it.
    expect(client.phases(first.callId as string)).not.toContain('settled');
    client.send({ type: 'tool.result', callId: first.callId, epoch: first.epoch, result: ok() });
    expect(await client.waitFor((f) => f.phase === 'settled')).toMatchObject({ callId: first.callId, ok: true });
  });

  it('raises the epoch on turn.interrupt and cancels every open call of the turn at once, app calls answered INTERRUPTED', async () => {
    const server = await startServer();
    const { client, welcome } = await connect();
    client.send({ type: 'turn.start', prompt: 'edit' });
    const first = await client.waitFor((f) => f.type === 'tool.call');
    await client.waitFor(() => client.stream().filter((s) => s.phase === 'arguments-complete').length === 3);
    const callIds = client.stream().filter((s) => s.phase === 'start').map((s) => s.callId as string);
    client.send({ type: 'turn.interrupt', turnId: first.turnId });
    const ended = await client.waitFor((f) => f.type === 'turn.ended');
    expect(ended).toMatchObject({ status: 'interrupted', epoch: 1 });
    // All three cancelled, together, before the turn ended; no more tool.call for the turn.
    const cancelled = client.stream().filter((f) => f.phase === 'cancelled');
    expect(cancelled.map((f) => f.callId)).toEqual(callIds);
    expect(cancelled.map((f) => f.seq)).toEqual([ended.seq - 3, ended.seq - 2, ended.seq - 1]);
    const session = server.session(welcome.sessionId as string)!;
    expect(session.epoch).toBe(1);
    expect(callIds.map((id) => session.results.get(id))).toEqual(callIds.map(() => expect.objectContaining({ ok: false, code: 'INTERRUPTED' })));
    // The page's late answer for the interrupted call is ignored.
    client.send({ type: 'tool.result', callId: first.callId, epoch: first.epoch, result: ok() });
    await client.waitFor((f) => f.type === 'error' && f.code === 'RESULT_IGNORED');
    await client.roundTrip();
    expect(client.frames.filter((f) => f.type === 'tool.call')).toEqual([first]);
    for (const id of callIds) expect(client.phases(id).filter((p) => ['settled', 'cancelled', 'failed'].includes(p))).toEqual(['cancelled']);
    // A new turn's calls carry the new epoch.
    const from = client.frames.length;
    client.send({ type: 'turn.start', prompt: 'write' });
    expect((await client.waitFor((f) => f.type === 'tool.call', from)).epoch).toBe(1);
  });

  it('cancels calls still streaming their arguments when the turn is interrupted, and streams nothing more', async () => {
    const timer = createManualTimer();
    await startServer({ timer, speed: 1 });
    const { client } = await connect();
    client.send({ type: 'turn.start', prompt: 'parallel' });
    const started = await client.waitFor((f) => f.type === 'turn.started');
    await timer.advance(300);
    await client.waitFor((f) => f.phase === 'arguments-delta');
    client.send({ type: 'turn.interrupt', turnId: started.turnId });
    await client.waitFor((f) => f.type === 'turn.ended');
    const count = client.frames.length;
    await timer.advance(60_000);
    await client.roundTrip();
    expect(client.frames.length).toBe(count + 1);
    const starts = client.stream().filter((f) => f.phase === 'start');
    expect(starts).toHaveLength(4);
    for (const s of starts) {
      const phases = client.phases(s.callId as string);
      expect(phases).not.toContain('arguments-complete');
      expect(phases.at(-1)).toBe('cancelled');
    }
    expect(timer.pending).toBe(0);
  });

  it('aborts a running server tool on interrupt: cancelled, no later settled, no effect before its commit point', async () => {
    const timer = createManualTimer();
    const server = await startServer({ timer, speed: 1 });
    const { client } = await connect();
    client.send({ type: 'turn.start', prompt: 'deploy' });
    await client.waitFor((f) => f.type === 'turn.started');
    await timer.advance(10_000);
    const request = await client.waitFor((f) => f.type === 'tool.approval-request');
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(request.arguments) });
    await client.waitFor((f) => f.phase === 'progress');
    client.send({ type: 'turn.interrupt', turnId: request.turnId });
    await client.waitFor((f) => f.phase === 'cancelled');
    await timer.advance(60_000);
    await client.roundTrip();
    expect(client.phases(request.callId as string).slice(-2)).toEqual(['progress', 'cancelled']);
    expect(server.effects).toEqual([]);
  });

  it('raises the epoch for an interrupt of a turn that already ended, and says it changed nothing', async () => {
    const server = await startServer();
    const { client, welcome } = await connect();
    const { turnId } = await client.runTurn('search');
    client.send({ type: 'turn.interrupt', turnId });
    const ignored = await client.waitFor((f) => f.type === 'turn.interrupt-ignored');
    expect(ignored).toMatchObject({ turnId, reason: 'turn-ended', epoch: 1 });
    expect(server.session(welcome.sessionId as string)!.epoch).toBe(1);
  });

  it('answers FAILED when an offered app tool is withdrawn before its call runs', async () => {
    // The gate lets the call through only once the tool is withdrawn (not after a guess at a delay).
    let release!: () => void;
    const withdrawn = new Promise<void>((resolve) => (release = resolve));
    await startServer({ beforeToolCall: () => withdrawn.then(() => ({ action: 'allow' as const })) });
    const { client } = await connect();
    client.send({ type: 'turn.start', prompt: 'write' });
    await client.waitFor((f) => f.phase === 'arguments-complete');
    client.send({ type: 'tools.update', tools: [] });
    await client.waitFor((f) => f.type === 'tools.offered');
    release();
    const settled = await client.waitFor((f) => f.phase === 'settled');
    expect(settled).toMatchObject({ ok: false, code: 'FAILED' });
    expect(client.frames.some((f) => f.type === 'tool.call')).toBe(false);
  });
});
