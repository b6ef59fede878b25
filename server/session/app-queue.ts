/**
 * App tools (docs/protocol.md, "App tools"): they run in the page one at a time, in arrival order. The next
 * `tool.call` goes out only once the previous call has its result (the page's `tool.result`, or
 * TIMEOUT after `clientToolTimeoutMs`).
 */
import { isToolResult, type ClientFrame, type ToolResult } from '../protocol';
import type { TimerHandle } from '../timer';
import { INTERRUPTED, type CallState, type SessionCore, type Turn } from './model';

interface AppEntry {
  call: CallState;
  args: unknown;
  /** The seq of its `tool.call`, once sent. */
  seq?: number;
  resolve: (result: ToolResult) => void;
  timeout?: TimerHandle;
}

export class AppQueue {
  private queue: AppEntry[] = [];
  private current: AppEntry | undefined;

  constructor(
    private readonly core: SessionCore,
    /** Settle the call (its `settled` event) before the next call goes out. */
    private readonly settle: (call: CallState, result: ToolResult) => void,
  ) {}

  /** Queue a call for the page; resolves with its one result. */
  call(call: CallState, args: unknown): Promise<ToolResult> {
    return new Promise((resolve) => {
      this.queue.push({ call, args, resolve });
      this.pump();
    });
  }

  /** Send the next call, if none is out. */
  pump(): void {
    if (this.current || this.core.closed) return;
    const entry = this.queue.shift();
    if (!entry) return;
    this.current = entry;
    const { call } = entry;
    this.core.emit(this.callFrame(entry));
    entry.seq = this.core.seq;
    const ms = this.core.config.clientToolTimeoutMs;
    entry.timeout = this.core.config.timer.setTimeout(() => {
      this.finish(entry, { ok: false, code: 'TIMEOUT', message: `no result within ${ms} ms` });
    }, ms);
  }

  /** The call out to the page still waiting for its result: its id, its seq, and its `tool.call`. */
  waiting(): { id: string; seq: number; frame: Record<string, unknown> } | undefined {
    const entry = this.current;
    if (!entry || entry.seq === undefined) return undefined;
    return { id: entry.call.callId, seq: entry.seq, frame: this.callFrame(entry) };
  }

  private callFrame(entry: AppEntry): Record<string, unknown> {
    const { call } = entry;
    return { type: 'tool.call', callId: call.callId, turnId: call.turn.id, epoch: call.epoch, name: call.name, arguments: entry.args };
  }

  /** The page's `tool.result`: accepted only for the call that is out, with its epoch and a valid result. */
  result(frame: Extract<ClientFrame, { type: 'tool.result' }>): void {
    const current = this.current;
    const reject = (reason: string, message: string) => {
      this.core.ignore('tool.result', reason, { callId: frame.callId, epoch: frame.epoch });
      this.core.sendError('RESULT_IGNORED', message, { reason, callId: frame.callId });
    };
    if (!current || current.call.callId !== frame.callId) {
      const known = this.core.calls.get(frame.callId);
      if (!known) return reject('unknown-call', `no call ${frame.callId} in this session`);
      if (this.core.terminal(known)) return reject('finished-call', `call ${frame.callId} already has its result`);
      return reject('not-awaiting-result', `call ${frame.callId} was not sent to the page yet`);
    }
    if (frame.epoch !== current.call.epoch) {
      return reject('stale-epoch', `call ${frame.callId} has epoch ${current.call.epoch}, not ${frame.epoch}`);
    }
    if (!isToolResult(frame.result)) {
      return reject('malformed-result', 'a result is { ok: true, output } or { ok: false, code, message? } with a known code');
    }
    this.finish(current, frame.result);
  }

  /** The turn was interrupted: its queued and running calls, taken out (the caller answers them). */
  takeTurn(turn: Turn): { resolve: (result: ToolResult) => void }[] {
    const taken: AppEntry[] = [];
    this.queue = this.queue.filter((entry) => {
      if (entry.call.turn !== turn) return true;
      taken.push(entry);
      return false;
    });
    if (this.current?.call.turn === turn) {
      taken.push(this.current);
      this.core.config.timer.clearTimeout(this.current.timeout);
      this.current = undefined;
    }
    return taken;
  }

  /** The session closed: every call out or queued is answered INTERRUPTED. */
  closeAll(): void {
    const entries = [...(this.current ? [this.current] : []), ...this.queue];
    this.current = undefined;
    this.queue = [];
    for (const entry of entries) {
      this.core.config.timer.clearTimeout(entry.timeout);
      entry.resolve(INTERRUPTED);
    }
  }

  private finish(entry: AppEntry, result: ToolResult): void {
    if (this.current !== entry) return;
    this.core.config.timer.clearTimeout(entry.timeout);
    this.current = undefined;
    // Settle here, not in the caller's continuation, so the page sees this call's `settled`
    // before the next call's `tool.call`.
    this.settle(entry.call, result);
    entry.resolve(result);
    this.pump();
  }
}
