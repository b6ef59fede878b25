// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import { ToolRoomError, ToolRoomUnknownOutcomeError } from 'toolgate/core';
import { classifyRoomError } from '../../src/core/session/room';
import type { ReferenceSession } from 'toolgate/client';
import type { ReferenceServer } from '../../server/server';
import { INVOICE, connect, startServer, until, type Recorded } from './helpers';

let server: ReferenceServer | undefined;
const sessions: ReferenceSession[] = [];

async function open(options: Parameters<typeof connect>[1] = {}): Promise<Recorded> {
  const recorded = connect(server!.url, options);
  sessions.push(recorded.session);
  await recorded.session.ready;
  return recorded;
}

afterEach(async () => {
  for (const session of sessions.splice(0)) session.close();
  await server?.close();
  server = undefined;
});

const accepted = () => server!.effects.filter((e) => e.outcome === 'accepted');

describe('the room over the socket', () => {
  it('confirms and invokes a write with the same arguments: one effect, the invoke answer as result', async () => {
    server = await startServer();
    const { session } = await open();
    const id = await session.room.confirmTool('send_invoice', INVOICE);
    expect(id).toEqual(expect.any(String));
    const result = await session.room.invokeTool('send_invoice', INVOICE, id);
    expect(result).toMatchObject({ customerId: 'c_101' });
    expect(accepted()).toEqual([expect.objectContaining({ toolName: 'send_invoice', confirmationId: id })]);
  });

  it('describes the tools and lists effects for an application check', async () => {
    server = await startServer();
    const { session } = await open();
    const described = await session.room.describeTools();
    expect(described.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['send_invoice', 'lookup_customer']));
    const send = described.tools.find((t) => t.name === 'send_invoice')!;
    expect(send).toMatchObject({ effect: 'write', requiresConfirmation: true, requiredAction: 'tool:invoke:send_invoice' });
    const id = await session.room.confirmTool('send_invoice', INVOICE);
    await session.room.invokeTool('send_invoice', INVOICE, id);
    expect(await session.room.listEffects({ confirmationId: id })).toEqual([expect.objectContaining({ outcome: 'accepted' })]);
  });

  it('turns ok:false into a definite ToolRoomError with the server code', async () => {
    server = await startServer();
    const { session } = await open();
    const refused = await session.room.confirmTool('delete_customer', { customerId: 'c_100' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ToolRoomError);
    expect(refused).not.toBeInstanceOf(ToolRoomUnknownOutcomeError);
    expect(refused).toMatchObject({ code: 'FORBIDDEN', definite: true });
    expect(classifyRoomError(refused)).toBe('definite');
  });

  it('refuses a confirmation id presented with other arguments, clearly, and nothing runs', async () => {
    server = await startServer();
    const { session } = await open();
    const id = await session.room.confirmTool('send_invoice', INVOICE);
    const error = await session.room.invokeTool('send_invoice', { ...INVOICE, amount: 99_999 }, id).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ToolRoomError', code: 'CONFIRMATION_INVALID', definite: true });
    expect((error as Error).message).toMatch(/argument|bound/i);
    expect(accepted()).toEqual([]);
    expect(server.effects).toEqual([expect.objectContaining({ outcome: 'refused', code: 'CONFIRMATION_INVALID' })]);
    // The confirmation stays unconsumed: the arguments it was given still go through, once.
    await session.room.invokeTool('send_invoice', INVOICE, id);
    expect(accepted()).toHaveLength(1);
  });

  it('a dropped invoke response is an unknown outcome after the time limit; the server did it once', async () => {
    server = await startServer();
    const { session } = await open({ roomTimeoutMs: 150 });
    const id = await session.room.confirmTool('send_invoice', INVOICE);
    session.injectFault({ fault: 'drop-invoke-response' });
    const error = await session.room.invokeTool('send_invoice', INVOICE, id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolRoomUnknownOutcomeError);
    expect(error).toMatchObject({ code: 'timeout', definite: false });
    expect(classifyRoomError(error)).toBe('unknown');
    expect(accepted()).toEqual([expect.objectContaining({ responseDropped: true })]);
  });

  it('a connection lost while waiting is an unknown outcome, and a late answer is reported, not applied', async () => {
    server = await startServer();
    const { session } = await open();
    session.injectFault({ fault: 'delay-responses', ms: 10_000 });
    const waiting = session.room.invokeTool('add_note', { customerId: 'c_100', text: 'called back' }).catch((e: unknown) => e);
    await until(() => server!.effects.length === 1);
    server.dropConnection(session.sessionId!);
    const error = await waiting;
    expect(error).toBeInstanceOf(ToolRoomUnknownOutcomeError);
    expect(error).toMatchObject({ code: 'connection-lost' });
    await until(() => session.status === 'open');
  });

  it('a request made while reconnecting waits for the resumed connection and then succeeds', async () => {
    server = await startServer();
    const { session } = await open({ reconnect: { initialDelayMs: 50, maxDelayMs: 50 } });
    server.dropConnection(session.sessionId!);
    await until(() => session.status === 'reconnecting');
    const described = await session.room.describeTools();
    expect(described.roomId).toBe(server.room.id);
  });

  it('a request that could not even be sent in time is definite: nothing was sent', async () => {
    server = await startServer();
    const { session } = await open({ reconnect: { initialDelayMs: 10_000, maxDelayMs: 10_000 }, roomTimeoutMs: 100 });
    server.dropConnection(session.sessionId!);
    await until(() => session.status === 'reconnecting');
    const error = await session.room.invokeTool('send_invoice', INVOICE, 'x').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not-sent', definite: true });
    expect(server.effects).toEqual([]);
  });

  it('pending requests end unknown when the session closes, and new ones are refused', async () => {
    server = await startServer();
    const { session } = await open();
    session.injectFault({ fault: 'delay-responses', ms: 10_000 });
    const waiting = session.room.describeTools().catch((e: unknown) => e);
    server.closeSession(session.sessionId!);
    expect(await waiting).toMatchObject({ definite: false });
    await until(() => session.status === 'closed');
    expect(await session.room.describeTools().catch((e: unknown) => e)).toMatchObject({ code: 'session-closed', definite: true });
  });
});
