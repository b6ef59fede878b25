import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createAppToolHost, ToolError, type ToolResult } from 'toolgate/core';
import { createManualClock } from 'toolgate/testing';

/**
 * docs/protocol.md, "App tools" (running one at a time, one result per call), under load: 1,000 calls with random durations,
 * throws, time-outs, tools that ignore their signal, bad calls and interrupts, on a manual clock.
 */

type Behaviour = 'ok' | 'cooperative' | 'throw' | 'tool-error' | 'deaf' | 'unknown-tool' | 'bad-arguments';

interface PlannedCall {
  gap: number; // ms after the previous arrival
  duration: number;
  behaviour: Behaviour;
  newTurn: boolean;
}

interface PlannedInterrupt {
  at: number;
  everything: boolean;
}

const LIMIT_MS = 40;
const CALLS = 1000;

const plannedCall: fc.Arbitrary<PlannedCall> = fc.record({
  gap: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 30 }) }),
  duration: fc.integer({ min: 0, max: 60 }),
  behaviour: fc.constantFrom<Behaviour>('ok', 'ok', 'ok', 'cooperative', 'throw', 'tool-error', 'deaf', 'unknown-tool', 'bad-arguments'),
  newTurn: fc.integer({ min: 0, max: 19 }).map((n) => n === 0), // about one call in twenty starts a turn
});

const scenario = fc.record({
  calls: fc.array(plannedCall, { minLength: CALLS, maxLength: CALLS }),
  interrupts: fc.array(fc.record({ at: fc.integer({ min: 0, max: 6000 }), everything: fc.boolean() }), { maxLength: 40 }),
});

interface Outcome {
  violations: string[];
  results: Map<number, ToolResult>;
  started: number[];
  plan: PlannedCall[];
  resultCount: number;
  leftover: number;
}

async function play(plan: PlannedCall[], interrupts: PlannedInterrupt[]): Promise<Outcome> {
  const clock = createManualClock();
  const host = createAppToolHost({ clock, timeoutMs: LIMIT_MS });
  const violations: string[] = [];
  const results = new Map<number, ToolResult>();
  const started: number[] = [];
  let resultCount = 0;
  const live = new Map<number, AbortSignal>();
  const sleep = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));

  host.register<{ i: number }>({
    name: 'work',
    async run({ i }, { signal, epoch }) {
      const planned = plan[i]!;
      // never two live runs at once, unless the older one was aborted
      for (const [other, otherSignal] of live) {
        if (!otherSignal.aborted) violations.push(`call ${i} started while call ${other} still ran unaborted`);
      }
      if (signal.aborted) violations.push(`call ${i} started with an aborted signal`);
      if (results.has(i)) violations.push(`call ${i} started after it had its result`);
      if (epoch < host.epoch) violations.push(`call ${i} from epoch ${epoch} ran below the floor ${host.epoch}`);
      const last = started[started.length - 1];
      if (last !== undefined && last >= i) violations.push(`call ${i} started after call ${last}: arrival order broken`);
      started.push(i);
      live.set(i, signal);
      try {
        switch (planned.behaviour) {
          case 'ok':
            await sleep(planned.duration);
            return i;
          case 'cooperative':
            await Promise.race([sleep(planned.duration), new Promise((r) => signal.addEventListener('abort', r))]);
            if (signal.aborted) return 'gave up';
            return i;
          case 'throw':
            await sleep(planned.duration);
            throw new Error(`boom ${i}`);
          case 'tool-error':
            throw new ToolError('REJECTED', `no ${i}`);
          case 'deaf':
            await sleep(planned.duration * 10); // ignores its signal
            return i;
          default:
            violations.push(`call ${i} (${planned.behaviour}) ran`);
            return null;
        }
      } finally {
        live.delete(i);
      }
    },
  });

  // What the UI sees must agree: each call shows up as the tool's last result at most once.
  const shownResults = new Set<string>();
  let lastShown: unknown = null;
  host.subscribe(() => {
    const last = host.getState().tools.work?.lastResult ?? null;
    if (last === lastShown || last === null) return;
    lastShown = last;
    if (shownResults.has(last.callId)) violations.push(`${last.callId} was shown as a result twice`);
    shownResults.add(last.callId);
  });

  let turn = 0;
  let currentTurn = 0; // the turn of the latest call that reached the host
  let arrival = 0;
  plan.forEach((planned, i) => {
    arrival += planned.gap;
    if (planned.newTurn) turn += 1;
    const turnId = `turn-${turn}`;
    const epoch = turn;
    clock.setTimeout(() => {
      currentTurn = epoch;
      const name = planned.behaviour === 'unknown-tool' ? 'nobody' : 'work';
      const args = planned.behaviour === 'bad-arguments' ? [i] : { i };
      void host.call({ callId: `call-${i}`, turnId, epoch, name, arguments: args }).then((result) => {
        resultCount += 1;
        if (results.has(i)) violations.push(`call ${i} got a second result`);
        results.set(i, result);
      });
    }, arrival);
  });

  for (const { at, everything } of interrupts) {
    // The user interrupts what is going on: the current turn, or everything.
    clock.setTimeout(() => host.interrupt(everything ? undefined : `turn-${currentTurn}`), at);
  }

  await clock.runAll();
  await clock.settle();
  const state = host.getState();
  return { violations, results, started, plan, resultCount, leftover: state.queue.length };
}

describe('the app-tool host under load', () => {
  it('gives 1,000 calls exactly one result each, never overlaps a live run, never runs after an abort, and keeps arrival order', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ calls, interrupts }) => {
        const outcome = await play(calls, interrupts);
        expect(outcome.violations).toEqual([]);
        expect(outcome.resultCount).toBe(CALLS);
        expect(outcome.results.size).toBe(CALLS);
        expect(outcome.leftover).toBe(0);
        const ran = new Set(outcome.started);
        outcome.results.forEach((result, i) => {
          const planned = outcome.plan[i]!;
          if (planned.behaviour === 'bad-arguments') {
            // Never run: INVALID, or INTERRUPTED when its turn was already interrupted on arrival
            // (the epoch gate comes before the argument check).
            expect(ran.has(i)).toBe(false);
            expect(['INVALID', 'INTERRUPTED']).toContain(result.ok ? 'ok' : result.code);
            return;
          }
          if (!ran.has(i)) {
            // never started: interrupted, or no tool of that name
            const code = result.ok ? 'ok' : result.code;
            expect(planned.behaviour === 'unknown-tool' ? ['FAILED', 'INTERRUPTED'] : ['INTERRUPTED']).toContain(code);
            return;
          }
          if (result.ok) {
            expect(['ok', 'cooperative', 'deaf']).toContain(planned.behaviour);
            expect(result.output).toBe(i);
            return;
          }
          const allowed: Record<Behaviour, string[]> = {
            ok: ['TIMEOUT', 'INTERRUPTED'],
            cooperative: ['TIMEOUT', 'INTERRUPTED'],
            deaf: ['TIMEOUT', 'INTERRUPTED'],
            throw: ['FAILED', 'TIMEOUT', 'INTERRUPTED'],
            'tool-error': ['REJECTED', 'INTERRUPTED'],
            'unknown-tool': [],
            'bad-arguments': [],
          };
          expect(allowed[planned.behaviour]).toContain(result.code);
        });
      }),
      { seed: 20_240_611, numRuns: 4, endOnFailure: true },
    );
  }, 120_000);

  it('times out exactly the runs that outlast the limit when nothing interrupts them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(plannedCall, { minLength: 200, maxLength: 200 }), async (calls) => {
        const plan = calls.map((c) => ({ ...c, newTurn: false, behaviour: c.behaviour === 'bad-arguments' || c.behaviour === 'unknown-tool' ? 'ok' : c.behaviour }) as PlannedCall);
        const outcome = await play(plan, []);
        expect(outcome.violations).toEqual([]);
        expect(outcome.started).toEqual(plan.map((_c, i) => i));
        outcome.results.forEach((result, i) => {
          const planned = plan[i]!;
          const takes = planned.behaviour === 'deaf' ? planned.duration * 10 : planned.behaviour === 'tool-error' ? 0 : planned.duration;
          const code = result.ok ? 'ok' : result.code;
          if (takes >= LIMIT_MS) expect(code, `call ${i} took ${takes} ms`).toBe('TIMEOUT');
          else expect(code, `call ${i} took ${takes} ms`).toBe(
            planned.behaviour === 'throw' ? 'FAILED' : planned.behaviour === 'tool-error' ? 'REJECTED' : 'ok',
          );
        });
      }),
      { seed: 7_031_990, numRuns: 5, endOnFailure: true },
    );
  }, 120_000);
});
