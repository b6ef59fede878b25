/**
 * A `ToolSession` driven by a script instead of a socket, for tests, stories and users' own tests.
 *
 * It plays the server's side of docs/protocol.md, "The session": it emits events, asks the page to run app
 * tools, waits for the page's results and approvals, and records every message the page sends.
 * Waits resolve on state (a message arrived), never on time; pacing (`speed`) only spaces the
 * steps out for people watching a story, and is instant unless asked for.
 */

import type { ToolSession, ToolSessionStatus } from '../core/session/tool-session';
import type { AppToolCallMessage, ClientMessage, ToolResult } from '../core/wire';

/**
 * A call the script makes; `turnId` defaults to `'turn-1'`, `epoch` to the session's current epoch.
 *
 * @example
 * const result = await session.callTool({ callId: 'a1', name: 'set_title', arguments: { title: 'Hi' } } satisfies ScriptedCall);
 */
export interface ScriptedCall {
  callId: string;
  name: string;
  arguments?: unknown;
  turnId?: string;
  epoch?: number;
}

/**
 * One step of a script. Steps are plain data, so helpers can build lists of them
 * (see {@link step}); `run` is the escape hatch for anything else.
 *
 * @example
 * const script: ScriptStep[] = [step.emit(e.start('c1')), step.delay(100), step.call({ callId: 'a1', name: 'set_title', arguments: { title: 'Hi' } }), step.waitForResult('a1')];
 */
export type ScriptStep =
  | { kind: 'emit'; event: unknown }
  | { kind: 'call'; call: ScriptedCall }
  | { kind: 'wait-result'; callId: string }
  | { kind: 'wait-approval'; requestId: string }
  | { kind: 'wait-message'; predicate: (message: ClientMessage) => boolean; label?: string }
  | { kind: 'wait'; predicate: (session: ScriptedSession) => boolean; label?: string }
  | { kind: 'delay'; ms: number }
  | { kind: 'status'; status: ToolSessionStatus }
  | { kind: 'close' }
  | { kind: 'run'; run: (session: ScriptedSession) => void | Promise<void> };

/**
 * Builders for {@link ScriptStep}s.
 *
 * @example
 * const script = [
 *   step.call({ callId: 'c1', turnId: 't1', name: 'insert_text', arguments: { text: 'Hi' } }),
 *   step.waitForResult('c1'),
 *   step.delay(300), // only when played with a finite speed
 *   step.emit({ type: 'tool.stream', phase: 'settled', callId: 'c1', ok: true }),
 * ];
 */
export const step = {
  /** Emit a server event (`tool.stream`, `tool.preview`, `tool.approval-request`, …). */
  emit: (event: unknown): ScriptStep => ({ kind: 'emit', event }),
  /** Ask the page to run an app tool; does not wait for its result (follow with `waitForResult`). */
  call: (call: ScriptedCall): ScriptStep => ({ kind: 'call', call }),
  /** Wait until the page sends `tool.result` for `callId`. */
  waitForResult: (callId: string): ScriptStep => ({ kind: 'wait-result', callId }),
  /** Wait until the page sends `tool.approval` for `requestId`. */
  waitForApproval: (requestId: string): ScriptStep => ({ kind: 'wait-approval', requestId }),
  /** Wait until the page sends a message matching `predicate`. */
  waitForMessage: (predicate: (message: ClientMessage) => boolean, label?: string): ScriptStep =>
    label === undefined ? { kind: 'wait-message', predicate } : { kind: 'wait-message', predicate, label },
  /** Wait until `predicate` holds for the session. */
  waitFor: (predicate: (session: ScriptedSession) => boolean, label?: string): ScriptStep =>
    label === undefined ? { kind: 'wait', predicate } : { kind: 'wait', predicate, label },
  /** Pause `ms` at speed 1 (`ms / speed` otherwise; nothing at the default instant speed). */
  delay: (ms: number): ScriptStep => ({ kind: 'delay', ms }),
  /** Change the connection status (`reconnecting`, `open`, …). */
  status: (status: ToolSessionStatus): ScriptStep => ({ kind: 'status', status }),
  /** Emit `closed` and end the session. */
  close: (): ScriptStep => ({ kind: 'close' }),
  /** Run any code against the session. */
  run: (run: (session: ScriptedSession) => void | Promise<void>): ScriptStep => ({ kind: 'run', run }),
} as const;

/**
 * Options of {@link createScriptedSession}.
 *
 * @example
 * const session = createScriptedSession({ script, speed: Infinity, capabilities: [] } satisfies ScriptedSessionOptions); // a preview-only server
 */
export interface ScriptedSessionOptions {
  /** What `play()` plays. */
  script?: readonly ScriptStep[];
  /**
   * How fast `delay` steps pass: 1 is real time, 2 twice as fast. Default `Infinity`: instant,
   * which is what tests want; stories pass their `speed` argument.
   */
  speed?: number;
  /** The starting status. Default `'open'`. */
  status?: ToolSessionStatus;
  /** The capabilities the session speaks. Default `['tool-stream-v1']`. */
  capabilities?: readonly string[];
  /** The server's starting epoch. Default 0; each `turn.interrupt` the page sends raises it by one. */
  epoch?: number;
  /** Timers for paced delays. Default the global ones. */
  timers?: { setTimeout(callback: () => void, ms: number): unknown; clearTimeout(handle: unknown): void };
  /** Called for every message the page sends, after it was recorded: answer like a server would. */
  onSend?: (message: ClientMessage, session: ScriptedSession) => void;
}

/**
 * A `ToolSession` driven by a script or by hand, recording what the page sends: for tests, stories and demos.
 *
 * @example
 * const session: ScriptedSession = createScriptedSession();
 * session.emit(e.start('c1', { name: 'search' }));
 * const result = await session.callTool({ callId: 'a1', name: 'set_title', arguments: { title: 'Hi' } });
 * session.sent // every message the page sent back
 */
export interface ScriptedSession extends ToolSession {
  readonly status: ToolSessionStatus;
  readonly capabilities: readonly string[];
  onStatusChange(listener: (status: ToolSessionStatus) => void): () => void;
  /** Every message the page sent, in order. */
  readonly sent: readonly ClientMessage[];
  /** Every event the session emitted, in order. */
  readonly emitted: readonly unknown[];
  /** The first `tool.result` per call id. */
  readonly results: ReadonlyMap<string, ToolResult>;
  /** The server's epoch: stamped on calls that do not give one; raised by each `turn.interrupt`. */
  readonly epoch: number;
  /** True while `play()` runs. */
  readonly playing: boolean;
  /** Emit a server event to every subscriber, now. */
  emit(event: unknown): void;
  /**
   * Ask the page to run an app tool. Resolves with the result the page sends. A call made before
   * anything handles calls waits for the first handler (a call must never be lost).
   */
  callTool(call: ScriptedCall): Promise<ToolResult>;
  /** Change the status and tell `onStatusChange` listeners. */
  setStatus(status: ToolSessionStatus): void;
  /** Emit `closed`, set the status to `closed` and stop the script. */
  close(): void;
  /** Play `steps` (default: the `script` option). Resolves when the last step is done; rejects if a step throws. */
  play(steps?: readonly ScriptStep[]): Promise<void>;
  /** Stop playing: a pending wait or delay ends at once and no further step runs. */
  stop(): void;
  /** Resolves as soon as `predicate` holds (checked now and after every change). */
  waitFor(predicate: (session: ScriptedSession) => boolean, options?: { signal?: AbortSignal }): Promise<void>;
  /** Resolves with the first sent message of `type` (from now on, or already sent) that matches. */
  waitForMessage<T extends ClientMessage['type']>(
    type: T,
    predicate?: (message: Extract<ClientMessage, { type: T }>) => boolean,
    options?: { signal?: AbortSignal },
  ): Promise<Extract<ClientMessage, { type: T }>>;
  /** Resolves with the first `tool.result` for `callId`. */
  waitForResult(callId: string, options?: { signal?: AbortSignal }): Promise<ToolResult>;
  /** How many listeners are attached: check that an unbind let go of everything. */
  listenerCount(): { events: number; toolCalls: number; status: number };
}

interface Waiter {
  check: () => boolean;
  reject: (reason: unknown) => void;
}

/**
 * Create a scripted session.
 *
 * @example
 * const session = createScriptedSession({
 *   script: [
 *     step.emit({ type: 'tool.stream', phase: 'start', callId: 'c1', turnId: 't1', name: 'set_title', location: 'app' }),
 *     step.call({ callId: 'c1', turnId: 't1', name: 'set_title', arguments: { title: 'Hi' } }),
 *     step.waitForResult('c1'),
 *     step.emit({ type: 'tool.stream', phase: 'settled', callId: 'c1', ok: true }),
 *   ],
 * });
 * bindAppToolHost(session, host);
 * await session.play();
 * expect(session.results.get('c1')).toEqual({ ok: true, output: null });
 */
export function createScriptedSession(options: ScriptedSessionOptions = {}): ScriptedSession {
  const speed = options.speed ?? Infinity;
  if (!(speed > 0)) throw new RangeError(`speed must be a positive number (Infinity for instant), not ${String(speed)}`);
  const timers = options.timers ?? {
    setTimeout: (callback: () => void, ms: number) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle: unknown) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  };

  let status: ToolSessionStatus = options.status ?? 'open';
  let epoch = options.epoch ?? 0;
  const capabilities = Object.freeze([...(options.capabilities ?? ['tool-stream-v1'])]);
  const sent: ClientMessage[] = [];
  const emitted: unknown[] = [];
  const results = new Map<string, ToolResult>();
  const resultWaiters = new Map<string, Array<(result: ToolResult) => void>>();
  const eventListeners = new Set<(event: unknown) => void>();
  const callHandlers = new Set<(call: AppToolCallMessage) => void>();
  const statusListeners = new Set<(status: ToolSessionStatus) => void>();
  const undelivered: AppToolCallMessage[] = [];
  const waiters = new Set<Waiter>();
  let playing: Promise<void> | undefined;
  let stopped = false;
  let stopWaiting: (() => void) | undefined;

  function changed(): void {
    for (const waiter of [...waiters]) {
      let done: boolean;
      try {
        done = waiter.check();
      } catch (error) {
        waiters.delete(waiter);
        waiter.reject(error);
        continue;
      }
      if (done) waiters.delete(waiter);
    }
  }

  /** Register a waiter that settles when `check` returns true (it resolves itself). */
  function wait(check: () => boolean, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const waiter: Waiter = {
        check: () => {
          if (!check()) return false;
          signal?.removeEventListener('abort', onAbort);
          resolve();
          return true;
        },
        reject: (reason) => {
          signal?.removeEventListener('abort', onAbort);
          reject(reason);
        },
      };
      const onAbort = () => {
        waiters.delete(waiter);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        if (waiter.check()) return;
      } catch (error) {
        waiter.reject(error);
        return;
      }
      waiters.add(waiter);
    });
  }

  function deliver(call: AppToolCallMessage): void {
    // Every handler, as a socket's `message` listeners would all see the frame.
    for (const handler of [...callHandlers]) handler(call);
  }

  function callMessage(call: ScriptedCall): AppToolCallMessage {
    return {
      type: 'tool.call',
      callId: call.callId,
      turnId: call.turnId ?? 'turn-1',
      epoch: call.epoch ?? epoch,
      name: call.name,
      arguments: call.arguments ?? {},
    };
  }

  const session: ScriptedSession = {
    get status() {
      return status;
    },
    capabilities,
    sent,
    emitted,
    results,
    get epoch() {
      return epoch;
    },
    get playing() {
      return playing !== undefined;
    },

    subscribe(listener) {
      eventListeners.add(listener);
      changed();
      return () => {
        eventListeners.delete(listener);
        changed();
      };
    },

    onToolCall(handler) {
      callHandlers.add(handler);
      if (undelivered.length > 0) {
        // After the caller's setup returns, not inside `onToolCall` itself.
        queueMicrotask(() => {
          if (callHandlers.size === 0) return;
          for (const call of undelivered.splice(0)) deliver(call);
        });
      }
      changed();
      return () => {
        callHandlers.delete(handler);
        changed();
      };
    },

    onStatusChange(listener) {
      statusListeners.add(listener);
      changed();
      return () => {
        statusListeners.delete(listener);
        changed();
      };
    },

    send(message) {
      sent.push(message);
      if (message.type === 'turn.interrupt') epoch += 1; // a server stamps later turns with a new epoch
      if (message.type === 'tool.result' && !results.has(message.callId)) {
        results.set(message.callId, message.result);
      }
      if (message.type === 'tool.result') {
        const pending = resultWaiters.get(message.callId);
        if (pending) {
          resultWaiters.delete(message.callId);
          for (const resolve of pending) resolve(message.result);
        }
      }
      options.onSend?.(message, session);
      changed();
    },

    emit(event) {
      emitted.push(event);
      let failure: { error: unknown } | undefined;
      for (const listener of [...eventListeners]) {
        try {
          listener(event);
        } catch (error) {
          failure ??= { error };
        }
      }
      changed();
      // Every listener saw the event; then the first failure reaches whoever emitted it.
      if (failure) throw failure.error;
    },

    callTool(call) {
      const message = callMessage(call);
      const promise = new Promise<ToolResult>((resolve) => {
        const list = resultWaiters.get(message.callId) ?? [];
        list.push(resolve);
        resultWaiters.set(message.callId, list);
      });
      if (callHandlers.size === 0) undelivered.push(message);
      else deliver(message);
      changed();
      return promise;
    },

    setStatus(next) {
      if (next === status) return;
      status = next;
      for (const listener of [...statusListeners]) listener(next);
      changed();
    },

    close() {
      if (status === 'closed') return;
      stopped = true;
      stopWaiting?.();
      try {
        session.emit({ type: 'closed' });
      } finally {
        session.setStatus('closed');
      }
    },

    play(steps) {
      if (playing) return playing;
      stopped = false;
      const script = steps ?? options.script ?? [];
      const run = (async () => {
        await undefined; // start after the caller's setup, never inside play()
        for (const s of script) {
          if (stopped) break;
          await playStep(s);
        }
      })();
      playing = run.finally(() => {
        playing = undefined;
        stopWaiting = undefined;
      });
      return playing;
    },

    stop() {
      stopped = true;
      stopWaiting?.();
    },

    waitFor(predicate, waitOptions) {
      return wait(() => predicate(session), waitOptions?.signal);
    },

    async waitForMessage(type, predicate, waitOptions) {
      let found: ClientMessage | undefined;
      await wait(() => {
        found = sent.find(
          (m) => m.type === type && (predicate === undefined || predicate(m as Extract<ClientMessage, { type: typeof type }>)),
        );
        return found !== undefined;
      }, waitOptions?.signal);
      return found as Extract<ClientMessage, { type: typeof type }>;
    },

    async waitForResult(callId, waitOptions) {
      await wait(() => results.has(callId), waitOptions?.signal);
      return results.get(callId) as ToolResult;
    },

    listenerCount() {
      return { events: eventListeners.size, toolCalls: callHandlers.size, status: statusListeners.size };
    },
  };

  /** A wait inside the script; `stop()` or `close()` ends it quietly and the script stops. */
  function scriptWait(check: () => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const controller = new AbortController();
      stopWaiting = () => {
        controller.abort();
        resolve();
      };
      wait(check, controller.signal).then(resolve, (error: unknown) => {
        if (!controller.signal.aborted) reject(error);
      });
    });
  }

  async function playStep(s: ScriptStep): Promise<void> {
    switch (s.kind) {
      case 'emit':
        session.emit(s.event);
        return;
      case 'call':
        void session.callTool(s.call);
        return;
      case 'wait-result':
        await scriptWait(() => results.has(s.callId));
        return;
      case 'wait-approval':
        await scriptWait(() => sent.some((m) => m.type === 'tool.approval' && m.requestId === s.requestId));
        return;
      case 'wait-message': {
        const from = sent.length; // a message the step waits for comes after the step began
        await scriptWait(() => sent.slice(from).some((m) => s.predicate(m)));
        return;
      }
      case 'wait':
        await scriptWait(() => s.predicate(session));
        return;
      case 'delay': {
        const ms = s.ms / speed;
        if (!(ms > 0)) return;
        await new Promise<void>((resolve) => {
          const handle = timers.setTimeout(() => {
            stopWaiting = undefined;
            resolve();
          }, ms);
          stopWaiting = () => {
            timers.clearTimeout(handle);
            resolve();
          };
        });
        return;
      }
      case 'status':
        session.setStatus(s.status);
        return;
      case 'close':
        session.close();
        return;
      case 'run':
        await s.run(session);
        return;
      default:
        s satisfies never;
    }
  }

  return session;
}
