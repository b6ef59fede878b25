/**
 * A tool's definition fingerprint: SHA-256 of the canonical JSON (RFC 8785) of its name,
 * description, parameters and descriptor. Standing grants bind to it, so that a tool whose
 * meaning was swapped under an existing grant (a new description, schema or descriptor) is asked
 * about again, and the dialog can say which parts changed (docs/guarantees.md, "Standing grants are bound to the tool's definition";
 * docs/protocol.md, "Approvals").
 */

import { canonicalJson } from '../json/canonical-json';
import { fingerprintCanonical, type Fingerprint, type FingerprintOptions } from '../json/fingerprint';
import { snapshotJson, type JsonValue } from '../json/json-value';
import type { ToolDescriptor } from './tool-descriptor';

/**
 * What a tool is, as far as a person's standing decision about it goes: its name, what it says it
 * does, the JSON Schema of its arguments, and its descriptor. A part the source does not give is
 * left out (it fingerprints as `null`).
 *
 * @example
 * const definition: ToolDefinition = { name: 'delete_file', description: 'Deletes a file', parameters: { type: 'object' }, descriptor: { effect: 'write', risk: 'medium' } };
 */
export interface ToolDefinition {
  readonly name: string;
  readonly description?: string | undefined;
  readonly parameters?: unknown;
  readonly descriptor?: Partial<ToolDescriptor> | null | undefined;
}

/**
 * The parts of a definition that can change, in the order a person reads them.
 *
 * @example
 * const part: ToolDefinitionPart = 'parameters';
 */
export type ToolDefinitionPart = 'name' | 'description' | 'parameters' | 'descriptor';

const PARTS: readonly ToolDefinitionPart[] = Object.freeze(['name', 'description', 'parameters', 'descriptor']);

/**
 * A definition's fingerprint: the whole definition's (`hex`, `short`), and each part's own SHA-256
 * hex, so that two fingerprints can say which parts differ ({@link changedDefinitionParts}).
 * Plain, frozen data: it survives `JSON.stringify` and `JSON.parse` (a saved grant keeps it).
 *
 * @example
 * const fp: DefinitionFingerprint = await fingerprintToolDefinition({ name: 'search_docs' });
 * fp.parts.description // the hex of `null`'s canonical JSON: no description was given
 */
export interface DefinitionFingerprint extends Fingerprint {
  readonly parts: Readonly<Record<ToolDefinitionPart, string>>;
}

/** The definition as the plain JSON that is fingerprinted, or why it is not JSON. */
function plainDefinition(definition: ToolDefinition): Record<ToolDefinitionPart, JsonValue> {
  if (typeof definition !== 'object' || definition === null) throw new TypeError('A tool definition must be an object with a name');
  if (typeof definition.name !== 'string' || definition.name === '') throw new TypeError('A tool definition needs a name (a non-empty string)');
  if (definition.description !== undefined && typeof definition.description !== 'string') {
    throw new TypeError(`The definition of ${definition.name} has a description that is not a string`);
  }
  const part = (value: unknown, what: string): JsonValue => {
    if (value === undefined || value === null) return null;
    // A descriptor spread from options may hold `undefined` for a field it does not set: not a part of it.
    const own = typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) : value;
    const snapshot = snapshotJson(own, what);
    if (!snapshot.ok) throw new TypeError(`The definition of ${definition.name} cannot be fingerprinted: ${snapshot.reason}`);
    return snapshot.value;
  };
  return {
    name: definition.name,
    description: definition.description ?? null,
    parameters: part(definition.parameters, 'parameters'),
    descriptor: part(definition.descriptor, 'descriptor'),
  };
}

/** The canonical JSON the definition fingerprint hashes (throws a TypeError for a definition that cannot be fingerprinted). */
export function definitionKey(definition: ToolDefinition): string {
  return canonicalJson(plainDefinition(definition));
}

/**
 * The definition fingerprint of a tool: SHA-256 over the canonical JSON of
 * `{ name, description, parameters, descriptor }` (a part not given is `null`), with each part's
 * own hash. Rejects with a TypeError for a definition without a name or with parts that are not
 * JSON, and with a `WebCryptoUnavailableError` where Web Crypto is missing.
 *
 * @example
 * const before = await fingerprintToolDefinition({ name: 'delete_file', description: 'Deletes a file' });
 * const after = await fingerprintToolDefinition({ name: 'delete_file', description: 'Tidies up' });
 * before.hex === after.hex // false
 * changedDefinitionParts(before, after) // ['description']
 */
export async function fingerprintToolDefinition(definition: ToolDefinition, options: FingerprintOptions = {}): Promise<DefinitionFingerprint> {
  const plain = plainDefinition(definition);
  // All at once: the whole and each part.
  const [whole, ...hashes] = await Promise.all([canonicalJson(plain), ...PARTS.map((name) => canonicalJson(plain[name]))].map((text) => fingerprintCanonical(text, options)));
  const parts = Object.freeze(Object.fromEntries(PARTS.map((name, i) => [name, (hashes[i] as Fingerprint).hex]))) as Record<ToolDefinitionPart, string>;
  if (whole === undefined) throw new Error('no fingerprint was computed');
  return Object.freeze({ hex: whole.hex, short: whole.short, parts });
}

/**
 * The parts in which two definition fingerprints differ, in reading order (`[]` when they are the
 * same definition). A side without its parts (`undefined`, or an old saved grant without them)
 * differs in every part the other has.
 *
 * @example
 * changedDefinitionParts(grant.definition, request.definition) // e.g. ['description', 'parameters']
 */
export function changedDefinitionParts(
  before: Pick<DefinitionFingerprint, 'hex' | 'parts'> | null | undefined,
  after: Pick<DefinitionFingerprint, 'hex' | 'parts'> | null | undefined,
): readonly ToolDefinitionPart[] {
  if (before?.hex === after?.hex) return Object.freeze([]);
  return Object.freeze(PARTS.filter((name) => before?.parts?.[name] !== after?.parts?.[name]));
}

/** Whether `value` reads as a {@link DefinitionFingerprint} (a saved one is checked before it is trusted). */
export function isDefinitionFingerprint(value: unknown): value is DefinitionFingerprint {
  if (typeof value !== 'object' || value === null) return false;
  const { hex, short, parts } = value as Record<string, unknown>;
  if (typeof hex !== 'string' || !HEX64.test(hex) || typeof short !== 'string' || typeof parts !== 'object' || parts === null) return false;
  return PARTS.every((name) => typeof (parts as Record<string, unknown>)[name] === 'string' && HEX64.test((parts as Record<string, string>)[name] as string));
}

const HEX64 = /^[0-9a-f]{64}$/;
