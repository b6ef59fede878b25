/**
 * Property: whatever a person does with the server's approval requests (approve, deny, edit and
 * submit an edit, allow or deny for the session, revoke, approve or deny all, clicks repeated,
 * the clock past an expiry, requests repeated or arriving late), the gate is answered so that the
 * server never runs anything without a matching approval for the same fingerprint, never runs one
 * request twice, and runs exactly the snapshot that was approved (the card shows the same).
 *
 * The fake server below checks each answer the way the reference server does: an approval's
 * fingerprint must be that of what runs (the request's arguments, or an edit only where the request
 * was editable), and it must arrive before the request expires.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createConfirmationController, createToolStreamStore, type ClientMessage, type ConfirmationPick, type ConfirmationView, type JsonValue } from 'toolgate/core';
import { canonicalJson } from 'toolgate/json';
import { connectApprovalGate } from 'toolgate/client';
import { callEvents, createManualClock } from 'toolgate/testing';
import { callOf } from '../../src/core/stream/call-table';

// Fixed seed: a failure prints its path, and replays the same.
const SEED = 0x19_a9_e0_02;
const START = Date.UTC(2026, 11, 1, 12);

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
/** SHA-256 answered on the microtask queue, so a run's interleaving depends on the seed alone. */
const subtle = {
  digest: (_algorithm: string, data: Uint8Array) => {
    const bytes = createHash('sha256').update(data).digest();
    return Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  },
} as unknown as SubtleCrypto;
const fingerprintOf = (value: JsonValue): string => sha256(canonicalJson(value));
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const TOOLS = ['a', 'b', 'c'] as const;
/** Tool `a` has a JSON Schema: its edits must be objects with a string `note`. */
const SCHEMAS: Record<string, Record<string, unknown>> = { a: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] } };

const requestSpec = fc.record({
  tool: fc.constantFrom(...TOOLS),
  risk: fc.constantFrom('low', 'medium', 'high'),
  editable: fc.boolean(),
  expiresIn: fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: undefined }),
  args: fc.record({ note: fc.string({ maxLength: 6 }), n: fc.integer({ min: 0, max: 9 }) }),
});
type RequestSpec = typeof requestSpec extends fc.Arbitrary<infer R> ? R : never;

const draft = fc.oneof(
  fc.record({ note: fc.string({ maxLength: 6 }), n: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ note: fc.integer() }), // breaks tool a's schema
  fc.constant('not an object'),
);

const action = fc.oneof(
  fc.constant({ kind: 'approve' as const }),
  fc.constant({ kind: 'approve-twice' as const }),
  fc.constant({ kind: 'deny' as const }),
  fc.constant({ kind: 'edit' as const }),
  fc.constant({ kind: 'cancel-edit' as const }),
  draft.map((value) => ({ kind: 'submit-edit' as const, value })),
  // The whole path at once, so edits are approved often: edit, submit, wait for review, approve.
  draft.map((value) => ({ kind: 'edit-then-approve' as const, value })),
  fc.constant({ kind: 'allow-for-session' as const }),
  fc.constant({ kind: 'deny-for-session' as const }),
  fc.nat(3).map((index) => ({ kind: 'revoke' as const, index })),
  fc.boolean().map((stale) => ({ kind: 'approve-all' as const, stale })),
  fc.constant({ kind: 'deny-all' as const }),
  fc.integer({ min: 1, max: 6_000 }).map((ms) => ({ kind: 'advance' as const, ms })),
  fc.nat(7).map((index) => ({ kind: 'arrive' as const, index })),
  fc.nat(7).map((index) => ({ kind: 'repeat' as const, index })),
  // Time for fingerprints to be computed, so requests reach review often.
  fc.constant({ kind: 'turn' as const }),
  fc.constant({ kind: 'turn' as const }),
  fc.constant({ kind: 'turn' as const }),
  fc.constant({ kind: 'approve' as const }),
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

interface Asked {
  readonly message: { requestId: string; callId: string; name: string; arguments: JsonValue; risk: string; editable?: boolean; expiresAt?: number };
  answers: number;
}

async function run(specs: RequestSpec[], actions: Action[]): Promise<{ invokes: number; edited: number }> {
  const clock = createManualClock({ start: START });
  const confirmations = createConfirmationController({ clock, crypto: { subtle }, onError: () => {} });
  const store = createToolStreamStore();
  const listeners = new Set<(event: unknown) => void>();
  const asked = new Map<string, Asked>();
  /** What ran, per request: the fake server's record. */
  const invoked = new Map<string, JsonValue>();
  /** `callId fingerprint` of each snapshot a person approved by a click (approve, allow, approve all). */
  const approvedByPerson = new Set<string>();
  const approvedKey = (callId: string | undefined, fingerprint: string) => `${callId ?? ''} ${fingerprint}`;
  /** The answers sent for a person's click, to match against the clicks that approved. */
  const byPerson: { requestId: string; key: string }[] = [];
  /** Tools with an allow grant at some point. */
  const allowedTools = new Set<string>();
  let edited = 0;
  // Checked where the answer leaves, and asserted at the end: a throw in `send` could be taken for the page's own failure.
  const violations: string[] = [];
  const check = (ok: boolean, violation: string) => {
    if (!ok) violations.push(violation);
  };

  const session = {
    subscribe: (listener: (event: unknown) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    send: (message: ClientMessage) => {
      if (message.type !== 'tool.approval') return;
      const request = asked.get(message.requestId);
      check(request !== undefined, `an answer to a request that was never asked: ${message.requestId}`);
      if (request === undefined) return;
      request.answers += 1;
      // Never two answers, so never two invokes, for one request.
      check(request.answers === 1, `a second answer to ${message.requestId}`);
      if (!message.approved) return;
      const { message: asking } = request;
      // Sent before the request expired: the server would refuse it otherwise.
      check(asking.expiresAt === undefined || clock.now() < asking.expiresAt, `an approval of ${message.requestId} after it expired`);
      // Edited arguments only where the request was editable.
      check(message.arguments === undefined || asking.editable === true, `edited arguments for ${message.requestId}, which was not editable`);
      const runs = (message.arguments ?? asking.arguments) as JsonValue;
      // The server runs only what the fingerprint names.
      check(message.fingerprint === fingerprintOf(runs), `the fingerprint of ${message.requestId} is not that of what runs`);
      if (message.arguments !== undefined) edited += 1;
      if (message.automatic === true) {
        // A grant answered it: never a high-risk tool, only a tool a person allowed, never edited.
        check(asking.risk !== 'high', `a grant answered the high-risk ${message.requestId}`);
        check(allowedTools.has(asking.name), `a grant nobody gave answered ${message.requestId}`);
        check(message.arguments === undefined, `a grant answered ${message.requestId} with an edit`);
      } else {
        // A person approved exactly this snapshot.
        // Checked at the end: the answer leaves inside the click, before the click says it approved.
        byPerson.push({ requestId: message.requestId, key: approvedKey(asking.callId, message.fingerprint) });
      }
      check(!invoked.has(message.requestId), `${message.requestId} ran twice`);
      invoked.set(message.requestId, runs);
    },
  };
  const emit = (event: unknown) => {
    for (const listener of [...listeners]) listener(event);
  };
  const stop = connectApprovalGate(session, confirmations, { calls: store, schemaOf: (name) => SCHEMAS[name] });

  let arrived = 0;
  const arrive = (index: number) => {
    const spec = specs[index];
    if (spec === undefined) return;
    const requestId = `r${index}`;
    const callId = `c${index}`;
    if (!asked.has(requestId)) {
      for (const event of callEvents(callId, { name: spec.tool, arguments: spec.args, outcome: 'open' })) store.getState().dispatch(event);
    }
    const message = {
      type: 'tool.approval-request' as const,
      requestId,
      callId,
      name: spec.tool,
      arguments: spec.args,
      risk: spec.risk,
      effect: 'write' as const,
      ...(spec.editable ? { editable: true } : {}),
      ...(spec.expiresIn === undefined ? {} : { expiresAt: clock.now() + spec.expiresIn }),
    };
    if (!asked.has(requestId)) asked.set(requestId, { message, answers: 0 });
    // A repeat (after a resume) carries the same requestId: answered once at most.
    emit(asked.get(requestId)!.message);
  };
  const fingerprintShown = (view: ConfirmationView | null | undefined): string | undefined =>
    view && view.status === 'reviewing' && view.fingerprint ? view.fingerprint.hex : undefined;
  const views = (): ConfirmationView[] => {
    const state = confirmations.getState();
    return [state.current, ...state.queue].filter((view): view is ConfirmationView => view !== null);
  };

  // The first request arrives before anything else; the rest when the actions say so.
  arrive(0);
  arrived = 1;
  for (const step of actions) {
    const current = confirmations.getState().current;
    switch (step.kind) {
      case 'approve':
      case 'approve-twice': {
        const shown = fingerprintShown(current);
        const key = shown === undefined ? undefined : approvedKey(current?.callId, shown);
        if (confirmations.approve() && key) approvedByPerson.add(key);
        if (step.kind === 'approve-twice' && confirmations.approve() && key) approvedByPerson.add(key);
        break;
      }
      case 'deny':
        confirmations.deny('no');
        break;
      case 'edit':
        confirmations.edit();
        break;
      case 'cancel-edit':
        confirmations.cancelEdit();
        break;
      case 'submit-edit':
        await confirmations.submitEdit(step.value);
        break;
      case 'edit-then-approve': {
        if (!confirmations.edit()) break;
        await confirmations.submitEdit(step.value);
        await turn();
        const now = confirmations.getState().current;
        const shown = fingerprintShown(now);
        if (confirmations.approve() && shown) approvedByPerson.add(approvedKey(now?.callId, shown));
        break;
      }
      case 'allow-for-session': {
        const shown = fingerprintShown(current);
        // The grant answers the tool's queued requests inside the click, before it returns: the tool
        // counts as allowed from the click on, and no longer if the click allowed nothing.
        const had = current !== null && allowedTools.has(current.toolName);
        if (current) allowedTools.add(current.toolName);
        if (current && confirmations.allowForSession()) {
          if (shown) approvedByPerson.add(approvedKey(current.callId, shown));
        } else if (current && !had) allowedTools.delete(current.toolName);
        break;
      }
      case 'deny-for-session':
        confirmations.denyForSession('not this session');
        break;
      case 'revoke': {
        const grant = confirmations.grants.getState().grants[step.index];
        if (grant) confirmations.grants.revoke(grant.id);
        break;
      }
      case 'approve-all': {
        const listed = views().filter((view) => view.fingerprint !== null);
        const picks: ConfirmationPick[] = listed.map((view) => ({ requestId: view.id, fingerprint: step.stale ? '0'.repeat(64) : view.fingerprint!.hex }));
        const done = confirmations.approveAll(picks);
        for (const view of listed) if (done.includes(view.id)) approvedByPerson.add(approvedKey(view.callId, view.fingerprint!.hex));
        break;
      }
      case 'deny-all':
        confirmations.denyAll(views().flatMap((view) => (view.fingerprint ? [{ requestId: view.id, fingerprint: view.fingerprint.hex }] : [])), 'all no');
        break;
      case 'advance':
        await clock.advance(step.ms);
        break;
      case 'arrive':
        if (arrived < specs.length) arrive(arrived++);
        break;
      case 'repeat':
        if (step.index < arrived) arrive(step.index);
        break;
      case 'turn':
        await turn();
        break;
    }
    // A few microtask steps between actions: a request is fingerprinted (its arguments and its tool's
    // definition) within a handful, so requests reach review between the actions often.
    for (let i = 0; i < 3; i++) await Promise.resolve();
  }
  for (let i = 0; i < 5; i++) await turn();

  for (const { requestId, key } of byPerson) check(approvedByPerson.has(key), `${requestId} ran a snapshot nobody approved`);
  expect(violations).toEqual([]);
  // The card shows what ran: each invoked request's call is marked approved with exactly that snapshot.
  for (const [requestId, runs] of invoked) {
    const call = callOf(store.getState(), asked.get(requestId)!.message.callId);
    expect(call?.approval).toBe('approved');
    expect(canonicalJson(call!.approvedArguments as JsonValue)).toBe(canonicalJson(runs));
  }
  stop();
  return { invokes: invoked.size, edited };
}

describe('the server gate under any sequence of decisions', () => {
  it('never answers without a matching approval, never twice for one request, and runs exactly the approved snapshot', async () => {
    const totals = { runs: 0, invokes: 0, edited: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(requestSpec, { minLength: 1, maxLength: 6 }), fc.array(action, { maxLength: 40 }), async (specs, actions) => {
        const { invokes, edited } = await run(specs, actions);
        totals.runs += 1;
        totals.invokes += invokes;
        totals.edited += edited;
      }),
      { seed: SEED, numRuns: 300 },
    );
    // The runs reached the interesting paths: approvals happened, and some ran an edit.
    expect(totals.invokes).toBeGreaterThan(totals.runs / 5);
    expect(totals.edited).toBeGreaterThan(0);
    console.info(`approval gate property: ${totals.runs} runs, ${totals.invokes} requests ran, ${totals.edited} of them edited`);
  }, 120_000);
});
