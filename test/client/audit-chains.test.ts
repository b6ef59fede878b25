// @vitest-environment node
/**
 * One session against the real WebSocket reference server: the page's audit log (fed by the
 * client) and the server's own chain (made with the server's own canonical JSON and hashing) tell
 * the same story of the same decisions, and both verify with the kit's verifyAuditLog.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createToolgate, type ToolgateClient } from 'toolgate/core';
import { createAuditLog, verifyAuditLog, type AuditRecord } from 'toolgate/audit';
import type { ReferenceServer } from '../../server/server';
import type { ServerAuditRecord } from '../../server/audit-chain';
import { connect, startServer, turnEnded, until, type Recorded } from './helpers';

let server: ReferenceServer | undefined;
let recorded: Recorded | undefined;
afterEach(async () => {
  recorded?.session.close();
  await server?.close();
  server = undefined;
  recorded = undefined;
});

/** What both sides know of a record: the server cannot tell a batch from a person, nor name a grant. */
function story(records: readonly (AuditRecord | ServerAuditRecord)[]): unknown[] {
  return records.map((r) => {
    switch (r.type) {
      case 'requested':
        return { type: r.type, callId: r.callId, toolName: r.toolName, definitionFingerprint: r.definitionFingerprint, argumentsFingerprint: r.argumentsFingerprint, arguments: r.arguments };
      case 'decided':
        return { type: r.type, callId: r.callId, kind: r.kind, automatic: r.by === 'grant', reason: r.reason };
      case 'ran':
        return { type: r.type, callId: r.callId, argumentsFingerprint: r.argumentsFingerprint };
      case 'settled':
        return { type: r.type, callId: r.callId, code: r.code };
    }
  });
}

async function decideNext(client: ToolgateClient, decide: (client: ToolgateClient) => boolean): Promise<string> {
  const view = await until(() => {
    const current = client.approvals.getState().current;
    return current?.status === 'reviewing' ? current : undefined;
  });
  expect(decide(client)).toBe(true);
  return view.callId as string;
}

describe('audit: the page’s chain and the reference server’s chain of one session', () => {
  it('record the same decisions (approve, deny, respond, cancel, an edit), and both verify', async () => {
    server = await startServer({ beforeToolCall: () => ({ action: 'confirm', editable: true }) });
    const audit = createAuditLog();
    const client = createToolgate({ audit });
    recorded = connect(server.url);
    client.connect(recorded.session);
    const { session, events } = recorded;
    await until(() => session.status === 'open');

    const turn = async (prompt: string, decide: (client: ToolgateClient) => boolean | Promise<boolean>): Promise<string> => {
      const turnId = session.startTurn(prompt, { speed: Infinity });
      const view = await until(() => {
        const current = client.approvals.getState().current;
        return current?.status === 'reviewing' && current.turnId === turnId ? current : undefined;
      });
      expect(await decide(client)).toBe(true);
      await until(() => turnEnded(events, turnId));
      return view.callId as string;
    };
    await turn('search', (c) => c.approvals.approve());
    await turn('deploy', (c) => c.approvals.deny('not on a Friday'));
    await turn('no-stream', (c) => c.approvals.respond({ orderId: 'ord_1042', status: 'shipped (answered by a person)' }));
    await turn('search', (c) => c.approvals.cancel('asked twice'));
    await turn('search', async (c) => {
      c.approvals.edit();
      const result = await c.approvals.submitEdit({ query: 'rotate api keys safely', limit: 2 });
      expect(result.ok).toBe(true);
      await until(() => c.approvals.getState().current?.status === 'reviewing');
      return c.approvals.approve();
    });

    const serverChain = () => server!.session(session.sessionId as string)!.audit.records;
    // Five decided calls, each requested, decided and settled; the two approved ones ran.
    await until(() => audit.getState().records.length === 17 && serverChain().length === 17);
    await audit.idle();
    const page = audit.getState().records;
    const theirs = serverChain();
    expect(story(page)).toEqual(story(theirs));
    expect(page.filter((r) => r.type === 'decided').map((r) => (r as Extract<AuditRecord, { type: 'decided' }>).kind)).toEqual(['approve', 'deny', 'respond', 'cancel', 'approve']);
    // The respond's output is what both sides saw (the server's settled event carries it).
    const respondEnd = (records: readonly (AuditRecord | ServerAuditRecord)[]) =>
      records.filter((r) => r.type === 'settled').map((r) => (r as { outputFingerprint: string | null }).outputFingerprint)[2];
    expect(respondEnd(page)).toBe(respondEnd(theirs));
    expect(respondEnd(page)).toMatch(/^[0-9a-f]{64}$/);
    expect(await verifyAuditLog(page)).toMatchObject({ ok: true, length: 17 });
    expect(await verifyAuditLog(theirs)).toMatchObject({ ok: true, length: 17 });
  });

  it('the server’s chain shows a changed record: the kit’s verifier finds where', async () => {
    server = await startServer({ beforeToolCall: () => ({ action: 'confirm' }) });
    const client = createToolgate({ audit: createAuditLog() });
    recorded = connect(server.url);
    client.connect(recorded.session);
    await until(() => recorded!.session.status === 'open');
    recorded.session.startTurn('search', { speed: Infinity });
    await decideNext(client, (c) => c.approvals.approve());
    const chain = () => server!.session(recorded!.session.sessionId as string)!.audit.records;
    await until(() => chain().length === 4);
    const copy = chain().map((r) => ({ ...r }));
    (copy[0] as { arguments: unknown }).arguments = { query: 'something else' };
    expect(await verifyAuditLog(copy)).toMatchObject({ ok: false, index: 0, reason: 'hash-mismatch' });
  });
});
