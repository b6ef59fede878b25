/**
 * The JSON Schema of a validator's input, where its library can give one, so that an app tool
 * declared with `validate` alone still tells the model what arguments it takes.
 *
 * Libraries give it through the Standard JSON Schema interface (`~standard.jsonSchema.input`):
 * zod 4.2+ and ArkType 2.1.28+ on every schema; valibot on a schema wrapped by
 * `toStandardJsonSchema` of `@valibot/to-json-schema`. The kit reads only that interface, so it
 * imports no validator library.
 */

import { snapshotJson, type JsonValue } from './json-value';

/** What a validator's library gave: a schema, nothing (it offers none), or why it could not. */
export type DerivedJsonSchema =
  | { readonly ok: true; readonly schema: Readonly<Record<string, JsonValue>> }
  | { readonly ok: false; readonly reason: string };

interface JsonSchemaConverter {
  input(options: { target: string }): unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The converter of a Standard JSON Schema, or `undefined` when the value is not one. */
function converterOf(validator: unknown): JsonSchemaConverter | undefined {
  if (!isRecord(validator) && typeof validator !== 'function') return undefined;
  const standard = (validator as Record<string, unknown>)['~standard'];
  if (!isRecord(standard)) return undefined;
  const jsonSchema = standard['jsonSchema'];
  if (!isRecord(jsonSchema) || typeof jsonSchema['input'] !== 'function') return undefined;
  return jsonSchema as unknown as JsonSchemaConverter;
}

// draft-07 first: it is the dialect model providers document for tool parameters; a library that
// does not write it gets asked for 2020-12.
const TARGETS = ['draft-07', 'draft-2020-12'] as const;

/**
 * The JSON Schema of what `validator` accepts (its input, which is what the model writes), or
 * `undefined` when its library offers none. The top-level `$schema` is dropped: a tool's
 * `parameters` is a plain object schema. Never throws: a library that cannot express the schema
 * (zod's transforms, dates) gives `{ ok: false, reason }`.
 *
 * @example
 * const derived = jsonSchemaFromValidator(z.object({ title: z.string() }));
 * // { ok: true, schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } }
 */
export function jsonSchemaFromValidator(validator: unknown): DerivedJsonSchema | undefined {
  const converter = converterOf(validator);
  if (!converter) return undefined;
  let last: unknown;
  for (const target of TARGETS) {
    let produced: unknown;
    try {
      produced = converter.input({ target });
    } catch (error) {
      last = error;
      continue;
    }
    const snapshot = snapshotJson(produced);
    if (!snapshot.ok) return { ok: false, reason: `its JSON Schema is not JSON (${snapshot.reason})` };
    const value = snapshot.value;
    if (!isRecord(value) || Array.isArray(value)) return { ok: false, reason: 'its JSON Schema is not an object' };
    const { $schema: _dialect, ...schema } = value as Record<string, JsonValue>;
    return { ok: true, schema: Object.freeze(schema) };
  }
  return { ok: false, reason: `its library cannot write it as JSON Schema (${last instanceof Error ? last.message : String(last)})` };
}
