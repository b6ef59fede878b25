// Type tests of defineToolRenderer, JsonSchemaType and useHumanTool: checked by `tsc --noEmit`,
// so a wrong inference fails the run. Nothing here is rendered.
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import * as v from 'valibot';
import {
  defineAppTool,
  defineToolRenderer,
  useHumanTool,
  type AppCallState,
  type CallApproval,
  type HumanToolView,
  type JsonSchemaType,
  type PersonRequest,
  type ToolArgumentsOf,
  type ToolCall,
  type ToolRenderProps,
  type ToolRenderer,
  type ToolRenderers,
  type ToolResult,
} from 'toolgate';
import type { DeepPartial } from '../../src/provider/tool-renderers';

const flightSchema = z.object({ from: z.string(), to: z.string(), passengers: z.number().int().default(1), legs: z.array(z.object({ date: z.string() })) });
type Flight = z.output<typeof flightSchema>;

describe('defineToolRenderer infers the arguments', () => {
  it("from a zod schema (its output type)", () => {
    const View = defineToolRenderer(flightSchema, (props) => {
      expectTypeOf(props.arguments).toEqualTypeOf<Flight | undefined>();
      expectTypeOf(props.arguments).toEqualTypeOf<{ from: string; to: string; passengers: number; legs: { date: string }[] } | undefined>();
      expectTypeOf(props.partialArguments).toEqualTypeOf<DeepPartial<Flight> | undefined>();
      expectTypeOf(props.partialArguments?.legs).toEqualTypeOf<{ date?: string }[] | undefined>();
      expectTypeOf(props.call).toEqualTypeOf<ToolCall>();
      expectTypeOf(props.result).toEqualTypeOf<ToolResult | undefined>();
      expectTypeOf(props.appCall).toEqualTypeOf<AppCallState | undefined>();
      expectTypeOf(props.approval).toEqualTypeOf<CallApproval | null>();
      expectTypeOf(props.argumentsError).toEqualTypeOf<string | undefined>();
      return null;
    });
    expectTypeOf(View).toEqualTypeOf<ToolRenderer<Flight>>();
  });

  it('from a valibot schema', () => {
    defineToolRenderer(v.object({ city: v.string(), nights: v.optional(v.number()) }), ({ arguments: args }) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; nights?: number | undefined } | undefined>();
      return null;
    });
  });

  it('from a tool with validate', () => {
    const tool = defineAppTool({ name: 'rename', validate: z.object({ title: z.string() }), run: ({ title }) => title });
    defineToolRenderer(tool, ({ arguments: args }) => {
      expectTypeOf(args).toEqualTypeOf<{ title: string } | undefined>();
      return null;
    });
  });

  it('from a JSON Schema written inline, without as const', () => {
    defineToolRenderer(
      {
        type: 'object',
        required: ['to', 'amount'],
        properties: {
          to: { type: 'string' },
          amount: { type: 'number' },
          currency: { enum: ['EUR', 'USD'] },
          tags: { type: 'array', items: { type: 'string' } },
          note: { type: ['string', 'null'] },
          urgent: { type: 'boolean' },
        },
      },
      ({ arguments: args, partialArguments }) => {
        expectTypeOf(args).toEqualTypeOf<
          { to: string; amount: number; currency?: 'EUR' | 'USD'; tags?: string[]; note?: string | null; urgent?: boolean } | undefined
        >();
        expectTypeOf(partialArguments?.to).toEqualTypeOf<string | undefined>();
        return null;
      },
    );
  });

  it('from a JSON Schema declared as const, and from a tool with parameters', () => {
    const parameters = { type: 'object', required: ['q'], properties: { q: { type: 'string' }, limit: { type: 'integer' } } } as const;
    type Search = { q: string; limit?: number };
    expectTypeOf<JsonSchemaType<typeof parameters>>().toEqualTypeOf<Search>();
    expectTypeOf<ToolArgumentsOf<{ name: 'search'; parameters: typeof parameters }>>().toEqualTypeOf<Search>();
    defineToolRenderer(parameters, ({ arguments: args }) => {
      expectTypeOf(args).toEqualTypeOf<Search | undefined>();
      return null;
    });
  });

  it('reads nested objects and says unknown for what it cannot read', () => {
    type Nested = JsonSchemaType<{
      type: 'object';
      required: ['trip'];
      properties: { trip: { type: 'object'; required: ['from']; properties: { from: { type: 'string' } } }; extra: { anyOf: [{ type: 'string' }] } };
    }>;
    expectTypeOf<Nested>().toEqualTypeOf<{ trip: { from: string }; extra?: unknown }>();
    expectTypeOf<JsonSchemaType<{ type: 'object' }>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<JsonSchemaType<{ const: 3 }>>().toEqualTypeOf<3>();
  });

  it('accepts a component written for the same type, and refuses one written for another', () => {
    const FlightCard = (_props: ToolRenderProps<Flight>) => null;
    defineToolRenderer(flightSchema, FlightCard);
    const HotelCard = (_props: ToolRenderProps<{ hotel: string }>) => null;
    // @ts-expect-error: a hotel view cannot show flights
    defineToolRenderer(flightSchema, HotelCard);
  });

  it('puts renderers of different tools in one registry', () => {
    const renderers: ToolRenderers = {
      search_flights: defineToolRenderer(flightSchema, () => null),
      plain: (props: ToolRenderProps) => {
        expectTypeOf(props.arguments).toBeUnknown();
        return null;
      },
    };
    expectTypeOf(renderers).toMatchTypeOf<ToolRenderers>();
  });
});

describe('useHumanTool types', () => {
  it('types render from validate and the answer, and returns the live request', () => {
    function Tool() {
      return useHumanTool<{ question: string; options: string[] }, { choice: string }>({
        name: 'choose',
        validate: z.object({ question: z.string(), options: z.array(z.string()) }),
        waitsForPerson: true,
        render: ({ args, respond, cancel, signal }) => {
          expectTypeOf(args.options).toEqualTypeOf<string[]>();
          expectTypeOf(respond).parameter(0).toEqualTypeOf<{ choice: string }>();
          expectTypeOf(cancel).parameters.toEqualTypeOf<[reason?: string]>();
          expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
          return null;
        },
      });
    }
    expectTypeOf(Tool).returns.toEqualTypeOf<HumanToolView<{ question: string; options: string[] }, { choice: string }>>();
    expectTypeOf<HumanToolView<{ q: string }, number>['request']>().toEqualTypeOf<PersonRequest<{ q: string }, number> | null>();
  });

  it('infers the arguments from validate when no type is given', () => {
    function Tool() {
      return useHumanTool({
        name: 'confirm_address',
        validate: z.object({ street: z.string() }),
        render: ({ args }) => {
          expectTypeOf(args).toEqualTypeOf<{ street: string }>();
          return null;
        },
      });
    }
    void Tool;
  });
});
