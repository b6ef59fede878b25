// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../server/jcs';
import { createManualTimer } from '../../server/timer';
import { TestClient, autoAnswer, useTestServer, type Frame } from './helpers';

const { startServer, connect } = useTestServer();

const TERMINAL = ['settled', 'cancelled', 'failed'];

/** docs/protocol.md, "Rules of the stream": every call starts with start and ends with exactly one terminal phase. */
function expectLifecycle(client: TestClient, callId: string): string[] {
  const phases = client.phases(callId);
  expect(phases[0]).toBe('start');
  expect(phases.filter((p) => TERMINAL.includes(p))).toHaveLength(1);
  expect(TERMINAL).toContain(phases.at(-1));
  return phases;
}

function deltasOf(client: TestClient, callId: string): string[] {
  return client.stream(callId).filter((f) => f.phase === 'arguments-delta').map((f) => f.delta as string);
}

describe('reference server: scripted turns', () => {
  it('streams a call as start, small argument fragments, then arguments-complete with the final value', async () => {
    await startServer();
    const { client } = await connect();
    const { turnId } = await client.runTurn('search');
    const start = client.stream().find((f) => f.phase === 'start')!;
    expect(start).toMatchObject({ turnId, name: 'search_docs', location: 'server', risk: 'low' });
    const callId = start.callId as string;
    const deltas = deltasOf(client, callId);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.every((d) => d.length >= 1 && d.length <= 6)).toBe(true);
    const complete = client.stream(callId).find((f) => f.phase === 'arguments-complete')!;
    expect(complete.arguments).toEqual({ query: 'rotate api keys', limit: 3 });
    expect(JSON.parse(deltas.join(''))).toEqual(complete.arguments);
    expectLifecycle(client, callId);
  });

  it('reports a server tool’s progress and settles it ok without its output', async () => {
    const server = await startServer();
    const { client, welcome } = await connect();
    await client.runTurn('search');
    const callId = client.stream()[0]!.callId as string;
    const phases = expectLifecycle(client, callId);
    expect(phases.slice(phases.indexOf('arguments-complete'))).toEqual(['arguments-complete', 'progress', 'progress', 'progress', 'settled']);
    const settled = client.stream(callId).at(-1)!;
    expect(settled).toEqual({ type: 'tool.stream', phase: 'settled', callId, ok: true, seq: settled.seq });
    expect(client.stream(callId).find((f) => f.phase === 'progress')!.progress).toMatchObject({ stage: 'expanding query', step: 1, of: 3 });
    expect(server.session(welcome.sessionId as string)!.results.get(callId)).toMatchObject({ ok: true, output: { hits: expect.any(Array) } });
  });

  it('goes from start straight to arguments-complete for a model that does not stream arguments', async () => {
    await startServer();
    const { client } = await connect();
    await client.runTurn('no-stream');
    const callId = client.stream()[0]!.callId as string;
    const phases = expectLifecycle(client, callId);
    expect(phases.slice(0, 2)).toEqual(['start', 'arguments-complete']);
    expect(phases).not.toContain('arguments-delta');
    // The legacy preview still carries the whole text once.
    const previews = client.frames.filter((f) => f.type === 'tool.preview' && f.callId === callId);
    expect(previews.map((p) => JSON.parse(p.arguments as string))).toEqual([{ orderId: 'ord_1042' }]);
  });

  it('ends a call with failed and a message when the model stops mid-arguments, and the turn ends failed', async () => {
    await startServer();
    const { client } = await connect();
    const { ended } = await client.runTurn('stop');
    expect(ended.status).toBe('failed');
    const callId = client.stream()[0]!.callId as string;
    const phases = expectLifecycle(client, callId);
    expect(phases.at(-1)).toBe('failed');
    expect(phases).not.toContain('arguments-complete');
    expect(client.stream(callId).at(-1)!.message).toMatch(/stopped before completing the arguments/);
    expect(deltasOf(client, callId).join('')).toHaveLength(24);
    expect(() => JSON.parse(deltasOf(client, callId).join(''))).toThrow();
  });

  it('streams a long argument in small fragments while legacy previews stay linear in size', async () => {
    await startServer();
    const { client } = await connect();
    autoAnswer(client);
    await client.runTurn('long', { params: { size: 12_000 } });
    const callId = client.stream()[0]!.callId as string;
    const deltas = deltasOf(client, callId);
    const text = deltas.join('');
    expect(deltas.length).toBeGreaterThan(12_000 / 12);
    expect(deltas.every((d) => d.length <= 13)).toBe(true);
    const args = JSON.parse(text) as { text: string; position: string };
    expect(args.text).toHaveLength(12_000);
    expect(args.text).toMatch(/😀|"quoted"|\n/);
    const previews = client.frames.filter((f) => f.type === 'tool.preview' && f.callId === callId);
    const previewBytes = previews.reduce((n, p) => n + (p.arguments as string).length, 0);
    expect(previews.at(-1)!.arguments).toBe(text);
    expect(previewBytes).toBeLessThan(text.length * 12);
    expectLifecycle(client, callId);
  });

  it('interleaves the fragments of parallel calls in one response, each with exactly one terminal event', async () => {
    await startServer();
    const { client } = await connect();
    autoAnswer(client, (call) => ({ ok: true, output: { title: (call.arguments as Frame).title } }));
    const { ended } = await client.runTurn('parallel');
    expect(ended.status).toBe('completed');
    const starts = client.stream().filter((f) => f.phase === 'start');
    expect(starts.map((s) => s.name)).toEqual(['get_weather', 'get_weather', 'search_docs', 'set_title']);
    // All four start before any argument text arrives, then fragments alternate between calls.
    const firstDelta = client.stream().findIndex((f) => f.phase === 'arguments-delta');
    expect(client.stream().slice(0, firstDelta).map((f) => f.phase)).toEqual(['start', 'start', 'start', 'start']);
    const order = client.stream().filter((f) => f.phase === 'arguments-delta').slice(0, 4).map((f) => f.callId);
    expect(new Set(order).size).toBe(4);
    for (const s of starts) {
      const phases = expectLifecycle(client, s.callId as string);
      expect(phases.at(-1)).toBe('settled');
    }
    expect(client.stream(starts[3]!.callId as string)[0]).toMatchObject({ location: 'app' });
    expect(client.frames.filter((f) => f.type === 'tool.call').map((f) => f.name)).toEqual(['set_title']);
  });

  it('answers INVALID without running a server tool whose arguments fail its schema', async () => {
    await startServer();
    const { client } = await connect();
    await client.runTurn('invalid');
    const callId = client.stream()[0]!.callId as string;
    expect(client.stream(callId).at(-1)).toMatchObject({ phase: 'settled', ok: false, code: 'INVALID' });
    expect(client.phases(callId)).not.toContain('progress');
  });

  it('answers FAILED for a tool that nobody hosts', async () => {
    await startServer();
    const { client } = await connect();
    await client.runTurn('unknown-tool');
    const start = client.stream()[0]!;
    expect(start.location).toBeUndefined();
    expect(client.stream(start.callId as string).at(-1)).toMatchObject({ phase: 'settled', ok: false, code: 'FAILED' });
  });

  it('runs a turn of several responses, each after the previous one has its results', async () => {
    await startServer();
    const { client } = await connect();
    autoAnswer(client);
    client.send({ type: 'turn.start', prompt: 'tour' });
    const request = await client.waitFor((f) => f.type === 'tool.approval-request');
    client.send({ type: 'tool.approval', requestId: request.requestId, approvalToken: request.approvalToken, approved: true, fingerprint: fingerprintOf(request.arguments) });
    const ended = await client.waitFor((f) => f.type === 'turn.ended');
    expect(ended.status).toBe('completed');
    const names = client.stream().filter((f) => f.phase === 'start').map((f) => f.name);
    expect(names).toEqual(['search_docs', 'insert_text', 'deploy_service']);
    const stream = client.stream();
    const settledSearch = stream.findIndex((f) => f.phase === 'settled' && f.callId === stream[0]!.callId);
    const startInsert = stream.findIndex((f) => f.phase === 'start' && f.name === 'insert_text');
    expect(settledSearch).toBeLessThan(startInsert);
  });

  it('records the effect of a server tool that writes, at its commit point', async () => {
    const server = await startServer();
    const { client, welcome } = await connect();
    await client.runTurn('email');
    expect(server.effects).toEqual([
      expect.objectContaining({
        source: 'server-tool',
        sessionId: welcome.sessionId,
        toolName: 'send_email',
        outcome: 'accepted',
        argumentsHash: fingerprintOf({ to: 'ada@example.com', subject: 'Your invoice', body: 'Attached, as discussed.' }),
      }),
    ]);
  });

  it('paces fragments on the injected clock at token speed, and faster with a higher speed', async () => {
    const timer = createManualTimer();
    await startServer({ timer, speed: 1, tokenDelayMs: 30 });
    const { client } = await connect();
    client.send({ type: 'turn.start', prompt: 'search' });
    await client.waitFor((f) => f.type === 'turn.started');
    await client.roundTrip();
    expect(client.stream()).toEqual([]);
    await timer.advance(300);
    await client.waitFor((f) => f.phase === 'start');
    const before = client.stream().length;
    await timer.advance(20);
    await client.roundTrip();
    expect(client.stream().length - before).toBeLessThanOrEqual(1);
    await timer.advance(2000);
    await client.waitFor((f) => f.phase === 'arguments-complete');
    // At speed 10 the same script needs a tenth of the time.
    await timer.advance(10_000);
    await client.waitFor((f) => f.type === 'turn.ended');
    const from = client.frames.length;
    client.send({ type: 'turn.start', prompt: 'search', speed: 10 });
    await client.waitFor((f) => f.type === 'turn.started', from);
    await timer.advance(30 + 15 * 6);
    await client.waitFor((f) => f.phase === 'arguments-delta', from);
  });
});
