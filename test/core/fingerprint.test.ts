import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type JsonValue } from 'toolgate/core';
import { CanonicalJsonError, canonicalJson, fingerprintJson, formatFingerprint } from 'toolgate/json';
import { WebCryptoUnavailableError, fingerprintCanonical } from '../../src/core/json/fingerprint';

/** An independent SHA-256 (node:crypto) of the canonical text, to check Web Crypto's against. */
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('fingerprints', () => {
  it('is the SHA-256 of the canonical JSON as UTF-8, in lower-case hex', async () => {
    const value = { b: 'ü😀', a: [1e21, -0] };
    const fingerprint = await fingerprintJson(value);
    expect(fingerprint.hex).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint.hex).toBe(sha256('{"a":[1e+21,0],"b":"ü😀"}'));
  });

  it('matches the known SHA-256 of "abc"', async () => {
    expect((await fingerprintCanonical('abc')).hex).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('shows a short form of three groups of four hex digits', async () => {
    const fingerprint = await fingerprintJson({ to: 'alice', amount: 5 });
    expect(fingerprint.short).toMatch(/^[0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4}$/);
    expect(fingerprint.short.replaceAll(' ', '')).toBe(fingerprint.hex.slice(0, 12));
    expect(formatFingerprint('3f2a9c4107be55aa')).toBe('3f2a 9c41 07be');
    expect(formatFingerprint('3f2a9c4107be55aa', 2)).toBe('3f2a 9c41');
  });

  it('does not depend on the order in which keys were written', async () => {
    const one = await fingerprintJson({ a: 1, b: { c: 2, d: 3 } });
    const two = await fingerprintJson({ b: { d: 3, c: 2 }, a: 1 });
    expect(one).toEqual(two);
  });

  it('differs when any value differs', async () => {
    const one = await fingerprintJson({ amount: 5 });
    const two = await fingerprintJson({ amount: 50 });
    expect(one.hex).not.toBe(two.hex);
  });

  it('counts a __proto__ own key like any other key', async () => {
    const parsed = JSON.parse('{"__proto__":{"admin":true},"user":"eve"}') as JsonValue;
    const fingerprint = await fingerprintJson(parsed);
    expect(fingerprint.hex).toBe(sha256('{"__proto__":{"admin":true},"user":"eve"}'));
    expect(fingerprint.hex).not.toBe((await fingerprintJson({ user: 'eve' })).hex);
  });

  it('fails with a clear error when Web Crypto is missing (a page outside a secure context)', async () => {
    await expect(fingerprintJson({ a: 1 }, { crypto: {} })).rejects.toBeInstanceOf(WebCryptoUnavailableError);
    await expect(fingerprintJson({ a: 1 }, { crypto: undefined })).rejects.toThrow(/secure context.*https.*localhost/);
  });

  it('rejects values that are not JSON', async () => {
    await expect(fingerprintJson({ a: Number.NaN })).rejects.toBeInstanceOf(CanonicalJsonError);
    await expect(fingerprintJson('\ud800')).rejects.toThrow(/lone surrogate/);
  });

  it('returns a frozen fingerprint', async () => {
    const fingerprint = await fingerprintCanonical(canonicalJson([1, 2, 3]));
    expect(Object.isFrozen(fingerprint)).toBe(true);
  });
});
