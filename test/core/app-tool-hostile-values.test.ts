/**
 * One answer for every call, at once: whatever a run throws or returns, however hostile, the call
 * answers at once with a message that could be read safely, nothing is left as an unhandled
 * rejection, and the queue moves on. Hosts here have no time limit (`timeoutMs: Infinity`), so a
 * call that missed its answer would wait forever.
 */
import { describe, expect, it } from 'vitest';
import { createAppToolHost, ToolError, type AppToolCallRequest, type AppToolHost, type ToolResult } from 'toolgate/core';
import { hostile, hostileOutputs, watchUnhandledRejections } from '../fixtures/hostile-values';

/* ------------------------------------------------------------------ helpers */

const unhandled = watchUnhandledRejections();

/** A few macrotasks: time for any rejection to be reported as unhandled. */
async function turns(count = 3): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** The result if the call has one within a few macrotasks (no clock moves), else 'no answer'. */
async function answerAtOnce(pending: Promise<ToolResult>): Promise<ToolResult | 'no answer'> {
  let result: ToolResult | 'no answer' = 'no answer';
  void pending.then((r) => {
    result = r;
  });
  await turns();
  return result;
}

let n = 0;
const call = (name: string, args: Record<string, unknown> = {}): AppToolCallRequest => ({ callId: `h${++n}`, turnId: 't', epoch: 0, name, arguments: args });

function noLimitHost(): AppToolHost {
  return createAppToolHost({ timeoutMs: Infinity, requestApproval: async () => ({ approved: true }) });
}

/** Calls `name`, then a plain tool queued behind it, and checks both answer at once. */
async function answersAndMovesOn(host: AppToolHost, name: string): Promise<ToolResult & { ok: false }> {
  host.register({ name: 'next', run: () => 'next ran' });
  const first = host.call(call(name));
  const next = host.call(call('next'));
  const result = await answerAtOnce(first);
  expect(result).not.toBe('no answer');
  expect(await answerAtOnce(next)).toEqual({ ok: true, output: 'next ran' });
  expect(host.getState().queue).toEqual([]);
  return result as ToolResult & { ok: false };
}

/* -------------------------------------------------------------------- tests */

describe('a run that throws a value no one can read', () => {
  for (const [what, make] of Object.entries(hostile)) {
    it(`answers FAILED at once with a safe message when run throws ${what}, leaves nothing unhandled, and the queue moves on`, async () => {
      const host = noLimitHost();
      host.register({
        name: 'throws',
        run: () => {
          throw make();
        },
      });
      const result = await answersAndMovesOn(host, 'throws');
      expect(result.code).toBe('FAILED');
      expect(result.message).toMatch(/^"throws" threw: /);
      await turns();
      expect(unhandled).toEqual([]);
    });

    it(`answers FAILED at once when run rejects with ${what}`, async () => {
      const host = noLimitHost();
      host.register({ name: 'rejects', run: async () => Promise.reject(make()) });
      const result = await answersAndMovesOn(host, 'rejects');
      expect(result.code).toBe('FAILED');
      expect(typeof result.message).toBe('string');
      await turns();
      expect(unhandled).toEqual([]);
    });
  }

  it('keeps the message of an ordinary Error and of a ToolError', async () => {
    const host = noLimitHost();
    host.register({
      name: 'plain',
      run: () => {
        throw new Error('disk full');
      },
    });
    host.register({
      name: 'declines',
      run: () => {
        throw new ToolError('REJECTED', 'locked');
      },
    });
    await expect(host.call(call('plain'))).resolves.toEqual({ ok: false, code: 'FAILED', message: '"plain" threw: disk full' });
    await expect(host.call(call('declines'))).resolves.toEqual({ ok: false, code: 'REJECTED', message: 'locked' });
  });

  it('answers a ToolError whose message getter throws with its code and an empty message', async () => {
    const host = noLimitHost();
    host.register({
      name: 'odd-tool-error',
      run: () => {
        const error = new ToolError('INVALID', 'x');
        Object.defineProperty(error, 'message', {
          get() {
            throw new Error('message getter');
          },
        });
        throw error;
      },
    });
    const result = await answersAndMovesOn(host, 'odd-tool-error');
    expect(result).toEqual({ ok: false, code: 'INVALID', message: '' });
  });
});

describe('a run that returns an output no one can read', () => {
  for (const [what, make] of Object.entries(hostileOutputs)) {
    it(`answers FAILED at once when run returns ${what}, leaves nothing unhandled, and the queue moves on`, async () => {
      const host = noLimitHost();
      host.register({ name: 'returns', run: () => make() });
      const result = await answersAndMovesOn(host, 'returns');
      expect(result.code).toBe('FAILED');
      expect(result.message).toMatch(/^("returns" threw|the output of "returns" cannot be sent as JSON): /);
      await turns();
      expect(unhandled).toEqual([]);
    });

    it(`answers FAILED at once when an async run resolves to ${what}`, async () => {
      const host = noLimitHost();
      host.register({ name: 'resolves', run: async () => make() });
      const result = await answersAndMovesOn(host, 'resolves');
      expect(result.code).toBe('FAILED');
      await turns();
      expect(unhandled).toEqual([]);
    });
  }
});

describe('other steps that meet a value no one can read', () => {
  for (const [what, make] of Object.entries(hostile)) {
    it(`answers FAILED at once when the validator throws ${what}`, async () => {
      const host = noLimitHost();
      host.register({
        name: 'v',
        validate: {
          '~standard': {
            version: 1,
            vendor: 'test',
            validate: () => {
              throw make();
            },
          },
        },
        run: () => 'ran',
      });
      const result = await answersAndMovesOn(host, 'v');
      expect(result).toMatchObject({ code: 'FAILED' });
      expect(result.message).toMatch(/^the validator of "v" threw: /);
    });

    it(`answers FAILED at once when the validator answers with ${what}`, async () => {
      const host = noLimitHost();
      host.register({
        name: 'v2',
        validate: { '~standard': { version: 1, vendor: 'test', validate: () => make() as never } },
        run: () => 'ran',
      });
      expect((await answersAndMovesOn(host, 'v2')).code).toBe('FAILED');
    });

    it(`answers FAILED at once when confirm throws ${what}`, async () => {
      const host = noLimitHost();
      host.register({
        name: 'c',
        confirm: () => {
          throw make();
        },
        run: () => 'ran',
      });
      const result = await answersAndMovesOn(host, 'c');
      expect(result.message).toMatch(/^confirm of "c" threw: /);
    });

    it(`answers at once, without running, when the approval answer is ${what}`, async () => {
      const host = createAppToolHost({ timeoutMs: Infinity, requestApproval: async () => make() as never });
      let ran = false;
      host.register({
        name: 'a',
        confirm: true,
        run: () => {
          ran = true;
        },
      });
      const result = await answersAndMovesOn(host, 'a');
      expect(['FAILED', 'REJECTED']).toContain(result.code);
      expect(ran).toBe(false);
    });
  }

  it('answers FAILED at once when a step no other answer covers throws (the injected clock), and the queue moves on', async () => {
    const host = createAppToolHost({
      timeoutMs: 1000,
      clock: {
        now: () => 0,
        setTimeout: () => {
          throw hostile['a Proxy whose traps all throw']();
        },
        clearTimeout: () => {},
      },
    });
    host.register({ name: 'clocked', run: () => 'ran' });
    const first = host.call(call('clocked'));
    const second = host.call(call('clocked'));
    expect(await answerAtOnce(first)).toEqual({
      ok: false,
      code: 'FAILED',
      message: '"clocked" could not be run to a result: a value that cannot be described',
    });
    expect(await answerAtOnce(second)).toMatchObject({ ok: false, code: 'FAILED' });
    await turns();
    expect(unhandled).toEqual([]);
  });

  it('answers INVALID at once for a call whose fields cannot be read', async () => {
    const host = noLimitHost();
    const request = new Proxy({} as AppToolCallRequest, {
      get() {
        throw new Error('get trap');
      },
    });
    expect(await answerAtOnce(host.call(request))).toMatchObject({ ok: false, code: 'INVALID' });
  });

  it('answers INVALID at once for arguments that cannot be read', async () => {
    const host = noLimitHost();
    host.register({ name: 'r', run: () => 'ran' });
    for (const make of Object.values(hostile)) {
      const result = await answerAtOnce(host.call({ ...call('r'), arguments: make() as Record<string, unknown> }));
      expect(result).toMatchObject({ ok: false, code: 'INVALID' });
    }
    await turns();
    expect(unhandled).toEqual([]);
  });
});
