/**
 * The small part of JSON Schema the reference tools use, so a server tool can answer INVALID
 * without running (docs/protocol.md, "App tools"). Not a general validator: unknown keywords are
 * ignored.
 */

export type JsonSchema = {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
};

/** At most this many problems are named; a refusal stays a sentence, not a copy of the input. */
const MAX_PROBLEMS = 20;

/** Problems with `value` against `schema`; empty when it is valid. */
export function validateAgainstSchema(schema: JsonSchema, value: unknown, path = '$'): string[] {
  const problems: string[] = [];
  check(schema, value, path, problems);
  if (problems.length <= MAX_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_PROBLEMS), `and ${problems.length - MAX_PROBLEMS} more`];
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function check(schema: JsonSchema, value: unknown, path: string, problems: string[]): void {
  const actual = typeOf(value);
  if (schema.type) {
    const ok =
      schema.type === 'integer' ? typeof value === 'number' && Number.isInteger(value) : actual === schema.type;
    if (!ok) {
      problems.push(`${path}: expected ${schema.type}, got ${actual}`);
      return;
    }
  }
  if (schema.enum && !schema.enum.some((option) => option === value)) {
    problems.push(`${path}: must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${path}: must be >= ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${path}: must be <= ${schema.maximum}`);
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) {
      problems.push(`${path}: must have at least ${schema.minLength} characters`);
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      problems.push(`${path}: must have at most ${schema.maxLength} characters`);
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => check(schema.items as JsonSchema, item, `${path}[${i}]`, problems));
  }
  if (actual === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (!Object.hasOwn(record, key)) problems.push(`${path}.${key}: required`);
    }
    const properties = schema.properties ?? {};
    for (const key of Object.keys(record)) {
      const sub = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (sub) check(sub, record[key], `${path}.${key}`, problems);
      else if (schema.additionalProperties === false) problems.push(`${path}.${key}: not allowed`);
    }
  }
}
