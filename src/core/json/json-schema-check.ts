/**
 * A small check of arguments against a tool's declared JSON Schema (`parameters`).
 *
 * docs/protocol.md, "App tools": arguments that break the declared schema's required properties and
 * types answer `INVALID` and the tool does not run. This is NOT a full JSON Schema validator:
 * it reads only `type` (one name or a list), `required`, `properties` (nested), `items` (one
 * schema for every element, or a list for positions), `enum`, `const`, the bounds `minimum`,
 * `maximum`, `exclusiveMinimum` and `exclusiveMaximum` (numbers, draft 6 and later), `minLength`
 * and `maxLength` (in code points, as JSON Schema counts), and `minItems` and `maxItems`.
 * `additionalProperties` is read only when asked (`{ additionalProperties: 'refuse' }`, what a
 * person's edit is checked with): a model's call may carry keys its schema forbids, which a
 * validator such as zod strips before `run`, but an edit must be exactly what runs, so a key the
 * schema forbids is refused there, never stripped (docs/guarantees.md, "Exact-arguments approval").
 * It accepts everything else (`pattern`, `anyOf`, `$ref`, formats, …) without looking. The bounds
 * are here because a person editing arguments before approving them should hear of `amount: 0`
 * in the editor, not as the server's INVALID after the approval. A schema keyword it does not
 * understand never fails a call: a tool that needs more gives a Standard Schema `validate`
 * (zod, valibot, ArkType), which runs after this check.
 */

import { formatPathKey } from './standard-schema';

/**
 * The first place where the arguments break the schema, or `ok`.
 *
 * @example
 * const check: JsonSchemaCheck = checkJsonSchema({ type: 'object', properties: { n: { type: 'number' } } }, { n: 'x' });
 * if (!check.ok) console.warn(check.path, check.message);
 */
export type JsonSchemaCheck = { ok: true } | { ok: false; path: string; message: string };

const OK: JsonSchemaCheck = Object.freeze({ ok: true });

/** How a person's edit meets its schema (in the editor and again before it runs): keys that `additionalProperties` forbids are refused. Internal. */
export const EDIT_CHECK: JsonSchemaCheckOptions = Object.freeze({ additionalProperties: 'refuse' });

/**
 * How {@link checkJsonSchema} reads a schema: the name of the root in messages (`arguments` by
 * default), and whether keys that `additionalProperties` forbids are refused (`'refuse'`) or left
 * to a validator that strips them (`'ignore'`, the default).
 *
 * @example
 * const strict: JsonSchemaCheckOptions = { additionalProperties: 'refuse' };
 */
export interface JsonSchemaCheckOptions {
  root?: string;
  additionalProperties?: 'ignore' | 'refuse';
}

/**
 * Check `value` against the parts of `schema` listed above. The message names the path and
 * what was expected there, e.g. `arguments.tags[1]: expected string, got number`. The third
 * argument is the root's name, or {@link JsonSchemaCheckOptions}.
 *
 * @example
 * checkJsonSchema({ type: 'object', required: ['title'] }, {})
 * // { ok: false, path: 'arguments', message: 'arguments: missing required property "title"' }
 * checkJsonSchema({ type: 'object', properties: {}, additionalProperties: false }, { extra: 1 }, { additionalProperties: 'refuse' })
 * // { ok: false, path: 'arguments.extra', message: 'arguments.extra: this key is not allowed' }
 */
export function checkJsonSchema(schema: unknown, value: unknown, options: string | JsonSchemaCheckOptions = 'arguments'): JsonSchemaCheck {
  const root = typeof options === 'string' ? options : (options.root ?? 'arguments');
  const strict = typeof options === 'object' && options !== null && options.additionalProperties === 'refuse';
  return check(schema, value, root, strict);
}

function fail(path: string, expectation: string): JsonSchemaCheck {
  return { ok: false, path, message: `${path}: ${expectation}` };
}

function check(schema: unknown, value: unknown, path: string, strict: boolean): JsonSchemaCheck {
  // Boolean schemas: `true` allows anything, `false` nothing (JSON Schema draft 6 and later).
  if (schema === false) return fail(path, 'no value is allowed here');
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return OK;
  const s = schema as Record<string, unknown>;

  const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type.filter(isString) : [];
  if (types.length > 0 && !types.some((t) => matchesType(t, value))) {
    return fail(path, `expected ${types.join(' or ')}, got ${describe(value)}`);
  }

  if (Object.hasOwn(s, 'const') && !jsonEqual(s.const, value)) {
    return fail(path, `expected ${JSON.stringify(s.const)}, got ${preview(value)}`);
  }

  if (Array.isArray(s.enum) && !s.enum.some((option) => jsonEqual(option, value))) {
    return fail(path, `expected one of ${s.enum.map((o) => JSON.stringify(o)).join(', ')}, got ${preview(value)}`);
  }

  const bound = checkBounds(s, value, path);
  if (!bound.ok) return bound;

  if (isPlainObject(value)) {
    if (Array.isArray(s.required)) {
      for (const key of s.required) {
        if (typeof key === 'string' && !Object.hasOwn(value, key)) {
          return fail(path, `missing required property ${JSON.stringify(key)}`);
        }
      }
    }
    if (isPlainObject(s.properties)) {
      const properties = s.properties;
      for (const key of Object.keys(properties)) {
        // Only own properties: a key such as `constructor` must not be found on the prototype.
        if (!Object.hasOwn(value, key)) continue;
        const inner = check(properties[key], value[key], path + formatPathKey(key), strict);
        if (!inner.ok) return inner;
      }
    }
    if (strict) {
      const extra = checkAdditional(s, value, path, strict);
      if (!extra.ok) return extra;
    }
  }

  if (Array.isArray(value) && s.items !== undefined) {
    const items = s.items;
    for (let i = 0; i < value.length; i++) {
      const itemSchema = Array.isArray(items) ? items[i] : items;
      const inner = check(itemSchema, value[i], `${path}[${i}]`, strict);
      if (!inner.ok) return inner;
    }
  }

  return OK;
}

/**
 * The keys of `value` that neither `properties` nor `patternProperties` name must satisfy
 * `additionalProperties`: `false` refuses them, a schema checks their values. A pattern that is
 * not a valid regular expression matches nothing here, so its keys meet `additionalProperties`.
 */
function checkAdditional(s: Record<string, unknown>, value: Record<string, unknown>, path: string, strict: boolean): JsonSchemaCheck {
  const additional = s.additionalProperties;
  if (additional === undefined || additional === true) return OK;
  const named = isPlainObject(s.properties) ? s.properties : {};
  const patterns = isPlainObject(s.patternProperties) ? Object.keys(s.patternProperties).map(toPattern) : [];
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(named, key) || patterns.some((pattern) => pattern?.test(key) === true)) continue;
    const at = path + formatPathKey(key);
    if (additional === false) return fail(at, 'this key is not allowed');
    const inner = check(additional, value[key], at, strict);
    if (!inner.ok) return inner;
  }
  return OK;
}

function toPattern(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The numeric, length and size bounds that apply to `value`'s kind; a malformed bound is not read. */
function checkBounds(s: Record<string, unknown>, value: unknown, path: string): JsonSchemaCheck {
  if (typeof value === 'number') {
    if (isNumber(s.minimum) && value < s.minimum) return fail(path, `must be at least ${s.minimum}, got ${value}`);
    if (isNumber(s.maximum) && value > s.maximum) return fail(path, `must be at most ${s.maximum}, got ${value}`);
    if (isNumber(s.exclusiveMinimum) && value <= s.exclusiveMinimum) return fail(path, `must be more than ${s.exclusiveMinimum}, got ${value}`);
    if (isNumber(s.exclusiveMaximum) && value >= s.exclusiveMaximum) return fail(path, `must be less than ${s.exclusiveMaximum}, got ${value}`);
  } else if (typeof value === 'string' && (isCount(s.minLength) || isCount(s.maxLength))) {
    // Code points, not UTF-16 units: an emoji is one character to JSON Schema.
    let length = 0;
    for (const _ of value) length++;
    if (isCount(s.minLength) && length < s.minLength) return fail(path, `must have at least ${count(s.minLength, 'character')}, got ${length}`);
    if (isCount(s.maxLength) && length > s.maxLength) return fail(path, `must have at most ${count(s.maxLength, 'character')}, got ${length}`);
  } else if (Array.isArray(value)) {
    if (isCount(s.minItems) && value.length < s.minItems) return fail(path, `must have at least ${count(s.minItems, 'item')}, got ${value.length}`);
    if (isCount(s.maxItems) && value.length > s.maxItems) return fail(path, `must have at most ${count(s.maxItems, 'item')}, got ${value.length}`);
  }
  return OK;
}

function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      // A type name this check does not know is not a reason to refuse a call.
      return true;
  }
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function preview(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return describe(value);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    return describe(value);
  }
}

/** Equality of JSON values: key order does not matter, array order does. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const ak = Object.keys(a);
  const bk = Object.keys(b);
  if (ak.length !== bk.length) return false;
  return ak.every(
    (key) => Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}
