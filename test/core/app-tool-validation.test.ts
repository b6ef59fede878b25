import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import * as v from 'valibot';
import { type } from 'arktype';
import {
  createAppToolHost,
  defineAppTool,
  ToolError,
  type AppToolCallRequest,
} from 'toolgate/core';
import { checkJsonSchema } from '../../src/core/json/json-schema-check';
import { formatStandardIssues, isStandardSchema, validateStandard } from '../../src/core/json/standard-schema';
import { isToolError } from '../../src/core/app-tools/tool-error';

let n = 0;
const call = (name: string, args: unknown): AppToolCallRequest => ({
  callId: `v${++n}`,
  turnId: 't',
  epoch: 0,
  name,
  arguments: args,
});

describe('checkJsonSchema', () => {
  const schema = {
    type: 'object',
    required: ['title', 'mode'],
    properties: {
      title: { type: 'string' },
      mode: { enum: ['append', 'replace'] },
      count: { type: 'integer' },
      ratio: { type: ['number', 'null'] },
      tags: { type: 'array', items: { type: 'string' } },
      pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
      nested: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, 'odd key': { type: 'boolean' } } },
      fixed: { const: { a: [1, 2] } },
    },
  };
  const good = { title: 'T', mode: 'append' };

  it('accepts arguments that meet type, required, properties, items, enum and const', () => {
    expect(
      checkJsonSchema(schema, {
        ...good,
        count: 3,
        ratio: null,
        tags: ['a'],
        pair: ['x', 1],
        nested: { id: 'n', 'odd key': true },
        fixed: { a: [1, 2] },
      }),
    ).toEqual({ ok: true });
  });

  it.each([
    [{ mode: 'append' }, 'arguments', 'arguments: missing required property "title"'],
    [{ ...good, title: 4 }, 'arguments.title', 'arguments.title: expected string, got integer'],
    [{ ...good, mode: 'merge' }, 'arguments.mode', 'arguments.mode: expected one of "append", "replace", got "merge"'],
    [{ ...good, count: 1.5 }, 'arguments.count', 'arguments.count: expected integer, got number'],
    [{ ...good, ratio: 'x' }, 'arguments.ratio', 'arguments.ratio: expected number or null, got string'],
    [{ ...good, tags: ['a', null] }, 'arguments.tags[1]', 'arguments.tags[1]: expected string, got null'],
    [{ ...good, pair: ['x', 'y'] }, 'arguments.pair[1]', 'arguments.pair[1]: expected number, got string'],
    [{ ...good, nested: {} }, 'arguments.nested', 'arguments.nested: missing required property "id"'],
    [{ ...good, nested: { id: 'n', 'odd key': 1 } }, 'arguments.nested["odd key"]', 'arguments.nested["odd key"]: expected boolean, got integer'],
    [{ ...good, fixed: { a: [2, 1] } }, 'arguments.fixed', 'arguments.fixed: expected {"a":[1,2]}, got {"a":[2,1]}'],
    [[], 'arguments', 'arguments: expected object, got array'],
  ])('names the path and the expectation when arguments break it (%j)', (value, path, message) => {
    expect(checkJsonSchema(schema, value)).toEqual({ ok: false, path, message });
  });

  it('compares enum and const values as JSON, ignoring key order', () => {
    expect(checkJsonSchema({ enum: [{ a: 1, b: 2 }] }, { b: 2, a: 1 })).toEqual({ ok: true });
  });

  it('does not find a required property on the prototype', () => {
    expect(checkJsonSchema({ required: ['toString'] }, {})).toMatchObject({ ok: false });
  });

  it('ignores keywords it does not check instead of refusing', () => {
    expect(
      checkJsonSchema({ type: 'object', additionalProperties: false, properties: { a: { pattern: '^x', format: 'email', type: 'uuid-ish' } } }, { a: 'y', b: 2 }),
    ).toEqual({ ok: true });
  });

  it.each([
    [{ minimum: 0.01 }, 0, 'must be at least 0.01, got 0'],
    [{ maximum: 1_000_000 }, 5_000_000, 'must be at most 1000000, got 5000000'],
    [{ exclusiveMinimum: 0 }, 0, 'must be more than 0, got 0'],
    [{ exclusiveMaximum: 10 }, 10, 'must be less than 10, got 10'],
    [{ minLength: 1 }, '', 'must have at least 1 character, got 0'],
    [{ maxLength: 3 }, 'abcd', 'must have at most 3 characters, got 4'],
    [{ minItems: 1 }, [], 'must have at least 1 item, got 0'],
    [{ maxItems: 2 }, [1, 2, 3], 'must have at most 2 items, got 3'],
  ])('refuses a value outside the bound %j: %j', (bound, value, expectation) => {
    expect(checkJsonSchema({ properties: { a: bound } }, { a: value })).toEqual({ ok: false, path: 'arguments.a', message: `arguments.a: ${expectation}` });
  });

  it('accepts values on their bounds, and counts a string in code points as JSON Schema does', () => {
    const schema = { properties: { n: { minimum: 1, maximum: 2 }, s: { minLength: 2, maxLength: 2 }, list: { minItems: 1, maxItems: 1 } } };
    expect(checkJsonSchema(schema, { n: 1, s: '😀😀', list: [0] })).toEqual({ ok: true });
    expect(checkJsonSchema(schema, { n: 2, s: 'ab', list: ['x'] })).toEqual({ ok: true });
  });

  it('reads a bound only for its kind of value, and never a malformed bound', () => {
    expect(checkJsonSchema({ minimum: 5, minLength: 5, minItems: 5 }, true)).toEqual({ ok: true });
    expect(checkJsonSchema({ minLength: 5 }, 3)).toEqual({ ok: true });
    expect(checkJsonSchema({ minimum: '5', maxLength: -1, maxItems: 1.5 }, 1)).toEqual({ ok: true });
    expect(checkJsonSchema({ maxLength: -1, minItems: '2' }, 'abc')).toEqual({ ok: true });
    expect(checkJsonSchema({ maxItems: 1.5 }, [1, 2, 3])).toEqual({ ok: true });
  });

  it('treats the boolean schema true as anything and false as nothing', () => {
    expect(checkJsonSchema(true, 1)).toEqual({ ok: true });
    expect(checkJsonSchema({ properties: { a: false } }, { a: 1 })).toEqual({
      ok: false,
      path: 'arguments.a',
      message: 'arguments.a: no value is allowed here',
    });
  });
});

describe('Standard Schema validation', () => {
  it('recognises zod, valibot and ArkType schemas as Standard Schema, and JSON Schema as not', () => {
    expect(isStandardSchema(z.object({}))).toBe(true);
    expect(isStandardSchema(v.object({}))).toBe(true);
    expect(isStandardSchema(type({}))).toBe(true);
    expect(isStandardSchema({ type: 'object' })).toBe(false);
  });

  it('joins issues into one message that names each path', () => {
    expect(
      formatStandardIssues([
        { message: 'Required', path: ['title'] },
        { message: 'Expected string', path: [{ key: 'tags' }, 1] },
        { message: 'Bad' },
      ]),
    ).toBe('arguments.title: Required; arguments.tags[1]: Expected string; arguments: Bad');
  });

  it('resolves a sync and an async validator alike', async () => {
    await expect(validateStandard(z.string(), 'x')).resolves.toEqual({ ok: true, value: 'x' });
    const slow = z.string().refine(async (s) => s.length > 2, 'too short');
    await expect(validateStandard(slow, 'ab')).resolves.toMatchObject({ ok: false, message: 'arguments: too short' });
  });
});

describe('an app tool with a Standard Schema validate', () => {
  it('answers INVALID with the zod issue and path, without running', async () => {
    const host = createAppToolHost();
    const run = vi.fn();
    host.register({ name: 'z', validate: z.object({ title: z.string() }), run });
    const result = await host.call(call('z', { title: 3 }));
    expect(result).toMatchObject({ ok: false, code: 'INVALID' });
    expect(result.ok ? '' : result.message).toMatch(/^arguments\.title: /);
    expect(run).not.toHaveBeenCalled();
  });

  it('answers INVALID when an async zod refinement fails', async () => {
    const host = createAppToolHost();
    const run = vi.fn();
    const taken = new Set(['home']);
    host.register({
      name: 'slug',
      validate: z.object({ slug: z.string().refine(async (s) => !taken.has(s), 'slug is taken') }),
      run,
    });
    await expect(host.call(call('slug', { slug: 'home' }))).resolves.toEqual({
      ok: false,
      code: 'INVALID',
      message: 'arguments.slug: slug is taken',
    });
    expect(run).not.toHaveBeenCalled();
  });

  it("gives run the validator's output value, not the raw arguments", async () => {
    const host = createAppToolHost();
    const tool = defineAppTool({
      name: 'when',
      validate: z.object({ at: z.string().transform((s) => s.toUpperCase()), limit: z.number().default(10) }),
      run: (args) => args,
    });
    expectTypeOf(tool.run).parameter(0).toEqualTypeOf<{ at: string; limit: number }>();
    host.register(tool);
    await expect(host.call(call('when', { at: 'noon' }))).resolves.toEqual({ ok: true, output: { at: 'NOON', limit: 10 } });
  });

  it('validates with valibot too', async () => {
    const host = createAppToolHost();
    host.register({ name: 'vb', validate: v.object({ n: v.number() }), run: ({ n }) => n * 2 });
    await expect(host.call(call('vb', { n: 21 }))).resolves.toEqual({ ok: true, output: 42 });
    await expect(host.call(call('vb', { n: '21' }))).resolves.toMatchObject({ ok: false, code: 'INVALID' });
  });

  it("validates with ArkType too: run gets ArkType's output, parsed and defaulted", async () => {
    const host = createAppToolHost();
    const run = vi.fn((args: { n: number; limit: number }) => args);
    const tool = defineAppTool({ name: 'ark', validate: type({ n: 'string.numeric.parse', limit: 'number = 10' }), run });
    expectTypeOf(tool.run).parameter(0).toEqualTypeOf<{ n: number; limit: number }>();
    host.register(tool);
    await expect(host.call(call('ark', { n: '21' }))).resolves.toEqual({ ok: true, output: { n: 21, limit: 10 } });
    expect(run).toHaveBeenCalledOnce();
    expect(run.mock.calls[0]![0]).toEqual({ n: 21, limit: 10 });
  });

  it("answers INVALID with ArkType's message and path, without running", async () => {
    const host = createAppToolHost();
    const run = vi.fn();
    host.register({ name: 'ark-bad', validate: type({ title: 'string', 'tags?': 'string[]' }), run });
    await expect(host.call(call('ark-bad', { title: 3 }))).resolves.toEqual({
      ok: false,
      code: 'INVALID',
      message: 'arguments.title: title must be a string (was a number)',
    });
    await expect(host.call(call('ark-bad', { title: 'T', tags: ['a', 1] }))).resolves.toEqual({
      ok: false,
      code: 'INVALID',
      message: 'arguments.tags[1]: tags[1] must be a string (was a number)',
    });
    expect(run).not.toHaveBeenCalled();
  });

  it('checks the JSON Schema first, then the validator', async () => {
    const host = createAppToolHost();
    const validate = vi.fn((value: unknown) => ({ value }));
    host.register({
      name: 'both',
      parameters: { type: 'object', required: ['a'] },
      validate: { '~standard': { version: 1, vendor: 'test', validate } },
      run: () => 'ran',
    });
    await expect(host.call(call('both', {}))).resolves.toMatchObject({ code: 'INVALID' });
    expect(validate).not.toHaveBeenCalled();
    await expect(host.call(call('both', { a: 1 }))).resolves.toEqual({ ok: true, output: 'ran' });
    expect(validate).toHaveBeenCalledOnce();
  });

  it('answers FAILED, not INVALID, when the validator itself throws', async () => {
    const host = createAppToolHost();
    host.register({
      name: 'buggy',
      validate: {
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: () => {
            throw new Error('oops');
          },
        },
      },
      run: vi.fn(),
    });
    await expect(host.call(call('buggy', {}))).resolves.toEqual({
      ok: false,
      code: 'FAILED',
      message: 'the validator of "buggy" threw: oops',
    });
  });
});

describe('ToolError', () => {
  it('carries its code, message and name', () => {
    const error = new ToolError('REJECTED', 'locked', { cause: 'x' });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: 'REJECTED', message: 'locked', name: 'ToolError', cause: 'x' });
  });

  it('refuses a code other than INVALID or REJECTED', () => {
    expect(() => new ToolError('FAILED' as never)).toThrowError("ToolError code must be 'INVALID' or 'REJECTED'");
  });

  it('is recognised even when built by another copy of the kit', () => {
    const foreign = Object.assign(new Error('x'), { code: 'INVALID', [Symbol.for('toolgate.ToolError')]: true });
    expect(isToolError(foreign)).toBe(true);
    expect(isToolError(Object.assign(new Error('x'), { code: 'INVALID' }))).toBe(false);
  });
});

describe('the types of an app tool', () => {
  it('types run and confirm from an inline validate passed to register', async () => {
    const host = createAppToolHost();
    host.register({
      name: 'typed',
      validate: z.object({ id: z.string(), count: z.number() }),
      confirm: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ id: string; count: number }>();
        return false;
      },
      run: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ id: string; count: number }>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        return args.count;
      },
    });
    await expect(host.call(call('typed', { id: 'a', count: 2 }))).resolves.toEqual({ ok: true, output: 2 });
  });

  it('types run and confirm from an inline ArkType validate passed to register', async () => {
    const host = createAppToolHost();
    host.register({
      name: 'ark-typed',
      validate: type({ id: 'string', count: 'string.integer.parse' }),
      confirm: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ id: string; count: number }>();
        return false;
      },
      run: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ id: string; count: number }>();
        return args.count + 1;
      },
    });
    await expect(host.call(call('ark-typed', { id: 'a', count: '2' }))).resolves.toEqual({ ok: true, output: 3 });
  });

  it('types the arguments as a plain record when nothing else says', () => {
    const tool = defineAppTool({ name: 'loose', run: (args) => Object.keys(args) });
    expectTypeOf(tool.run).parameter(0).toEqualTypeOf<Record<string, unknown>>();
  });
});
