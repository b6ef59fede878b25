// @vitest-environment node
// toolgate/server (docs/guarantees.md, "Approvals any server can verify"): a token signed for an
// approval request is accepted once, for that tool and those arguments (or a permitted edit),
// before its expiry, and refused with a reason otherwise.
import { describe, expect, it } from 'vitest';
import { fingerprintJson } from 'toolgate/json';
import { createApprovalSigner, createMemoryTokenStore, type ApprovalSignRequest, type SpentTokenStore } from 'toolgate/server';

const SECRET = 'a server secret that is 32 bytes long at least';

const manualClock = (start = 1_000_000) => {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
};

async function requestFor(args: unknown, overrides: Partial<ApprovalSignRequest> = {}): Promise<ApprovalSignRequest> {
  return {
    sessionId: 's1',
    callId: 'c1',
    toolName: 'send_money',
    argumentsFingerprint: (await fingerprintJson(args as never)).hex,
    definitionFingerprint: null,
    editable: false,
    ...overrides,
  };
}

describe('createApprovalSigner', () => {
  it('verifies a token it signed, for the tool and arguments it names, and gives back the claims', async () => {
    const clock = manualClock();
    const signer = createApprovalSigner({ secret: SECRET, now: clock.now });
    const request = await requestFor({ to: 'ada', amount: 5 }, { expiresAt: clock.now() + 60_000 });
    const token = await signer.sign(request);
    expect(token).toMatch(/^tg1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const result = await signer.verify(token, { toolName: 'send_money', argumentsFingerprint: request.argumentsFingerprint, sessionId: 's1', callId: 'c1' });
    expect(result).toEqual({
      ok: true,
      claims: { ...request, nonce: expect.any(String) },
      runs: request.argumentsFingerprint,
      edited: false,
    });
  });

  it('gives each token a random nonce when the request has none, so two signatures of one request differ', async () => {
    const signer = createApprovalSigner({ secret: SECRET });
    const request = await requestFor({});
    const [a, b] = [await signer.sign(request), await signer.sign(request)];
    expect(a).not.toBe(b);
    expect(await signer.sign({ ...request, nonce: 'n1', expiresAt: 5 })).toBe(await signer.sign({ ...request, nonce: 'n1', expiresAt: 5 }));
  });

  it('refuses a token replayed after it was accepted once (already-used)', async () => {
    const signer = createApprovalSigner({ secret: SECRET });
    const request = await requestFor({ to: 'ada' });
    const token = await signer.sign(request);
    const decision = { toolName: 'send_money', argumentsFingerprint: request.argumentsFingerprint };
    expect((await signer.verify(token, decision)).ok).toBe(true);
    expect(await signer.verify(token, decision)).toMatchObject({ ok: false, reason: 'already-used' });
  });

  it('refuses a token signed with another secret, or changed in any character (bad-signature)', async () => {
    const signer = createApprovalSigner({ secret: SECRET });
    const other = createApprovalSigner({ secret: `${SECRET}, but another` });
    const request = await requestFor({ to: 'ada' });
    const decision = { toolName: 'send_money', argumentsFingerprint: request.argumentsFingerprint };
    expect(await signer.verify(await other.sign(request), decision)).toMatchObject({ ok: false, reason: 'bad-signature' });
    const token = await signer.sign(request);
    const [prefix, body, mac] = token.split('.') as [string, string, string];
    // The claims say editable: false; a forger who flips it to true keeps the old MAC.
    const forgedClaims = new TextDecoder().decode(Uint8Array.from(atob(body.replaceAll('-', '+').replaceAll('_', '/')), (c) => c.charCodeAt(0))).replace('"editable":false', '"editable":true');
    const forgedBody = btoa(forgedClaims).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    expect(await signer.verify(`${prefix}.${forgedBody}.${mac}`, decision)).toMatchObject({ ok: false, reason: 'bad-signature' });
    const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
    expect(await signer.verify(`${prefix}.${body}.${flipped}`, decision)).toMatchObject({ ok: false, reason: 'bad-signature' });
    // Neither refusal spent the real token.
    expect((await signer.verify(token, decision)).ok).toBe(true);
  });

  it('refuses a token at or after its expiry by the signer\'s clock (expired)', async () => {
    const clock = manualClock();
    const signer = createApprovalSigner({ secret: SECRET, now: clock.now, ttlMs: 30_000 });
    const request = await requestFor({});
    const token = await signer.sign(request);
    clock.advance(30_000);
    expect(await signer.verify(token, { toolName: 'send_money', argumentsFingerprint: request.argumentsFingerprint })).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('refuses a decision for another tool, even with the same arguments (tool-mismatch)', async () => {
    const signer = createApprovalSigner({ secret: SECRET });
    const request = await requestFor({ path: 'a.txt' }, { toolName: 'read_file', editable: true });
    const token = await signer.sign(request);
    expect(await signer.verify(token, { toolName: 'delete_file', argumentsFingerprint: request.argumentsFingerprint })).toMatchObject({ ok: false, reason: 'tool-mismatch' });
    expect(await signer.verify(token, { toolName: 'delete_file', argumentsFingerprint: request.argumentsFingerprint, edited: true })).toMatchObject({ ok: false, reason: 'tool-mismatch' });
  });

  it('refuses a decision that would run other arguments without saying it is an edit (arguments-mismatch)', async () => {
    const signer = createApprovalSigner({ secret: SECRET });
    const request = await requestFor({ to: 'ada', amount: 5 }, { editable: true });
    const token = await signer.sign(request);
    const other = (await fingerprintJson({ to: 'ada', amount: 500 })).hex;
    expect(await signer.verify(token, { toolName: 'send_money', argumentsFingerprint: other })).toMatchObject({ ok: false, reason: 'arguments-mismatch' });
  });

  it('accepts an edit as what runs when the request is editable, and refuses it when not (not-editable)', async () => {
    const signer = createApprovalSigner({ secret: SECRET });
    const edit = (await fingerprintJson({ to: 'ada', amount: 4 })).hex;
    const editable = await signer.sign(await requestFor({ to: 'ada', amount: 5 }, { editable: true }));
    expect(await signer.verify(editable, { toolName: 'send_money', argumentsFingerprint: edit, edited: true })).toMatchObject({ ok: true, runs: edit, edited: true });
    const fixed = await signer.sign(await requestFor({ to: 'ada', amount: 5 }, { editable: false }));
    expect(await signer.verify(fixed, { toolName: 'send_money', argumentsFingerprint: edit, edited: true })).toMatchObject({ ok: false, reason: 'not-editable' });
  });

  it('refuses a token for another session or call than the one about to run (call-mismatch)', async () => {
    const signer = createApprovalSigner({ secret: SECRET });
    const request = await requestFor({});
    const token = await signer.sign(request);
    const decision = { toolName: 'send_money', argumentsFingerprint: request.argumentsFingerprint };
    expect(await signer.verify(token, { ...decision, callId: 'c2' })).toMatchObject({ ok: false, reason: 'call-mismatch' });
    expect(await signer.verify(token, { ...decision, sessionId: 's2' })).toMatchObject({ ok: false, reason: 'call-mismatch' });
  });

  it('refuses what is not a token (malformed), and never throws for it', async () => {
    const signer = createApprovalSigner({ secret: SECRET });
    const request = await requestFor({});
    const token = await signer.sign(request);
    const decision = { toolName: 'send_money', argumentsFingerprint: request.argumentsFingerprint };
    const [, body, mac] = token.split('.');
    for (const junk of [undefined, 42, '', 'tg1', 'tg1..', `tg2.${body}.${mac}`, `tg1.${body}.${mac}=`, `tg1.${body}!.${mac}`, `tg1.${body}.${mac}.x`, `tg1.${body}.${mac!.slice(2)}`, 'x'.repeat(10_000)]) {
      expect(await signer.verify(junk, decision)).toMatchObject({ ok: false, reason: 'malformed' });
    }
    expect(await signer.verify(token, null as never)).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('refuses a secret shorter than 32 bytes when the signer is made', () => {
    expect(() => createApprovalSigner({ secret: 'x'.repeat(31) })).toThrow(RangeError);
    expect(() => createApprovalSigner({ secret: new Uint8Array(31) })).toThrow(/at least 32 bytes/);
    // Bytes, not characters: 16 two-byte characters are 32 bytes.
    expect(() => createApprovalSigner({ secret: 'é'.repeat(16) })).not.toThrow();
    expect(() => createApprovalSigner({ secret: new Uint8Array(32).buffer })).not.toThrow();
  });

  it('refuses to sign a request that is not one (a fingerprint that is not SHA-256 hex)', async () => {
    const signer = createApprovalSigner({ secret: SECRET });
    await expect(signer.sign({ ...(await requestFor({})), argumentsFingerprint: 'abc' })).rejects.toThrow(TypeError);
  });
});

describe('the store of spent tokens', () => {
  it('forgets a token once it has expired, and stays bounded', async () => {
    const clock = manualClock();
    const spent = createMemoryTokenStore({ now: clock.now, max: 3 });
    const signer = createApprovalSigner({ secret: SECRET, now: clock.now, ttlMs: 1_000, spent });
    const request = await requestFor({});
    const decision = { toolName: 'send_money', argumentsFingerprint: request.argumentsFingerprint };
    for (let i = 0; i < 3; i++) expect((await signer.verify(await signer.sign(request), decision)).ok).toBe(true);
    expect(spent.size).toBe(3);
    // Full of unexpired tokens: a new one is refused rather than an old one forgotten early.
    expect(await signer.verify(await signer.sign(request), decision)).toMatchObject({ ok: false, reason: 'busy' });
    clock.advance(1_000);
    expect(spent.size).toBe(0);
    expect((await signer.verify(await signer.sign(request), decision)).ok).toBe(true);
  });

  it('takes a shared store in place of its own memory, and asks it once per accepted token', async () => {
    const ids = new Set<string>();
    const asked: string[] = [];
    const shared: SpentTokenStore = {
      spend: async (id) => {
        asked.push(id);
        if (ids.has(id)) return false;
        ids.add(id);
        return true;
      },
    };
    const signer = createApprovalSigner({ secret: SECRET, spent: shared });
    const another = createApprovalSigner({ secret: SECRET, spent: shared }); // a second process
    const request = await requestFor({});
    const token = await signer.sign(request);
    const decision = { toolName: 'send_money', argumentsFingerprint: request.argumentsFingerprint };
    expect((await signer.verify(token, decision)).ok).toBe(true);
    expect(await another.verify(token, decision)).toMatchObject({ ok: false, reason: 'already-used' });
    expect(asked).toHaveLength(2);
  });
});
