import { type } from 'arktype';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaFromValidator } from '../../src/core/json/json-schema-from-validator';

describe('the JSON Schema of a validator (the Standard JSON Schema interface)', () => {
  it('comes from a zod schema: its input, as a plain object schema without $schema', () => {
    const derived = jsonSchemaFromValidator(z.object({ title: z.string().min(1).describe('The new title'), draft: z.boolean().optional() }));
    expect(derived).toEqual({
      ok: true,
      schema: expect.objectContaining({
        type: 'object',
        properties: { title: { type: 'string', minLength: 1, description: 'The new title' }, draft: { type: 'boolean' } },
        required: ['title'],
      }),
    });
    expect(derived?.ok && '$schema' in derived.schema).toBe(false);
  });

  it('comes from an ArkType type', () => {
    expect(jsonSchemaFromValidator(type({ title: 'string > 0', 'count?': 'number.integer' }))).toEqual({
      ok: true,
      schema: expect.objectContaining({ type: 'object', properties: { title: { type: 'string', minLength: 1 }, count: { type: 'integer' } }, required: ['title'] }),
    });
  });

  it('comes from a valibot schema wrapped by toStandardJsonSchema', () => {
    const derived = jsonSchemaFromValidator(toStandardJsonSchema(v.object({ title: v.pipe(v.string(), v.minLength(1)) })));
    expect(derived).toEqual({ ok: true, schema: expect.objectContaining({ type: 'object', properties: { title: { type: 'string', minLength: 1 } }, required: ['title'] }) });
  });

  it('is absent for a validator whose library offers none (a bare valibot schema, a hand-written Standard Schema)', () => {
    expect(jsonSchemaFromValidator(v.object({ title: v.string() }))).toBeUndefined();
    expect(jsonSchemaFromValidator({ '~standard': { version: 1, vendor: 'mine', validate: (value: unknown) => ({ value }) } })).toBeUndefined();
    expect(jsonSchemaFromValidator(undefined)).toBeUndefined();
    expect(jsonSchemaFromValidator('not a schema')).toBeUndefined();
  });

  it('says why, without throwing, when the library cannot write the schema (a zod date)', () => {
    expect(jsonSchemaFromValidator(z.object({ due: z.date() }))).toEqual({ ok: false, reason: expect.stringMatching(/cannot write it as JSON Schema.*Date/) });
  });

  it('refuses a converter that answers with something other than a JSON object', () => {
    const odd = (answer: unknown) => ({ '~standard': { version: 1, vendor: 'odd', validate: () => ({ value: 1 }), jsonSchema: { input: () => answer, output: () => answer } } });
    expect(jsonSchemaFromValidator(odd(['array']))).toEqual({ ok: false, reason: 'its JSON Schema is not an object' });
    expect(jsonSchemaFromValidator(odd({ f: () => 1 }))).toEqual({ ok: false, reason: expect.stringMatching(/is not JSON/) });
  });

  it('keeps a __proto__ key as data, never as a prototype', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as unknown;
    const derived = jsonSchemaFromValidator({ '~standard': { version: 1, vendor: 'x', validate: () => ({ value: 1 }), jsonSchema: { input: () => schema, output: () => schema } } });
    expect(derived?.ok).toBe(true);
    const properties = derived?.ok ? (derived.schema['properties'] as Record<string, unknown>) : {};
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(properties, '__proto__')).toBe(true);
  });
});
