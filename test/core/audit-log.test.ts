// The audit trail (docs/guarantees.md, "An audit trail that shows tampering"): a hash chain
// whose first broken link verifyAuditLog finds, at the record that was changed, moved, removed or
// added; JSON Lines out and back in, verified.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonValue } from 'toolgate/core';
import { auditLogToJsonLines, createAuditLog, parseAuditJsonLines, verifyAuditLog, AuditLogError, type AuditEntry, type AuditRecord } from 'toolgate/audit';
import { canonicalJson, fingerprintJson } from 'toolgate/json';

const counter = () => {
  let t = 1_000;
  return () => t++;
};

const story = (callId: string, args: JsonValue): AuditEntry[] => [
  { type: 'requested', callId, toolName: 'send_money', definitionFingerprint: null, arguments: args },
  { type: 'decided', callId, kind: 'approve', by: 'person' },
  { type: 'ran', callId, arguments: args },
  { type: 'settled', callId, code: 'OK', output: { receipt: `r-${callId}` } },
];

async function logOf(entries: readonly AuditEntry[]): Promise<AuditRecord[]> {
  const log = createAuditLog({ now: counter() });
  for (const entry of entries) void log.append(entry);
  await log.idle();
  return [...log.getState().records];
}

const hexDigest = fc.stringMatching(/^[0-9a-f]{64}$/);
const entryArb: fc.Arbitrary<AuditEntry> = fc.oneof(
  fc.record({
    type: fc.constant('requested' as const),
    callId: fc.constantFrom('c1', 'c2', 'c3'),
    toolName: fc.constantFrom('send_money', 'delete_file', 'run_command'),
    definitionFingerprint: fc.option(hexDigest, { nil: null }),
    arguments: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
  }),
  fc.record({
    type: fc.constant('decided' as const),
    callId: fc.constantFrom('c1', 'c2', 'c3'),
    kind: fc.constantFrom('approve' as const, 'deny' as const, 'respond' as const, 'cancel' as const),
    by: fc.constantFrom('person' as const, 'rule' as const, 'grant' as const, 'batch' as const),
    ruleId: fc.option(fc.string(), { nil: null }),
    reason: fc.option(fc.string(), { nil: null }),
  }),
  fc.record({ type: fc.constant('ran' as const), callId: fc.constantFrom('c1', 'c2', 'c3'), argumentsFingerprint: hexDigest }),
  fc.record({
    type: fc.constant('settled' as const),
    callId: fc.constantFrom('c1', 'c2', 'c3'),
    code: fc.constantFrom('OK', 'REJECTED', 'FAILED'),
    outputFingerprint: fc.option(hexDigest, { nil: null }),
  }),
);
const entriesArb = fc.array(entryArb, { minLength: 1, maxLength: 8 });

describe('the audit log', () => {
  it('verifies when empty, by itself and as a log', async () => {
    expect(await verifyAuditLog([])).toEqual({ ok: true, length: 0, head: null });
    const log = createAuditLog();
    expect(await log.verify()).toEqual({ ok: true, length: 0, head: null });
    expect(log.toJsonLines()).toBe('');
    expect(await parseAuditJsonLines('')).toEqual({ ok: true, records: [], length: 0, head: null });
  });

  it('keeps the order in which records were appended, even when no append is awaited', async () => {
    const log = createAuditLog({ now: counter() });
    // A requested record needs a fingerprint before it can be hashed; the decided one after it needs none.
    const pending = [
      log.append({ type: 'requested', callId: 'c1', toolName: 'send_money', arguments: { to: 'ada', amount: 5, memo: 'x'.repeat(100_000) } }),
      log.append({ type: 'decided', callId: 'c1', kind: 'deny', by: 'rule', ruleId: 'no-wires', reason: 'wires need a person' }),
      log.append({ type: 'requested', callId: 'c2', toolName: 'send_money', arguments: { to: 'bob' } }),
      log.append({ type: 'decided', callId: 'c2', kind: 'cancel', by: 'person' }),
    ];
    const records = await Promise.all(pending);
    expect(records.map((r) => [r.seq, r.type, r.callId])).toEqual([
      [0, 'requested', 'c1'],
      [1, 'decided', 'c1'],
      [2, 'requested', 'c2'],
      [3, 'decided', 'c2'],
    ]);
    expect(log.getState().records).toEqual(records);
    expect(await log.verify()).toEqual({ ok: true, length: 4, head: records[3]!.hash });
  });

  it("links each record to the SHA-256 of the previous record's canonical JSON", async () => {
    const records = await logOf(story('c1', { to: 'ada', amount: 5 }));
    expect(records[0]!.prev).toBeNull();
    for (let i = 0; i < records.length; i++) {
      const { hash, ...body } = records[i]!;
      expect(hash).toBe((await fingerprintJson(body as unknown as JsonValue)).hex);
      if (i > 0) expect(records[i]!.prev).toBe(records[i - 1]!.hash);
    }
  });

  it('records the request, the decision, what ran and how it settled, with their fingerprints', async () => {
    const log = createAuditLog({ now: () => 42 });
    const args = { to: 'ada', amount: 5 };
    const edited = { to: 'ada', amount: 4 };
    void log.append({ type: 'requested', callId: 'c1', toolName: 'send_money', definitionFingerprint: 'a'.repeat(64), arguments: args });
    void log.append({ type: 'decided', callId: 'c1', kind: 'approve', by: 'grant', ruleId: 'grant-7', reason: 'allowed for the session' });
    void log.append({ type: 'ran', callId: 'c1', arguments: edited });
    const last = await log.append({ type: 'settled', callId: 'c1', code: 'OK', output: { receipt: 'r-1' } });
    const [requested, decided, ran] = log.getState().records;
    expect(requested).toMatchObject({ type: 'requested', toolName: 'send_money', definitionFingerprint: 'a'.repeat(64), arguments: args, at: 42 });
    expect(requested).toMatchObject({ argumentsFingerprint: (await fingerprintJson(args)).hex });
    expect(decided).toMatchObject({ kind: 'approve', by: 'grant', ruleId: 'grant-7', reason: 'allowed for the session', at: 42 });
    expect(ran).toMatchObject({ argumentsFingerprint: (await fingerprintJson(edited)).hex });
    expect(last).toMatchObject({ code: 'OK', outputFingerprint: (await fingerprintJson({ receipt: 'r-1' })).hex });
  });

  it('keeps the arguments as they were when append was called, frozen', async () => {
    const log = createAuditLog();
    const args = { to: 'ada', amounts: [5] };
    const appended = log.append({ type: 'requested', callId: 'c1', toolName: 'send_money', arguments: args });
    args.to = 'mallory';
    args.amounts.push(500);
    const record = await appended;
    expect(record).toMatchObject({ arguments: { to: 'ada', amounts: [5] } });
    expect(Object.isFrozen(record)).toBe(true);
    expect(record.type === 'requested' && Object.isFrozen((record.arguments as { amounts: unknown }).amounts)).toBe(true);
  });

  it('refuses an entry whose fingerprint is not its arguments\' own, adds nothing, and appends the next one', async () => {
    const log = createAuditLog();
    const wrong = log.append({ type: 'requested', callId: 'c1', toolName: 't', arguments: { a: 1 }, argumentsFingerprint: 'b'.repeat(64) });
    const next = log.append({ type: 'decided', callId: 'c1', kind: 'deny', by: 'person' });
    await expect(wrong).rejects.toBeInstanceOf(AuditLogError);
    await expect(next).resolves.toMatchObject({ seq: 0, prev: null });
    await expect(log.append({ type: 'ran', callId: 'c1', argumentsFingerprint: 'not hex' })).rejects.toBeInstanceOf(AuditLogError);
    await expect(log.append({ type: 'requested', callId: 'c1', toolName: 't', arguments: { when: new Date() } as never })).rejects.toBeInstanceOf(AuditLogError);
    expect(log.getState().records).toHaveLength(1);
    expect((await log.verify()).ok).toBe(true);
  });

  it('tells subscribers of each record appended', async () => {
    const log = createAuditLog();
    const seen: number[] = [];
    const stop = log.subscribe((state) => seen.push(state.records.length));
    await Promise.all(story('c1', {}).map((entry) => log.append(entry)));
    stop();
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(log.getInitialState().records).toEqual([]);
  });
});

describe('verifyAuditLog', () => {
  const runs = { seed: 280_304, numRuns: 60 };

  it('finds a changed field of any record at that record', async () => {
    await fc.assert(
      fc.asyncProperty(entriesArb, fc.nat(), fc.nat(), fc.jsonValue({ maxDepth: 1 }), async (entries, pickRecord, pickField, replacement) => {
        const records = await logOf(entries);
        const index = pickRecord % records.length;
        const fields = Object.keys(records[index]!);
        const field = fields[pickField % fields.length]!;
        const original = (records[index] as unknown as Record<string, JsonValue>)[field]!;
        fc.pre(canonicalJson(original) !== canonicalJson(replacement as JsonValue));
        const tampered = records.map((r, i) => (i === index ? { ...r, [field]: replacement } : r));
        const result = await verifyAuditLog(tampered);
        expect(result).toMatchObject({ ok: false, index });
      }),
      runs,
    );
  });

  it('finds a field added to or removed from any record at that record', async () => {
    await fc.assert(
      fc.asyncProperty(entriesArb, fc.nat(), fc.nat(), fc.boolean(), async (entries, pickRecord, pickField, add) => {
        const records = await logOf(entries);
        const index = pickRecord % records.length;
        const copy: Record<string, unknown> = { ...records[index] };
        if (add) copy['approvedBy'] = 'someone else';
        else delete copy[Object.keys(copy)[pickField % Object.keys(copy).length]!];
        const result = await verifyAuditLog(records.map((r, i) => (i === index ? copy : r)));
        expect(result).toMatchObject({ ok: false, index });
      }),
      runs,
    );
  });

  it('finds a removed record at its place (the last one through a checkpoint)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entryArb, { minLength: 2, maxLength: 8 }), fc.nat(), async (entries, pick) => {
        const records = await logOf(entries);
        const index = pick % records.length;
        const checkpoint = { length: records.length, head: records.at(-1)!.hash };
        const result = await verifyAuditLog(records.toSpliced(index, 1), { checkpoint });
        expect(result).toMatchObject({ ok: false, index, reason: index === records.length - 1 ? 'truncated' : 'out-of-sequence' });
      }),
      runs,
    );
  });

  it('finds two records swapped at the first of them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entryArb, { minLength: 2, maxLength: 8 }), fc.nat(), fc.nat(), async (entries, a, b) => {
        const records = await logOf(entries);
        const i = a % records.length;
        const j = b % records.length;
        fc.pre(i !== j);
        const swapped = [...records];
        [swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!];
        expect(await verifyAuditLog(swapped)).toMatchObject({ ok: false, index: Math.min(i, j) });
      }),
      runs,
    );
  });

  it('finds an inserted record at its place, whether a copy of one of the log or from another log', async () => {
    await fc.assert(
      fc.asyncProperty(entriesArb, entriesArb, fc.nat(), fc.nat(), fc.boolean(), async (entries, others, at, pick, fromOther) => {
        const records = await logOf(entries);
        const source = fromOther ? await logOf(others) : records;
        const inserted = source[pick % source.length]!;
        const index = at % (records.length + 1);
        const result = await verifyAuditLog(records.toSpliced(index, 0, inserted));
        // A copy put just before its original reads the same as one put just after it: the second is the extra one.
        expect(result).toMatchObject({ ok: false, index: inserted === records[index] ? index + 1 : index });
      }),
      runs,
    );
  });

  it('finds, through a checkpoint, a rewrite that computed every hash again', async () => {
    const records = await logOf([...story('c1', { amount: 5 }), ...story('c2', { amount: 6 })]);
    const checkpoint = { length: records.length, head: records.at(-1)!.hash };
    // The forger changes the first amount and rebuilds the chain from there, so every link holds.
    const forged = await logOf([...story('c1', { amount: 500 }), ...story('c2', { amount: 6 })]);
    expect(await verifyAuditLog(forged)).toMatchObject({ ok: true });
    expect(await verifyAuditLog(forged, { checkpoint })).toMatchObject({ ok: false, index: records.length - 1, reason: 'checkpoint-mismatch' });
    expect(await verifyAuditLog(records, { checkpoint })).toMatchObject({ ok: true });
    // A log that grew after the checkpoint still verifies against it.
    const grown = await logOf([...story('c1', { amount: 5 }), ...story('c2', { amount: 6 }), ...story('c3', {})]);
    expect(await verifyAuditLog(grown, { checkpoint })).toMatchObject({ ok: true, length: records.length + 4 });
  });

  it('calls a value that is not a record malformed, at its place, and never throws', async () => {
    const records = await logOf(story('c1', {}));
    for (const junk of [null, 7, 'text', [], { ...records[1], seq: -1 }, { ...records[1], kind: 'maybe' }, { ...records[1], at: Number.NaN }]) {
      expect(await verifyAuditLog(records.toSpliced(1, 1, junk as never))).toMatchObject({ ok: false, index: 1, reason: 'malformed' });
    }
  });
});

describe('JSON Lines', () => {
  it('round-trips: export, import and verify give the same records, and the log continues the chain', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entryArb, { maxLength: 8 }), async (entries) => {
        const records = await logOf(entries);
        const text = auditLogToJsonLines(records);
        expect(text.split('\n')).toHaveLength(records.length + 1);
        const imported = await parseAuditJsonLines(text);
        expect(imported).toEqual({ ok: true, records, length: records.length, head: records.at(-1)?.hash ?? null });
        if (!imported.ok) return;
        const log = createAuditLog({ records: imported.records });
        await log.append({ type: 'decided', callId: 'c9', kind: 'deny', by: 'person' });
        expect(await log.verify()).toMatchObject({ ok: true, length: records.length + 1 });
        expect(await parseAuditJsonLines(log.toJsonLines().replaceAll('\n', '\r\n'))).toMatchObject({ ok: true });
      }),
      { seed: 280_305, numRuns: 40 },
    );
  });

  it('refuses a line that is not JSON, and a changed line, at that record', async () => {
    const text = auditLogToJsonLines(await logOf(story('c1', { to: 'ada' })));
    const lines = text.split('\n');
    expect(await parseAuditJsonLines([lines[0], lines[1], '{"seq":', lines[3]].join('\n'))).toMatchObject({ ok: false, index: 2, reason: 'malformed' });
    expect(await parseAuditJsonLines([lines[0], '', lines[2]].join('\n'))).toMatchObject({ ok: false, index: 1, reason: 'malformed' });
    expect(await parseAuditJsonLines(text.replace('"to":"ada"', '"to":"eve"'))).toMatchObject({ ok: false, index: 0, reason: 'hash-mismatch' });
  });

  it('refuses to continue a log from records that do not verify', async () => {
    const records = await logOf(story('c1', {}));
    const log = createAuditLog({ records: records.toSpliced(1, 1) });
    await expect(log.append({ type: 'decided', callId: 'c1', kind: 'deny', by: 'person' })).rejects.toThrow(/do not verify/);
    expect(log.getState().records).toHaveLength(3);
  });
});
