// Type tests of useAppTool: checked by `tsc --noEmit` (which `npm test` runs first), so a wrong
// type fails the run. The hooks are only type-checked here, never called.
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import * as v from 'valibot';
import {
  createAppToolHost,
  useAppTool,
  useAppTools,
  type AppCallState,
  type AppToolContext,
  type AppToolState,
  type AppToolView,
  type JsonValue,
  type ToolResult,
  type UseAppToolOptions,
} from 'toolgate';
import type { AppToolStatus } from '../../src/core/app-tools/app-tool-host';

describe('useAppTool types', () => {
  it('infers the arguments from a zod validate, for run and confirm', () => {
    function Tool() {
      return useAppTool({
        name: 'move',
        validate: z.object({ blockId: z.string(), to: z.number().int(), note: z.string().optional() }),
        confirm: (args) => {
          expectTypeOf(args).toEqualTypeOf<{ blockId: string; to: number; note?: string | undefined }>();
          return args.to > 10;
        },
        run: (args, ctx) => {
          expectTypeOf(args).toEqualTypeOf<{ blockId: string; to: number; note?: string | undefined }>();
          expectTypeOf(ctx).toEqualTypeOf<AppToolContext>();
          expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
          expectTypeOf(ctx.emit).parameter(0).toBeUnknown();
          return args.blockId;
        },
      });
    }
    expectTypeOf(Tool).returns.toEqualTypeOf<AppToolView>();
  });

  it("gives run the validator's output type (after transforms and defaults)", () => {
    function Tool() {
      useAppTool({
        name: 'when',
        validate: z.object({ at: z.string().transform((s) => new Date(s)), limit: z.number().default(10) }),
        run: (args) => {
          expectTypeOf(args).toEqualTypeOf<{ at: Date; limit: number }>();
        },
      });
    }
    void Tool;
  });

  it('infers from valibot too', () => {
    function Tool() {
      useAppTool({
        name: 'vb',
        validate: v.object({ n: v.number() }),
        run: ({ n }) => {
          expectTypeOf(n).toEqualTypeOf<number>();
        },
      });
    }
    void Tool;
  });

  it('types the arguments as a plain record without validate, or as the type given', () => {
    function Loose() {
      useAppTool({
        name: 'loose',
        run: (args) => {
          expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        },
      });
    }
    function Given() {
      useAppTool<{ title: string }>({
        name: 'given',
        parameters: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
        run: ({ title }) => {
          expectTypeOf(title).toEqualTypeOf<string>();
        },
      });
    }
    void Loose;
    void Given;
  });

  it('refuses a run whose arguments disagree with validate', () => {
    function Wrong() {
      useAppTool({
        name: 'wrong',
        // @ts-expect-error: validate says id is a string, run wants a number
        validate: z.object({ id: z.string() }),
        run: (args: { id: number }) => args.id,
      });
    }
    function NoName() {
      // @ts-expect-error: a tool needs a name
      useAppTool({ run: () => null });
    }
    void Wrong;
    void NoName;
  });

  it('takes an explicit host in the options', () => {
    expectTypeOf<UseAppToolOptions>().toEqualTypeOf<{ host?: ReturnType<typeof createAppToolHost> }>();
    expectTypeOf(useAppTool).parameter(1).toEqualTypeOf<UseAppToolOptions | undefined>();
  });

  it('returns the live state for UI', () => {
    expectTypeOf<AppToolView['status']>().toEqualTypeOf<AppToolStatus>();
    expectTypeOf<AppToolStatus>().toEqualTypeOf<'idle' | 'queued' | 'awaiting-approval' | 'running'>();
    expectTypeOf<AppToolView['callId']>().toEqualTypeOf<string | null>();
    expectTypeOf<AppToolView['turnId']>().toEqualTypeOf<string | null>();
    expectTypeOf<AppToolView['arguments']>().toEqualTypeOf<JsonValue | undefined>();
    expectTypeOf<AppToolView['progress']>().toBeUnknown();
    expectTypeOf<AppToolView['queued']>().toEqualTypeOf<number>();
    expectTypeOf<AppToolView['current']>().toEqualTypeOf<AppCallState | null>();
    expectTypeOf<AppToolView['lastResult']>().toEqualTypeOf<{ readonly callId: string; readonly result: ToolResult } | null>();
    expectTypeOf<AppToolView['awaitingApproval']>().toEqualTypeOf<boolean>();
    expectTypeOf<AppToolView['closed']>().toEqualTypeOf<boolean>();
    expectTypeOf(useAppTools).returns.toEqualTypeOf<readonly AppToolState[]>();
  });
});
