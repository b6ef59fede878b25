/**
 * Streams tool calls into a page in real time: each call has its own timer chain that emits its
 * events on a fixed schedule (`rate` fragments per second), so events of different calls arrive
 * in different tasks, as separate network messages would. A timer that fires late emits every
 * event that is due (a socket that was not read in time hands over its backlog), so the average
 * rate holds even when the page falls behind; how far behind is reported as lag.
 */
import { fragments, realisticArguments } from '../inputs';

export interface BenchCall {
  callId: string;
  name: string;
  /** The complete argument text. */
  text: string;
  /** Its 4-character fragments, in order. */
  fragments: string[];
}

/** `count` calls with realistic arguments of about 1 KB up to about 2 KB (the same every run). */
export function benchCalls(count: number, fragmentSize = 4): BenchCall[] {
  return Array.from({ length: count }, (_, i) => {
    const text = realisticArguments(1_000 + Math.round((i * 1_000) / Math.max(1, count - 1)));
    return { callId: `call-${i}`, name: i % 2 ? 'import_records' : 'write_file', text, fragments: fragments(text, fragmentSize) };
  });
}

/** The wire events of one call: start, its fragments, arguments-complete, settled. */
export function callEvents(call: BenchCall, turnId: string): unknown[] {
  return [
    { type: 'tool.stream', phase: 'start', callId: call.callId, turnId, name: call.name, location: 'server', risk: 'low' },
    ...call.fragments.map((delta) => ({ type: 'tool.stream', phase: 'arguments-delta', callId: call.callId, delta })),
    { type: 'tool.stream', phase: 'arguments-complete', callId: call.callId, arguments: JSON.parse(call.text) as unknown },
    { type: 'tool.stream', phase: 'settled', callId: call.callId, ok: true },
  ];
}

export interface DriveStats {
  events: number;
  /** From the first event to the last (ms). */
  wallMs: number;
  /** How late events were emitted against their schedule (ms). */
  lagP50: number;
  lagP95: number;
  lagMax: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/**
 * Emit every call's events through `dispatch`, each call at `rate` events per second, all calls
 * at once (their schedules offset evenly within one period, so they interleave). Resolves when
 * every event has been emitted.
 */
export function drive(calls: readonly BenchCall[], dispatch: (event: unknown) => void, rate = 100, turnId = 'turn-1'): Promise<DriveStats> {
  const period = 1000 / rate;
  const lags: number[] = [];
  let events = 0;
  let open = calls.length;
  const t0 = performance.now() + period;
  let last = t0;
  return new Promise((resolve) => {
    calls.forEach((call, i) => {
      const steps = callEvents(call, turnId);
      const start = t0 + (i * period) / calls.length;
      let next = 0;
      const tick = () => {
        const now = performance.now();
        while (next < steps.length && start + next * period <= now) {
          lags.push(now - (start + next * period));
          dispatch(steps[next]);
          next++;
          events++;
        }
        if (next < steps.length) {
          setTimeout(tick, Math.max(0, start + next * period - performance.now()));
          return;
        }
        last = Math.max(last, performance.now());
        if (--open === 0) {
          lags.sort((a, b) => a - b);
          resolve({ events, wallMs: last - t0, lagP50: percentile(lags, 50), lagP95: percentile(lags, 95), lagMax: lags[lags.length - 1] ?? 0 });
        }
      };
      setTimeout(tick, Math.max(0, start - performance.now()));
    });
  });
}
