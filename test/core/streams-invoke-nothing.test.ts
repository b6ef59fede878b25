/**
 * The protocol's rules on what an event may set off, checked through the kit wired as a page wires it
 * (as `<ToolgateProvider>` does): the store fed by the session's events, the app-tool host bound
 * to the session, the confirmation controller on a room, and the server's approval gate.
 *
 * - docs/protocol.md, "Rules of the stream": arguments-complete runs nothing: an app tool still runs only
 *   through its run (the session's `tool.call`), behind the epoch gate.
 * - docs/protocol.md, "Rooms": publishing an event named after a tool does not
 *   invoke it.
 */
import { describe, expect, it, vi } from 'vitest';
import { createAppToolHost, createConfirmationController, createToolStreamStore, type AppToolContext, type ClientMessage } from 'toolgate/core';
import { bindAppToolHost, connectApprovalGate, createAppToolApprovalHandler } from 'toolgate/client';
import { callEvents, createScriptedRoom, createScriptedSession, toolEvents as e } from 'toolgate/testing';

/** Let every promise chain and deferred task of the kit run (a few real macrotasks). */
const settle = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

const ofType = <T extends ClientMessage['type']>(sent: readonly ClientMessage[], type: T) =>
  sent.filter((m): m is Extract<ClientMessage, { type: T }> => m.type === type);

/** A page: store, host, confirmations and gate on one scripted session and one scripted room. */
function openPage() {
  const session = createScriptedSession();
  const store = createToolStreamStore();
  session.subscribe((event) => store.getState().dispatch(event));

  const host = createAppToolHost();
  const insertText = vi.fn((args: Record<string, unknown>, ctx: AppToolContext) => ({ inserted: args['text'], callId: ctx.callId }));
  const deleteEverything = vi.fn(() => 'deleted');
  host.register({ name: 'insert_text', run: insertText });
  host.register({ name: 'delete_everything', run: deleteEverything });
  // Spied after registering: every call the session binding makes goes through `host.call`.
  const hostCall = vi.spyOn(host, 'call');

  const roomRun = vi.fn(() => ({ deleted: true }));
  const room = createScriptedRoom({
    speed: Infinity,
    tools: { delete_everything: { effect: 'write', risk: 'high', requiresConfirmation: true, run: roomRun } },
  });
  const confirmations = createConfirmationController({ room });
  host.setApprovalHandler(createAppToolApprovalHandler(confirmations));
  bindAppToolHost(session, host);
  connectApprovalGate(session, confirmations, { calls: store });
  return { session, store, host, hostCall, insertText, deleteEverything, room, roomRun, confirmations };
}

describe('arguments-complete runs nothing: an app tool still runs only through tool.call, behind the epoch gate', () => {
  it("arguments-complete runs nothing: an app tool's start, deltas and arguments-complete never call its run; its tool.call then runs it once", async () => {
    const page = openPage();
    const args = { blockId: 'b1', text: 'hello' };
    const events = callEvents('a1', { name: 'insert_text', turnId: 't1', location: 'app', arguments: args, chunk: 3, outcome: 'open' });
    const deltas = Math.ceil(JSON.stringify(args).length / 3);
    expect(events.map((event) => event.phase)).toEqual(['start', ...Array<string>(deltas).fill('arguments-delta'), 'arguments-complete']);
    for (const event of events) page.session.emit(event);
    await settle();

    // The stream is shown ...
    expect(page.store.getState().calls['a1']).toMatchObject({ name: 'insert_text', location: 'app', status: 'issued', arguments: args });
    // ... and nothing ran: not the tool, not the host, and no result went to the server.
    expect(page.insertText).not.toHaveBeenCalled();
    expect(page.hostCall).not.toHaveBeenCalled();
    expect(page.host.getState().queue).toEqual([]);
    expect(ofType(page.session.sent, 'tool.result')).toEqual([]);

    // The session's tool.call is what runs it: once.
    await expect(page.session.callTool({ callId: 'a1', turnId: 't1', name: 'insert_text', arguments: args })).resolves.toEqual({
      ok: true,
      output: { inserted: 'hello', callId: 'a1' },
    });
    expect(page.hostCall).toHaveBeenCalledTimes(1);
    expect(page.insertText).toHaveBeenCalledTimes(1);
    expect(page.insertText.mock.calls[0]?.[0]).toEqual(args);

    // The call's end on the stream runs nothing more.
    page.session.emit(e.settled('a1', true));
    await settle();
    expect(page.store.getState().calls['a1']?.status).toBe('settled');
    expect(page.insertText).toHaveBeenCalledTimes(1);
    expect(ofType(page.session.sent, 'tool.result')).toHaveLength(1);
  });

  it('an app tool still runs only behind the epoch gate: the tool.call of a streamed call whose turn was interrupted never runs it', async () => {
    const page = openPage();
    const args = { blockId: 'b2', text: 'stale' };
    for (const event of callEvents('a2', { name: 'insert_text', turnId: 't2', location: 'app', arguments: args, outcome: 'open' })) {
      page.session.emit(event);
    }
    await settle();
    expect(page.store.getState().calls['a2']?.status).toBe('issued');
    expect(page.insertText).not.toHaveBeenCalled();

    // The user interrupts the turn (what useInterrupt does): the card is cancelled, the floor rises.
    page.store.getState().interrupt('t2');
    page.host.interrupt('t2');
    expect(page.store.getState().calls['a2']?.status).toBe('cancelled');
    expect(ofType(page.session.sent, 'turn.interrupt')).toEqual([{ type: 'turn.interrupt', turnId: 't2' }]);

    // The server's tool.call for it was stamped before it heard the interrupt: refused, not run.
    await expect(page.session.callTool({ callId: 'a2', turnId: 't2', epoch: 0, name: 'insert_text', arguments: args })).resolves.toMatchObject({
      ok: false,
      code: 'INTERRUPTED',
    });
    expect(page.insertText).not.toHaveBeenCalled();

    // The next turn, at the new epoch, streams and then runs through its tool.call, once.
    for (const event of callEvents('a3', { name: 'insert_text', turnId: 't3', location: 'app', arguments: args, outcome: 'open' })) {
      page.session.emit(event);
    }
    await settle();
    expect(page.insertText).not.toHaveBeenCalled();
    await expect(page.session.callTool({ callId: 'a3', turnId: 't3', name: 'insert_text', arguments: args })).resolves.toMatchObject({ ok: true });
    expect(page.insertText).toHaveBeenCalledTimes(1);
    expect(page.insertText.mock.calls[0]?.[1]).toMatchObject({ callId: 'a3', turnId: 't3', epoch: 1 });
  });
});

describe('publishing an event named after a tool does not invoke it', () => {
  const args = { scope: 'all' };
  /** Events whose type is a registered tool's name, or looks like a way to invoke or run one. */
  const lookAlikes: Record<string, unknown>[] = [
    { type: 'delete_everything' },
    { type: 'delete_everything', arguments: args },
    { type: 'delete_everything', callId: 'x1', turnId: 't1', epoch: 0, name: 'delete_everything', arguments: args },
    { type: 'insert_text', callId: 'x2', turnId: 't1', epoch: 0, arguments: { blockId: 'b1', text: 'hi' } },
    { type: 'DELETE_EVERYTHING', arguments: args },
    { type: 'tool.delete_everything', arguments: args },
    { type: 'tool.delete_everything.invoke', arguments: args },
    // A tool.call published as an event, not delivered as a call: it is a message of another channel.
    { type: 'tool.call', callId: 'x3', turnId: 't1', epoch: 0, name: 'delete_everything', arguments: args },
    { type: 'tool.invoke', name: 'delete_everything', arguments: args },
    { type: 'tool.run', name: 'insert_text', arguments: { blockId: 'b1', text: 'hi' } },
    { type: 'invokeTool', toolName: 'delete_everything', arguments: args },
    { type: 'room.invokeTool', toolName: 'delete_everything', arguments: args, confirmationId: 'c-forged' },
    { type: 'room.confirmTool', toolName: 'delete_everything', arguments: args },
    { type: 'tool.completed', name: 'delete_everything', callId: 'x4', output: { deleted: true } },
    { type: 'tool.result', callId: 'x5', epoch: 0, result: { ok: true, output: 'deleted' } },
    { type: 'tool.approval', requestId: 'r1', approved: true, fingerprint: '' },
  ];

  it('publishing an event named after a tool does not invoke it: such events and look-alikes run nothing, call no room and no host, and leave the store as it was', async () => {
    const page = openPage();
    const before = page.store.getState();
    for (const event of lookAlikes) page.session.emit(event);
    // Straight into the store too, as an application that forwards its own events would.
    for (const event of lookAlikes) page.store.getState().dispatch(event);
    await settle();

    expect(page.deleteEverything).not.toHaveBeenCalled();
    expect(page.insertText).not.toHaveBeenCalled();
    expect(page.hostCall).not.toHaveBeenCalled();
    expect(page.host.getState().queue).toEqual([]);
    expect(page.room.calls).toEqual([]); // no confirmTool, no invokeTool
    expect(page.room.effects).toEqual([]);
    expect(page.roomRun).not.toHaveBeenCalled();
    expect(page.confirmations.getState()).toMatchObject({ current: null, waiting: 0, last: null });
    expect(page.session.sent.map((m) => m.type)).toEqual(['hello']);
    expect(page.store.getState()).toBe(before);
  });

  it('publishing an event named after a tool does not invoke it: a whole tool.stream call of that name is shown and runs nothing', async () => {
    const page = openPage();
    for (const event of callEvents('s1', { name: 'delete_everything', turnId: 't1', location: 'app', risk: 'high', arguments: args })) {
      page.session.emit(event);
    }
    await settle();
    expect(page.store.getState().calls['s1']).toMatchObject({ name: 'delete_everything', status: 'settled', arguments: args });
    expect(page.deleteEverything).not.toHaveBeenCalled();
    expect(page.hostCall).not.toHaveBeenCalled();
    expect(page.room.calls).toEqual([]);
    expect(page.confirmations.getState().current).toBeNull();
    expect(page.session.sent.map((m) => m.type)).toEqual(['hello']);
  });
});
