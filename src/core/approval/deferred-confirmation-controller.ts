/**
 * The confirmation controller the client makes: the same controller as
 * `createConfirmationController`, whose flow (the queue, the state machine's runs, grants and
 * policies answering requests, fingerprints, edits, batches) is loaded by `import()` when the first
 * request arrives, so a page that is never asked to approve anything never loads it
 * (docs/architecture.md, "What loads when").
 *
 * Until then the controller reads as one with nothing waiting: its state is idle, a decision finds
 * nothing to decide (false), its grants and approval records are there at once (a kept session's
 * grants are given back before any request), and `noteAnswer` records at once. Requests that
 * arrive while the flow loads wait in arrival order and are handed to it in that order, each
 * taken in once; a `withdrawAll` meanwhile withdraws them after they are taken in.
 */

import { describeThrown } from '../external-store';
import { createConfirmationShell, type ConfirmationShell } from './confirmation-shell';
import type { ConfirmationOutcome, ConfirmationView } from './confirmation-types';
import type { ApproveAllResult, ConfirmationController, ConfirmationControllerOptions, EditResult } from './confirmation-controller-types';

type Decision = 'approve' | 'deny' | 'respond' | 'cancel' | 'check' | 'retry' | 'dismiss' | 'edit' | 'cancelEdit' | 'allowForSession' | 'denyForSession' | 'allowByRule' | 'show';

type Run = (options: ConfirmationControllerOptions, shell: ConfirmationShell) => ConfirmationController;

const loadFlow = (): Promise<Run> => import('./confirmation-controller').then((m) => m.runConfirmationController);

const NO_IDS: readonly string[] = Object.freeze([]);
const NO_VIEWS: readonly ConfirmationView[] = Object.freeze([]);
const NONE_APPROVED = Object.freeze(Object.defineProperty([], 'refused', { value: Object.freeze([]), enumerable: false })) as unknown as ApproveAllResult;

/**
 * Create a confirmation controller that loads its flow on the first request.
 *
 * @example
 * const approvals = createDeferredConfirmationController({ onError: console.warn });
 * approvals.getState().status; // 'idle', at once
 * const outcome = await approvals.request({ toolName: 'transfer', arguments: { to: 'bob' } }); // loads the flow
 */
export function createDeferredConfirmationController(options: ConfirmationControllerOptions = {}, load: () => Promise<Run> = loadFlow): ConfirmationController {
  const shell = createConfirmationShell(options);
  let running: ConfirmationController | undefined;
  /** What arrived before the flow, in order. */
  const waiting: ((run: ConfirmationController) => void)[] = [];
  let requests = 0;
  let loading = false;

  const later = (task: (run: ConfirmationController) => void): void => {
    waiting.push(task);
    if (loading) return;
    loading = true;
    load().then(
      (run) => {
        running = run(options, shell);
        requests = 0;
        for (const task of waiting.splice(0)) task(running);
      },
      (error: unknown) => {
        // The flow could not be loaded (a chunk that failed to download): each waiting request is
        // refused once, with the reason, and the next request tries again.
        loading = false;
        requests = 0;
        const reason = `the approvals could not load: ${describeThrown(error)}`;
        try {
          if (options.onError) options.onError(reason, error, 'approvals-load-failed');
          else console.error(`toolgate: ${reason}`);
        } catch {
          // The reporter threw: the requests are still answered below.
        }
        const refused: ConfirmationOutcome = Object.freeze({ status: 'refused', reason });
        for (const task of waiting.splice(0)) task(refusing(refused));
      },
    );
  };

  // A decision before the flow has loaded finds no request to decide.
  const decide = <K extends Decision>(name: K): ConfirmationController[K] =>
    ((...args: unknown[]): boolean => running !== undefined && (running[name] as (...a: unknown[]) => boolean)(...args)) as ConfirmationController[K];

  return {
    request(input) {
      if (running) return running.request(input);
      requests += 1;
      // A request the flow refuses by throwing (no room and no onApprove, …) rejects with that error:
      // before the flow is there, the check cannot run while the caller waits.
      return new Promise<ConfirmationOutcome>((resolve, reject) =>
        later((run) => {
          try {
            run.request(input).then(resolve, reject);
          } catch (error) {
            reject(error);
          }
        }),
      );
    },
    approve: decide('approve'),
    deny: decide('deny'),
    respond: decide('respond'),
    cancel: decide('cancel'),
    check: decide('check'),
    retry: decide('retry'),
    dismiss: decide('dismiss'),
    edit: decide('edit'),
    cancelEdit: decide('cancelEdit'),
    allowForSession: decide('allowForSession'),
    denyForSession: decide('denyForSession'),
    allowByRule: decide('allowByRule'),
    show: decide('show'),
    withdrawAll(reason) {
      if (running) return running.withdrawAll(reason);
      if (requests === 0) return 0;
      // Withdrawn right after the flow takes them in, in order; counted now as the ones waiting.
      const count = requests;
      later((run) => void run.withdrawAll(reason));
      return count;
    },
    submitEdit(draft, target) {
      if (running) return running.submitEdit(draft, target);
      // Nothing is being edited before a request: the flow's own answer, after the requests waiting.
      return new Promise<EditResult>((resolve) => later((run) => void run.submitEdit(draft, target).then(resolve)));
    },
    previewRule: (rule) => (running ? running.previewRule(rule) : NO_VIEWS),
    get policy() {
      return options.policy;
    },
    approveAll: (picks) => (running ? running.approveAll(picks) : NONE_APPROVED),
    denyAll: (picks, reason) => (running ? running.denyAll(picks, reason) : NO_IDS),
    grants: shell.grants,
    records: shell.records.store,
    noteAnswer: (callId, note) => shell.recordNote(callId, note),
    subscribe: shell.store.subscribe,
    getState: shell.store.getState,
    getInitialState: shell.store.getInitialState,
  };
}

/** What answers the requests that waited for a flow that failed to load. */
function refusing(outcome: ConfirmationOutcome): ConfirmationController {
  return { request: () => Promise.resolve(outcome), withdrawAll: () => 0, submitEdit: () => Promise.resolve({ ok: false, issues: [] }) } as unknown as ConfirmationController;
}
