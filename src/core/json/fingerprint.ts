/**
 * The fingerprint of a JSON value: SHA-256 of its canonical JSON (RFC 8785) as UTF-8.
 *
 * docs/protocol.md, "Confirmation": "Show a short fingerprint of their canonical JSON so a person can
 * compare what they saw with what ran." The full hex goes on the wire (`tool.approval`) and
 * into the `done` outcome; the short form is for eyes.
 */

import { canonicalJson } from './canonical-json';
import type { JsonValue } from './json-value';

/**
 * A SHA-256 fingerprint: the full lower-case hex and a short display form.
 *
 * @example
 * const { hex, short }: Fingerprint = await fingerprintJson(args);
 */
export interface Fingerprint {
  /** 64 lower-case hex digits: what is compared by machines and sent on the wire. */
  readonly hex: string;
  /** The first hex digits in groups of four, e.g. `3f2a 9c41 07be`: what a person compares. */
  readonly short: string;
}

/**
 * Where the fingerprint finds Web Crypto; `globalThis.crypto` unless given.
 *
 * @example
 * await fingerprintJson(args, { crypto: globalThis.crypto });
 */
export interface FingerprintOptions {
  /** Defaults to `globalThis.crypto`. Pass another implementation (or `{}` to test its absence). */
  crypto?: { readonly subtle?: SubtleCrypto | undefined } | undefined;
}

/**
 * Thrown when `crypto.subtle` is missing. Browsers only expose it in secure contexts
 * (https, or http://localhost); Node has it from version 20.
 *
 * @example
 * fingerprintJson({}, { crypto: {} }).catch((e) => e instanceof WebCryptoUnavailableError) // true
 */
export class WebCryptoUnavailableError extends Error {
  override readonly name = 'WebCryptoUnavailableError';
  constructor() {
    super(
      'Web Crypto (crypto.subtle) is not available, so the arguments cannot be fingerprinted. ' +
        'Browsers only provide it in a secure context: serve the page over https or from localhost.',
    );
  }
}

/**
 * How many groups of four hex digits the short form shows (48 bits).
 *
 * @example
 * formatFingerprint(hex, SHORT_FINGERPRINT_GROUPS + 1) // a longer form, for a second look
 */
export const SHORT_FINGERPRINT_GROUPS = 3;

/**
 * The short display form of a hex fingerprint: its first `groups` groups of four hex digits,
 * separated by spaces.
 *
 * @example
 * formatFingerprint('3f2a9c4107be55aa…') // '3f2a 9c41 07be'
 */
export function formatFingerprint(hex: string, groups: number = SHORT_FINGERPRINT_GROUPS): string {
  const out: string[] = [];
  for (let i = 0; i < groups && i * 4 < hex.length; i++) out.push(hex.slice(i * 4, i * 4 + 4));
  return out.join(' ');
}

/**
 * SHA-256 of `text` encoded as UTF-8, as a {@link Fingerprint}. `text` is expected to be
 * canonical JSON already (see {@link fingerprintJson}).
 *
 * @example
 * const { hex, short } = await fingerprintCanonical('{"a":1}');
 */
export async function fingerprintCanonical(text: string, options: FingerprintOptions = {}): Promise<Fingerprint> {
  const source = 'crypto' in options ? options.crypto : (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto;
  const subtle = source?.subtle;
  if (subtle === undefined || typeof subtle.digest !== 'function') throw new WebCryptoUnavailableError();
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
  const bytes = new Uint8Array(digest);
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return Object.freeze({ hex, short: formatFingerprint(hex) });
}

/**
 * The fingerprint of a JSON value: SHA-256 over its RFC 8785 canonical JSON. Rejects with a
 * `CanonicalJsonError` for a value that is not JSON, and with a `WebCryptoUnavailableError`
 * where Web Crypto is missing.
 *
 * @example
 * const fp = await fingerprintJson({ to: 'alice', amount: 5 });
 * fp.short // e.g. '9b1c 04d2 7e3a'
 */
export async function fingerprintJson(value: JsonValue, options: FingerprintOptions = {}): Promise<Fingerprint> {
  return fingerprintCanonical(canonicalJson(value), options);
}
