// @vitest-environment node
/**
 * Minimal cases of bugs the reliability properties found, kept as plain tests so each stays
 * fixed on its own (the property that found it is named in each test).
 */
import { describe, expect, it } from 'vitest';
import { createAppToolHost, createConfirmationController, type ToolStreamState } from 'toolgate/core';
import { explainToolEvent, initialToolStreamState, reduceLocalToolEvent, reduceToolEvent, type LocalToolEvent } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';
import { stepToolEvent } from '../../src/core/stream/reducer';
import { createScriptedRoom, toolEvents as e } from 'toolgate/testing';
import { bindAppToolHost as bindHost } from 'toolgate/client';
import { connectReferenceSession } from 'toolgate/client';
import WebSocket from 'ws';
import { startReferenceServer } from '../../server/server';

describe('found by the reducer property', () => {
  it('explainToolEvent never throws and agrees with the reducer on an event whose getter throws', () => {
    const state = initialToolStreamState();
    const hostile = {
      get type(): string {
        throw new Error('a getter that throws');
      },
    };
    expect(() => explainToolEvent(state, hostile)).not.toThrow();
    expect(explainToolEvent(state, hostile)).toEqual(stepToolEvent(state, hostile).verdict);
  });

  it('keeps a call the user cancelled while only previews showed it cancelled when its tool.stream start arrives', () => {
    const events = [
      e.preview('c1', '{"q": "ca', { turnId: 't1' }),
      { local: { type: 'interrupt', turnId: 't1' } as LocalToolEvent },
      e.start('c1', { turnId: 't1' }),
      e.delta('c1', '{"q": "cats"}'),
      e.complete('c1', { q: 'cats' }),
      e.settled('c1', true),
    ];
    // The page's own interrupt goes through the reducer's local path; the session's events through reduceToolEvent.
    const step = (state: ToolStreamState, event: unknown, now: number) =>
      typeof event === 'object' && event !== null && 'local' in event
        ? reduceLocalToolEvent(state, (event as { local: LocalToolEvent }).local, { now })
        : reduceToolEvent(state, event, { now });
    const states = events.reduce<ToolStreamState[]>((all, event, i) => [...all, step(all[i] as ToolStreamState, event, i)], [
      initialToolStreamState(),
    ]);
    expect(callOf(states[2] as ToolStreamState, 'c1')?.status).toBe('cancelled');
    const last = callOf(states[6] as ToolStreamState, 'c1');
    // Terminal and sticky: the stream takes the call over, still cancelled here, with what was shown,
    // and the server's later outcome is kept as lateOutcome, never hidden.
    expect(last).toMatchObject({ source: 'stream', status: 'cancelled', cancelledBy: 'local', argumentsText: '{"q": "ca', lateOutcome: { ok: true } });
    expect(last?.partialArguments).toEqual({ q: 'ca' });
  });

  it('issues and ends a call whose final arguments are nested 20,000 deep, with a reason instead of a value', () => {
    const text = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const events = [e.start('c1'), e.delta('c1', text), e.complete('c1', JSON.parse(text)), e.settled('c1', true)];
    let state = initialToolStreamState();
    for (const event of events) {
      const step = stepToolEvent(state, event);
      expect(step.verdict.outcome).toBe('applied');
      state = step.state;
    }
    expect(callOf(state, 'c1')).toMatchObject({ status: 'settled', arguments: undefined, argumentsError: expect.stringMatching(/nested too deeply/) });
  });
});

describe('found by the confirmation property', () => {
  it('refuses arguments nested 20,000 deep before review instead of throwing from request()', async () => {
    const value = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown;
    const confirmations = createConfirmationController({ room: createScriptedRoom() });
    const outcome = confirmations.request({ toolName: 'write', arguments: value });
    await expect(outcome).resolves.toMatchObject({ status: 'refused', reason: expect.stringMatching(/nested too deeply/) });
  });
});

describe('found by the app-tool host property', () => {
  it('answers a call whose arguments are nested 20,000 deep with INVALID instead of throwing from call()', async () => {
    const host = createAppToolHost();
    host.register({ name: 'write', run: () => 'ran' });
    const args = { deep: JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown };
    const result = await Promise.resolve().then(() => host.call({ callId: 'c1', turnId: 't1', epoch: 0, name: 'write', arguments: args }));
    expect(result).toMatchObject({ ok: false, code: 'INVALID', message: expect.stringMatching(/nested too deeply/) });
  });
});

describe('found by the fault tests', () => {
  it('sends the result of an app call that finished while the connection was down once, not again on the resume', async () => {
    const server = await startReferenceServer({ port: 0, speed: Infinity });
    const session = connectReferenceSession(server.url, { WebSocket, reconnect: { initialDelayMs: 10, maxDelayMs: 10 } });
    const host = createAppToolHost();
    try {
      host.register({
        name: 'set_title',
        run: async () => {
          server.dropConnection(session.sessionId as string);
          await new Promise<void>((resolve) => {
            const stop = session.onStatusChange((status) => status === 'reconnecting' && (stop(), resolve()));
          });
          return 'titled while offline';
        },
      });
      host.register({ name: 'insert_text', run: () => 'inserted' });
      bindHost(session, host);
      await session.ready;
      const turnId = session.startTurn('edit');
      await new Promise<void>((resolve) => {
        const stop = session.subscribe((event) => {
          const ev = event as { type?: string; turnId?: string };
          if (ev.type === 'turn.ended' && ev.turnId === turnId) (stop(), resolve());
        });
      });
      expect(server.session(session.sessionId as string)?.results.size).toBe(3);
      expect(server.ignored).toEqual([]);
    } finally {
      host.close();
      session.close();
      await server.close();
    }
  });
});
