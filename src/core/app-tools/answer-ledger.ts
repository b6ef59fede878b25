/**
 * The answer ledger (docs/protocol.md, "App tools": exactly one result per call). Every call id the host
 * was asked about gets one promise, resolved once; a repeat of the id (a resend after a lost
 * response) gets that same promise instead of a second run or a contradicting answer. The
 * latest `remember` answers keep their result; older ids keep only the fact that they were
 * answered, so a very late repeat still never runs twice (one string per call).
 *
 * Its durable part (docs/protocol.md, "Sessions that survive a reload"): with `saved`, the ledger also
 * records, outside the page, each call whose run began and the answer it got. A page that
 * resumes the session after a reload asks it about a call the server sends again: one that was
 * running when the page went away is answered FAILED ("outcome unknown: the page reloaded while
 * it ran") and never run again; one that had its answer gets that same answer; one that never
 * began runs normally.
 */

import type { ToolResult } from '../wire';
import { failure } from './answer-wording';

/**
 * What a page recorded of one app-tool call it ran: its run began (`running`), or it got its
 * answer after it ran (`answered`, with the result when it was small enough to keep).
 *
 * @example
 * const saved: SavedCall = { state: 'answered', result: { ok: true, output: null } };
 */
export type SavedCall = { readonly state: 'running' } | { readonly state: 'answered'; readonly result?: ToolResult };

/**
 * Where the app-tool host records the calls it ran, so that a page that resumes its session
 * after a reload never runs one twice. `persistence.calls` of a saved session is one
 * (`createSessionPersistence`); give it to `createAppToolHost({ savedCalls })`.
 *
 * @example
 * const memory = new Map<string, SavedCall>();
 * const savedCalls: SavedCalls = {
 *   recall: (callId) => memory.get(callId),
 *   started: (callId) => void memory.set(callId, { state: 'running' }),
 *   answered: (callId, result) => void memory.set(callId, { state: 'answered', result }),
 * };
 */
export interface SavedCalls {
  /** What a page (this one or one before it) recorded of `callId`. */
  recall(callId: string): SavedCall | undefined;
  /** The run of `callId` begins now (recorded before `run` is called). */
  started(callId: string): void;
  /** `callId`, whose run began, got its one result. */
  answered(callId: string, result: ToolResult): void;
}

/**
 * The message of the `FAILED` answer to a call that was running when the page went away: what
 * its run did is not known to the page that resumed the session, and it is never run again.
 *
 * @example
 * if (!result.ok && result.message === RELOADED_WHILE_RUNNING) showCheckBeforeRetrying(callId);
 */
export const RELOADED_WHILE_RUNNING = 'outcome unknown: the page reloaded while it ran';

/** One call's answer, promised or given. */
interface Entry {
  readonly promise: Promise<ToolResult>;
  resolve: ((result: ToolResult) => void) | undefined;
  result: ToolResult | undefined;
  /** Its run began (recorded in `saved`). */
  ran: boolean;
}

/** What the host keeps of the calls it answered. */
export interface AnswerLedger {
  /**
   * The answer to a repeat of `callId`: its promise, FAILED for one answered long ago, the answer
   * a page before this one recorded, or `undefined` for a new id.
   */
  repeat(callId: string): Promise<ToolResult> | undefined;
  /** Answer a call that never opens (refused on arrival), and remember the answer. */
  answerAtOnce(callId: string, result: ToolResult): Promise<ToolResult>;
  /** Promise an answer to a call that opens now. */
  open(callId: string): Promise<ToolResult>;
  /** The run of an open call begins: recorded where it outlives the page. */
  started(callId: string): void;
  /** Give an open call its one answer. False when it already had one. */
  answer(callId: string, result: ToolResult): boolean;
  /** The result given to `callId`, while it is remembered (or as a page before this one recorded it). */
  resultOf(callId: string): ToolResult | undefined;
  /** Forget everything (on close). */
  clear(): void;
}

/**
 * A ledger that keeps the results of the latest `remember` answers, and records the calls it
 * ran in `saved` when given.
 *
 * @example
 * const ledger = createAnswerLedger(1000);
 * const answer = ledger.open('c1');
 * ledger.answer('c1', { ok: true, output: null }); // true; a second answer would be false
 */
export function createAnswerLedger(remember: number, saved?: SavedCalls): AnswerLedger {
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

  function answerAtOnce(callId: string, result: ToolResult): Promise<ToolResult> {
    const promise = Promise.resolve(result);
    entries.set(callId, { promise, resolve: undefined, result, ran: false });
    remembered(callId);
    return promise;
  }

  /** What a page before this one recorded of a call it ran, as this page's answer to it. */
  function recalled(callId: string): Promise<ToolResult> | undefined {
    const record = saved?.recall(callId);
    if (record === undefined) return undefined;
    if (record.state === 'answered' && record.result !== undefined) return answerAtOnce(callId, record.result);
    // Its run began and nothing says how it ended (or its answer was too large to keep): running
    // it again could do its effect twice, so it is answered, once, as unknown.
    const result = failure('FAILED', RELOADED_WHILE_RUNNING);
    if (record.state === 'running') saved?.answered(callId, result);
    return answerAtOnce(callId, result);
  }

  return {
    repeat(callId) {
      const entry = entries.get(callId);
      if (entry) return entry.promise;
      if (forgotten.has(callId)) {
        return Promise.resolve(failure('FAILED', `duplicate call ${callId}: it was answered long ago and is not run again`));
      }
      return recalled(callId);
    },
    answerAtOnce,
    open(callId) {
      let resolve!: (result: ToolResult) => void;
      const promise = new Promise<ToolResult>((r) => {
        resolve = r;
      });
      entries.set(callId, { promise, resolve, result: undefined, ran: false });
      return promise;
    },
    started(callId) {
      const entry = entries.get(callId);
      if (!entry || entry.result !== undefined) return;
      entry.ran = true;
      saved?.started(callId);
    },
    answer(callId, result) {
      const entry = entries.get(callId);
      if (!entry || entry.result !== undefined || !entry.resolve) return false;
      entry.result = result;
      entry.resolve(result);
      entry.resolve = undefined;
      remembered(callId);
      if (entry.ran) saved?.answered(callId, result);
      return true;
    },
    resultOf(callId) {
      const result = entries.get(callId)?.result;
      if (result !== undefined || saved === undefined) return result;
      const record = saved.recall(callId);
      return record?.state === 'answered' ? record.result : undefined;
    },
    clear() {
      entries.clear();
      answered.clear();
      forgotten.clear();
    },
  };
}
