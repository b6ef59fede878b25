/**
 * An editable app tool: the person may edit its arguments before approving. The edit is checked
 * by the tool's schema and validator in the editor, checked again by the host, and is exactly what
 * `run` receives and what the host's state shows; a tool that is not editable never runs edited
 * arguments; while the call waits for the person its tool reads `awaiting-approval`, never
 * `running`; a deny's reason reaches the REJECTED message.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAppToolHost, createConfirmationController, createToolStreamStore, type JsonValue } from 'toolgate/core';
import { type AppToolApprovalRequest } from 'toolgate/client';
import { createAppToolApprovalHandler } from 'toolgate/client';
import { callEvents, createManualClock } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';
import { settleAll, shown } from './confirmation-helpers';

const noteSchema = z.object({ text: z.string().min(1), tags: z.array(z.string()).default([]) });

function setup() {
  const confirmations = createConfirmationController();
  const store = createToolStreamStore();
  const host = createAppToolHost({ clock: createManualClock(), requestApproval: createAppToolApprovalHandler(confirmations, { calls: store }) });
  const run = vi.fn((args: unknown) => ({ saved: args }));
  host.register({ name: 'save_note', validate: noteSchema, confirm: true, editable: true, run });
  for (const event of callEvents('n1', { name: 'save_note', arguments: { text: 'draft' }, outcome: 'open', location: 'app' })) store.getState().dispatch(event);
  return { confirmations, store, host, run };
}

describe('an editable app tool', () => {
  it('runs exactly the edited snapshot the person approved, checked by the tool’s own validator', async () => {
    const { confirmations, store, host, run } = setup();
    const result = host.call({ callId: 'n1', turnId: 't1', epoch: 0, name: 'save_note', arguments: { text: 'draft' } });
    const view = await shown(confirmations);
    expect(view).toMatchObject({ editable: true, arguments: { text: 'draft', tags: [] } });
    expect(view.schema).toMatchObject({ type: 'object' });
    expect(host.getState().tools.save_note?.status).toBe('awaiting-approval');
    expect(callOf(store.getState(), 'n1')?.approval).toBe('awaiting');
    confirmations.edit();
    // The validator refuses an empty text: the person stays in the editor, nothing runs.
    const refused = await confirmations.submitEdit({ text: '' });
    expect(refused).toMatchObject({ ok: false, issues: [{ path: ['text'] }] });
    expect(confirmations.getState().current?.status).toBe('editing');
    // The validator fills in tags: that is what the person then sees and approves.
    expect(await confirmations.submitEdit({ text: 'final' })).toEqual({ ok: true });
    const edited = await shown(confirmations);
    expect(edited.arguments).toEqual({ text: 'final', tags: [] });
    confirmations.approve();
    expect(await result).toEqual({ ok: true, output: { saved: { text: 'final', tags: [] } } });
    expect(run).toHaveBeenCalledTimes(1);
    // The host checks the answer again from a copy of its own: what runs equals what was approved, frozen.
    expect(run.mock.calls[0]![0]).toEqual(edited.arguments);
    expect(Object.isFrozen(run.mock.calls[0]![0])).toBe(true);
    expect(host.getState().tools.save_note?.lastResult?.result).toEqual({ ok: true, output: { saved: { text: 'final', tags: [] } } });
    expect(callOf(store.getState(), 'n1')).toMatchObject({ approval: 'approved', approvalEdited: true, approvedArguments: { text: 'final', tags: [] } });
  });

  it('says "awaiting-approval", never "running", while the call waits for the person', async () => {
    const { confirmations, host } = setup();
    void host.call({ callId: 'n1', turnId: 't1', epoch: 0, name: 'save_note', arguments: { text: 'x' } });
    await shown(confirmations);
    expect(host.getState().tools.save_note).toMatchObject({ status: 'awaiting-approval', current: { status: 'awaiting-approval' } });
    confirmations.approve();
    await settleAll();
    expect(host.getState().tools.save_note?.status).toBe('idle');
  });

  it('sends the person’s reason with REJECTED', async () => {
    const { confirmations, host, run, store } = setup();
    const result = host.call({ callId: 'n1', turnId: 't1', epoch: 0, name: 'save_note', arguments: { text: 'x' } });
    await shown(confirmations);
    confirmations.deny('wrong note');
    expect(await result).toEqual({ ok: false, code: 'REJECTED', message: 'declined by the user: wrong note' });
    expect(run).not.toHaveBeenCalled();
    expect(callOf(store.getState(), 'n1')).toMatchObject({ approval: 'denied', approvalReason: 'wrong note' });
  });
});

describe('edited arguments checked again by the host', () => {
  const answering = (answer: unknown) => {
    const asked: AppToolApprovalRequest[] = [];
    const host = createAppToolHost({
      clock: createManualClock(),
      requestApproval: async (request) => {
        asked.push(request);
        return answer as never;
      },
    });
    return { host, asked };
  };

  it('never runs edited arguments for a tool that is not editable', async () => {
    const { host, asked } = answering({ approved: true, arguments: { text: 'other' } });
    const run = vi.fn();
    host.register({ name: 'save_note', confirm: true, run });
    const result = await host.call({ callId: 'c', turnId: 't', epoch: 0, name: 'save_note', arguments: { text: 'x' } });
    expect(asked[0]?.editable).toBeUndefined();
    expect(result).toMatchObject({ ok: false, code: 'FAILED' });
    expect(run).not.toHaveBeenCalled();
  });

  it('answers INVALID, and runs nothing, for an edit that breaks the schema or that the validator would change again', async () => {
    for (const [tool, edit] of [
      [{ parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }, { text: 5 }],
      [{ validate: noteSchema }, { text: 'no tags yet' }],
      [{ validate: noteSchema }, { text: '' }],
    ] as const) {
      const { host } = answering({ approved: true, arguments: edit });
      const run = vi.fn();
      host.register({ name: 'save_note', confirm: true, editable: true, run, ...(tool as object) });
      const result = await host.call({ callId: 'c', turnId: 't', epoch: 0, name: 'save_note', arguments: { text: 'x' } });
      expect(result).toMatchObject({ ok: false, code: 'INVALID' });
      expect(run).not.toHaveBeenCalled();
    }
  });

  it('runs a valid edit, frozen, and shows it in the host’s state', async () => {
    const { host } = answering({ approved: true, arguments: { text: 'kept', tags: ['a'] } });
    let seen: JsonValue | undefined;
    host.register({ name: 'save_note', confirm: true, editable: true, validate: noteSchema, run: (args) => void (seen = args as JsonValue) });
    const result = await host.call({ callId: 'c', turnId: 't', epoch: 0, name: 'save_note', arguments: { text: 'x' } });
    expect(result).toEqual({ ok: true, output: null });
    expect(seen).toEqual({ text: 'kept', tags: ['a'] });
    expect(Object.isFrozen(seen)).toBe(true);
  });
});
