/**
 * Standard Schema v1 (https://standardschema.dev): the interface that zod, valibot, ArkType and
 * others implement, so a tool's `validate` can come from any of them without the kit depending
 * on one. The spec invites copying its types instead of depending on `@standard-schema/spec`;
 * the two namespaces below are copied from its version 1.1.0 unchanged (MIT, Colin McDonnell
 * and contributors), the helpers after them are the kit's.
 */

/* ----------------------------------------------------- copied from the spec */

/**
 * The Standard Typed interface. This is a base type extended by other specs.
 *
 * @example
 * type Output = StandardTypedV1.InferOutput<typeof schema>;
 */
export interface StandardTypedV1<Input = unknown, Output = Input> {
  /** The Standard properties. */
  readonly '~standard': StandardTypedV1.Props<Input, Output>;
}

export declare namespace StandardTypedV1 {
  /** The Standard Typed properties interface. */
  interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1;
    /** The vendor name of the schema library. */
    readonly vendor: string;
    /** Inferred types associated with the schema. */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** The Standard Typed types interface. */
  interface Types<Input = unknown, Output = Input> {
    /** The input type of the schema. */
    readonly input: Input;
    /** The output type of the schema. */
    readonly output: Output;
  }
  /** Infers the input type of a Standard Typed. */
  type InferInput<Schema extends StandardTypedV1> = NonNullable<Schema['~standard']['types']>['input'];
  /** Infers the output type of a Standard Typed. */
  type InferOutput<Schema extends StandardTypedV1> = NonNullable<Schema['~standard']['types']>['output'];
}

/**
 * The Standard Schema interface.
 *
 * @example
 * const schema: StandardSchemaV1<unknown, { title: string }> = z.object({ title: z.string() });
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties interface. */
  interface Props<Input = unknown, Output = Input> extends StandardTypedV1.Props<Input, Output> {
    /** Validates unknown input values. */
    readonly validate: (
      value: unknown,
      options?: StandardSchemaV1.Options | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
  }
  /** The result interface of the validate function. */
  type Result<Output> = SuccessResult<Output> | FailureResult;
  /** The result interface if validation succeeds. */
  interface SuccessResult<Output> {
    /** The typed output value. */
    readonly value: Output;
    /** A falsy value for `issues` indicates success. */
    readonly issues?: undefined;
  }
  interface Options {
    /** Explicit support for additional vendor-specific parameters, if needed. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** The result interface if validation fails. */
  interface FailureResult {
    /** The issues of failed validation. */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** The issue interface of the failure output. */
  interface Issue {
    /** The error message of the issue. */
    readonly message: string;
    /** The path of the issue, if any. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** The path segment interface of the issue. */
  interface PathSegment {
    /** The key representing a path segment. */
    readonly key: PropertyKey;
  }
  /** The Standard types interface. */
  interface Types<Input = unknown, Output = Input> extends StandardTypedV1.Types<Input, Output> {}
  /** Infers the input type of a Standard. */
  type InferInput<Schema extends StandardTypedV1> = StandardTypedV1.InferInput<Schema>;
  /** Infers the output type of a Standard. */
  type InferOutput<Schema extends StandardTypedV1> = StandardTypedV1.InferOutput<Schema>;
}

/* ------------------------------------------------------------ the kit's own */

/**
 * What {@link validateStandard} resolves to: the validator's output value, or a readable reason.
 *
 * @example
 * const checked: StandardValidation<{ title: string }> = await validateStandard(schema, args);
 * if (!checked.ok) console.warn(checked.message);
 */
export type StandardValidation<Output> =
  | { ok: true; value: Output }
  | { ok: false; message: string; issues: ReadonlyArray<StandardSchemaV1.Issue> };

/**
 * True when `value` looks like a Standard Schema v1 validator (has `~standard.validate`).
 *
 * @example
 * isStandardSchema(z.object({})) // true
 * isStandardSchema({ type: 'object' }) // false: that is JSON Schema
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/**
 * Run a Standard Schema validator, whether its `validate` answers at once or with a promise,
 * and turn its issues into one message that names each path (`arguments.tags[1]: …`).
 * A validator that throws rejects the promise: that is a bug in the validator, not bad input.
 *
 * @example
 * const checked = await validateStandard(z.object({ title: z.string() }), { title: 3 });
 * if (!checked.ok) console.log(checked.message); // "arguments.title: Invalid input: expected string, received number"
 */
export async function validateStandard<Output>(
  schema: StandardSchemaV1<unknown, Output>,
  value: unknown,
): Promise<StandardValidation<Output>> {
  // The spec allows either a result or a promise of one; `await` takes both.
  const result = await schema['~standard'].validate(value);
  if (result.issues) {
    return { ok: false, message: formatStandardIssues(result.issues), issues: result.issues };
  }
  return { ok: true, value: result.value };
}

/**
 * One line per issue, `path: message`, joined with `; `. Paths read as JavaScript
 * (`arguments.items[0].name`), the same as the kit's JSON Schema check.
 *
 * @example
 * formatStandardIssues([{ message: 'Required', path: ['title'] }]) // "arguments.title: Required"
 */
export function formatStandardIssues(issues: ReadonlyArray<StandardSchemaV1.Issue>, root = 'arguments'): string {
  if (issues.length === 0) return `${root}: invalid`;
  return issues
    .map((issue) => {
      let path = root;
      for (const segment of issue.path ?? []) {
        const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
        path += formatPathKey(key);
      }
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * One step of a readable path: `.name` for identifiers, `[2]` for array indexes (numbers),
 * `["odd key"]` for any other key.
 *
 * @example
 * 'arguments' + formatPathKey('tags') + formatPathKey(1) + formatPathKey('a b') // 'arguments.tags[1]["a b"]'
 */
export function formatPathKey(key: PropertyKey): string {
  if (typeof key === 'number') return `[${key}]`;
  if (typeof key === 'symbol') return `[${String(key)}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return `.${key}`;
  return `[${JSON.stringify(key)}]`;
}
