import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAppToolHost } from 'toolgate/core';
import { createHelloMessage } from 'toolgate/client';

describe('an app tool declared with validate alone', () => {
  it('declares the JSON Schema its validator gives (zod), so the model learns the arguments', () => {
    const host = createAppToolHost();
    host.register({ name: 'set_title', validate: z.object({ title: z.string().min(1) }), run: () => null });
    expect(host.declarations()).toEqual([
      { name: 'set_title', parameters: expect.objectContaining({ type: 'object', properties: { title: { type: 'string', minLength: 1 } }, required: ['title'] }) },
    ]);
    expect(createHelloMessage(host).tools[0]).toEqual(host.declarations()[0]);
  });

  it('declares the schema of a valibot validator wrapped by toStandardJsonSchema, and still validates with it', async () => {
    const host = createAppToolHost();
    const run = vi.fn(() => 'ok');
    host.register({ name: 'rename', validate: toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.minLength(1)) })), run });
    expect(host.declarations()[0]?.parameters).toMatchObject({ type: 'object', required: ['name'] });
    await expect(host.call({ callId: 'c1', turnId: 't1', epoch: 0, name: 'rename', arguments: { name: '' } })).resolves.toMatchObject({ ok: false, code: 'INVALID' });
    expect(run).not.toHaveBeenCalled();
  });

  it('keeps parameters given by hand over the derived schema', () => {
    const host = createAppToolHost();
    const parameters = { type: 'object', properties: { title: { type: 'string', description: 'Shown in the tab' } } };
    host.register({ name: 'set_title', parameters, validate: z.object({ title: z.string() }), run: () => null });
    expect(host.declarations()[0]?.parameters).toEqual(parameters);
  });

  it('declares no parameters for a validator whose library offers no JSON Schema (a bare valibot schema)', () => {
    const onError = vi.fn();
    const host = createAppToolHost({ onError });
    host.register({ name: 'rename', validate: v.object({ name: v.string() }), run: () => null });
    expect(host.declarations()).toEqual([{ name: 'rename' }]);
    expect(onError).not.toHaveBeenCalled();
  });

  it('registers the tool without parameters and says why through onError when the library cannot write the schema (a zod date)', async () => {
    const onError = vi.fn();
    const host = createAppToolHost({ onError });
    host.register({ name: 'schedule', validate: z.object({ at: z.date() }), run: ({ at }) => at.getTime() });
    expect(host.declarations()).toEqual([{ name: 'schedule' }]);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(String(onError.mock.calls[0]?.[0])).toMatch(/app tool "schedule" is declared without parameters: .*Date.*Give it parameters/);
    await expect(host.call({ callId: 'c1', turnId: 't1', epoch: 0, name: 'schedule', arguments: { at: 'not a date' } })).resolves.toMatchObject({ ok: false, code: 'INVALID' });
  });
});
