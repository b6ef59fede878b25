// @vitest-environment node
/**
 * A session frame that names the page's own interrupt, sent by the real reference server over a
 * real WebSocket while an app tool runs: refused through onError, and nothing changes (the run is
 * not aborted, no call is cancelled here, nothing is sent to the server).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAppToolHost, createToolStreamStore, type AppToolHost, type ToolCall, type ToolSession } from 'toolgate/core';
import { bindAppToolHost } from 'toolgate/client';
import { callOf } from '../../src/core/stream/call-table';
import type { ReferenceSession } from 'toolgate/client';
import type { ReferenceServer } from '../../server/server';
import { APP_TOOLS, connect, startServer, turnEnded, until } from './helpers';

let server: ReferenceServer | undefined;
const sessions: ReferenceSession[] = [];
const hosts: AppToolHost[] = [];

afterEach(async () => {
  for (const host of hosts.splice(0)) host.close();
  for (const session of sessions.splice(0)) session.close();
  await server?.close();
  server = undefined;
});

describe('a forged local interrupt from the server, over the WebSocket client', () => {
  it('is refused through onError (local-only) while an app tool runs, which neither aborts nor shows as cancelled here', async () => {
    server = await startServer();
    const { session, events } = connect(server.url);
    sessions.push(session);
    const host = createAppToolHost();
    hosts.push(host);
    let release: (() => void) | undefined;
    let signal: AbortSignal | undefined;
    host.register({
      ...APP_TOOLS[0]!,
      run: async (_args, context) => {
        signal = context.signal;
        await new Promise<void>((resolve) => (release = resolve));
        return 'titled';
      },
    });
    host.register({ ...APP_TOOLS[1]!, run: () => 'inserted' });
    const errors: { reason: string; code: string }[] = [];
    const store = createToolStreamStore({ onError: (reason, _event, code) => errors.push({ reason, code }) });
    session.subscribe((event) => store.getState().dispatch(event));
    const sent: unknown[] = [];
    // The session as the binding sees it, with what it sends recorded.
    const seen: ToolSession = {
      subscribe: (listener) => session.subscribe(listener),
      onToolCall: (handler) => session.onToolCall(handler),
      onStatusChange: (listener) => session.onStatusChange(listener),
      get status() {
        return session.status;
      },
      send: (message) => {
        sent.push(message);
        session.send(message);
      },
    };
    bindAppToolHost(seen, host);
    await session.ready;

    const turnId = session.startTurn('edit');
    const running = await until(() => signal && Object.values(store.getState().calls).find((c) => c.name === 'set_title'));
    const epoch = server.session(session.sessionId!)!.epoch;
    session.injectFault({ fault: 'malformed', frame: 'local-event' });
    await until(() => errors.find((e) => e.code === 'local-only'));

    expect(errors.filter((e) => e.code === 'local-only')).toEqual([{ reason: expect.stringMatching(/'toolgate\.interrupt'.*only this page may produce/), code: 'local-only' }]);
    expect(signal?.aborted).toBe(false);
    const call = callOf(store.getState(), running.callId) as ToolCall;
    expect(call.status).not.toBe('cancelled');
    expect(call.cancelledBy).toBeUndefined();
    expect(sent.filter((m) => (m as { type: string }).type === 'turn.interrupt')).toEqual([]);
    expect(server.session(session.sessionId!)!.epoch).toBe(epoch);

    release?.();
    await until(() => turnEnded(events, turnId));
    expect(turnEnded(events, turnId)).toMatchObject({ status: 'completed' });
    expect(server.session(session.sessionId!)!.results.get(running.callId)).toEqual({ ok: true, output: 'titled' });
    expect(callOf(store.getState(), running.callId)).toMatchObject({ status: 'settled', ok: true });
  });
});
