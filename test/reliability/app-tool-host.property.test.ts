// @vitest-environment node
/**
 * Properties of the app-tool host over many short random sessions (issue 8, item 2; docs/protocol.md,
 * "App tools": one result per call, one at a time, cancellation).
 *
 * `test/core/app-tool-load.test.ts` drives 1,000 calls per run through one tool (durations,
 * throws, time-outs, deaf runs, interrupts). This file does not repeat that load; it adds what a
 * session also does to the host, in many short scenarios that shrink to a readable case: calls
 * from stale epochs and from interrupted turns, the server settling or cancelling a call
 * (`abortCall`), the same call delivered twice (a resend), tools that ask for approval (whose
 * waiting time does not count against the limit), async validation, per-tool limits, and a
 * final `close()` with calls still arriving afterwards.
 *
 * Checked for every scenario: exactly one result per call (a redelivery gets the very same
 * answer and never runs again); never two live (not aborted) runs at once; no run starts once
 * its call is aborted or answered, below the epoch floor, or after close; runs start in arrival
 * order; a result that is not the run's own (interrupted, timed out, aborted by the server)
 * comes with an aborted signal; TIMEOUT only for a run that took its whole limit, never for
 * time spent waiting for approval; nothing is left open at the end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAppToolHost, ToolError, type StandardSchemaV1, type ToolResult } from 'toolgate/core';
import type { AppToolApproval } from '../../src/core/app-tools/app-tool-host';
import { createManualClock } from 'toolgate/testing';

const SEED = 0x5eed_0002;
const RUNS = 600;
const LIMIT_MS = 40; // the host's limit
const SHORT_LIMIT_MS = 15; // the 'limited' tool's own limit

type Behaviour = 'ok' | 'sync' | 'cooperative' | 'throw' | 'sync-throw' | 'tool-error' | 'deaf' | 'hang' | 'emit-late';
type ToolName = 'work' | 'confirmed' | 'limited' | 'validated' | 'nobody';
type Approval = 'approve' | 'deny' | 'throw' | 'never';

interface CallOp {
  kind: 'call';
  gap: number;
  tool: ToolName;
  behaviour: Behaviour;
  duration: number;
  /** 'current' turn, a 'new' turn, or a 'stale' one: an older turn's id and epoch. */
  turn: 'current' | 'new' | 'stale';
  staleBy: number;
  approval: Approval;
  approvalDelay: number;
}
type Op =
  | CallOp
  | { kind: 'interrupt'; gap: number; which: 'current' | 'all' | 'older' }
  | { kind: 'server-ends'; gap: number; target: number; code: 'INTERRUPTED' | 'TIMEOUT' | 'FAILED' | 'REJECTED' }
  | { kind: 'redeliver'; gap: number; target: number }
  | { kind: 'close'; gap: number };

const gap = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 30 }) });

const callOp: fc.Arbitrary<CallOp> = fc.record({
  kind: fc.constant('call' as const),
  gap,
  tool: fc.constantFrom<ToolName>('work', 'work', 'work', 'confirmed', 'limited', 'validated', 'nobody'),
  behaviour: fc.constantFrom<Behaviour>('ok', 'ok', 'sync', 'cooperative', 'throw', 'sync-throw', 'tool-error', 'deaf', 'hang', 'emit-late'),
  duration: fc.integer({ min: 0, max: 60 }),
  turn: fc.constantFrom('current', 'current', 'current', 'new', 'new', 'stale'),
  staleBy: fc.integer({ min: 1, max: 3 }),
  approval: fc.constantFrom<Approval>('approve', 'approve', 'deny', 'throw', 'never'),
  approvalDelay: fc.integer({ min: 0, max: 100 }),
});

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: callOp },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('interrupt' as const), gap, which: fc.constantFrom('current', 'all', 'older') }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('server-ends' as const),
      gap,
      target: fc.nat(),
      code: fc.constantFrom('INTERRUPTED', 'TIMEOUT', 'FAILED', 'REJECTED'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('redeliver' as const), gap, target: fc.nat() }) },
);

/** A session: its operations, and in about a third of them a close somewhere in the middle. */
const session: fc.Arbitrary<Op[]> = fc
  .tuple(fc.array(op, { minLength: 1, maxLength: 60, size: 'medium' }), fc.option(fc.nat(), { freq: 2, nil: undefined }))
  .map(([ops, closeAt]) => (closeAt === undefined ? ops : [...ops.slice(0, closeAt % (ops.length + 1)), { kind: 'close' as const, gap: 0 }, ...ops.slice(closeAt % (ops.length + 1))]));

interface CallRecord {
  index: number;
  op: CallOp;
  callId: string;
  turnId: string;
  epoch: number;
  arrivedAt: number;
  floorAtArrival: number;
  turnInterruptedAtArrival: boolean;
  closedAtArrival: boolean;
  results: ToolResult[];
  runs: number;
  signal: AbortSignal | undefined;
  runStartedAt: number | undefined;
  approvalAskedAt: number | undefined;
  resultAt: number | undefined;
  ownResult: boolean; // the run itself returned or threw
  serverCode: string | undefined;
}

interface Outcome {
  violations: string[];
  calls: CallRecord[];
  deliveries: number;
  answers: number;
}

const validator: StandardSchemaV1<unknown, { i: number }> = {
  '~standard': {
    version: 1,
    vendor: 'reliability-test',
    // Async, and refuses every seventh call: INVALID, and the run never starts.
    validate: async (value) => {
      await Promise.resolve();
      const i = (value as { i?: unknown }).i;
      return typeof i === 'number' && i % 7 !== 3 ? { value: { i } } : { issues: [{ message: 'i is not accepted' }] };
    },
  },
};

async function play(ops: Op[]): Promise<Outcome> {
  const clock = createManualClock();
  const violations: string[] = [];
  const calls: CallRecord[] = [];
  const live = new Map<number, AbortSignal>();
  let lastStarted = -1;
  let deliveries = 0;
  let answers = 0;
  const sleep = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));

  const host = createAppToolHost({
    clock,
    timeoutMs: LIMIT_MS,
    requestApproval: (request) => {
      const record = calls[Number(request.callId.slice(5))] as CallRecord;
      record.approvalAskedAt = clock.now();
      const { approval, approvalDelay } = record.op;
      return new Promise<AppToolApproval>((resolve, reject) => {
        // A withdrawn request (interrupt, close, server cancel) may still be answered: it changes nothing.
        request.signal.addEventListener('abort', () => resolve({ approved: true }));
        if (approval === 'never') return;
        clock.setTimeout(() => {
          if (approval === 'throw') reject(new Error('the dialog crashed'));
          else resolve({ approved: approval === 'approve', reason: 'not now' });
        }, approvalDelay);
      });
    },
  });

  const run = async (args: { i: number }, ctx: { signal: AbortSignal; epoch: number; emit(progress: unknown): void }) => {
    const record = calls[args.i] as CallRecord;
    const i = record.index;
    record.runs += 1;
    if (record.runs > 1) violations.push(`call ${i} ran twice`);
    for (const [other, signal] of live) if (!signal.aborted) violations.push(`call ${i} started while call ${other} still ran unaborted`);
    if (ctx.signal.aborted) violations.push(`call ${i} started after it was aborted`);
    if (record.results.length > 0) violations.push(`call ${i} started after it had its result`);
    if (ctx.epoch < host.epoch) violations.push(`call ${i} of epoch ${ctx.epoch} ran below the floor ${host.epoch}`);
    if (host.closed) violations.push(`call ${i} started after the host closed`);
    if (i <= lastStarted) violations.push(`call ${i} started after call ${lastStarted}: arrival order broken`);
    lastStarted = i;
    record.signal = ctx.signal;
    record.runStartedAt = clock.now();
    live.set(i, ctx.signal);
    const own = <T>(value: T): T => {
      record.ownResult = true;
      return value;
    };
    try {
      const { behaviour, duration } = record.op;
      switch (behaviour) {
        case 'ok':
          await sleep(duration);
          return own(i);
        case 'sync':
          return own(i);
        case 'cooperative':
          await Promise.race([sleep(duration), new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
          return own(ctx.signal.aborted ? 'gave up' : i);
        case 'throw':
          await sleep(duration);
          own(null);
          throw new Error(`boom ${i}`);
        case 'sync-throw':
          own(null);
          throw new Error(`boom ${i}`);
        case 'tool-error':
          own(null);
          throw new ToolError('REJECTED', `no ${i}`);
        case 'deaf':
          await sleep(duration * 3); // ignores its signal
          return own(i);
        case 'hang':
          // Ignores its signal and never settles: only the host's limit or an abort can answer.
          await new Promise(() => {});
          return own(i);
        case 'emit-late':
          await sleep(duration);
          ctx.emit({ at: duration }); // dropped if the call was aborted meanwhile
          return own(i);
      }
    } finally {
      live.delete(i);
    }
  };

  host.register<{ i: number }>({ name: 'work', run });
  host.register<{ i: number }>({ name: 'confirmed', confirm: true, run });
  host.register<{ i: number }>({ name: 'limited', timeoutMs: SHORT_LIMIT_MS, run });
  host.register<{ i: number }>({ name: 'validated', validate: validator, run });

  let turn = 0;
  const turnIds: string[] = ['turn-0'];
  const interrupted = new Set<string>();
  let at = 0;

  const deliver = (record: CallRecord) => {
    deliveries += 1;
    const promise = host.call({ callId: record.callId, turnId: record.turnId, epoch: record.epoch, name: record.op.tool, arguments: { i: record.index } });
    promise.then(
      (result) => {
        answers += 1;
        const first = record.results[0];
        if (first !== undefined && first !== result && JSON.stringify(first) !== JSON.stringify(result)) {
          violations.push(`call ${record.index} got two different results: ${JSON.stringify(first)} then ${JSON.stringify(result)}`);
        }
        if (first === undefined) record.resultAt = clock.now();
        record.results.push(result);
        // A result that is not the run's own comes with an aborted signal.
        if (record.signal && !record.ownResult && !record.signal.aborted) violations.push(`call ${record.index} was answered ${JSON.stringify(result)} while its run went on unaborted`);
      },
      (error: unknown) => violations.push(`call ${record.index}'s promise rejected: ${String(error)}`),
    );
  };

  for (const o of ops) {
    at += o.gap;
    clock.setTimeout(() => {
      switch (o.kind) {
        case 'call': {
          if (o.turn === 'new') {
            turn += 1;
            turnIds.push(`turn-${turn}`);
          }
          const turnIndex = o.turn === 'stale' ? Math.max(0, turn - o.staleBy) : turn;
          const turnId = turnIds[turnIndex] as string;
          const index = calls.length;
          const record: CallRecord = {
            index,
            op: o,
            callId: `call-${index}`,
            turnId,
            epoch: turnIndex,
            arrivedAt: clock.now(),
            floorAtArrival: host.epoch,
            turnInterruptedAtArrival: interrupted.has(turnId),
            closedAtArrival: host.closed,
            results: [],
            runs: 0,
            signal: undefined,
            runStartedAt: undefined,
            approvalAskedAt: undefined,
            resultAt: undefined,
            ownResult: false,
            serverCode: undefined,
          };
          calls.push(record);
          deliver(record);
          break;
        }
        case 'interrupt': {
          if (o.which === 'all') {
            // Everything the host has seen: a turn none of whose calls has arrived yet is not known to it.
            host.interrupt();
            calls.forEach((c) => interrupted.add(c.turnId));
          } else {
            const id = turnIds[o.which === 'current' ? turn : Math.max(0, turn - 1)] as string;
            host.interrupt(id);
            interrupted.add(id);
          }
          break;
        }
        case 'server-ends': {
          if (calls.length === 0) break;
          const record = calls[o.target % calls.length] as CallRecord;
          const open = host.getState().queue.includes(record.callId);
          const done = host.abortCall(record.callId, { ok: false, code: o.code, message: 'the server ended it' });
          if (done !== open) violations.push(`abortCall(${record.callId}) said ${done} for a call that was ${open ? 'open' : 'answered'}`);
          if (done) record.serverCode = o.code;
          break;
        }
        case 'redeliver':
          // A resend after a lost response. (After close the session is over: nothing is resent.)
          if (calls.length > 0 && !host.closed) deliver(calls[o.target % calls.length] as CallRecord);
          break;
        case 'close':
          host.close();
          break;
      }
    }, at);
  }

  await clock.runAll(100_000);
  await clock.settle();
  // Wind down: whatever still waits (an approval nobody answers, a run that never settles) is
  // answered by close, at once.
  host.close();
  await clock.settle();

  const state = host.getState();
  if (state.queue.length !== 0 || Object.keys(state.calls).length !== 0) violations.push(`open calls left after close: ${state.queue.join(', ')}`);
  return { violations, calls, deliveries, answers };
}

/** What a call's result may be, given what happened to it. */
function checkResult(record: CallRecord, violations: string[]): void {
  const { op, index } = record;
  const result = record.results[0];
  if (result === undefined) {
    violations.push(`call ${index} never got a result`);
    return;
  }
  const code = result.ok ? 'ok' : result.code;
  const ran = record.runs > 0;
  const say = (why: string) => violations.push(`call ${index} (${op.tool}/${op.behaviour}, ${op.turn}): ${why}; result ${JSON.stringify(result)}`);

  // The epoch gate and closing: such calls never run.
  if (record.closedAtArrival && (ran || code !== 'INTERRUPTED')) say('arrived after close yet was not answered INTERRUPTED without running');
  if (record.epoch < record.floorAtArrival && (ran || code !== 'INTERRUPTED')) say(`arrived below the floor (${record.epoch} < ${record.floorAtArrival}) yet was not refused`);
  if (record.turnInterruptedAtArrival && (ran || code !== 'INTERRUPTED')) say('arrived for an interrupted turn yet was not refused');
  if (record.serverCode !== undefined && code !== record.serverCode) say(`the server ended it with ${record.serverCode}`);

  if (op.tool === 'nobody') {
    if (ran || !['FAILED', 'INTERRUPTED'].includes(code) && record.serverCode === undefined) say('no such tool, yet not FAILED');
    return;
  }
  if (!ran) {
    const before: string[] = ['INTERRUPTED'];
    if (op.tool === 'validated' && index % 7 === 3) before.push('INVALID');
    if (op.tool === 'confirmed') before.push('REJECTED', 'FAILED');
    if (record.serverCode !== undefined) before.push(record.serverCode);
    if (!before.includes(code)) say('never ran, yet was answered so');
    if (code === 'TIMEOUT' && record.serverCode !== 'TIMEOUT') say('timed out while waiting for approval or its turn');
    return;
  }
  const limit = op.tool === 'limited' ? SHORT_LIMIT_MS : LIMIT_MS;
  const ranFor = (record.resultAt as number) - (record.runStartedAt as number);
  if (code === 'TIMEOUT' && record.serverCode === undefined && ranFor < limit) say(`timed out after running ${ranFor} ms of a ${limit} ms limit`);
  if (result.ok) {
    if (ranFor > limit) say(`ran ${ranFor} ms past its ${limit} ms limit and still succeeded`);
    if (!['ok', 'sync', 'cooperative', 'deaf', 'emit-late'].includes(op.behaviour)) say('succeeded though it cannot');
    if (result.output !== index) say('succeeded with another output');
    return;
  }
  const allowed: Record<Behaviour, string[]> = {
    ok: ['TIMEOUT', 'INTERRUPTED'],
    sync: ['INTERRUPTED'],
    cooperative: ['TIMEOUT', 'INTERRUPTED'],
    'emit-late': ['TIMEOUT', 'INTERRUPTED'],
    deaf: ['TIMEOUT', 'INTERRUPTED'],
    hang: ['TIMEOUT', 'INTERRUPTED'],
    throw: ['FAILED', 'TIMEOUT', 'INTERRUPTED'],
    'sync-throw': ['FAILED', 'INTERRUPTED'],
    'tool-error': ['REJECTED', 'INTERRUPTED'],
  };
  if (!allowed[op.behaviour].includes(code) && code !== record.serverCode) say('failed with a code its run cannot give');
}

describe('the app-tool host over random sessions', () => {
  it(`gives exactly one result per call, never overlaps a live run, never runs what was aborted, and keeps arrival order (${RUNS} sessions, seed ${SEED})`, async () => {
    const totals = { calls: 0, ran: 0, redelivered: 0, stale: 0, serverEnded: 0, timeouts: 0, approvals: 0, closedEarly: 0 };
    await fc.assert(
      fc.asyncProperty(session, async (ops) => {
        const outcome = await play(ops);
        const violations = [...outcome.violations];
        for (const record of outcome.calls) checkResult(record, violations);
        // Exactly one answer per delivery, and one result per call.
        if (outcome.answers !== outcome.deliveries) violations.push(`${outcome.deliveries} deliveries got ${outcome.answers} answers`);
        expect(violations, `seed ${SEED}`).toEqual([]);

        totals.calls += outcome.calls.length;
        totals.ran += outcome.calls.filter((c) => c.runs > 0).length;
        totals.redelivered += outcome.deliveries - outcome.calls.length;
        totals.stale += outcome.calls.filter((c) => c.epoch < c.floorAtArrival || c.turnInterruptedAtArrival).length;
        totals.serverEnded += outcome.calls.filter((c) => c.serverCode !== undefined).length;
        totals.timeouts += outcome.calls.filter((c) => c.results[0]?.ok === false && c.results[0].code === 'TIMEOUT').length;
        totals.approvals += outcome.calls.filter((c) => c.approvalAskedAt !== undefined).length;
        totals.closedEarly += outcome.calls.filter((c) => c.closedAtArrival).length;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    console.log(`app-tool host property: ${RUNS} sessions, ${JSON.stringify(totals)}`);
    // Not vacuous: every path was taken many times.
    for (const [name, count] of Object.entries(totals)) expect(count, name).toBeGreaterThan(RUNS / 10);
  }, 120_000);
});
