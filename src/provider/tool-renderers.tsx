import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { AppCallState } from '../core/app-tools/app-tool-host';
import { checkJsonSchema } from '../core/json/json-schema-check';
import { formatStandardIssues, isStandardSchema, type StandardSchemaV1 } from '../core/json/standard-schema';
import type { ToolCall } from '../core/stream/tool-call';
import type { ToolResult } from '../core/wire';
import type { ConfirmationView } from '../core/approval/confirmation-types';
import type { EditResult } from '../core/approval/confirmation-controller-types';
import type { CallApproval } from '../hooks/use-call-approval';

/* ------------------------------------------------------------------ types */

/**
 * The TypeScript type a JSON Schema describes, for schemas written `as const` (or passed straight
 * to {@link defineToolRenderer}, which reads them as literals). Reads `type` (a name or a list),
 * `properties`, `required`, `items` (one schema for every element), `enum` and `const`.
 * Limits: no `$ref`, `allOf`/`anyOf`/`oneOf`, `additionalProperties`, `patternProperties`,
 * tuple `items`/`prefixItems`, or formats; what it cannot read becomes `unknown`, and an object
 * without `properties` becomes `Record<string, unknown>`.
 *
 * @example
 * type Args = JsonSchemaType<{ type: 'object'; required: ['to']; properties: { to: { type: 'string' }; n: { type: 'integer' } } }>;
 * // { to: string; n?: number }
 */
export type JsonSchemaType<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: infer T }
      ? T extends readonly (infer U)[]
        ? TypeNamed<U, S>
        : TypeNamed<T, S>
      : S extends { readonly properties: object }
        ? ObjectOf<S>
        : unknown;

type TypeNamed<T, S> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? JsonSchemaType<I>[]
            : unknown[]
          : T extends 'object'
            ? ObjectOf<S>
            : unknown;

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;
type Flat<T> = T extends infer O ? { [K in keyof O]: O[K] } : never;
type ObjectOf<S> = S extends { readonly properties: infer P }
  ? Flat<
      { -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: JsonSchemaType<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: JsonSchemaType<P[K]>;
      }
    >
  : Record<string, unknown>;

/**
 * What arguments look like while the model still writes them: any field, at any depth, may be
 * missing yet (the last element of an array may be half written).
 *
 * @example
 * const so_far: DeepPartial<{ to: string; legs: { from: string }[] }> = { legs: [{}] };
 */
export type DeepPartial<T> = T extends readonly (infer E)[] ? DeepPartial<E>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

/**
 * The arguments' type of a tool renderer's source: a Standard Schema (zod, valibot, ArkType: its
 * output), a tool with `validate` (its output) or `parameters` (a JSON Schema), or a JSON Schema.
 *
 * @example
 * type A = ToolArgumentsOf<typeof flightSchema>; // z.infer<typeof flightSchema>
 */
export type ToolArgumentsOf<S> =
  S extends StandardSchemaV1
    ? StandardSchemaV1.InferOutput<S>
    : S extends { readonly validate?: infer V }
      ? [NonNullable<V>] extends [StandardSchemaV1]
        ? StandardSchemaV1.InferOutput<NonNullable<V>>
        : FromParameters<S>
      : FromParameters<S>;
type FromParameters<S> = S extends { readonly parameters: infer P } ? JsonSchemaType<P> : JsonSchemaType<S>;

/**
 * What a tool's own view is given: the live call, its arguments (partial while streaming, checked
 * once complete), the app tool's state and result when this page ran it, and its approval.
 *
 * @example
 * function FlightCard({ call, partialArguments, arguments: args, result }: ToolRenderProps<Flight>) {
 *   const shown = args ?? partialArguments;
 *   return <article aria-label={call.name}>{shown?.from} → {shown?.to} {result?.ok && <Fares value={result.output} />}</article>;
 * }
 */
export interface ToolRenderProps<Args = unknown> {
  /** The live call: `status`, `progress`, `ok`, `code`, `message`, timestamps, `lateOutcome`. */
  readonly call: ToolCall;
  /** The arguments so far, best effort while the model writes them: not checked, any part may be missing. */
  readonly partialArguments: DeepPartial<Args> | undefined;
  /** The complete arguments; with a schema (see `defineToolRenderer`), only once they pass it. */
  readonly arguments: Args | undefined;
  /** Why the complete arguments fail the renderer's schema. */
  readonly argumentsError: string | undefined;
  /** The app tool's call in this page while it is open (`validating`, `awaiting-approval`, `running`; `progress` from `ctx.emit`). */
  readonly appCall: AppCallState | undefined;
  /** The app tool's result when this page ran it: the server's `settled` carries no output. */
  readonly result: ToolResult | undefined;
  /**
   * The approval this call waits for (the kit shows Approve and Deny below the view), or `null`:
   * given only while a request waits, so its `request` is set.
   */
  readonly approval: CallApproval | null;
}

/**
 * What a tool's review in the confirmation dialog is given: the request under review and the way
 * to change its arguments, the dialog's own edit path (the draft is checked again and gets a
 * fingerprint of its own; what is approved is what runs).
 *
 * @example
 * function TitleReview({ request, submitEdit }: ToolReviewProps) {
 *   return <button onClick={() => void submitEdit({ ...(request.original as object), title: 'Shorter' })}>Shorten</button>;
 * }
 */
export interface ToolReviewProps {
  /** The request: `original` as proposed, `arguments` as they are now (edited or not), `can`, `editable`. */
  readonly request: ConfirmationView;
  /** Replace the arguments under review with `draft` (opens the edit, submits it); the result says whether it was accepted and why not. */
  submitEdit(draft: unknown): Promise<EditResult>;
}

/**
 * A tool's own review, shown by `<ConfirmToolDialog>` in place of the arguments tree (and of the
 * generic editor): set it as `review` on the tool's renderer, so one registration serves the card
 * and the dialog.
 *
 * @example
 * const review: ToolReview = ({ request }) => <pre>{JSON.stringify(request.arguments)}</pre>;
 */
export type ToolReview = (props: ToolReviewProps) => ReactNode;

/**
 * A tool's own view: a function component of {@link ToolRenderProps} (`memo` and `forwardRef`
 * results fit too). With a `review` ({@link ToolReview}), the confirmation dialog shows that for
 * the tool's requests too.
 *
 * @example
 * const FlightCard: ToolRenderer<Flight> = ({ arguments: args }) => <p>{args?.to}</p>;
 */
export type ToolRenderer<Args = unknown> = ((props: ToolRenderProps<Args>) => ReactNode) & { readonly review?: ToolReview | undefined };

/**
 * Renderers by tool name. A tool without one gets the default `<ToolCallCard>`.
 *
 * @example
 * const renderers: ToolRenderers = { search_flights: FlightCard, book_hotel: HotelCard };
 */
export type ToolRenderers = { readonly [toolName: string]: ToolRenderer<never> | undefined };

/* ---------------------------------------------------------------- runtime */

type Checked = { ok: true; value: unknown } | { ok: false; message: string };
type Check = (value: unknown) => Checked | Promise<Checked>;

function checkerOf(source: unknown): Check {
  const s = source as { validate?: unknown; parameters?: unknown };
  const standard = isStandardSchema(source) ? source : isStandardSchema(s.validate) ? s.validate : undefined;
  if (standard) {
    const toChecked = (r: StandardSchemaV1.Result<unknown>): Checked => (r.issues ? { ok: false, message: formatStandardIssues(r.issues) } : { ok: true, value: r.value });
    return (value) => {
      const result = standard['~standard'].validate(value);
      return result instanceof Promise ? result.then(toChecked) : toChecked(result);
    };
  }
  const schema = typeof s.parameters === 'object' && s.parameters !== null ? s.parameters : source;
  return (value) => {
    const result = checkJsonSchema(schema, value);
    return result.ok ? { ok: true, value } : result;
  };
}

const PENDING: Checked = { ok: false, message: '' };

/** The complete arguments checked against the schema; an async validator answers after a render. */
function useChecked(check: Check, value: unknown): Checked | undefined {
  const now = useMemo(() => (value === undefined ? undefined : check(value)), [check, value]);
  const [late, setLate] = useState<{ for: unknown; checked: Checked }>();
  useEffect(() => {
    if (!(now instanceof Promise)) return;
    let live = true;
    now.then(
      (checked) => live && setLate({ for: now, checked }),
      (error: unknown) => live && setLate({ for: now, checked: { ok: false, message: String(error) } }),
    );
    return () => {
      live = false;
    };
  }, [now]);
  if (!(now instanceof Promise)) return now;
  return late?.for === now ? late.checked : PENDING;
}

/**
 * Give a tool's view the type of its arguments, inferred from a Standard Schema (zod, valibot,
 * ArkType), a tool (`validate`, else `parameters`) or a JSON Schema (written inline or `as const`;
 * see {@link JsonSchemaType} for what it reads). The view receives `arguments` only once the
 * complete arguments pass that schema (else `argumentsError` says why); `partialArguments` are
 * never checked: the model is still writing them.
 *
 * @example
 * const FlightCard = defineToolRenderer(
 *   { type: 'object', required: ['from', 'to'], properties: { from: { type: 'string' }, to: { type: 'string' } } },
 *   ({ arguments: args, partialArguments }) => <p>{(args ?? partialArguments)?.from} → {(args ?? partialArguments)?.to}</p>,
 * );
 * <ToolCallList renderers={{ search_flights: FlightCard }} />
 */
export function defineToolRenderer<const S extends object>(source: S, View: ToolRenderer<ToolArgumentsOf<S>>): ToolRenderer<ToolArgumentsOf<S>> {
  const check = checkerOf(source);
  const Inner = View as ToolRenderer<unknown>;
  function CheckedView(props: ToolRenderProps<unknown>): ReactNode {
    const checked = useChecked(check, props.call.arguments);
    return <Inner {...props} arguments={checked?.ok ? checked.value : undefined} argumentsError={checked && !checked.ok ? checked.message || undefined : undefined} />;
  }
  CheckedView.displayName = `Checked(${(View as { displayName?: string }).displayName ?? (View.name || 'ToolRenderer')})`;
  return CheckedView as ToolRenderer<ToolArgumentsOf<S>>;
}

/**
 * The renderers the provider was given (`<ToolgateProvider renderers>`); provide it yourself to
 * give a subtree renderers of its own.
 *
 * @example
 * <ToolRenderersContext.Provider value={{ search_flights: FlightCard }}><ToolCallList /></ToolRenderersContext.Provider>
 */
export const ToolRenderersContext = createContext<ToolRenderers | undefined>(undefined);

/**
 * The renderer of `toolName`: from `local` (a list's own `renderers`) first, then the provider's.
 *
 * @example
 * const View = useToolRenderer('search_flights'); // undefined: the default card
 */
export function useToolRenderer(toolName: string, local?: ToolRenderers): ToolRenderer | undefined {
  const provided = useContext(ToolRenderersContext);
  const own = (r: ToolRenderers | undefined) => (r && Object.hasOwn(r, toolName) ? r[toolName] : undefined);
  return (own(local) ?? own(provided)) as ToolRenderer | undefined;
}
