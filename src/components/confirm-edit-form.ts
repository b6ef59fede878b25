/**
 * The editor's form, as data: the fields a JSON Schema gives (strings, numbers, booleans, enums,
 * nested objects; anything else as JSON text), the text each field holds, and the draft they make.
 * No React here, so the rules are plain functions: a field that cannot be read (not a number, not
 * JSON) is an error beside that field and nothing is submitted; keys the form has no field for
 * are kept as they were proposed; a `__proto__` key stays an ordinary key.
 */
import type { ArgumentsIssue } from '../core/approval/confirmation-types';
import { formatJsonPath, sameJson, type JsonPathStep } from '../core/json/json-diff';
import type { JsonValue } from '../core/json/json-value';

type Schema = Record<string, unknown>;

/** One field of the form. `key` is its path as text, stable across renders. */
export type FormField =
  | { readonly kind: 'object'; readonly key: string; readonly path: readonly JsonPathStep[]; readonly label: string; readonly description: string | undefined; readonly fields: readonly FormField[] }
  | {
      readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';
      readonly key: string;
      readonly path: readonly JsonPathStep[];
      readonly label: string;
      readonly description: string | undefined;
      readonly required: boolean;
      /** The allowed values of an `enum` field. */
      readonly options: readonly JsonValue[];
      /** What each option is shown as, where the schema titles them (`enumNames`, or `oneOf` of `{ const, title }`). */
      readonly optionLabels?: readonly string[];
    };

/** The text (or checked state) of each field, by its key. */
export type FormValues = Readonly<Record<string, string | boolean>>;

/** Nested objects deeper than this are edited as JSON text: a hostile schema cannot make the form unbounded. */
const DEPTH = 6;
/** At most this many fields; a schema with more is edited as JSON text. */
const FIELDS = 200;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const keyOf = (path: readonly JsonPathStep[]): string => JSON.stringify(path);

/**
 * The form of `schema`, or `null` when it has none to offer (no schema, or one whose root is not
 * an object with properties): then the editor is one JSON text field.
 */
export function formOf(schema: Schema | undefined): FormField | null {
  if (!isObject(schema) || !isObject(schema.properties)) return null;
  const budget = { left: FIELDS };
  const root = fieldOf(schema, [], '', false, 0, budget);
  return root.kind === 'object' && budget.left >= 0 ? root : null;
}

function fieldOf(schema: Schema, path: JsonPathStep[], name: string, required: boolean, depth: number, budget: { left: number }): FormField {
  budget.left -= 1;
  const label = typeof schema.title === 'string' && schema.title !== '' ? schema.title : name;
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const base = { key: keyOf(path), path, label, description };
  const choices = choicesOf(schema);
  if (choices) return { ...base, kind: 'enum', required, ...choices };
  const type = schema.type;
  if ((type === 'object' || (type === undefined && isObject(schema.properties))) && isObject(schema.properties) && depth < DEPTH) {
    const needed = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [];
    const fields = Object.keys(schema.properties).map((key) => {
      const child = (schema.properties as Record<string, unknown>)[key];
      return fieldOf(isObject(child) ? child : {}, [...path, key], key, needed.includes(key), depth + 1, budget);
    });
    return { ...base, kind: 'object', fields };
  }
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return { ...base, kind: type, required, options: [] };
  return { ...base, kind: 'json', required, options: [] };
}

const isPrimitive = (value: unknown): value is JsonValue => value === null || (typeof value !== 'object' && typeof value !== 'function' && value !== undefined);

/**
 * The choices a schema offers, and their titles where it gives them: `enum` (with the legacy
 * `enumNames` beside it, one title per value), or `oneOf` of `{ const, title }` (the titled form of
 * JSON Schema, which MCP elicitation uses). `null` when it offers no list of primitive values.
 */
function choicesOf(schema: Schema): { options: readonly JsonValue[]; optionLabels?: readonly string[] } | null {
  const values = schema.enum;
  if (Array.isArray(values) && values.length > 0 && values.every(isPrimitive)) {
    const names = schema.enumNames;
    const titled = Array.isArray(names) && names.length === values.length && names.every((n) => typeof n === 'string');
    return titled ? { options: values, optionLabels: names as string[] } : { options: values };
  }
  const branches = schema.oneOf;
  if (Array.isArray(branches) && branches.length > 0 && branches.every((b) => isObject(b) && Object.hasOwn(b, 'const') && isPrimitive(b.const))) {
    const items = branches as Record<string, unknown>[];
    return {
      options: items.map((b) => b.const as JsonValue),
      optionLabels: items.map((b) => (typeof b.title === 'string' && b.title !== '' ? b.title : typeof b.const === 'string' ? b.const : JSON.stringify(b.const))),
    };
  }
  return null;
}

function valueAt(value: JsonValue | undefined, path: readonly JsonPathStep[]): JsonValue | undefined {
  let at: JsonValue | undefined = value;
  for (const step of path) {
    if (!isObject(at) || !Object.hasOwn(at, step)) return undefined;
    at = (at as Record<string, JsonValue>)[step as string];
  }
  return at;
}

/** Each field's text, from the arguments being edited. */
export function initialValues(form: FormField, args: JsonValue): FormValues {
  const values: Record<string, string | boolean> = {};
  const visit = (field: FormField): void => {
    if (field.kind === 'object') return field.fields.forEach(visit);
    const value = valueAt(args, field.path);
    if (field.kind === 'boolean') values[field.key] = value === true;
    else if (field.kind === 'enum') {
      const at = value === undefined ? -1 : field.options.findIndex((option) => sameJson(option, value));
      values[field.key] = at < 0 ? '' : String(at);
    } else if (field.kind === 'json') values[field.key] = value === undefined ? '' : JSON.stringify(value, null, 2);
    else if (field.kind === 'string') values[field.key] = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
    else values[field.key] = value === undefined ? '' : typeof value === 'number' ? String(value) : JSON.stringify(value);
  };
  visit(form);
  return values;
}

/** What a field's text cannot be read as: `not-a-number`, or invalid JSON with the parser's message. */
export type FieldError = { readonly kind: 'not-a-number' } | { readonly kind: 'invalid-json'; readonly message: string };

/**
 * The draft the form makes from the proposed arguments: each field's value at its path (an empty
 * optional field that was absent stays absent), every other key as proposed. Errors are per field.
 */
export function draftOf(form: FormField, values: FormValues, proposed: JsonValue): { draft: JsonValue; errors: ReadonlyMap<string, FieldError> } {
  const errors = new Map<string, FieldError>();
  const read = (field: FormField, before: JsonValue | undefined): JsonValue | undefined => {
    if (field.kind === 'object') {
      const out: Record<string, JsonValue> = isObject(before) ? { ...(before as Record<string, JsonValue>) } : {};
      for (const child of field.fields) {
        const step = child.path[child.path.length - 1] as string;
        const next = read(child, isObject(before) && Object.hasOwn(before, step) ? (before as Record<string, JsonValue>)[step] : undefined);
        if (next === undefined) delete out[step];
        // An own data property even for `__proto__`: it never reaches a prototype.
        else Object.defineProperty(out, step, { value: next, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    const raw = values[field.key];
    if (field.kind === 'boolean') return raw === true;
    const text = typeof raw === 'string' ? raw : '';
    const empty = text.trim() === '';
    // An optional field left empty that was not there before is not added.
    if (empty && field.kind !== 'string' && (!field.required || before === undefined)) return undefined;
    if (empty && field.kind === 'string' && !field.required && before === undefined) return undefined;
    switch (field.kind) {
      case 'string':
        return text;
      case 'number':
      case 'integer': {
        const number = Number(text.trim());
        if (empty || !Number.isFinite(number)) {
          errors.set(field.key, { kind: 'not-a-number' });
          return before;
        }
        return number;
      }
      case 'enum':
        return field.options[Number(text)] ?? before;
      case 'json':
        try {
          return JSON.parse(text) as JsonValue;
        } catch (error) {
          errors.set(field.key, { kind: 'invalid-json', message: error instanceof Error ? error.message : String(error) });
          return before;
        }
    }
  };
  const draft = read(form, proposed) as JsonValue;
  return { draft, errors };
}

/** Every field that holds a value (not the objects around them), in the form's order. */
export function leaves(form: FormField): FormField[] {
  return form.kind === 'object' ? form.fields.flatMap(leaves) : [form];
}

/**
 * Where each issue belongs: the deepest field whose path starts the issue's path (an issue inside
 * a JSON field belongs to that field); issues of no field (the whole value, a missing key of an
 * object) are the form's own.
 */
export function placeIssues(form: FormField | null, issues: readonly ArgumentsIssue[]): { byField: ReadonlyMap<string, string[]>; rest: string[] } {
  const byField = new Map<string, string[]>();
  const rest: string[] = [];
  const fields = form ? leaves(form) : [];
  for (const issue of issues) {
    let best: FormField | undefined;
    for (const field of fields) {
      const starts = field.path.length > 0 && field.path.length <= issue.path.length && field.path.every((step, i) => String(step) === String(issue.path[i]));
      if (starts && (best === undefined || field.path.length > best.path.length)) best = field;
    }
    if (best) byField.set(best.key, [...(byField.get(best.key) ?? []), issue.message]);
    else rest.push(issue.path.length > 0 ? `${formatJsonPath(issue.path)}: ${issue.message}` : issue.message);
  }
  return { byField, rest };
}
