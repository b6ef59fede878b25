/**
 * The answer ledger (seed 000, "Results": exactly one result per call). Every call id the host
 * was asked about gets one promise, resolved once; a repeat of the id (a resend after a lost
 * response) gets that same promise instead of a second run or a contradicting answer. The
 * latest `remember` answers keep their result; older ids keep only the fact that they were
 * answered, so a very late repeat still never runs twice (one string per call).
 */

import type { ToolResult } from '../wire';
import { failure } from './answers';

/** One call's answer, promised or given. */
interface Entry {
  readonly promise: Promise<ToolResult>;
  resolve: ((result: ToolResult) => void) | undefined;
  result: ToolResult | undefined;
}

/** What the host keeps of the calls it answered. */
export interface AnswerLedger {
  /** The answer to a repeat of `callId`: its promise, FAILED for one answered long ago, or `undefined` for a new id. */
  repeat(callId: string): Promise<ToolResult> | undefined;
  /** Answer a call that never opens (refused on arrival), and remember the answer. */
  answerAtOnce(callId: string, result: ToolResult): Promise<ToolResult>;
  /** Promise an answer to a call that opens now. */
  open(callId: string): Promise<ToolResult>;
  /** Give an open call its one answer. False when it already had one. */
  answer(callId: string, result: ToolResult): boolean;
  /** The result given to `callId`, while it is remembered. */
  resultOf(callId: string): ToolResult | undefined;
  /** Forget everything (on close). */
  clear(): void;
}

/**
 * A ledger that keeps the results of the latest `remember` answers.
 *
 * @example
 * const ledger = createAnswerLedger(1000);
 * const answer = ledger.open('c1');
 * ledger.answer('c1', { ok: true, output: null }); // true; a second answer would be false
 */
export function createAnswerLedger(remember: number): AnswerLedger {
  const entries = new Map<string, Entry>();
  /** Answered ids, oldest first: the window whose results are kept. */
  const answered = new Set<string>();
  /** Ids whose result was let go. */
  const forgotten = new Set<string>();

  function remembered(callId: string): void {
    answered.add(callId);
    while (answered.size > remember) {
      const oldest = answered.values().next().value as string;
      answered.delete(oldest);
      entries.delete(oldest);
      forgotten.add(oldest);
    }
  }

  return {
    repeat(callId) {
      const entry = entries.get(callId);
      if (entry) return entry.promise;
      if (forgotten.has(callId)) {
        return Promise.resolve(failure('FAILED', `duplicate call ${callId}: it was answered long ago and is not run again`));
      }
      return undefined;
    },
    answerAtOnce(callId, result) {
      const promise = Promise.resolve(result);
      entries.set(callId, { promise, resolve: undefined, result });
      remembered(callId);
      return promise;
    },
    open(callId) {
      let resolve!: (result: ToolResult) => void;
      const promise = new Promise<ToolResult>((r) => {
        resolve = r;
      });
      entries.set(callId, { promise, resolve, result: undefined });
      return promise;
    },
    answer(callId, result) {
      const entry = entries.get(callId);
      if (!entry || entry.result !== undefined || !entry.resolve) return false;
      entry.result = result;
      entry.resolve(result);
      entry.resolve = undefined;
      remembered(callId);
      return true;
    },
    resultOf: (callId) => entries.get(callId)?.result,
    clear() {
      entries.clear();
      answered.clear();
      forgotten.clear();
    },
  };
}
