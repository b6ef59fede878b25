// The confirmation controller's one error policy: whatever user code it was given throws (a
// listener, onResult, onDeny, checkOutcome, a room, onApprove), the flow goes on, the request
// still reaches an outcome, and what threw is told once through onError(reason, detail, code).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConfirmationController, type ToolDescriptor, type ToolRoom } from 'toolgate/core';
import { createScriptedRoom } from 'toolgate/testing';
import { shown } from './confirmation-helpers';

const write: ToolDescriptor = { effect: 'write', risk: 'high', requiresConfirmation: true };

/** An error nobody can read: its message getter throws. */
function unreadable(): Error {
  const error = new Error('x');
  Object.defineProperty(error, 'message', {
    get() {
      throw new Error('no message for you');
    },
  });
  return error;
}

afterEach(() => vi.restoreAllMocks());

describe('the confirmation error policy', () => {
  it('reports a throwing onDeny and request onResult as (reason, thrown value, code), and still settles the request', async () => {
    const onError = vi.fn();
    const confirmations = createConfirmationController({ room: createScriptedRoom(), onError });
    const thrown = new Error('broken onDeny');
    const outcome = confirmations.request({
      toolName: 'a',
      arguments: {},
      descriptor: write,
      onDeny: () => {
        throw thrown;
      },
      onResult: () => {
        throw 'a string, not an Error';
      },
    });
    await shown(confirmations);
    expect(confirmations.deny('no')).toBe(true);
    expect(await outcome).toEqual({ status: 'denied', reason: 'no' });
    expect(onError.mock.calls).toEqual([
      ['onDeny threw: Error: broken onDeny', thrown, 'listener-threw'],
      ['onResult threw: a string, not an Error', 'a string, not an Error', 'listener-threw'],
    ]);
    expect(confirmations.getState().current).toBeNull();
  });

  it('reports a checkOutcome that throws, and reads it as a check that could not tell', async () => {
    const onError = vi.fn();
    const thrown = new Error('ledger offline');
    const confirmations = createConfirmationController({
      room: createScriptedRoom({ faults: [{ kind: 'lose-response' }] }),
      onError,
      checkOutcome: () => {
        throw thrown;
      },
    });
    void confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    await shown(confirmations);
    confirmations.approve();
    await shown(confirmations, 'uncertain');
    expect(confirmations.check()).toBe(true);
    await shown(confirmations, 'checking');
    const after = await shown(confirmations, 'uncertain');
    expect(after.outcome).toEqual({ status: 'uncertain', reason: expect.stringContaining('ledger offline') });
    expect(onError).toHaveBeenCalledWith('checkOutcome threw: Error: ledger offline', thrown, 'listener-threw');
  });

  it('logs to console.error when no onError is given, instead of throwing into the flow', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const confirmations = createConfirmationController({ room: createScriptedRoom() });
    confirmations.subscribe(() => {
      throw new Error('broken listener');
    });
    const outcome = confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    await shown(confirmations);
    confirmations.approve();
    expect((await outcome).status).toBe('done');
    expect(log).toHaveBeenCalledWith('a listener threw: Error: broken listener', expect.any(Error));
  });

  it('goes on when the reporter itself throws', async () => {
    const confirmations = createConfirmationController({
      room: createScriptedRoom(),
      onError: () => {
        throw new Error('broken reporter');
      },
      onResult: () => {
        throw new Error('broken onResult');
      },
    });
    const outcome = confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    await shown(confirmations);
    confirmations.approve();
    expect((await outcome).status).toBe('done');
  });

  it('reads a room method that throws at once like one that rejects: refused before the invoke, uncertain for a write after it', async () => {
    const refusing: ToolRoom = {
      confirmTool: () => {
        throw new Error('no tool:confirm');
      },
      invokeTool: vi.fn(),
    };
    const first = createConfirmationController({ room: refusing });
    const refused = first.request({ toolName: 'a', arguments: {}, descriptor: write });
    await shown(first);
    first.approve();
    expect((await shown(first, 'refused')).outcome).toEqual({ status: 'refused', reason: expect.stringContaining('no tool:confirm') });
    first.dismiss();
    await refused;
    expect(refusing.invokeTool).not.toHaveBeenCalled();

    const losing: ToolRoom = {
      confirmTool: () => Promise.resolve('c-1'),
      invokeTool: () => {
        throw new Error('socket gone');
      },
    };
    const second = createConfirmationController({ room: losing });
    void second.request({ toolName: 'a', arguments: {}, descriptor: write });
    await shown(second);
    second.approve();
    expect((await shown(second, 'uncertain')).outcome).toEqual({ status: 'uncertain', reason: expect.stringContaining('socket gone') });
  });

  it('ends a request whose room answers with an error that cannot be read, instead of leaving it in flight', async () => {
    const room: ToolRoom = { confirmTool: () => Promise.resolve('c-1'), invokeTool: () => Promise.reject(unreadable()) };
    const confirmations = createConfirmationController({ room });
    void confirmations.request({ toolName: 'a', arguments: {}, descriptor: write });
    await shown(confirmations);
    confirmations.approve();
    const view = await shown(confirmations, 'uncertain');
    expect(view.outcome).toEqual({ status: 'uncertain', reason: expect.stringMatching(/^No answer came back \(Error\)/) });

    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    );
    const refusing: ToolRoom = { confirmTool: () => Promise.reject(hostile), invokeTool: vi.fn() };
    const other = createConfirmationController({ room: refusing });
    void other.request({ toolName: 'a', arguments: {}, descriptor: write });
    await shown(other);
    other.approve();
    expect((await shown(other, 'refused')).outcome).toEqual({ status: 'refused', reason: expect.stringContaining('no reason given') });
  });

  it('reads an onApprove that throws as the call failing: uncertain for a write, failed for a read', async () => {
    const confirmations = createConfirmationController();
    for (const [effect, status] of [['write', 'uncertain'], ['read', 'failed']] as const) {
      void confirmations.request({
        toolName: effect,
        arguments: {},
        descriptor: { effect, risk: 'low', requiresConfirmation: true },
        onApprove: () => {
          throw new Error('editor gone');
        },
      });
      await shown(confirmations);
      confirmations.approve();
      expect((await shown(confirmations, status)).outcome).toMatchObject({ status, reason: expect.stringContaining('editor gone') });
      confirmations.dismiss();
    }
  });
});
