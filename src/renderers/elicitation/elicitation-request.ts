/**
 * MCP elicitation, as plain data (no MCP SDK): a server asks the person a question, either as a
 * form (`requestedSchema`, a flat object of primitive properties) or by sending them to a URL.
 * This file reads a request (refusing what the MCP spec does not allow, with a reason), checks a
 * form's answer against its schema, and describes a URL's target so the person sees where it
 * goes before anything opens. The answer is MCP's `ElicitResult`.
 */

/**
 * A primitive property of an elicitation form (MCP's `PrimitiveSchemaDefinition`). A choice is a
 * string with `enum` (untitled, or titled by the legacy `enumNames`, one per value) or with
 * `oneOf` of `{ const, title }` (titled); the form shows the titles and answers the values.
 *
 * @example
 * const seats: ElicitationProperty = { type: 'integer', minimum: 1, maximum: 9 };
 * const plan: ElicitationProperty = { type: 'string', oneOf: [{ const: 'free', title: 'Free' }, { const: 'pro', title: 'Pro, 9 € a month' }] };
 */
export type ElicitationProperty =
  | {
      type: 'string';
      title?: string;
      description?: string;
      minLength?: number;
      maxLength?: number;
      format?: 'email' | 'uri' | 'date' | 'date-time';
      enum?: string[];
      enumNames?: string[];
      oneOf?: { const: string; title: string }[];
      default?: string;
    }
  | { type: 'number' | 'integer'; title?: string; description?: string; minimum?: number; maximum?: number; default?: number }
  | { type: 'boolean'; title?: string; description?: string; default?: boolean };

/**
 * The schema of an elicitation form: a flat object of primitive properties.
 *
 * @example
 * const schema: ElicitationSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
 */
export interface ElicitationSchema {
  type: 'object';
  properties: Record<string, ElicitationProperty>;
  required?: string[];
}

/**
 * An elicitation request (MCP `elicitation/create` params): form mode (the default) or URL mode.
 *
 * @example
 * const ask: ElicitationRequest = { message: 'Which branch?', requestedSchema: { type: 'object', properties: { branch: { type: 'string' } } } };
 * const go: ElicitationRequest = { mode: 'url', message: 'Sign in to continue', url: 'https://auth.example.com/start', elicitationId: 'e1' };
 */
export type ElicitationRequest =
  | { mode?: 'form'; message: string; requestedSchema: ElicitationSchema }
  | { mode: 'url'; message: string; url: string; elicitationId?: string };

/**
 * A value of an accepted form.
 *
 * @example
 * const value: ElicitationValue = 3;
 */
export type ElicitationValue = string | number | boolean;

/**
 * The answer to an elicitation request (MCP's `ElicitResult`): `accept` with the form's content
 * (none in URL mode), `decline` (the person said no), or `cancel` (dismissed without a choice).
 *
 * @example
 * const answer: ElicitResult = { action: 'accept', content: { branch: 'main' } };
 */
export type ElicitResult = { action: 'accept'; content?: Record<string, ElicitationValue> } | { action: 'decline' } | { action: 'cancel' };

/**
 * A problem with an answer's field (`key`), or with the whole answer (`key` undefined).
 *
 * @example
 * const issue: ElicitationIssue = { key: 'seats', message: 'must be at most 9' };
 */
export interface ElicitationIssue {
  readonly key: string | undefined;
  readonly message: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/**
 * A request as the kit will show it, or why it cannot be shown: a form whose schema is not a flat
 * object of primitive properties (nested objects, arrays, unknown types) is refused, as is a URL
 * that is not `https:` or `http:` or carries no host.
 *
 * @example
 * const read = readElicitationRequest({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
 * if (!read.ok) console.warn(read.reason);
 */
export function readElicitationRequest(input: unknown): { ok: true; request: ElicitationRequest } | { ok: false; reason: string } {
  if (!isObject(input)) return { ok: false, reason: 'the request is not an object' };
  if (typeof input.message !== 'string') return { ok: false, reason: 'the request has no message' };
  if (input.mode === 'url') {
    if (typeof input.url !== 'string') return { ok: false, reason: 'a URL request has no url' };
    const target = describeUrl(input.url);
    if (!target.ok) return { ok: false, reason: target.reason };
    const id = typeof input.elicitationId === 'string' ? { elicitationId: input.elicitationId } : {};
    return { ok: true, request: { mode: 'url', message: input.message, url: input.url, ...id } };
  }
  if (input.mode !== undefined && input.mode !== 'form') return { ok: false, reason: `unknown mode ${JSON.stringify(input.mode)}` };
  const schema = input.requestedSchema;
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) return { ok: false, reason: 'requestedSchema is not an object schema with properties' };
  for (const [key, property] of Object.entries(schema.properties)) {
    const problem = propertyProblem(property);
    if (problem) return { ok: false, reason: `property ${JSON.stringify(key)}: ${problem}` };
  }
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((k) => typeof k === 'string'))) return { ok: false, reason: 'required is not a list of names' };
  return { ok: true, request: { mode: 'form', message: input.message, requestedSchema: schema as unknown as ElicitationSchema } };
}

function propertyProblem(property: unknown): string | undefined {
  if (!isObject(property)) return 'not a schema';
  switch (property.type) {
    case 'string':
      if (property.format !== undefined && !FORMATS.has(property.format as string)) return `unknown format ${JSON.stringify(property.format)}`;
      if (property.enum !== undefined && !(Array.isArray(property.enum) && property.enum.length > 0 && property.enum.every((v) => typeof v === 'string'))) return 'enum is not a list of strings';
      if (property.enumNames !== undefined) {
        if (property.enum === undefined) return 'enumNames without enum';
        if (!(Array.isArray(property.enumNames) && property.enumNames.every((v) => typeof v === 'string'))) return 'enumNames is not a list of strings';
        if (property.enumNames.length !== (property.enum as unknown[]).length) return 'enumNames does not name each value of enum';
      }
      if (property.oneOf !== undefined) {
        if (property.enum !== undefined) return 'both enum and oneOf';
        const branches = property.oneOf;
        if (!(Array.isArray(branches) && branches.length > 0 && branches.every((b) => isObject(b) && typeof b.const === 'string' && (b.title === undefined || typeof b.title === 'string')))) {
          return 'oneOf is not a list of { const, title } choices of strings';
        }
      }
      return undefined;
    case 'number':
    case 'integer':
    case 'boolean':
      return undefined;
    default:
      return `type ${JSON.stringify(property.type)} is not a primitive (string, number, integer, boolean)`;
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function validDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function formatProblem(format: string, text: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(text) ? undefined : 'expected an email address';
    case 'uri':
      try {
        new URL(text);
        return undefined;
      } catch {
        return 'expected an absolute URI';
      }
    case 'date':
      return validDate(text) ? undefined : 'expected a date (YYYY-MM-DD)';
    case 'date-time':
      return DATE_TIME.test(text) && validDate(text.slice(0, 10)) && !Number.isNaN(Date.parse(text)) ? undefined : 'expected a date and time (RFC 3339)';
    default:
      return undefined;
  }
}

/** A string's length as JSON Schema counts it: in code points. */
const codePoints = (text: string): number => [...text].length;

function valueProblem(property: ElicitationProperty, value: unknown): string | undefined {
  switch (property.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected true or false';
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'expected a number';
      if (property.type === 'integer' && !Number.isInteger(value)) return 'expected a whole number';
      if (typeof property.minimum === 'number' && value < property.minimum) return `must be at least ${property.minimum}`;
      if (typeof property.maximum === 'number' && value > property.maximum) return `must be at most ${property.maximum}`;
      return undefined;
    }
    case 'string': {
      if (typeof value !== 'string') return 'expected text';
      if (property.enum && !property.enum.includes(value)) return `must be one of ${property.enum.join(', ')}`;
      if (property.oneOf && !property.oneOf.some((choice) => choice.const === value)) return `must be one of ${property.oneOf.map((choice) => choice.const).join(', ')}`;
      if (typeof property.minLength === 'number' && codePoints(value) < property.minLength) return `must be at least ${property.minLength} characters`;
      if (typeof property.maxLength === 'number' && codePoints(value) > property.maxLength) return `must be at most ${property.maxLength} characters`;
      return property.format ? formatProblem(property.format, value) : undefined;
    }
  }
}

/**
 * Check an answer against a form's schema before it is sent: only the schema's keys, every
 * required one present, each value of its property's type, bounds, enum and format. The kit
 * never sends `accept` with content that fails this.
 *
 * @example
 * const schema: ElicitationSchema = { type: 'object', properties: { age: { type: 'integer', minimum: 0 } }, required: ['age'] };
 * checkElicitationContent(schema, { age: -1 }); // { ok: false, issues: [{ key: 'age', message: 'must be at least 0' }] }
 */
export function checkElicitationContent(schema: ElicitationSchema, content: unknown): { ok: true; content: Record<string, ElicitationValue> } | { ok: false; issues: ElicitationIssue[] } {
  if (!isObject(content)) return { ok: false, issues: [{ key: undefined, message: 'the answer is not an object' }] };
  const issues: ElicitationIssue[] = [];
  for (const key of Object.keys(content)) if (!Object.hasOwn(schema.properties, key)) issues.push({ key, message: 'this key is not asked for' });
  for (const key of schema.required ?? []) if (!Object.hasOwn(content, key)) issues.push({ key, message: 'required' });
  for (const [key, property] of Object.entries(schema.properties)) {
    if (!Object.hasOwn(content, key)) continue;
    const problem = valueProblem(property, content[key]);
    if (problem) issues.push({ key, message: problem });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, content: content as Record<string, ElicitationValue> };
}

/** Suffixes under which a registrable domain takes three labels (a short list; see below). */
const TWO_LABEL_SUFFIXES = new Set([
  'co.uk', 'org.uk', 'ac.uk', 'gov.uk', 'ltd.uk', 'plc.uk', 'me.uk', 'net.uk',
  'com.au', 'net.au', 'org.au', 'edu.au', 'gov.au',
  'co.nz', 'org.nz', 'co.jp', 'ne.jp', 'or.jp', 'ac.jp', 'co.kr', 'co.in', 'co.za', 'co.il',
  'com.br', 'com.cn', 'com.mx', 'com.tr', 'com.tw', 'com.hk', 'com.sg', 'com.ar', 'net.cn', 'org.cn',
  'github.io', 'gitlab.io', 'pages.dev', 'vercel.app', 'netlify.app', 'herokuapp.com', 'web.app', 'firebaseapp.com',
]);

/**
 * Where a URL goes, as a person should read it before opening it: the host in its ASCII form
 * (an internationalised name shows as `xn--…`, so a look-alike letter cannot pass as the real
 * one), the registrable part of it to emphasise, and warnings: a user name or password before
 * the host (`https://good.com@evil.test` goes to `evil.test`), a look-alike (punycode) name,
 * plain `http:`, an IP address. Only `https:` and `http:` URLs with a host are accepted.
 *
 * The registrable part is the last two labels, or three under a short list of known two-label
 * suffixes (`co.uk`, `github.io`, …); it is not the full Public Suffix List, so for rarer
 * suffixes it may emphasise one label too few. The whole host is always shown.
 *
 * @example
 * const target = describeUrl('https://good.com@login.evil.test/x');
 * // { ok: true, host: 'login.evil.test', registrable: 'evil.test', subdomain: 'login.', warnings: ['userinfo'], … }
 */
export function describeUrl(url: string): UrlTarget | { ok: false; reason: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'the URL cannot be read' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { ok: false, reason: `the URL's scheme ${parsed.protocol} is not http or https` };
  // WHATWG URL gives the host lower-cased and internationalised names in punycode.
  const host = parsed.hostname;
  if (host === '') return { ok: false, reason: 'the URL has no host' };
  const warnings: UrlWarning[] = [];
  if (parsed.username !== '' || parsed.password !== '') warnings.push('userinfo');
  if (parsed.protocol === 'http:') warnings.push('insecure');
  const ip = /^\d+(\.\d+){3}$/.test(host) || host.startsWith('[');
  if (ip) warnings.push('ip-address');
  const labels = host.replace(/\.$/, '').split('.');
  if (labels.some((label) => label.startsWith('xn--'))) warnings.push('punycode');
  let registrable = host;
  if (!ip && labels.length > 2) {
    const lastTwo = labels.slice(-2).join('.');
    registrable = labels.slice(TWO_LABEL_SUFFIXES.has(lastTwo) ? -3 : -2).join('.');
  }
  const subdomain = host.slice(0, host.length - registrable.length);
  return { ok: true, href: parsed.href, origin: parsed.origin, host, registrable, subdomain, warnings };
}

/**
 * Why a URL needs a second look: see {@link describeUrl}.
 *
 * @example
 * const warning: UrlWarning = 'userinfo';
 */
export type UrlWarning = 'userinfo' | 'punycode' | 'insecure' | 'ip-address';

/**
 * A URL's target, read for a person: see {@link describeUrl}.
 *
 * @example
 * const target = describeUrl('https://docs.example.com/a');
 * if (target.ok) console.log(target.registrable); // 'example.com'
 */
export interface UrlTarget {
  ok: true;
  /** The URL as it will be opened (normalised). */
  href: string;
  origin: string;
  /** The whole host, ASCII (punycode for internationalised names). */
  host: string;
  /** Its registrable part, shown emphasised. */
  registrable: string;
  /** What comes before the registrable part, with its trailing dot (may be empty). */
  subdomain: string;
  warnings: UrlWarning[];
}
