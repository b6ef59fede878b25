/**
 * The page and the server agree on a schema: a person's edit may not add a key the tool's schema
 * forbids (`additionalProperties: false`). The editor refuses it with an issue at that key, and
 * the host refuses an approval that carries one, so `run` never receives a key the server would
 * refuse. A model's call is not held to it here: a validator that strips unknown keys still does.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAppToolHost, createConfirmationController } from 'toolgate/core';
import { createAppToolApprovalHandler } from 'toolgate/client';
import { createManualClock } from 'toolgate/testing';
import { shown } from './confirmation-helpers';

const noteParameters = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
};

describe('an edit meets the keys its schema allows', () => {
  it('refuses in the editor a key the schema forbids, and nothing runs with it', async () => {
    const confirmations = createConfirmationController();
    const host = createAppToolHost({ clock: createManualClock(), requestApproval: createAppToolApprovalHandler(confirmations) });
    const run = vi.fn((args: unknown) => args);
    host.register({ name: 'save_note', parameters: noteParameters, confirm: true, editable: true, run });
    const result = host.call({ callId: 'n1', turnId: 't1', epoch: 0, name: 'save_note', arguments: { text: 'draft' } });
    await shown(confirmations);
    confirmations.edit();
    const refused = await confirmations.submitEdit({ text: 'final', recipient: 'everyone@example.com' });
    expect(refused).toEqual({ ok: false, issues: [{ path: ['recipient'], message: 'this key is not allowed' }] });
    expect(confirmations.getState().current?.status).toBe('editing');
    expect(await confirmations.submitEdit({ text: 'final' })).toEqual({ ok: true });
    await shown(confirmations);
    confirmations.approve();
    expect(await result).toEqual({ ok: true, output: { text: 'final' } });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('refuses an approval whose edit carries a key the schema forbids (INVALID), and run never receives it', async () => {
    const run = vi.fn((args: unknown) => args);
    const host = createAppToolHost({
      clock: createManualClock(),
      // An answer is data like any other: one that skipped the editor's check.
      requestApproval: async () => ({ approved: true, arguments: { text: 'final', recipient: 'everyone@example.com' } }),
    });
    host.register({ name: 'save_note', parameters: noteParameters, confirm: true, editable: true, run });
    const result = await host.call({ callId: 'n1', turnId: 't1', epoch: 0, name: 'save_note', arguments: { text: 'draft' } });
    expect(result).toMatchObject({ ok: false, code: 'INVALID', message: expect.stringContaining('arguments.recipient: this key is not allowed') });
    expect(run).not.toHaveBeenCalled();
  });

  it('checks keys that additionalProperties gives a schema, and lets patternProperties name keys', async () => {
    const confirmations = createConfirmationController();
    const outcome = confirmations.request({
      toolName: 'label',
      arguments: { name: 'a' },
      editable: { schema: { type: 'object', properties: { name: { type: 'string' } }, patternProperties: { '^x-': {} }, additionalProperties: { type: 'number' } } },
      onApprove: () => null,
    });
    await shown(confirmations);
    confirmations.edit();
    expect(await confirmations.submitEdit({ name: 'a', weight: 'heavy' })).toMatchObject({ ok: false, issues: [{ path: ['weight'], message: 'expected number, got string' }] });
    expect(await confirmations.submitEdit({ name: 'a', weight: 3, 'x-note': 'kept' })).toEqual({ ok: true });
    await shown(confirmations);
    confirmations.approve();
    await expect(outcome).resolves.toMatchObject({ status: 'done' });
  });

  it('still lets a model’s call with an extra key reach a validator that strips it', async () => {
    const run = vi.fn((args: unknown) => args);
    const host = createAppToolHost({ clock: createManualClock() });
    host.register({ name: 'save_note', parameters: noteParameters, validate: z.object({ text: z.string() }), run });
    const result = await host.call({ callId: 'n1', turnId: 't1', epoch: 0, name: 'save_note', arguments: { text: 'hi', extra: true } });
    expect(result).toEqual({ ok: true, output: { text: 'hi' } });
  });
});
