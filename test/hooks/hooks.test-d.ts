// Type tests of the stream hooks: what they return and what their selectors infer. Checked by tsc;
// the hooks are only type-checked here, never called.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createToolStreamStore,
  useInterrupt,
  useToolCall,
  useToolCalls,
  useToolStream,
  type ToolCall,
  type ToolEventSource,
  type ToolStreamStoreState,
} from 'toolgate';

describe('stream hooks', () => {
  it('useToolStream takes any source with subscribe and returns the state with its actions', () => {
    const source: ToolEventSource = { subscribe: () => () => {} };
    expectTypeOf(useToolStream).parameter(0).toEqualTypeOf<ToolEventSource>();
    expectTypeOf(useToolStream(source)).toEqualTypeOf<ToolStreamStoreState>();
    expectTypeOf<ToolStreamStoreState['calls']>().toEqualTypeOf<Readonly<Record<string, ToolCall>>>();
    expectTypeOf<ToolStreamStoreState['order']>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<ToolStreamStoreState['dispatch']>().toEqualTypeOf<(event: unknown) => void>();
    // @ts-expect-error: a source must be able to subscribe
    useToolStream({});
  });

  it('useToolCall returns the call or undefined, and takes an explicit store', () => {
    expectTypeOf(useToolCall('c1')).toEqualTypeOf<ToolCall | undefined>();
    expectTypeOf(useToolCall).parameter(1).toEqualTypeOf<ReturnType<typeof createToolStreamStore> | undefined>();
  });

  it('useToolCalls infers its result from the selector and checks the equality against it', () => {
    expectTypeOf(useToolCalls((s) => s.order)).toEqualTypeOf<readonly string[]>();
    expectTypeOf(useToolCalls((s) => s.order.length)).toEqualTypeOf<number>();
    expectTypeOf(useToolCalls((s) => ({ closed: s.closed }), (a, b) => a.closed === b.closed)).toEqualTypeOf<{ closed: boolean }>();
    // @ts-expect-error: the equality compares what the selector returns
    useToolCalls((s) => s.order.length, (a: string, b: string) => a === b);
  });

  it('useInterrupt returns a function of an optional turn', () => {
    expectTypeOf(useInterrupt()).toEqualTypeOf<(turnId?: string) => void>();
  });
});
