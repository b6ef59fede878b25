// @vitest-environment node
/**
 * Each session sees only its own records and effects, and spends only its own confirmations;
 * a session holds the least authority the demo needs unless granted more.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_GRANTS } from '../../server/room';
import { createManualTimer } from '../../server/timer';
import { useTestServer, type Frame } from './helpers';

const { startServer, connect } = useTestServer();

const invoice = { customerId: 'c_100', amount: 99.5, currency: 'EUR', memo: 'Workshop' };

describe('reference server: each session sees only its own', () => {
  it('lists only the asking session’s effects, never another session’s arguments, results or confirmation ids', async () => {
    await startServer();
    const a = await connect();
    const b = await connect();
    const { result } = await a.client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    await a.client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: result.confirmationId });
    await b.client.room('invokeTool', { toolName: 'lookup_customer', arguments: { customerId: 'c_102' } });
    const seenByB = (await b.client.room('listEffects')).result.effects as Frame[];
    expect(seenByB.map((e) => e.toolName)).toEqual(['lookup_customer']);
    expect(seenByB.every((e) => e.sessionId === b.welcome.sessionId)).toBe(true);
    expect((await b.client.room('listEffects', { confirmationId: result.confirmationId })).result.effects).toEqual([]);
    const seenByA = (await a.client.room('listEffects')).result.effects as Frame[];
    expect(seenByA.map((e) => e.toolName)).toEqual(['send_invoice']);
  });

  it('refuses a confirmation made by another session, as an unknown one, and leaves it usable by its own', async () => {
    const server = await startServer();
    const a = await connect();
    const b = await connect();
    const { result } = await a.client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    const stolen = await b.client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: result.confirmationId });
    expect(stolen).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_INVALID' } });
    expect(stolen.error.message).toMatch(/no confirmation .* for this session/);
    expect(server.room.confirmation(result.confirmationId as string)!.consumedAt).toBeUndefined();
    expect(server.effects).toEqual([expect.objectContaining({ sessionId: b.welcome.sessionId, outcome: 'refused', code: 'CONFIRMATION_INVALID' })]);
    const own = await a.client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: result.confirmationId });
    expect(own.ok).toBe(true);
  });
});

describe('reference server: grants', () => {
  it('gives a session by default the least the demo needs: confirm and invoke send_invoice, nothing else', async () => {
    expect([...DEFAULT_GRANTS].sort()).toEqual(['tool:confirm:send_invoice', 'tool:invoke:send_invoice']);
    await startServer({ room: {} });
    const { client } = await connect();
    expect((await client.room('describeTools')).result.authority).toEqual([...DEFAULT_GRANTS]);
    const { result } = await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    expect((await client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: result.confirmationId })).ok).toBe(true);
    for (const [toolName, args] of [
      ['lookup_customer', { customerId: 'c_100' }],
      ['add_note', { customerId: 'c_100', text: 'hello' }],
      ['delete_customer', { customerId: 'c_100' }],
    ] as const) {
      expect((await client.room('invokeTool', { toolName, arguments: args })).error.code).toBe('FORBIDDEN');
      expect((await client.room('confirmTool', { toolName, arguments: args })).error.code).toBe('FORBIDDEN');
    }
  });

  it('grants per session through a function of the session and its page’s origin', async () => {
    const asked: Frame[] = [];
    await startServer({
      allowedOrigins: ['http://admin.test', 'http://shop.test'],
      room: {
        grants: (sessionId, info) => {
          asked.push({ sessionId, ...info });
          return info.origin === 'http://admin.test' ? ['tool:invoke:*'] : ['tool:invoke:lookup_customer'];
        },
      },
    });
    const admin = await connect({}, 'http://admin.test');
    const shop = await connect({}, 'http://shop.test');
    const note = { toolName: 'add_note', arguments: { customerId: 'c_100', text: 'vip' } };
    expect((await admin.client.room('invokeTool', note)).ok).toBe(true);
    expect((await shop.client.room('invokeTool', note)).error.code).toBe('FORBIDDEN');
    expect((await shop.client.room('invokeTool', { toolName: 'lookup_customer', arguments: { customerId: 'c_100' } })).ok).toBe(true);
    expect(asked).toEqual([
      { sessionId: admin.welcome.sessionId, origin: 'http://admin.test' },
      { sessionId: shop.welcome.sessionId, origin: 'http://shop.test' },
    ]);
  });
});

describe('reference server: confirmations expire', () => {
  it('expires an unused confirmation after 5 minutes by default, records it as expired, and refuses it then', async () => {
    const timer = createManualTimer(1_000);
    const server = await startServer({ timer });
    const { client } = await connect();
    const early = (await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice })).result.confirmationId as string;
    const used = (await client.room('confirmTool', { toolName: 'send_invoice', arguments: { ...invoice, amount: 1 } })).result.confirmationId as string;
    await timer.advance(5 * 60_000 - 1);
    expect(server.room.confirmation(early)!.expiredAt).toBeUndefined();
    expect((await client.room('invokeTool', { toolName: 'send_invoice', arguments: { ...invoice, amount: 1 }, confirmationId: used })).ok).toBe(true);
    await timer.advance(1);
    expect(server.room.confirmation(early)).toMatchObject({ expiredAt: 1_000 + 5 * 60_000 });
    // One that was used before its time is used, not expired.
    expect(server.room.confirmation(used)!.expiredAt).toBeUndefined();
    const late = await client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: early });
    expect(late).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_EXPIRED' } });
    expect(late.error.message).toMatch(/expired unused after 300 s/);
    expect(server.effects.at(-1)).toMatchObject({ outcome: 'refused', code: 'CONFIRMATION_EXPIRED', confirmationId: early });
  });

  it('takes the time a confirmation lasts from limits.confirmationTtlMs', async () => {
    const timer = createManualTimer();
    await startServer({ timer, limits: { confirmationTtlMs: 1000 } });
    const { client } = await connect();
    const id = (await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice })).result.confirmationId as string;
    await timer.advance(1000);
    expect((await client.room('invokeTool', { toolName: 'send_invoice', arguments: invoice, confirmationId: id })).error.code).toBe('CONFIRMATION_EXPIRED');
  });

  it('refuses more unused confirmations than limits.maxUnusedConfirmations, with a reason', async () => {
    await startServer({ limits: { maxUnusedConfirmations: 3 } });
    const { client } = await connect();
    for (let i = 0; i < 3; i++) {
      expect((await client.room('confirmTool', { toolName: 'send_invoice', arguments: { ...invoice, amount: i + 1 } })).ok).toBe(true);
    }
    const refused = await client.room('confirmTool', { toolName: 'send_invoice', arguments: invoice });
    expect(refused).toMatchObject({ ok: false, error: { code: 'TOO_MANY_CONFIRMATIONS' } });
    expect(refused.error.message).toMatch(/holds 3 unused confirmations/);
  });
});
