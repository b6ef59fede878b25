import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { ToolRoomError, ToolRoomUnknownOutcomeError } from 'toolgate/core';
import { createScriptedRoom } from 'toolgate/testing';
import { deferred } from './confirmation-helpers';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('the scripted room', () => {
  it('binds a confirmation to the tool and the hash of the canonical arguments', async () => {
    const room = createScriptedRoom();
    const id = await room.confirmTool('transfer', { b: 2, a: 1 });
    expect(room.confirmations).toEqual([{ id, toolName: 'transfer', hash: sha256('{"a":1,"b":2}'), consumed: false }]);
    // Key order does not matter: the canonical JSON is the same.
    await expect(room.invokeTool('transfer', { a: 1, b: 2 }, id)).resolves.toEqual({ ok: true, effect: 1 });
    expect(room.confirmations[0]?.consumed).toBe(true);
  });

  it('refuses a consumed confirmation and records the refusal (it never silently deduplicates)', async () => {
    const room = createScriptedRoom();
    const id = await room.confirmTool('transfer', { a: 1 });
    await room.invokeTool('transfer', { a: 1 }, id);
    await expect(room.invokeTool('transfer', { a: 1 }, id)).rejects.toMatchObject({ definite: true, code: 'confirmation-consumed' });
    expect(room.effects).toHaveLength(1);
    expect(room.calls.map((c) => c.result)).toEqual(['ok', 'ok', 'refused']);
  });

  it('refuses a confirmation used for other arguments or another tool', async () => {
    const room = createScriptedRoom();
    const id = await room.confirmTool('transfer', { amount: 5 });
    await expect(room.invokeTool('transfer', { amount: 500 }, id)).rejects.toMatchObject({ code: 'confirmation-mismatch' });
    await expect(room.invokeTool('delete', { amount: 5 }, id)).rejects.toMatchObject({ code: 'confirmation-mismatch' });
    await expect(room.invokeTool('transfer', { amount: 5 })).rejects.toMatchObject({ code: 'confirmation-required' });
    await expect(room.invokeTool('transfer', { amount: 5 }, 'forged')).rejects.toMatchObject({ code: 'confirmation-unknown' });
    expect(room.effects).toEqual([]);
    // Still unused: the mismatches did not consume it.
    await expect(room.invokeTool('transfer', { amount: 5 }, id)).resolves.toBeDefined();
  });

  it('checks grants: tool:confirm:NAME to confirm, the required action to invoke', async () => {
    const room = createScriptedRoom({
      grants: ['tool:confirm:transfer'],
      tools: { transfer: { requiresConfirmation: true }, report: { requiresConfirmation: false, requiredAction: 'report:write' } },
    });
    await expect(room.confirmTool('report', {})).rejects.toThrow('missing tool:confirm:report');
    const id = await room.confirmTool('transfer', {});
    await expect(room.invokeTool('transfer', {}, id)).rejects.toThrow('missing tool:invoke:transfer');
    await expect(room.invokeTool('report', {})).rejects.toThrow('missing report:write');
    room.grant('report:write');
    await expect(room.invokeTool('report', {})).resolves.toEqual({ ok: true, effect: 1 });
    room.revoke('tool:confirm:transfer');
    await expect(room.confirmTool('transfer', {})).rejects.toBeInstanceOf(ToolRoomError);
  });

  it('refuses unknown tools when it is given its tools', async () => {
    const room = createScriptedRoom({ tools: { known: {} } });
    await expect(room.confirmTool('unknown', {})).rejects.toMatchObject({ code: 'unknown-tool' });
    await expect(room.invokeTool('unknown', {})).rejects.toMatchObject({ code: 'unknown-tool' });
  });

  it('runs the tool with the room’s own copy of the arguments and returns its output', async () => {
    const run = vi.fn((args) => ({ echoed: args }));
    const room = createScriptedRoom({ tools: { echo: { requiresConfirmation: false, run } } });
    const args = { list: [1, { x: 'y' }] };
    await expect(room.invokeTool('echo', args)).resolves.toEqual({ echoed: args });
    expect(run.mock.calls[0]?.[0]).not.toBe(args);
    expect(room.effects[0]).toMatchObject({ toolName: 'echo', arguments: args, confirmationId: undefined, answered: true });
  });

  it('treats a tool that throws as a definite failure without an effect', async () => {
    const room = createScriptedRoom({
      tools: {
        broken: {
          requiresConfirmation: false,
          run: () => {
            throw new Error('disk full');
          },
        },
      },
    });
    await expect(room.invokeTool('broken', {})).rejects.toMatchObject({ definite: true, message: 'disk full' });
    expect(room.effects).toEqual([]);
    expect(room.calls[0]?.result).toBe('failed');
  });

  it('injects faults once, in order, for the matching tool', async () => {
    const room = createScriptedRoom({
      faults: [
        { kind: 'refuse-confirm', toolName: 'b', reason: 'policy' },
        { kind: 'fail-invoke', times: 2 },
      ],
    });
    const a = await room.confirmTool('a', {});
    await expect(room.confirmTool('b', {})).rejects.toThrow('policy');
    const b = await room.confirmTool('b', {});
    await expect(room.invokeTool('a', {}, a)).rejects.toMatchObject({ definite: true, code: 'failed' });
    await expect(room.invokeTool('b', {}, b)).rejects.toMatchObject({ definite: true });
    const again = await room.confirmTool('a', {});
    await expect(room.invokeTool('a', {}, again)).resolves.toBeDefined();
  });

  it('loses a response after the effect happened: the promise rejects with an unknown outcome', async () => {
    const room = createScriptedRoom({ faults: [{ kind: 'lose-response' }] });
    const id = await room.confirmTool('transfer', {});
    const error = await room.invokeTool('transfer', {}, id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolRoomUnknownOutcomeError);
    expect(room.effects).toEqual([expect.objectContaining({ toolName: 'transfer', answered: false })]);
    expect(room.calls.at(-1)?.result).toBe('lost');
  });

  it('loses a request on the way there: nothing happens, nothing is consumed, the outcome is unknown', async () => {
    const room = createScriptedRoom({ faults: [{ kind: 'lose-request' }] });
    const id = await room.confirmTool('transfer', {});
    await expect(room.invokeTool('transfer', {}, id)).rejects.toMatchObject({ definite: false, code: 'lost-request' });
    expect(room.effects).toEqual([]);
    expect(room.confirmations[0]?.consumed).toBe(false);
  });

  it('delays calls by delayMs and faults, divided by speed, through the injected sleep', async () => {
    const sleeps: number[] = [];
    const room = createScriptedRoom({
      delayMs: 100,
      speed: 4,
      faults: [{ kind: 'delay', ms: 300, method: 'invokeTool' }],
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
    const id = await room.confirmTool('t', {});
    await room.invokeTool('t', {}, id);
    expect(sleeps).toEqual([25, 100]);
    const instant = createScriptedRoom({ delayMs: 100, speed: Number.POSITIVE_INFINITY, sleep: () => Promise.reject(new Error('slept')) });
    await expect(instant.confirmTool('t', {})).resolves.toBeDefined();
  });

  it('counts calls in flight', async () => {
    const gate = deferred();
    const room = createScriptedRoom({ delayMs: 1, sleep: () => gate.promise });
    const pending = room.confirmTool('t', {});
    expect(room.pending).toBe(1);
    gate.resolve();
    await pending;
    expect(room.pending).toBe(0);
  });

  it('refuses arguments that are not JSON', async () => {
    const room = createScriptedRoom();
    await expect(room.confirmTool('t', { f: () => 1 })).rejects.toMatchObject({ code: 'invalid-arguments' });
  });
});
