// Type tests of app tools without React (toolgate/core): the same inference as useAppTool's
// (test/hooks/use-app-tool.test-d.ts), for tools registered on a host directly. Checked by tsc.
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type } from 'arktype';
import {
  ToolError,
  createAppToolHost,
  defineAppTool,
  type AppTool,
  type AppToolCallRequest,
  type ToolErrorCode,
  type ToolResult,
} from 'toolgate/core';

describe('app tools in core', () => {
  it('infer the arguments of run from a zod validate, on defineAppTool and on host.register', () => {
    const move = defineAppTool({
      name: 'move',
      validate: z.object({ blockId: z.string(), to: z.number() }),
      run: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ blockId: string; to: number }>();
        return { moved: args.blockId };
      },
    });
    expectTypeOf(move).toEqualTypeOf<AppTool<{ blockId: string; to: number }>>();

    const host = createAppToolHost({ timeoutMs: 5_000 });
    const unregister = host.register({
      name: 'rename',
      validate: z.object({ title: z.string().min(1) }),
      confirm: (args) => args.title.length > 40,
      run: ({ title }, ctx) => {
        expectTypeOf(title).toEqualTypeOf<string>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        expectTypeOf(ctx.epoch).toEqualTypeOf<number>();
      },
    });
    expectTypeOf(unregister).toEqualTypeOf<() => void>();
  });

  it('infer the arguments of run from an ArkType validate (its output, after morphs and defaults)', () => {
    const move = defineAppTool({
      name: 'move',
      validate: type({ blockId: 'string', to: 'string.integer.parse', 'note?': 'string', speed: 'number = 1' }),
      run: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ blockId: string; to: number; note?: string; speed: number }>();
        return { moved: args.blockId };
      },
    });
    expectTypeOf(move).toEqualTypeOf<AppTool<{ blockId: string; to: number; note?: string; speed: number }>>();

    const host = createAppToolHost();
    host.register({
      name: 'rename',
      validate: type({ title: 'string > 0' }),
      confirm: (args) => args.title.length > 40,
      run: ({ title }, ctx) => {
        expectTypeOf(title).toEqualTypeOf<string>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
      },
    });
  });

  it('answer every call with one ToolResult', () => {
    const host = createAppToolHost();
    const request: AppToolCallRequest = { callId: 'c1', turnId: 't1', epoch: 1, name: 'move', arguments: {} };
    expectTypeOf(host.call(request)).toEqualTypeOf<Promise<ToolResult>>();
    expectTypeOf(host.interrupt).parameter(0).toEqualTypeOf<string | undefined>();
  });

  it('let run answer INVALID or REJECTED with a ToolError, and no other code', () => {
    expectTypeOf<ToolErrorCode>().toEqualTypeOf<'INVALID' | 'REJECTED'>();
    new ToolError('REJECTED', 'the user said no');
    // @ts-expect-error: TIMEOUT and INTERRUPTED belong to the host, not to the tool
    new ToolError('TIMEOUT');
  });
});
