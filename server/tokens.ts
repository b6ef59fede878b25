/**
 * Resume tokens (docs/protocol.md, "Sessions that survive a reload"): knowing a session id is not enough to
 * take a session over. The server keeps only the token's SHA-256 and compares digests in constant
 * time, so neither a memory dump nor the time a comparison takes tells the token.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, base64url (43 characters). */
export function newResumeToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Whether `given` is the token whose digest is `expected`; the same time for every wrong token. */
export function tokenMatches(expected: Buffer, given: string): boolean {
  // Both are SHA-256 digests, so the lengths always agree, whatever was sent.
  return timingSafeEqual(expected, tokenDigest(given));
}

/** A session id: public (it is no secret), unique, unguessable all the same. */
export function newSessionId(): string {
  return `sess_${randomBytes(12).toString('hex')}`;
}
