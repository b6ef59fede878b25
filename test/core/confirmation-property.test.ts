import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createConfirmationController, type ConfirmationView, type JsonValue, type ToolDescriptor } from 'toolgate/core';
import { canonicalJson } from 'toolgate/json';
import type { OutcomeCheckResult } from '../../src/core/approval/confirmation-types';
import { createScriptedRoom, type ScriptedRoomFault } from 'toolgate/testing';

// docs/architecture.md, "Conventions": fixed fast-check seeds. Printed by fast-check on failure with the path.
const SEED = 0x7001_9a7e;

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** One macrotask turn. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * SHA-256 that answers on the microtask queue (node:crypto behind the Web Crypto shape), so that
 * a run's interleaving depends on the seed alone and not on when another thread finishes a digest.
 */
const subtle = {
  digest: (_algorithm: string, data: Uint8Array) => {
    const bytes = createHash('sha256').update(data).digest();
    return Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  },
} as unknown as SubtleCrypto;

// Arguments are generated as recipes and built inside each run, so that the run's mutations
// never touch what fast-check keeps for shrinking and replay.
type Recipe = () => unknown;
const fromJsonText = (text: string): Recipe => () => JSON.parse(text) as unknown;

/** Objects whose keys reach for the prototype, built the way JSON.parse builds them. */
const protoKeyed = fc
  .tuple(fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('__proto__', 'constructor', 'prototype'))
  .map(([inner, other, key]) =>
    fromJsonText(`{"${key}":${JSON.stringify(inner)},"__proto__":{"polluted":true},"x":${JSON.stringify(other)}}`),
  );

/** Deep nesting: [{ n: [{ n: … { leaf } … }] }]. */
const deep = fc.tuple(fc.integer({ min: 1, max: 300 }), fc.jsonValue({ maxDepth: 1 })).map(([depth, leaf]): Recipe => () => {
  let value: unknown = { leaf: JSON.parse(JSON.stringify(leaf)) as unknown };
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { n: value };
  return value;
});

/** Values that are not JSON: they must be refused before review and never reach the room. */
const notJson = fc.constantFrom<Recipe>(
  () => ({ f: () => 1 }),
  () => ({ u: undefined }),
  () => [Number.NaN],
  () => ({ big: Number.POSITIVE_INFINITY }),
  () => {
    const cycle: Record<string, unknown> = {};
    cycle.me = cycle;
    return cycle;
  },
);

const argumentRecipe: fc.Arbitrary<Recipe> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => fromJsonText(JSON.stringify(v))) },
  { weight: 2, arbitrary: protoKeyed },
  { weight: 1, arbitrary: deep },
  // Long strings of any UTF-16 code units (so sometimes a lone surrogate, which is refused).
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3000 }).map((text) => fromJsonText(JSON.stringify({ text }))) },
  { weight: 1, arbitrary: notJson },
);

const descriptors: (ToolDescriptor | undefined)[] = [
  undefined, // missing: a write that needs confirmation
  { effect: 'write', risk: 'high', requiresConfirmation: true },
  { effect: 'read', risk: 'low', requiresConfirmation: true },
  { effect: 'read', risk: 'low', requiresConfirmation: false },
];

const action = fc.constantFrom(
  'approve',
  'approve-twice',
  'approve-by-id',
  'approve-stale-id',
  'deny',
  'deny-waiting',
  'retry',
  'check',
  'dismiss',
  'mutate',
  'microtask',
  'turn',
  'until-still',
  'until-still',
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

const fault = fc.record({
  kind: fc.constantFrom('refuse-confirm', 'fail-invoke', 'lose-response', 'lose-request'),
  toolName: fc.option(fc.constantFrom('t0', 't1', 't2', 't3'), { nil: undefined }),
}) as fc.Arbitrary<ScriptedRoomFault>;

/** Change everything reachable in a value the caller still holds (it should change nothing sent). */
function mutate(value: unknown, depth = 0): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value) || depth > 3) return;
  if (Array.isArray(value)) {
    value.forEach((item) => mutate(item, depth + 1));
    value.push('mutated');
    return;
  }
  for (const key of Object.keys(value)) mutate((value as Record<string, unknown>)[key], depth + 1);
  Object.defineProperty(value, `mutated${depth}`, { value: true, enumerable: true, configurable: true, writable: true });
}

describe('confirmation properties', () => {
  it('gives at most one confirm and one invoke per approval, invokes exactly what was shown, and never without an approval', async () => {
    const stats = { runs: 0, invokes: 0, done: 0, uncertain: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(argumentRecipe, fc.nat(descriptors.length - 1)), { minLength: 1, maxLength: 4 }),
        fc.array(action, { maxLength: 40 }),
        fc.array(fault, { maxLength: 3 }),
        fc.constantFrom<OutcomeCheckResult['status'] | 'none'>('none', 'done', 'not-done', 'unknown'),
        async (requests, actions: Action[], faults, check) => {
          const room = createScriptedRoom({ faults, crypto: { subtle } });
          const confirmations = createConfirmationController({
            room,
            crypto: { subtle },
            ...(check === 'none' ? {} : { checkOutcome: () => ({ status: check }) as OutcomeCheckResult }),
          });

          // What each request looked like when it was made, before any mutation.
          const expected = new Map<string, string | null>();
          const descriptorOf = new Map<string, ToolDescriptor | undefined>();
          const approvals = new Map<string, number>();
          const views = new Map<string, ConfirmationView>();
          const staleIds: string[] = [];
          confirmations.subscribe((state) => {
            for (const view of [state.current, ...state.queue]) {
              if (view && view.fingerprint !== null && !views.has(view.toolName)) views.set(view.toolName, view);
            }
          });

          const originals = requests.map(([recipe]) => recipe());
          const settled = requests.map(([, d], i) => {
            const value = originals[i];
            const toolName = `t${i}`;
            let canonical: string | null;
            try {
              canonical = canonicalJson(value as JsonValue);
            } catch {
              canonical = null;
            }
            expected.set(toolName, canonical);
            descriptorOf.set(toolName, descriptors[d]);
            return confirmations.request({ toolName, arguments: value, descriptor: descriptors[d] ?? null });
          });

          // An approval is counted from the state a person saw, not from what approve() says:
          // a call made while the shown request is being reviewed is one approval, and any further
          // call before it is reviewed again is not.
          const approve = (target?: { requestId: string }): void => {
            const before = confirmations.getState().current;
            const reviewing = before !== null && before.status === 'reviewing';
            expect(confirmations.approve(target)).toBe(reviewing);
            if (reviewing) approvals.set(before.toolName, (approvals.get(before.toolName) ?? 0) + 1);
          };

          for (const step of actions) {
            const current = confirmations.getState().current;
            switch (step) {
              case 'approve':
                approve();
                break;
              case 'approve-twice':
                approve();
                approve();
                break;
              case 'approve-by-id':
                if (current) approve({ requestId: current.id });
                break;
              case 'approve-stale-id':
                // A late "yes" for a request that is no longer shown.
                for (const id of staleIds) expect(confirmations.approve({ requestId: id })).toBe(false);
                break;
              case 'deny':
                if (confirmations.deny('no') && current) staleIds.push(current.id);
                break;
              case 'deny-waiting': {
                const waiting = confirmations.getState().queue[0];
                if (waiting) confirmations.deny('not that one', { requestId: waiting.id });
                break;
              }
              case 'retry': {
                // A deliberate retry is a new approval: it may confirm and invoke once more.
                const allowed = current !== null && current.can.retry;
                expect(confirmations.retry()).toBe(allowed);
                if (allowed) approvals.set(current.toolName, (approvals.get(current.toolName) ?? 0) + 1);
                break;
              }
              case 'check':
                confirmations.check();
                break;
              case 'dismiss':
                if (confirmations.dismiss() && current) staleIds.push(current.id);
                break;
              case 'mutate':
                originals.forEach((value) => mutate(value));
                break;
              case 'microtask':
                await Promise.resolve();
                break;
              case 'turn':
                await turn();
                break;
              case 'until-still':
                // Wait until the shown request waits on a person (or nothing is shown).
                while (['idle', 'confirming', 'invoking', 'checking'].includes(confirmations.getState().current?.status ?? 'none')) {
                  await turn();
                }
                break;
            }
          }

          // Wind down: deny what is still waiting, dismiss what is held, wait for what runs.
          const finished = settled.map(() => false);
          settled.forEach((promise, i) => void promise.then(() => (finished[i] = true)));
          while (finished.includes(false)) {
            const current = confirmations.getState().current;
            if (current?.can.deny) confirmations.deny('wind down');
            else if (current?.can.dismiss) confirmations.dismiss();
            else await turn();
          }
          const outcomes = await Promise.all(settled);
          expect(confirmations.getState().current).toBeNull();

          const calls = room.calls;
          for (let i = 0; i < requests.length; i++) {
            const toolName = `t${i}`;
            const mine = calls.filter((c) => c.toolName === toolName);
            const confirms = mine.filter((c) => c.method === 'confirmTool');
            const invokes = mine.filter((c) => c.method === 'invokeTool');
            const canonical = expected.get(toolName) ?? null;
            const direct = descriptorOf.get(toolName)?.requiresConfirmation === false;

            if (canonical === null) {
              // Not JSON: refused before review, nothing sent.
              expect(mine).toEqual([]);
              expect(outcomes[i]?.status).toBe('refused');
              continue;
            }
            if (direct) {
              // No confirmation needed: one invoke, no confirmation id, no review.
              expect(confirms).toEqual([]);
              expect(invokes.length).toBe(1);
              expect(invokes[0]?.confirmationId).toBeUndefined();
            } else {
              const allowed = approvals.get(toolName) ?? 0;
              // At most one confirmTool and one invokeTool per approval; none without one.
              expect(confirms.length).toBeLessThanOrEqual(allowed);
              expect(invokes.length).toBeLessThanOrEqual(allowed);
              // Never a consumed or mismatched confirmation: each invoke used a fresh id for these arguments.
              for (const invoke of invokes) expect(invoke.result === 'refused').toBe(false);
              const ids = invokes.map((c) => c.confirmationId);
              expect(new Set(ids).size).toBe(ids.length);
            }
            // Whatever was sent is exactly what was shown, with the same fingerprint, whatever the caller mutated.
            const view = views.get(toolName);
            for (const call of mine) {
              expect(call.hash).toBe(sha256(canonical));
              if (view) {
                expect(call.received).toBe(view.arguments);
                expect(call.hash).toBe(view.fingerprint?.hex);
              }
            }
            if (view) expect(canonicalJson(view.arguments)).toBe(canonical);
            const outcome = outcomes[i];
            if (outcome?.status === 'done') expect(outcome.fingerprint).toBe(sha256(canonical));
          }
          stats.runs += 1;
          stats.invokes += calls.filter((c) => c.method === 'invokeTool').length;
          stats.done += outcomes.filter((o) => o.status === 'done').length;
          stats.uncertain += outcomes.filter((o) => o.status === 'uncertain').length;
          // Nothing reached a prototype.
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
    // The runs did reach the room, finish calls and lose some: the property was not vacuous.
    expect(stats.runs).toBe(500);
    expect(stats.invokes).toBeGreaterThan(200);
    expect(stats.done).toBeGreaterThan(40);
    expect(stats.uncertain).toBeGreaterThan(0);
  }, 60_000);
});
