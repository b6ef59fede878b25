// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../server/jcs';
import { Records } from '../../server/records';
import { Room } from '../../server/room';
import { useTestServer, type Frame } from './helpers';

const { startServer, connect } = useTestServer();

const invoice = { customerId: 'c_100', amount: 99.5, currency: 'EUR', memo: 'Workshop' };

describe('reference server: the room', () => {
  it('describes its tools with effect, risk, required action and confirmation, and the session’s authority', async () => {
    await startServer();
    const { client } = await connect();
    const response = await client.room('describeTools');
    expect(response.ok).toBe(true);
    const tools = Object.fromEntries((response.result.tools as Frame[]).map((t) => [t.name, t]));
    expect(tools.send_invoice).toMatchObject({ effect: 'write', risk: 'medium', requiredAction: 'tool:invoke:send_invoice', requiresConfirmation: true });
    expect(tools.lookup_customer).toMatchObject({ effect: 'read', requiresConfirmation: false });
    expect(tools.delete_customer).toMatchObject({ effect: 'write', risk: 'high', requiresConfirmation: true });
    expect(response.result).toMatchObject({ roomId: 'room-1', authority: expect.arrayContaining(['tool:invoke:*', 'tool:confirm:send_invoice']) });
  });

  it('gives a confirmation id bound to room, tool and the SHA-256 of the canonical arguments', async () => {
    const server = await startServer();
    const { client } = await connect();
    const response = await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    expect(response).toMatchObject({ ok: true, result: { roomId: 'room-1', toolName: 'send_invoice', argumentsHash: fingerprintOf(invoice) } });
    const id = response.result.confirmationId as string;
    expect(id).toMatch(/^conf_[0-9a-f]{24}$/);
    expect(server.room.confirmation(id)).toMatchObject({ roomId: 'room-1', toolName: 'send_invoice', argumentsHash: fingerprintOf(invoice) });
  });

  it('invokes a confirmed tool once with the same arguments, answers its result and records the accepted effect', async () => {
    const server = await startServer();
    const { client, welcome } = await connect();
    const { result } = await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    const response = await client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: result.confirmationId });
    expect(response).toMatchObject({ ok: true, result: { invoiceId: 'inv-1001', customerId: 'c_100', amount: 99.5, status: 'sent' } });
    expect(server.effects).toEqual([
      expect.objectContaining({
        source: 'room',
        sessionId: welcome.sessionId,
        toolName: 'send_invoice',
        outcome: 'accepted',
        confirmationId: result.confirmationId,
        argumentsHash: fingerprintOf(invoice),
        result: response.result,
      }),
    ]);
    expect(server.room.confirmation(result.confirmationId as string)!.consumedAt).toBeDefined();
  });

  it('accepts the same arguments written in another key order, since the hash is of canonical JSON', async () => {
    await startServer();
    const { client } = await connect();
    const { result } = await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    const reordered = { memo: 'Workshop', currency: 'EUR', amount: 99.5, customerId: 'c_100' };
    const response = await client.room('invokeTool', { toolName: 'send_invoice', arguments: reordered, confirmationId: result.confirmationId });
    expect(response.ok).toBe(true);
  });

  it('refuses an invoke with a consumed confirmation and records it as refused', async () => {
    const server = await startServer();
    const { client } = await connect();
    const { result } = await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    const params = { toolName: 'send_invoice', arguments: invoice, confirmationId: result.confirmationId };
    expect((await client.room('invokeTool', params)).ok).toBe(true);
    const again = await client.room('invokeTool', params);
    expect(again).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_CONSUMED' } });
    expect(again.error.message).toMatch(/already used/);
    expect(server.effects.map((e) => [e.outcome, e.code])).toEqual([
      ['accepted', undefined],
      ['refused', 'CONFIRMATION_CONSUMED'],
    ]);
  });

  it('refuses a confirmation presented with other arguments, clearly, runs nothing and keeps it usable for its own', async () => {
    const server = await startServer();
    const { client } = await connect();
    const { result } = await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    const other = { ...invoice, amount: 9950 };
    const refused = await client.room('invokeTool', { toolName: 'send_invoice', arguments: other, confirmationId: result.confirmationId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_INVALID' } });
    expect(refused.error.message).toMatch(/other arguments.*nothing ran/);
    expect(server.effects).toEqual([expect.objectContaining({ outcome: 'refused', code: 'CONFIRMATION_INVALID', arguments: other })]);
    const ok = await client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: result.confirmationId });
    expect(ok.ok).toBe(true);
  });

  it('refuses a confirmation given for another tool', async () => {
    await startServer();
    const { client } = await connect();
    const args = { customerId: 'c_100', text: 'hello' };
    const { result } = await client.room('confirmTool', { toolName: 'add_note', arguments: args });
    const refused = await client.room('invokeTool', { toolName: 'send_invoice', arguments: args, confirmationId: result.confirmationId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_INVALID' } });
    expect(refused.error.message).toMatch(/given for add_note/);
  });

  it('refuses an unknown confirmation id', async () => {
    await startServer();
    const { client } = await connect();
    const refused = await client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: 'conf_000' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_INVALID' } });
  });

  it('refuses an invoke without a confirmation for a tool that requires one, and records it', async () => {
    const server = await startServer();
    const { client } = await connect();
    const refused = await client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice });
    expect(refused).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_REQUIRED' } });
    expect(server.effects).toEqual([expect.objectContaining({ outcome: 'refused', code: 'CONFIRMATION_REQUIRED' })]);
  });

  it('invokes a tool that needs no confirmation directly', async () => {
    await startServer();
    const { client } = await connect();
    const response = await client.room('invokeTool', { toolName: 'lookup_customer', arguments: { customerId: 'c_102' } });
    expect(response).toMatchObject({ ok: true, result: { name: 'Alan Turing' } });
  });

  it('refuses confirmTool without tool:confirm on the tool name, with a clear message', async () => {
    const server = await startServer();
    const { client } = await connect();
    const refused = await client.room('confirmTool', { toolName: 'delete_customer', arguments: { customerId: 'c_100' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(refused.error.message).toMatch(/lacks tool:confirm:delete_customer/);
    expect(server.effects).toEqual([]);
  });

  it('refuses an invoke without tool:invoke on the tool name and records it', async () => {
    const server = await startServer({ room: { grants: ['tool:confirm:send_invoice'] } });
    const { client } = await connect();
    const { result } = await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    const refused = await client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: result.confirmationId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(refused.error.message).toMatch(/lacks tool:invoke:send_invoice/);
    expect(server.effects).toEqual([expect.objectContaining({ outcome: 'refused', code: 'FORBIDDEN' })]);
    // Confirmation and invocation are separate conditions: the unused confirmation is still fresh.
    expect(server.room.confirmation(result.confirmationId as string)!.consumedAt).toBeUndefined();
  });

  it('grants authority per session', async () => {
    const server = await startServer();
    const a = await connect();
    const b = await connect();
    server.room.grant(a.welcome.sessionId as string, 'tool:confirm:delete_customer');
    const args = { customerId: 'c_102' };
    expect((await a.client.room('confirmTool', { toolName: 'delete_customer', arguments: args })).ok).toBe(true);
    expect((await b.client.room('confirmTool', { toolName: 'delete_customer', arguments: args })).error.code).toBe('FORBIDDEN');
    server.room.setGrants(b.welcome.sessionId as string, []);
    expect((await b.client.room('invokeTool', { toolName: 'lookup_customer', arguments: args })).error.code).toBe('FORBIDDEN');
  });

  it('refuses an unknown tool and records it', async () => {
    const server = await startServer();
    const { client } = await connect();
    expect((await client.room('confirmTool', { toolName: 'launch', arguments: {} })).error.code).toBe('UNKNOWN_TOOL');
    expect((await client.room('invokeTool', { toolName: 'launch', arguments: {} })).error.code).toBe('UNKNOWN_TOOL');
    expect(server.effects).toEqual([expect.objectContaining({ toolName: 'launch', outcome: 'refused', code: 'UNKNOWN_TOOL' })]);
  });

  it('answers INVALID_ARGUMENTS when the handler refuses the arguments, and records it', async () => {
    const server = await startServer();
    const { client } = await connect();
    const refused = await client.room('invokeTool', { toolName: 'add_note', arguments: { customerId: 'c_100' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(refused.error.message).toMatch(/text: required/);
    expect((await client.room('confirmTool', { toolName: 'add_note' })).error.code).toBe('INVALID_ARGUMENTS');
    expect(server.effects).toEqual([expect.objectContaining({ toolName: 'add_note', outcome: 'refused', code: 'INVALID_ARGUMENTS' })]);
  });

  it('never deduplicates: the same write twice runs twice and is recorded twice', async () => {
    const server = await startServer();
    const { client } = await connect();
    const params = { toolName: 'add_note', arguments: { customerId: 'c_100', text: 'called back' } };
    expect((await client.room('invokeTool', params)).result).toEqual({ customerId: 'c_100', notes: 1 });
    expect((await client.room('invokeTool', params)).result).toEqual({ customerId: 'c_100', notes: 2 });
    expect(server.effects.map((e) => e.outcome)).toEqual(['accepted', 'accepted']);
  });

  it('keeps tool.completed traces in its own log, never on the socket', async () => {
    const server = await startServer();
    const { client } = await connect();
    const response = await client.room('invokeTool', { toolName: 'lookup_customer', arguments: { customerId: 'c_100' } });
    expect(server.traces.map((t) => t.type)).toEqual(['tool.invoked', 'tool.completed']);
    expect(server.traces[1]).toMatchObject({ roomId: 'room-1', toolName: 'lookup_customer', ok: true, effectId: server.effects[0]!.id });
    expect(client.frames.some((f) => typeof f.type === 'string' && f.type.startsWith('tool.completed'))).toBe(false);
    expect(response.result).not.toHaveProperty('trace');
  });

  it('lists the room’s effects so an application can check what happened', async () => {
    await startServer();
    const { client } = await connect();
    const { result } = await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    await client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: result.confirmationId });
    await client.room('invokeTool', { toolName: 'lookup_customer', arguments: { customerId: 'c_100' } });
    const listed = await client.room('listEffects', { confirmationId: result.confirmationId });
    expect(listed.result.effects).toEqual([expect.objectContaining({ toolName: 'send_invoice', outcome: 'accepted', confirmationId: result.confirmationId })]);
    expect((await client.room('listEffects')).result.effects).toHaveLength(2);
  });

  it('treats a __proto__ member of the arguments as data, in the hash and in validation', async () => {
    await startServer();
    const { client } = await connect();
    const text = '{"type":"room.request","id":"p","method":"confirmTool","params":{"toolName":"add_note","arguments":{"customerId":"c_100","text":"x","__proto__":{"admin":true}}}}';
    client.sendText(text);
    const confirmed = await client.waitFor((f) => f.id === 'p');
    const args = JSON.parse('{"customerId":"c_100","text":"x","__proto__":{"admin":true}}');
    expect(confirmed.result.argumentsHash).toBe(fingerprintOf(args));
    client.sendText(text.replace('"id":"p"', '"id":"q"').replace('confirmTool', 'invokeTool'));
    const refused = await client.waitFor((f) => f.id === 'q');
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(refused.error.message).toMatch(/__proto__: not allowed/);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('answers an unknown method with UNKNOWN_METHOD', async () => {
    await startServer();
    const { client } = await connect();
    expect(await client.room('dropTables')).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
  });

  it('refuses a confirmation from another room', () => {
    const records = new Records(() => 0);
    const a = new Room(records, () => 0, { id: 'room-a' });
    const b = new Room(records, () => 0, { id: 'room-b' });
    const { confirmationId } = a.confirmTool('s1', 'send_invoice', invoice);
    const outcome = b.invokeTool('s1', 'send_invoice', invoice, confirmationId);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_INVALID' } });
    expect(a.invokeTool('s1', 'send_invoice', invoice, confirmationId).ok).toBe(true);
  });

  it('refuses to register a descriptor whose required action does not name its tool', () => {
    const room = new Room(new Records(() => 0), () => 0);
    expect(() =>
      room.register({
        descriptor: {
          name: 'wipe',
          description: '',
          inputSchema: {},
          effect: 'write',
          risk: 'high',
          requiredAction: 'tool:invoke:lookup_customer',
          requiresConfirmation: false,
        },
        invoke: () => null,
      }),
    ).toThrow(/requires tool:invoke:lookup_customer, not tool:invoke:wipe/);
  });
});
