/**
 * Signed approvals: the server signs each approval request it sends, the page returns the token
 * with its decision, and the server verifies the token, once, before anything runs
 * (docs/guarantees.md, "Approvals any server can verify"). WebCrypto only, so that it runs in
 * Node, Deno, browsers and edge workers.
 */

import { canonicalJson } from '../core/json/canonical-json';
import { fromBase64Url, toBase64Url } from './base64url';
import { createMemoryTokenStore, type SpentTokenStore } from './spent-tokens';

/**
 * What a token says: the request it approves, bound to the session, the call, the tool, the
 * arguments and the tool's definition, whether a person may edit the arguments, until when, and a
 * nonce that makes each token one of a kind.
 *
 * @example
 * const claims: ApprovalClaims = { sessionId: 's1', callId: 'c1', toolName: 'send_money', argumentsFingerprint: fp.hex,
 *   definitionFingerprint: null, editable: false, expiresAt: Date.now() + 60_000, nonce: 'k2Q…' };
 */
export interface ApprovalClaims {
  readonly sessionId: string;
  readonly callId: string;
  readonly toolName: string;
  /** SHA-256 hex of the canonical JSON of the arguments shown (`fingerprintJson` in `toolgate/core`). */
  readonly argumentsFingerprint: string;
  /** SHA-256 hex of the tool's definition, or `null` when the tool has none. */
  readonly definitionFingerprint: string | null;
  /** Whether the person may approve edited arguments. */
  readonly editable: boolean;
  /** Milliseconds since the epoch; from then on the token is refused as `expired`. */
  readonly expiresAt: number;
  readonly nonce: string;
}

/**
 * What {@link ApprovalSigner.sign} takes: the claims, with the nonce (random when omitted) and
 * the expiry (the signer's `ttlMs` from now when omitted) optional.
 *
 * @example
 * const token = await signer.sign({ sessionId, callId, toolName: 'send_money', argumentsFingerprint, definitionFingerprint: null, editable: true });
 */
export type ApprovalSignRequest = Omit<ApprovalClaims, 'nonce' | 'expiresAt' | 'definitionFingerprint'> & {
  readonly definitionFingerprint?: string | null | undefined;
  readonly expiresAt?: number | undefined;
  readonly nonce?: string | undefined;
};

/**
 * The decision a page sent back with its token, as the server read it: the tool and the
 * fingerprint of the arguments the decision would run, whether they are an edit, and, when the
 * server knows them, the session and call it is about to run (checked against the token).
 *
 * @example
 * const decision: ApprovalTokenDecision = { toolName: msg.toolName, argumentsFingerprint: msg.fingerprint, edited: msg.edited, callId: msg.callId };
 */
export interface ApprovalTokenDecision {
  readonly toolName: string;
  /** SHA-256 hex of what would run: the arguments shown, or the person's edit. */
  readonly argumentsFingerprint: string;
  /** The person edited the arguments: accepted only when the token says `editable`. */
  readonly edited?: boolean | undefined;
  readonly sessionId?: string | undefined;
  readonly callId?: string | undefined;
}

/**
 * Why a token was refused:
 * - `malformed`: not a token this signer makes;
 * - `bad-signature`: its MAC is not the signer's (forged, changed, or signed with another secret);
 * - `expired`: its expiry has passed;
 * - `call-mismatch`: it was signed for another session or call than the one given;
 * - `tool-mismatch`: the decision names another tool;
 * - `arguments-mismatch`: the decision would run other arguments and says no edit;
 * - `not-editable`: the decision is an edit and the token does not allow one;
 * - `already-used`: the token was accepted before;
 * - `busy`: the store of spent tokens is full of unexpired ones.
 *
 * @example
 * if (!result.ok && result.reason === 'already-used') log.warn('a decision was replayed');
 */
export type ApprovalRefusalReason =
  | 'malformed'
  | 'bad-signature'
  | 'expired'
  | 'call-mismatch'
  | 'tool-mismatch'
  | 'arguments-mismatch'
  | 'not-editable'
  | 'already-used'
  | 'busy';

/**
 * What {@link ApprovalSigner.verify} found: the claims and the fingerprint of what may run now
 * (the edit's, when an editable request was edited), or why nothing may run.
 *
 * @example
 * const result: ApprovalVerification = await signer.verify(token, decision);
 * if (!result.ok) return refuse(result.reason, result.message);
 */
export type ApprovalVerification =
  | { readonly ok: true; readonly claims: ApprovalClaims; readonly runs: string; readonly edited: boolean }
  | { readonly ok: false; readonly reason: ApprovalRefusalReason; readonly message: string };

/**
 * Options of {@link createApprovalSigner}.
 *
 * @example
 * const signer = createApprovalSigner({ secret: process.env.APPROVAL_SECRET!, ttlMs: 5 * 60_000 });
 */
export interface ApprovalSignerOptions {
  /** The HMAC key: at least 32 bytes (a string counts its UTF-8 bytes). Keep it on the server. */
  secret: string | Uint8Array | ArrayBuffer;
  /** The clock of expiries, in milliseconds; `Date.now` when omitted. */
  now?: (() => number) | undefined;
  /** How long a token lives when the request gives no `expiresAt`; 10 minutes when omitted. */
  ttlMs?: number | undefined;
  /** Where spent tokens are remembered; this process's memory when omitted (see `createMemoryTokenStore`). */
  spent?: SpentTokenStore | undefined;
}

/**
 * Signs approval requests and verifies the tokens that come back with decisions.
 *
 * @example
 * const token = await signer.sign(request);
 * const result = await signer.verify(token, decision);
 */
export interface ApprovalSigner {
  /** A token over the request's claims: `tg1.<claims>.<mac>`, both parts base64url. */
  sign(request: ApprovalSignRequest): Promise<string>;
  /** Check a token against a decision, and spend it: a token is accepted once. Never throws for a bad token. */
  verify(token: unknown, decision: ApprovalTokenDecision): Promise<ApprovalVerification>;
}

/**
 * The shortest secret accepted, in bytes: as long as the HMAC-SHA-256 output (RFC 2104 section 3).
 *
 * @example
 * const secret = crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES)); // keep it, e.g. base64 in the server's environment
 */
export const MIN_SECRET_BYTES = 32;
const PREFIX = 'tg1';
const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Create a signer of approval requests (HMAC-SHA-256 over the canonical JSON of the claims). Throws
 * a `RangeError` for a secret shorter than 32 bytes.
 *
 * @example
 * const signer = createApprovalSigner({ secret: process.env.APPROVAL_SECRET! });
 * const token = await signer.sign({ sessionId, callId, toolName, argumentsFingerprint, definitionFingerprint, editable: false });
 * // … later, with the page's decision, before anything runs:
 * const result = await signer.verify(token, { toolName, argumentsFingerprint, callId });
 * if (result.ok) await run(toolName, args);
 */
export function createApprovalSigner(options: ApprovalSignerOptions): ApprovalSigner {
  const secret = secretBytes(options.secret);
  if (secret.byteLength < MIN_SECRET_BYTES) {
    throw new RangeError(`an approval secret must be at least ${MIN_SECRET_BYTES} bytes; this one is ${secret.byteLength}`);
  }
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const spent = options.spent ?? createMemoryTokenStore({ now });
  let key: Promise<CryptoKey> | undefined;
  const hmacKey = (): Promise<CryptoKey> =>
    (key ??= subtle().importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']));
  const mac = async (bytes: Uint8Array): Promise<Uint8Array> => new Uint8Array(await subtle().sign('HMAC', await hmacKey(), bytes as Uint8Array<ArrayBuffer>));

  const sign = async (request: ApprovalSignRequest): Promise<string> => {
    const claims: ApprovalClaims = {
      sessionId: request.sessionId,
      callId: request.callId,
      toolName: request.toolName,
      argumentsFingerprint: request.argumentsFingerprint,
      definitionFingerprint: request.definitionFingerprint ?? null,
      editable: request.editable,
      expiresAt: request.expiresAt ?? now() + ttlMs,
      nonce: request.nonce ?? randomNonce(),
    };
    const problem = claimsProblem(claims);
    if (problem !== undefined) throw new TypeError(`cannot sign this approval request: ${problem}`);
    const body = new TextEncoder().encode(canonicalJson(claims as unknown as Record<string, string>));
    return `${PREFIX}.${toBase64Url(body)}.${toBase64Url(await mac(body))}`;
  };

  const verify = async (token: unknown, decision: ApprovalTokenDecision): Promise<ApprovalVerification> => {
    const refuse = (reason: ApprovalRefusalReason, message: string): ApprovalVerification => ({ ok: false, reason, message });
    if (typeof decision !== 'object' || decision === null) return refuse('malformed', 'there is no decision to check the token against');
    if (typeof token !== 'string' || token.length > 8192) return refuse('malformed', 'the token is not a string of a reasonable length');
    const parts = token.split('.');
    const body = parts.length === 3 && parts[0] === PREFIX ? fromBase64Url(parts[1] as string) : undefined;
    const tag = body === undefined ? undefined : fromBase64Url(parts[2] as string);
    if (body === undefined || tag === undefined || tag.byteLength !== 32) return refuse('malformed', 'the token is not tg1.<claims>.<mac> in base64url');
    if (!constantTimeEqual(tag, await mac(body))) return refuse('bad-signature', 'the token was not signed with this secret, or was changed');
    let claims: ApprovalClaims;
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
      claims = JSON.parse(text) as ApprovalClaims;
      const problem = claimsProblem(claims);
      if (problem !== undefined) return refuse('malformed', `the token's claims ${problem}`);
    } catch {
      return refuse('malformed', "the token's claims are not JSON");
    }
    if (now() >= claims.expiresAt) return refuse('expired', `the approval expired at ${new Date(claims.expiresAt).toISOString()}`);
    if ((decision.sessionId !== undefined && decision.sessionId !== claims.sessionId) || (decision.callId !== undefined && decision.callId !== claims.callId)) {
      return refuse('call-mismatch', `the token approves call ${claims.callId} of session ${claims.sessionId}, not this one`);
    }
    if (decision.toolName !== claims.toolName) return refuse('tool-mismatch', `the token approves ${claims.toolName}, the decision names ${String(decision.toolName)}`);
    const same = decision.argumentsFingerprint === claims.argumentsFingerprint;
    if (!same && decision.edited !== true) return refuse('arguments-mismatch', 'the decision would run other arguments than the ones the token approves');
    if (!same && !claims.editable) return refuse('not-editable', 'the decision is an edit, and this request may not be edited');
    if (!same && (typeof decision.argumentsFingerprint !== 'string' || !HEX64.test(decision.argumentsFingerprint))) {
      return refuse('malformed', "the edit's fingerprint is not SHA-256 hex");
    }
    // Spent last: a decision refused above leaves its token usable for the right one.
    const first = await spent.spend(parts[2] as string, claims.expiresAt);
    if (first === 'full') return refuse('busy', 'too many unexpired approvals are remembered; try again when some have expired');
    if (!first) return refuse('already-used', 'this token was accepted before');
    return { ok: true, claims, runs: decision.argumentsFingerprint, edited: !same };
  };

  return { sign, verify };
}

function subtle(): SubtleCrypto {
  const found = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (found === undefined) throw new Error('Web Crypto (crypto.subtle) is not available in this runtime, so approvals cannot be signed or verified');
  return found;
}

function secretBytes(secret: ApprovalSignerOptions['secret']): Uint8Array<ArrayBuffer> {
  if (typeof secret === 'string') return new TextEncoder().encode(secret);
  if (secret instanceof ArrayBuffer) return new Uint8Array(secret.slice(0));
  if (secret instanceof Uint8Array) return new Uint8Array(secret);
  throw new TypeError('an approval secret is a string, a Uint8Array or an ArrayBuffer');
}

function randomNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return toBase64Url(bytes);
}

/** Compares every byte whatever differs first, so the time taken says nothing about where a forged MAC goes wrong. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let diff = 0;
  for (let i = 0; i < a.byteLength; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

function claimsProblem(c: ApprovalClaims): string | undefined {
  if (typeof c !== 'object' || c === null) return 'are not an object';
  for (const field of ['sessionId', 'callId', 'toolName', 'nonce'] as const) {
    if (typeof c[field] !== 'string' || c[field] === '') return `have no ${field}`;
  }
  if (typeof c.argumentsFingerprint !== 'string' || !HEX64.test(c.argumentsFingerprint)) return 'have no argumentsFingerprint (SHA-256 hex)';
  if (c.definitionFingerprint !== null && (typeof c.definitionFingerprint !== 'string' || !HEX64.test(c.definitionFingerprint))) {
    return 'have a definitionFingerprint that is neither null nor SHA-256 hex';
  }
  if (typeof c.editable !== 'boolean') return 'do not say whether the request is editable';
  if (typeof c.expiresAt !== 'number' || !Number.isFinite(c.expiresAt)) return 'have no expiry (expiresAt)';
  return undefined;
}
