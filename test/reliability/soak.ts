/**
 * The soak (issue 8, item 5), shared by `npm run soak` (scripts/soak.mjs: 10,000 calls, memory
 * measured with a forced GC) and its short version in `npm test` (soak.test.ts).
 *
 * A page is wired as an application wires the kit: the reference client, a store fed by the
 * session, an app-tool host bound to it, a confirmation controller on the room with the server's
 * approval gate, and a person who approves what is shown. Turns of the `soak` script (100 calls:
 * server tools streamed and not, with progress, and app tools run one at a time) go through it;
 * some turns are interrupted by the page, some pass the approval gate.
 *
 * Imports are relative (not `toolgate/*`) so that esbuild can bundle this without the aliases.
 */
import WebSocket from 'ws';
import { bindAppToolHost } from '../../src/core/app-tools/bind-session';
import { connectApprovalGate } from '../../src/core/approval/confirmation-bridges';
import {
  createAppToolHost,
  createConfirmationController,
  createToolStreamStore,
  type AppToolHost,
  type ConfirmationController,
  type ToolStreamStore,
} from '../../src/core/index';
import { connectReferenceSession, type ReferenceSession } from '../../src/client/index';
import type { Script, ScriptCall } from '../../server/scripts';

export const CALLS_PER_TURN = 100;

function soakCall(step: number, i: number): ScriptCall {
  switch (i % 5) {
    case 0:
      return { tool: 'set_title', location: 'app', arguments: { title: `Step ${step}, call ${i}` } };
    case 1:
      return { tool: 'insert_text', location: 'app', arguments: { text: `Paragraph ${step}.${i}: "quoted", ünïcødé, \\ and a newline\n`, position: 'end' } };
    case 2:
      return { tool: 'get_weather', location: 'server', arguments: { city: ['Lisbon', 'Oslo', 'Nairobi', 'Lima'][i % 4], unit: 'C' } };
    case 3:
      return { tool: 'search_docs', location: 'server', arguments: { query: `runbook ${step} ${i}`, limit: 2 } };
    default:
      return { tool: 'lookup_order', location: 'server', stream: false, arguments: { orderId: `ord_${step}_${i}` } };
  }
}

/** 100 calls in five responses of twenty, fragments interleaved in every other response. */
export const SOAK_SCRIPT: Script = {
  name: 'soak',
  description: `${CALLS_PER_TURN} calls: server tools (streamed, not streamed, with progress) and app tools run one at a time`,
  steps: Array.from({ length: 5 }, (_, step) => ({
    interleave: step % 2 === 0,
    calls: Array.from({ length: CALLS_PER_TURN / 5 }, (_, i) => soakCall(step, i)),
  })),
};

export interface SoakPage {
  session: ReferenceSession;
  store: ToolStreamStore;
  host: AppToolHost;
  controller: ConfirmationController;
  /** Frames the client could not use, and events the store rejected: both should stay empty. */
  problems: string[];
  /** App-tool runs by call id. */
  runs: Map<string, number>;
  /** Calls whose `start` the store applied, and app-tool results sent: counted, not kept. */
  counts: { calls: number; events: number; appResults: number; approvals: number; interruptedTurns: number; ignoredResults: number };
  /** Turns the person interrupts from their first app call on. */
  interruptTurns: Set<string>;
  /** Resolves when the turn ends. */
  turnEnded(turnId: string): Promise<string>;
}

export function openSoakPage(url: string): SoakPage {
  const problems: string[] = [];
  const counts = { calls: 0, events: 0, appResults: 0, approvals: 0, interruptedTurns: 0, ignoredResults: 0 };
  const session = connectReferenceSession(url, {
    WebSocket,
    reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    onError: (reason) => {
      // The page answers a call it interrupted itself (INTERRUPTED) right after telling the server,
      // which has answered it the same way already and says it ignored the page's answer.
      if (/RESULT_IGNORED: call \S+ already has its result/.test(reason)) counts.ignoredResults += 1;
      else problems.push(`client: ${reason}`);
    },
  });
  const store = createToolStreamStore({
    onError: (reason, _event, issue) => {
      // An app call's result racing the page's own interrupt is expected; nothing else is.
      if (issue !== 'after-terminal') problems.push(`store: ${reason}`);
    },
  });
  const host = createAppToolHost({ timeoutMs: 30_000 });
  const controller = createConfirmationController({ room: session.room });
  const runs = new Map<string, number>();
  const waiting = new Map<string, (status: string) => void>();
  const interruptTurns = new Set<string>();

  session.subscribe((event) => {
    counts.events += 1;
    const e = event as { type?: unknown; phase?: unknown; turnId?: unknown; status?: unknown };
    if (e.type === 'tool.stream' && e.phase === 'start') counts.calls += 1;
    store.getState().dispatch(event);
    if (e.type === 'turn.ended' && typeof e.turnId === 'string') {
      waiting.get(e.turnId)?.(String(e.status));
      waiting.delete(e.turnId);
    }
  });

  const interrupt = (turnId: string) => {
    counts.interruptedTurns += 1;
    store.getState().interrupt(turnId);
    host.interrupt(turnId); // raises the epoch floor and sends turn.interrupt
  };

  const run = (output: (args: Record<string, unknown>) => unknown) => (args: Record<string, unknown>, ctx: { callId: string; turnId: string; signal: AbortSignal }) => {
    runs.set(ctx.callId, (runs.get(ctx.callId) ?? 0) + 1);
    counts.appResults += 1;
    if (interruptTurns.has(ctx.turnId) && !ctx.signal.aborted) interrupt(ctx.turnId);
    return output(args);
  };
  host.register<Record<string, unknown>>({ name: 'set_title', run: run((args) => ({ title: args.title })) });
  host.register<Record<string, unknown>>({ name: 'insert_text', run: run((args) => ({ inserted: String(args.text).length })) });
  bindAppToolHost(session, host, { onError: (error) => problems.push(`binding: ${String(error)}`) });
  connectApprovalGate(session, controller, { calls: store, onError: (reason) => problems.push(`gate: ${reason}`) });
  // A person who approves what the gate shows.
  controller.subscribe((state) => {
    const current = state.current;
    if (current?.status !== 'reviewing') return;
    queueMicrotask(() => {
      if (controller.approve({ requestId: current.id })) counts.approvals += 1;
    });
  });

  return {
    session,
    store,
    host,
    controller,
    problems,
    runs,
    counts,
    interruptTurns,
    turnEnded: (turnId) => new Promise((resolve) => waiting.set(turnId, resolve)),
  };
}

/**
 * Run `turns` turns of the soak script (and more, until the page has seen `minCalls` calls);
 * every `interruptEvery`-th is interrupted by the person at its first app call, and every
 * `deployEvery`-th (one earlier) is a `deploy` through the approval gate.
 */
export async function runTurns(
  page: SoakPage,
  turns: number,
  prefix: string,
  { interruptEvery = 10, deployEvery = 10, minCalls = 0 }: { interruptEvery?: number; deployEvery?: number; minCalls?: number } = {},
): Promise<{ interrupted: number; completed: number; deploys: number; turnMs: number[] }> {
  let interrupted = 0;
  let completed = 0;
  let deploys = 0;
  const turnMs: number[] = [];
  for (let t = 0; t < turns || page.counts.calls < minCalls; t++) {
    const turnId = `${prefix}-${t}`;
    const deploy = t % deployEvery === deployEvery - 2;
    if (!deploy && t % interruptEvery === interruptEvery - 1) page.interruptTurns.add(turnId);
    const ended = page.turnEnded(turnId);
    const began = performance.now();
    page.session.startTurn(deploy ? 'deploy' : 'soak', { turnId });
    const status = await ended;
    turnMs.push(performance.now() - began);
    page.interruptTurns.delete(turnId);
    if (deploy) deploys += 1;
    if (status === 'interrupted') interrupted += 1;
    else if (status === 'completed') completed += 1;
    else throw new Error(`turn ${turnId} ended ${status}`);
  }
  return { interrupted, completed, deploys, turnMs };
}

/** What must hold before the close: every call shown once and ended, every app call run once. */
export function checkBeforeClose(page: SoakPage): string[] {
  const problems = [...page.problems];
  const state = page.store.getState();
  if (state.order.length !== page.counts.calls) problems.push(`the store shows ${state.order.length} calls of ${page.counts.calls} started`);
  let open = 0;
  for (const id of state.order) {
    const call = state.calls[id];
    if (call === undefined || !['settled', 'cancelled', 'failed'].includes(call.status)) open += 1;
  }
  if (open > 0) problems.push(`${open} calls did not end`);
  for (const [callId, count] of page.runs) if (count !== 1) problems.push(`app call ${callId} ran ${count} times`);
  if (page.counts.ignoredResults > page.counts.interruptedTurns) problems.push(`${page.counts.ignoredResults} results ignored by the server for ${page.counts.interruptedTurns} interrupted turns`);
  return problems;
}

/** End the session for good and wait until the page knows it. */
export async function closePage(page: SoakPage): Promise<void> {
  page.session.close();
  for (let i = 0; i < 2000 && page.session.status !== 'closed'; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (page.session.status !== 'closed') throw new Error('the session did not close');
}

/** What must hold after `closed`: nothing kept in the store, the host or the confirmation queue. */
export function checkAfterClose(page: SoakPage): string[] {
  const problems: string[] = [];
  const state = page.store.getState();
  if (!state.closed || state.order.length !== 0 || Object.keys(state.calls).length !== 0) problems.push('the store still holds calls after closed');
  const host = page.host.getState();
  if (!host.closed || host.queue.length !== 0 || Object.keys(host.calls).length !== 0) problems.push('the app-tool host still holds calls after closed');
  if (Object.values(host.tools).some((tool) => tool.lastResult !== null)) problems.push('the app-tool host still holds a result after closed');
  const confirmations = page.controller.getState();
  if (confirmations.current !== null || confirmations.queue.length !== 0) problems.push('the confirmation queue still holds a request after closed');
  return problems;
}
