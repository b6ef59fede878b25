/**
 * Several at once: "Approve all N" and "Deny all N" decide exactly the N requests a list showed
 * (their ids, with the fingerprints shown), never one that arrives later, nor one whose arguments
 * changed since.
 */
import { describe, expect, it } from 'vitest';
import { createConfirmationController, type ConfirmationPick, type ConfirmationView, type JsonValue } from 'toolgate/core';
import { settleAll, until } from './confirmation-helpers';

function setup() {
  const confirmations = createConfirmationController();
  const ran: JsonValue[] = [];
  const ask = (args: JsonValue, turnId = 't1') =>
    confirmations.request({ toolName: 'insert_text', turnId, arguments: args, descriptor: { effect: 'write', risk: 'low', requiresConfirmation: true }, onApprove: (a) => void ran.push(a) });
  return { confirmations, ran, ask };
}

const pending = (views: readonly (ConfirmationView | null)[]) => views.filter((v): v is ConfirmationView => v !== null && v.fingerprint !== null);
const picks = (views: readonly ConfirmationView[]): ConfirmationPick[] => views.map((v) => ({ requestId: v.id, fingerprint: v.fingerprint!.hex }));

describe('approve all and deny all', () => {
  it('approves exactly the listed requests, the shown one and those waiting, and not one that arrives after the list was made', async () => {
    const { confirmations, ran, ask } = setup();
    const outcomes = [ask({ n: 1 }), ask({ n: 2 }), ask({ n: 3 })];
    const state = await until(confirmations, (s) => pending([s.current, ...s.queue]).length === 3);
    const listed = picks(pending([state.current, ...state.queue]));
    const late = ask({ n: 4 });
    await settleAll();
    expect(confirmations.approveAll(listed)).toEqual(listed.map((p) => p.requestId));
    for (const outcome of outcomes) expect((await outcome).status).toBe('done');
    expect(ran).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    const left = await until(confirmations, (s) => s.current?.status === 'reviewing');
    expect(left.current?.arguments).toEqual({ n: 4 });
    confirmations.deny();
    await late;
  });

  it('approves nothing twice: a second "Approve all" over the same list changes nothing', async () => {
    const { confirmations, ran, ask } = setup();
    const outcomes = [ask({ n: 1 }), ask({ n: 2 })];
    const state = await until(confirmations, (s) => pending([s.current, ...s.queue]).length === 2);
    const listed = picks(pending([state.current, ...state.queue]));
    confirmations.approveAll(listed);
    expect(confirmations.approveAll(listed)).toEqual([]);
    await Promise.all(outcomes);
    expect(ran).toHaveLength(2);
  });

  it('skips a listed request whose fingerprint is not the one shown', async () => {
    const { confirmations, ran, ask } = setup();
    const outcomes = [ask({ n: 1 }), ask({ n: 2 })];
    const state = await until(confirmations, (s) => pending([s.current, ...s.queue]).length === 2);
    const listed = picks(pending([state.current, ...state.queue]));
    const wrong = [{ ...listed[0]!, fingerprint: '0'.repeat(64) }, listed[1]!];
    expect(confirmations.approveAll(wrong)).toEqual([listed[1]!.requestId]);
    await outcomes[1];
    expect(ran).toEqual([{ n: 2 }]);
    confirmations.deny();
    await outcomes[0];
  });

  it('denies exactly the listed requests with one reason', async () => {
    const { confirmations, ran, ask } = setup();
    const outcomes = [ask({ n: 1 }), ask({ n: 2 })];
    const state = await until(confirmations, (s) => pending([s.current, ...s.queue]).length === 2);
    const listed = picks(pending([state.current, ...state.queue]));
    const late = ask({ n: 3 });
    expect(confirmations.denyAll(listed, 'wrong document')).toHaveLength(2);
    for (const outcome of outcomes) expect(await outcome).toEqual({ status: 'denied', reason: 'wrong document' });
    expect((await until(confirmations, (s) => s.current?.status === 'reviewing')).current?.arguments).toEqual({ n: 3 });
    confirmations.approve();
    await late;
    expect(ran).toEqual([{ n: 3 }]);
  });

  it('takes garbage without throwing', () => {
    const { confirmations } = setup();
    expect(confirmations.approveAll(null as never)).toEqual([]);
    expect(confirmations.denyAll([{ requestId: 'nope', fingerprint: '' }, null as never])).toEqual([]);
  });
});
