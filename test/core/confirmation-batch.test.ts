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

describe('a batch never replaces a person’s single review', () => {
  const tools = {
    every_time: { effect: 'write', risk: 'low', requiresConfirmation: true, confirmEveryTime: true },
    transfer: { effect: 'write', risk: 'high', requiresConfirmation: true },
    undeclared: { effect: 'write', requiresConfirmation: true },
    search: { effect: 'read', risk: 'low', requiresConfirmation: true },
  } as const;

  function four() {
    const confirmations = createConfirmationController();
    const ran: string[] = [];
    const outcomes = Object.entries(tools).map(([toolName, descriptor]) =>
      confirmations.request({ toolName, turnId: 't1', arguments: { tool: toolName }, descriptor, onApprove: () => void ran.push(toolName) }),
    );
    return { confirmations, ran, outcomes };
  }

  it('refuses a batch approval of a request that must be reviewed alone, with a reason, and runs only the others', async () => {
    const { confirmations, ran, outcomes } = four();
    const state = await until(confirmations, (s) => pending([s.current, ...s.queue]).length === 4);
    const all = pending([state.current, ...state.queue]);
    const result = confirmations.approveAll(picks(all));
    const byTool = (name: string) => all.find((v) => v.toolName === name)!.id;
    expect([...result]).toEqual([byTool('search')]);
    expect(result.refused).toEqual([
      { requestId: byTool('every_time'), reason: expect.stringMatching(/^every_time must be reviewed alone: /), reviewAlone: 'every-time' },
      { requestId: byTool('transfer'), reason: expect.stringMatching(/^transfer must be reviewed alone: /), reviewAlone: 'high-risk' },
      { requestId: byTool('undeclared'), reason: expect.stringMatching(/^undeclared must be reviewed alone: /), reviewAlone: 'risk-not-declared' },
    ]);
    await expect(outcomes[3]).resolves.toMatchObject({ status: 'done' });
    await settleAll();
    expect(ran).toEqual(['search']);
    // The three are still waiting, each for a person's own review.
    const after = confirmations.getState();
    expect([after.current, ...after.queue].map((v) => v?.toolName)).toEqual(['every_time', 'transfer', 'undeclared']);
    confirmations.withdrawAll();
    await Promise.allSettled(outcomes);
  });

  it('brings a request that must be reviewed alone to the dialog, the one shown waiting its turn again', async () => {
    const { confirmations, ran, outcomes } = four();
    const state = await until(confirmations, (s) => pending([s.current, ...s.queue]).length === 4);
    expect(state.current?.toolName).toBe('every_time');
    const transfer = state.queue.find((v) => v.toolName === 'transfer')!;
    expect(confirmations.show({ requestId: transfer.id })).toBe(true);
    const now = await until(confirmations, (s) => s.current?.id === transfer.id && s.current.status === 'reviewing');
    expect(now.queue.map((v) => [v.toolName, v.status])).toEqual([
      ['every_time', 'idle'],
      ['undeclared', 'idle'],
      ['search', 'idle'],
    ]);
    // A late "yes" meant for the one that was shown approves nothing.
    expect(confirmations.approve({ requestId: state.current!.id })).toBe(false);
    expect(confirmations.approve({ requestId: transfer.id })).toBe(true);
    await expect(outcomes[1]).resolves.toMatchObject({ status: 'done' });
    const next = await until(confirmations, (s) => s.current?.status === 'reviewing');
    expect(next.current?.toolName).toBe('every_time');
    expect(ran).toEqual(['transfer']);
    confirmations.withdrawAll();
    await Promise.allSettled(outcomes);
  });

  it('keeps the dialog on a request being edited: the one asked for comes next', async () => {
    const confirmations = createConfirmationController();
    const first = confirmations.request({ toolName: 'note', arguments: { a: 1 }, editable: true, descriptor: tools.search, onApprove: () => null });
    const second = confirmations.request({ toolName: 'transfer', arguments: { b: 2 }, descriptor: tools.transfer, onApprove: () => null });
    const state = await until(confirmations, (s) => s.current?.status === 'reviewing' && s.queue.length === 1);
    confirmations.edit();
    expect(confirmations.show({ requestId: state.queue[0]!.id })).toBe(false);
    expect(confirmations.getState().current?.status).toBe('editing');
    confirmations.deny();
    const next = await until(confirmations, (s) => s.current?.status === 'reviewing');
    expect(next.current?.toolName).toBe('transfer');
    confirmations.deny();
    await Promise.all([first, second]);
  });
});
