/**
 * Edit, then approve, through the provider: an editable `useAppTool` runs exactly the person's
 * checked edit and its card shows it marked edited; a server request marked editable is edited
 * with the schema the provider was given, and the edit goes back with a fingerprint of its own.
 */
import { StrictMode } from 'react';
import { act, render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolgateProvider, createToolStreamStore, useAppTool, useConfirmationController, type ConfirmationController } from 'toolgate';
import { fingerprintJson } from 'toolgate/json';
import { callEvents, createScriptedSession } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';

function Capture({ into }: { into: { confirmations?: ConfirmationController } }) {
  into.confirmations = useConfirmationController();
  return null;
}

describe('an editable app tool through the provider', () => {
  it('runs exactly the checked edit the person approved, and its card is marked edited with what ran', async () => {
    const session = createScriptedSession();
    const store = createToolStreamStore();
    const into: { confirmations?: ConfirmationController } = {};
    const ran: unknown[] = [];
    function Note() {
      useAppTool({
        name: 'save_note',
        validate: z.object({ text: z.string().min(1), pinned: z.boolean().default(false) }),
        confirm: true,
        editable: true,
        run: (args) => void ran.push(args),
      });
      return null;
    }
    render(
      <StrictMode>
        <ToolgateProvider session={session} store={store}>
          <Note />
          <Capture into={into} />
        </ToolgateProvider>
      </StrictMode>,
    );
    act(() => callEvents('n1', { name: 'save_note', arguments: { text: 'draft' }, outcome: 'open', location: 'app' }).forEach((event) => session.emit(event)));
    const result = session.callTool({ callId: 'n1', turnId: 't1', name: 'save_note', arguments: { text: 'draft' } });
    await waitFor(() => expect(into.confirmations?.getState().current).toMatchObject({ callId: 'n1', status: 'reviewing', editable: true }), { timeout: 10_000 });
    act(() => into.confirmations?.edit());
    // Refused by the tool's own validator: nothing is approved, the person stays in the editor.
    await expect(act(() => into.confirmations!.submitEdit({ text: '' }))).resolves.toMatchObject({ ok: false });
    expect(into.confirmations?.getState().current?.status).toBe('editing');
    await expect(act(() => into.confirmations!.submitEdit({ text: 'final' }))).resolves.toEqual({ ok: true });
    await waitFor(() => expect(into.confirmations?.getState().current).toMatchObject({ status: 'reviewing', edited: true, arguments: { text: 'final', pinned: false } }));
    act(() => void into.confirmations?.approve());
    await expect(result).resolves.toEqual({ ok: true, output: null });
    expect(ran).toEqual([{ text: 'final', pinned: false }]);
    expect(callOf(store.getState(), 'n1')).toMatchObject({ approval: 'approved', approvalEdited: true, approvedArguments: { text: 'final', pinned: false } });
  }, 20_000);
});

describe('a server request marked editable', () => {
  it('is edited with the schema the provider was given, and goes back with the edit and its own fingerprint', async () => {
    const session = createScriptedSession();
    const store = createToolStreamStore();
    const into: { confirmations?: ConfirmationController } = {};
    const schema = { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] };
    render(
      <StrictMode>
        <ToolgateProvider session={session} store={store} schemas={{ refund: schema }}>
          <Capture into={into} />
        </ToolgateProvider>
      </StrictMode>,
    );
    act(() => {
      callEvents('r1', { name: 'refund', arguments: { amount: 90 }, outcome: 'open', location: 'server' }).forEach((event) => session.emit(event));
      session.emit({ type: 'tool.approval-request', requestId: 'q1', callId: 'r1', name: 'refund', arguments: { amount: 90 }, risk: 'medium', effect: 'write', editable: true });
    });
    await waitFor(() => expect(into.confirmations?.getState().current).toMatchObject({ status: 'reviewing', editable: true, schema }), { timeout: 10_000 });
    act(() => into.confirmations?.edit());
    // The schema holds in the editor: nothing is approved.
    await expect(act(() => into.confirmations!.submitEdit({ amount: 'all of it' }))).resolves.toMatchObject({ ok: false, issues: [{ path: ['amount'] }] });
    await expect(act(() => into.confirmations!.submitEdit({ amount: 40 }))).resolves.toEqual({ ok: true });
    await waitFor(() => expect(into.confirmations?.getState().current).toMatchObject({ status: 'reviewing', arguments: { amount: 40 } }));
    act(() => void into.confirmations?.approve());
    await waitFor(() => expect(session.sent.filter((m) => m.type === 'tool.approval')).toHaveLength(1));
    const answer = session.sent.find((m) => m.type === 'tool.approval');
    expect(answer).toEqual({
      type: 'tool.approval',
      requestId: 'q1',
      approved: true,
      decision: 'approve',
      arguments: { amount: 40 },
      fingerprint: (await fingerprintJson({ amount: 40 })).hex,
      toolName: expect.any(String),
      definitionFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(callOf(store.getState(), 'r1')).toMatchObject({ approval: 'approved', approvalEdited: true, approvedArguments: { amount: 40 } });
  }, 20_000);
});
