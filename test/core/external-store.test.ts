import { describe, expect, it, vi } from 'vitest';
import { createExternalStore, describeThrown, reportListenerError } from '../../src/core/external-store';

describe('the one external-store core', () => {
  it('keeps notifying the other listeners when one throws, and reports it once through onError', () => {
    const onError = vi.fn();
    const store = createExternalStore({ n: 0 }, { onError });
    const heard: number[] = [];
    store.subscribe(() => {
      throw new Error('boom');
    });
    store.subscribe((state) => heard.push(state.n));
    expect(() => store.setState({ n: 1 })).not.toThrow();
    expect(heard).toEqual([1]);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toBe('a listener threw: Error: boom');
    expect(onError.mock.calls[0]![2]).toBe('listener-threw');
  });

  it('logs a throwing listener to console.error when no onError is given', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const store = createExternalStore({ n: 0 });
    store.subscribe(() => {
      throw new Error('boom');
    });
    store.setState({ n: 1 });
    expect(spy).toHaveBeenCalledWith('a listener threw: Error: boom', expect.any(Error));
    spy.mockRestore();
  });

  it('survives a reporter that throws', () => {
    expect(() =>
      reportListenerError(new Error('x'), () => {
        throw new Error('reporter');
      }),
    ).not.toThrow();
  });

  it('describes thrown values whose message getter, traps or toString throw, without throwing', () => {
    const badMessage = new Error('x');
    Object.defineProperty(badMessage, 'message', {
      get() {
        throw new Error('no');
      },
    });
    expect(describeThrown(badMessage)).toBe('Error');
    const trap = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('trap');
        },
        get() {
          throw new Error('trap');
        },
      },
    );
    expect(describeThrown(trap)).toBe('a value that cannot be described');
    const noString = Object.create(null) as object;
    expect(describeThrown(noString)).toBe('a value that cannot be described');
    expect(describeThrown('plain')).toBe('plain');
  });
});
