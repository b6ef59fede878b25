// @vitest-environment node
/**
 * Fault tests (issue 8, item 4): the real reference server, the real client adapter
 * (`toolgate/client` over `ws`) and the kit wired as a page wires it (store, app-tool host bound
 * to the session, confirmation controller on the session's room, the server's approval gate), in
 * Node. Each fault has its expected, documented outcome (docs/guarantees.md), and after each the
 * server's own record is read: every event delivered once, every app-tool call answered exactly
 * once and run at most once, no result ignored as a repeat or as late, and every effect in the
 * room done once (a write with a lost answer is never retried blindly; an invoke without a
 * confirmation is never repeated for the same app call or request).
 *
 * The browser e2e suite (`test/e2e`) drives the demo through some of these faults; here the kit
 * itself is checked against the server's records, without a browser.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAppToolHost, createConfirmationController, createToolStreamStore, ToolError, type AppToolContext, type ConfirmationController, type ConfirmationOutcome, type ToolCall, type ToolDescriptor, type ToolRoom } from 'toolgate/core';
import { bindAppToolHost, connectApprovalGate } from 'toolgate/client';
import { connectReferenceSession, type ReferenceSession } from 'toolgate/client';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../server/server';
import type { Script } from '../../server/scripts';
import { fingerprintOf } from '../../server/jcs';

/* --------------------------------------------------------------------- page */

interface AppToolSpec {
  name: string;
  run: (args: Record<string, unknown>, ctx: AppToolContext) => unknown;
}

interface PageOptions {
  tools?: AppToolSpec[];
  /** The client's own limit for an app-tool call (the host's timeoutMs). */
  hostTimeoutMs?: number;
  roomTimeoutMs?: number;
  /** A person at the screen: what they do with each request under review. */
  person?: (controller: ConfirmationController) => void;
  /** Sits between the page's tracked room and the session's (a room adapter of the application's own). */
  roomAdapter?: (room: ToolRoom) => ToolRoom;
}

/** One invokeTool the page asked for, and on whose behalf. */
interface PageInvoke {
  toolName: string;
  /** The room's own hash of the arguments (server/jcs.ts), to match the room's record. */
  argumentsHash: string | undefined;
  confirmationId: string | undefined;
  /** The app call the page was running, else the request shown for review (with its attempt), else `page`. */
  identity: string;
}

/** What a page holds, and what it saw. */
interface Page {
  session: ReferenceSession;
  store: ReturnType<typeof createToolStreamStore>;
  host: ReturnType<typeof createAppToolHost>;
  controller: ConfirmationController;
  /** Every event the session delivered, in order. */
  events: Record<string, unknown>[];
  /** The client's reports (frames it could not use, repeats, refusals). */
  clientErrors: string[];
  /** The store's reports (rejected events). */
  storeErrors: string[];
  /** How many times each app-tool call ran here. */
  runs: Map<string, number>;
  statuses: string[];
  /** The room the controller confirms and invokes through: the session's, with every invoke noted. */
  room: ToolRoom;
  /** Every invokeTool asked of `room`, in order. */
  invokes: PageInvoke[];
}

let server: ReferenceServer | undefined;
const pages: Page[] = [];

afterEach(async () => {
  for (const page of pages.splice(0)) {
    page.host.close();
    page.session.close();
  }
  await server?.close();
  server = undefined;
});

/** The room tools these pages use: sending invoices, reading customers (both confirmed) and writing notes (direct). */
const GRANTS = ['tool:invoke:send_invoice', 'tool:confirm:send_invoice', 'tool:invoke:lookup_customer', 'tool:confirm:lookup_customer', 'tool:invoke:add_note'];

async function start(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  server = await startReferenceServer({ port: 0, speed: Infinity, room: { grants: GRANTS }, ...options });
  return server;
}

function openPage(options: PageOptions = {}): Page {
  const clientErrors: string[] = [];
  const storeErrors: string[] = [];
  const session = connectReferenceSession((server as ReferenceServer).url, {
    WebSocket,
    reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
    roomTimeoutMs: options.roomTimeoutMs ?? 5_000,
    onError: (reason) => clientErrors.push(reason),
  });
  const store = createToolStreamStore({ onError: (reason) => storeErrors.push(reason) });
  const events: Record<string, unknown>[] = [];
  session.subscribe((event) => {
    events.push(event as Record<string, unknown>);
    store.getState().dispatch(event);
  });
  const statuses: string[] = [session.status];
  session.onStatusChange((status) => statuses.push(status));
  const host = createAppToolHost({ timeoutMs: options.hostTimeoutMs ?? 10_000 });
  const runs = new Map<string, number>();
  /** The app call running now (one at a time; a run wound down after its abort no longer counts). */
  let running: string | undefined;
  for (const tool of options.tools ?? []) {
    host.register<Record<string, unknown>>({
      name: tool.name,
      run: async (args, ctx) => {
        runs.set(ctx.callId, (runs.get(ctx.callId) ?? 0) + 1);
        running = ctx.callId;
        try {
          return await tool.run(args, ctx);
        } finally {
          if (running === ctx.callId) running = undefined;
        }
      },
    });
  }
  const invokes: PageInvoke[] = [];
  const inner = options.roomAdapter ? options.roomAdapter(session.room) : session.room;
  let controller!: ConfirmationController;
  const room: ToolRoom = {
    confirmTool: (toolName, args) => inner.confirmTool(toolName, args),
    invokeTool(toolName, args, confirmationId) {
      const shown = controller.getState().current;
      let argumentsHash: string | undefined;
      try {
        argumentsHash = fingerprintOf(args);
      } catch {
        argumentsHash = undefined;
      }
      invokes.push({
        toolName,
        argumentsHash,
        confirmationId,
        identity: running ?? (shown ? `${shown.id}#${shown.attempt}` : 'page'),
      });
      return confirmationId === undefined ? inner.invokeTool(toolName, args) : inner.invokeTool(toolName, args, confirmationId);
    },
  };
  controller = createConfirmationController({ room });
  bindAppToolHost(session, host, { onError: (error) => clientErrors.push(String(error)) });
  connectApprovalGate(session, controller, { calls: store });
  if (options.person) options.person(controller);
  const page: Page = { session, store, host, controller, events, clientErrors, storeErrors, runs, statuses, room, invokes };
  pages.push(page);
  return page;
}

/** A person who approves whatever is shown for review, and asks the application's check when the outcome is unknown. */
function approvesAndChecks(controller: ConfirmationController): void {
  controller.subscribe((state) => {
    const current = state.current;
    if (current?.status === 'reviewing') queueMicrotask(() => controller.approve({ requestId: current.id }));
    if (current?.status === 'uncertain' && current.can.check) queueMicrotask(() => controller.check({ requestId: current.id }));
  });
}

/** Wait, polling state (never a fixed time), until `check` holds: within 8 s, under the 30 s each test here may take, so a miss reports what it waited for. */
async function until<T>(check: () => T, what: string, timeoutMs = 8_000): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== false && value !== null && value !== undefined) return value as Exclude<T, false | null | undefined>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const turnEnded = (page: Page, turnId: string) => page.events.find((e) => e.type === 'turn.ended' && e.turnId === turnId);

/* ---------------------------------------------------------- the server's record */

/**
 * Nothing lost, nothing done twice, as the server recorded it:
 * - the page received exactly the session's event log, in order (no gap, no repeat);
 * - every app-tool call the server sent has exactly one result (unless the session closed first),
 *   and ran at most once in the page;
 * - no tool.result was ignored (a repeat, a late answer for a finished call, a stale epoch);
 * - no confirmation was used by two accepted effects;
 * - no invoke without a confirmation was done twice for one identity: the room's accepted
 *   direct effects of one tool and arguments are at most as many as the distinct app calls (or
 *   requests shown, by attempt) the page invoked them for. Two calls that each write the same
 *   thing are two effects; one call whose invoke went out twice (from the kit, the client or an
 *   adapter) is caught. Every room invoke must go through `page.room` for this to hold.
 */
function expectNothingLostNothingTwice(page: Page, options: { closed?: boolean } = {}): void {
  const srv = server as ReferenceServer;
  const sessionId = page.session.sessionId as string;
  const session = srv.session(sessionId);
  expect(session).toBeDefined();
  const log = session!.events();
  expect(page.events.filter((e) => typeof e.seq === 'number').map((e) => e.seq)).toEqual(log.map((e) => e.seq));
  const appCalls = log.filter((e) => e.type === 'tool.call').map((e) => e.callId as string);
  expect(new Set(appCalls).size).toBe(appCalls.length);
  for (const callId of appCalls) {
    if (!options.closed) expect(session!.results.has(callId), `a result for ${callId}`).toBe(true);
    expect(page.runs.get(callId) ?? 0, `runs of ${callId}`).toBeLessThanOrEqual(1);
  }
  expect(srv.ignored.filter((r) => r.sessionId === sessionId && r.message === 'tool.result')).toEqual([]);
  const accepted = srv.effects.filter((e) => e.sessionId === sessionId && e.outcome === 'accepted' && e.confirmationId !== undefined);
  expect(new Set(accepted.map((e) => e.confirmationId)).size).toBe(accepted.length);
  // A direct invoke carries no confirmation that would refuse its repeat: count them by identity.
  const keyOf = (e: { toolName: string; argumentsHash?: string | undefined }) => `${e.toolName} ${e.argumentsHash ?? '(not JSON)'}`;
  const direct = new Map<string, number>();
  for (const e of srv.effects) {
    if (e.sessionId !== sessionId || e.source !== 'room' || e.outcome !== 'accepted' || e.confirmationId !== undefined) continue;
    direct.set(keyOf(e), (direct.get(keyOf(e)) ?? 0) + 1);
  }
  for (const [key, count] of direct) {
    const identities = new Set(page.invokes.filter((i) => i.confirmationId === undefined && keyOf(i) === key).map((i) => i.identity));
    expect(count, `accepted direct invokes of ${key}, for ${identities.size} distinct app calls or requests`).toBeLessThanOrEqual(identities.size);
  }
}

/** Each call shown once, with the argument text the server streamed for it. */
function expectStoreMatchesLog(page: Page): void {
  const log = (server as ReferenceServer).session(page.session.sessionId as string)!.events();
  const state = page.store.getState();
  const started = log.filter((e) => e.type === 'tool.stream' && e.phase === 'start').map((e) => e.callId as string);
  expect(state.order).toEqual(started);
  for (const callId of started) {
    const text = log
      .filter((e) => e.type === 'tool.stream' && e.phase === 'arguments-delta' && e.callId === callId)
      .map((e) => e.delta as string)
      .join('');
    const call = state.calls[callId] as ToolCall;
    expect(call.argumentsText, `text of ${callId}`).toBe(text);
    const last = log.filter((e) => e.type === 'tool.stream' && e.callId === callId).at(-1)!;
    if (last.phase === 'settled' || last.phase === 'cancelled' || last.phase === 'failed') expect(call.status).toBe(last.phase);
  }
}

const SET_TITLE = { name: 'set_title', run: () => null };
const INSERT_TEXT = { name: 'insert_text', run: () => 'inserted' };

/** One app call, so that while it runs the server's last event is its tool.call. */
const oneCall: Script = {
  name: 'one-call',
  description: 'set_title once',
  steps: [{ calls: [{ tool: 'set_title', location: 'app', arguments: { title: 'Once' } }] }],
};

/** Two app calls, one after the other, with the very same arguments. */
const twoSameCalls: Script = {
  name: 'two-same-calls',
  description: 'set_title twice, with the same title',
  steps: [
    { calls: [{ tool: 'set_title', location: 'app', arguments: { title: 'Same' } }] },
    { calls: [{ tool: 'set_title', location: 'app', arguments: { title: 'Same' } }] },
  ],
};

const SEND_INVOICE_DESCRIPTOR = { effect: 'write', risk: 'medium', requiresConfirmation: true } as const;

/**
 * The `write` script's app tool: the page confirms and invokes send_invoice through the room,
 * offering the application's own check (docs/protocol.md, "Rooms"): the room's record for that confirmation.
 */
function sendInvoiceTool(pageOf: () => Page, outcomes: ConfirmationOutcome[]): AppToolSpec {
  return {
    name: 'send_invoice',
    async run(args, { signal, callId }) {
      const page = pageOf();
      const { tools } = await page.session.room.describeTools();
      const tool = tools.find((t) => t.name === 'send_invoice')!;
      const descriptor: Partial<ToolDescriptor> = { effect: tool.effect, risk: tool.risk, requiresConfirmation: tool.requiresConfirmation, requiredAction: tool.requiredAction };
      const outcome = await page.controller.request({
        toolName: 'send_invoice',
        arguments: args,
        descriptor,
        callId,
        signal,
        onResult: (result) => outcomes.push(result),
        checkOutcome: async ({ confirmationId }) => {
          const effects = await page.session.room.listEffects({ toolName: 'send_invoice', confirmationId: confirmationId ?? '' });
          const done = effects.find((e) => e.outcome === 'accepted');
          return done ? { status: 'done', output: done.result } : { status: 'not-done' };
        },
      });
      if (outcome.status === 'done') return outcome.output;
      throw new ToolError('REJECTED', outcome.status);
    },
  };
}

/** set_title that also writes a note in the room, directly: add_note needs no confirmation, so its invoke carries no id. */
function notingTitleTool(pageOf: () => Page, commits: string[] = []): AppToolSpec {
  return {
    name: 'set_title',
    async run(args, { signal, callId }) {
      const outcome = await pageOf().controller.request({
        toolName: 'add_note',
        arguments: { customerId: 'c_100', text: `Title set to ${String(args.title)}` },
        descriptor: { effect: 'write', risk: 'low', requiresConfirmation: false },
        callId,
        signal,
      });
      if (outcome.status !== 'done') throw new ToolError('REJECTED', outcome.status);
      commits.push(callId);
      return 'titled';
    },
  };
}

/* -------------------------------------------------------------------- tests */

describe('fault: a dropped invoke response', { timeout: 30_000 }, () => {
  it('ends a write uncertain, never retries it, and lets the application check find the one effect (write script)', async () => {
    await start();
    const outcomes: ConfirmationOutcome[] = [];
    let page!: Page;
    page = openPage({ tools: [sendInvoiceTool(() => page, outcomes)], roomTimeoutMs: 600, person: approvesAndChecks });
    await page.session.ready;
    page.session.injectFault({ fault: 'drop-invoke-response' });
    const turnId = page.session.startTurn('write');
    await until(() => turnEnded(page, turnId), 'the write turn to end');

    // The documented outcome: uncertain first (no answer within the time limit), then done by the
    // application's check; the kit itself sent exactly one confirmTool and one invokeTool.
    expect(outcomes.map((o) => o.status)).toEqual(['uncertain', 'done']);
    const effects = server!.effects.filter((e) => e.toolName === 'send_invoice');
    expect(effects).toEqual([expect.objectContaining({ outcome: 'accepted', responseDropped: true })]);
    expect(server!.traces.filter((t) => t.type === 'tool.completed' && t.toolName === 'send_invoice')).toHaveLength(1);
    const callId = page.events.find((e) => e.type === 'tool.call')!.callId as string;
    expect(server!.session(page.session.sessionId!)!.results.get(callId)).toMatchObject({ ok: true });
    expectNothingLostNothingTwice(page);
  });

  it('ends a read failed (its outcome unknown), retried only when a person asks: the read runs twice, visibly', async () => {
    await start();
    const page = openPage({ roomTimeoutMs: 600 });
    await page.session.ready;
    page.session.injectFault({ fault: 'drop-invoke-response' });
    const outcomes: ConfirmationOutcome[] = [];
    const done = page.controller.request({
      toolName: 'lookup_customer',
      arguments: { customerId: 'c_100' },
      descriptor: { effect: 'read', risk: 'low', requiresConfirmation: true },
      onResult: (outcome) => outcomes.push(outcome),
    });
    await until(() => page.controller.getState().current?.status === 'reviewing', 'the read to be shown');
    page.controller.approve();
    await until(() => page.controller.getState().current?.status === 'failed', 'the lost read to fail');
    expect(server!.effects.filter((e) => e.toolName === 'lookup_customer')).toHaveLength(1); // nothing retried by itself
    expect(page.controller.getState().current?.can.retry).toBe(true);
    page.controller.retry();
    await expect(done).resolves.toMatchObject({ status: 'done' });
    expect(outcomes.map((o) => o.status)).toEqual(['failed', 'done']);
    expect(server!.effects.filter((e) => e.toolName === 'lookup_customer').map((e) => e.responseDropped ?? false)).toEqual([true, false]);
  });
});

describe('fault: a dropped confirmTool response', { timeout: 30_000 }, () => {
  it('invokes nothing without a confirmation id the page received; the lost confirmation stays unused, and a new approval writes once with a new one', async () => {
    await start();
    const page = openPage({ roomTimeoutMs: 600 });
    await page.session.ready;
    const sessionId = page.session.sessionId!;
    page.session.injectFault({ fault: 'drop-confirm-response' }); // through the page's own session, as a demo would
    const invoice = { customerId: 'c_102', amount: 90, currency: 'EUR', memo: 'Audit' };
    const outcomes: ConfirmationOutcome[] = [];
    const ask = () =>
      page.controller.request({ toolName: 'send_invoice', arguments: invoice, descriptor: SEND_INVOICE_DESCRIPTOR, onResult: (o) => outcomes.push(o) });

    const first = ask();
    await until(() => page.controller.getState().current?.status === 'reviewing', 'the invoice to be shown');
    page.controller.approve();
    await until(() => outcomes.length > 0, 'the unanswered confirmTool to end the request');
    expect(outcomes).toEqual([{ status: 'refused', reason: expect.stringMatching(/no answer to confirmTool/) }]);
    // The room made a confirmation; its id never reached the page, which invoked nothing.
    const dropped = server!.session(sessionId)!.dropped;
    expect(dropped).toEqual([{ direction: 'to-page', frame: expect.objectContaining({ type: 'room.response', ok: true }) }]);
    const lostId = (dropped[0]!.frame.result as { confirmationId: string }).confirmationId;
    expect(server!.room.confirmation(lostId)).toMatchObject({ toolName: 'send_invoice', sessionId });
    expect(server!.room.confirmation(lostId)!.consumedAt).toBeUndefined();
    expect(page.controller.getState().current).toMatchObject({ confirmationId: null, can: { retry: false } });
    expect(page.invokes).toEqual([]);
    expect(server!.effects.filter((e) => e.sessionId === sessionId)).toEqual([]);
    page.controller.dismiss();
    await expect(first).resolves.toMatchObject({ status: 'refused' });

    // A deliberate new approval takes a new confirmation and writes exactly once.
    const second = ask();
    await until(() => page.controller.getState().current?.status === 'reviewing', 'the invoice to be shown again');
    page.controller.approve();
    const outcome = await second;
    expect(outcome).toMatchObject({ status: 'done', confirmationId: expect.stringMatching(/^conf_/) });
    const confirmationId = (outcome as { confirmationId: string }).confirmationId;
    expect(confirmationId).not.toBe(lostId);
    expect(page.invokes.map((i) => i.confirmationId)).toEqual([confirmationId]);
    expect(server!.effects.filter((e) => e.sessionId === sessionId)).toEqual([
      expect.objectContaining({ toolName: 'send_invoice', outcome: 'accepted', confirmationId }),
    ]);
    expect(server!.room.confirmation(lostId)!.consumedAt).toBeUndefined();
    expectNothingLostNothingTwice(page);
  });
});

describe('fault: disconnect and resume mid-stream', { timeout: 30_000 }, () => {
  it('delivers every event once, runs and answers every app call once, across three dropped connections in two turns', async () => {
    await start({ speed: 1, tokenDelayMs: 1 });
    const page = openPage({ tools: [SET_TITLE, INSERT_TEXT] });
    await page.session.ready;
    const sessionId = page.session.sessionId!;
    // Drop the socket three times while the turn streams and calls app tools; the session goes on
    // without it and the resume replays exactly what was missed.
    let drops = 0;
    page.session.onFrame((frame) => {
      // (A frame already in flight from a socket the server has just dropped finds none to drop.)
      if (typeof frame.seq === 'number' && frame.seq % 9 === 0 && drops < 3 && server!.dropConnection(sessionId)) drops += 1;
    });
    const parallel = page.session.startTurn('parallel');
    await until(() => turnEnded(page, parallel), 'the parallel turn to end');
    const edit = page.session.startTurn('edit');
    await until(() => turnEnded(page, edit), 'the edit turn to end');

    expect(drops).toBe(3);
    expect(page.statuses.filter((s) => s === 'reconnecting')).toHaveLength(3);
    expect(page.statuses).not.toContain('closed');
    expect(page.session.sessionId).toBe(sessionId);
    expectNothingLostNothingTwice(page);
    expectStoreMatchesLog(page);
    expect([...server!.session(sessionId)!.results.values()].every((r) => r.ok)).toBe(true);
    expect(page.runs.size).toBe(4); // set_title in parallel, then set_title and insert_text twice
  });

  it('sends the result of an app call that finished while the connection was down, once, after the resume', async () => {
    await start();
    let page!: Page;
    const slowTitle: AppToolSpec = {
      name: 'set_title',
      async run() {
        server!.dropConnection(page.session.sessionId!);
        await until(() => page.session.status === 'reconnecting', 'the connection to drop');
        return 'titled while offline';
      },
    };
    page = openPage({ tools: [slowTitle, INSERT_TEXT] });
    await page.session.ready;
    const turnId = page.session.startTurn('edit');
    await until(() => turnEnded(page, turnId), 'the edit turn to end');
    const results = server!.session(page.session.sessionId!)!.results;
    expect([...results.values()]).toEqual([
      { ok: true, output: 'titled while offline' },
      { ok: true, output: 'inserted' },
      { ok: true, output: 'inserted' },
    ]);
    expectNothingLostNothingTwice(page);
    expectStoreMatchesLog(page);
  });
});

describe('fault: a dropped tool.result', { timeout: 30_000 }, () => {
  it('sends a result lost with its connection again after the resume: the tool ran once, one effect, one result', async () => {
    await start({ scripts: [oneCall] });
    let page!: Page;
    const commits: string[] = [];
    page = openPage({ tools: [notingTitleTool(() => page, commits)] });
    await page.session.ready;
    const sessionId = page.session.sessionId!;
    // The result is written into a connection that is already gone: the server never sees it.
    server!.injectFault(sessionId, { fault: 'drop-tool-result', disconnect: true });
    const turnId = page.session.startTurn('one-call');
    await until(() => turnEnded(page, turnId), 'the turn to end');

    const session = server!.session(sessionId)!;
    const callId = page.events.find((e) => e.type === 'tool.call')!.callId as string;
    expect(session.dropped).toEqual([
      { direction: 'from-page', frame: expect.objectContaining({ type: 'tool.result', callId, result: { ok: true, output: 'titled' } }) },
    ]);
    expect(page.statuses).toContain('reconnecting');
    expect(page.session.sessionId).toBe(sessionId);
    expect(commits).toEqual([callId]);
    expect(page.runs.get(callId)).toBe(1);
    expect([...session.results]).toEqual([[callId, { ok: true, output: 'titled' }]]);
    expect(session.events().filter((e) => e.type === 'tool.stream' && e.phase === 'settled' && e.callId === callId)).toHaveLength(1);
    expect(server!.effects.filter((e) => e.sessionId === sessionId)).toEqual([expect.objectContaining({ toolName: 'add_note', outcome: 'accepted' })]);
    expectNothingLostNothingTwice(page);
    expectStoreMatchesLog(page);
  });

  it("answers TIMEOUT at the server's limit when the result never arrives: the tool ran once, one effect, one result, nothing sent again", async () => {
    await start({ scripts: [oneCall], clientToolTimeoutMs: 300 });
    let page!: Page;
    const commits: string[] = [];
    page = openPage({ tools: [notingTitleTool(() => page, commits)] });
    await page.session.ready;
    const sessionId = page.session.sessionId!;
    page.session.injectFault({ fault: 'drop-tool-result' });
    const turnId = page.session.startTurn('one-call');
    await until(() => turnEnded(page, turnId), 'the turn to end');

    const session = server!.session(sessionId)!;
    const callId = page.events.find((e) => e.type === 'tool.call')!.callId as string;
    expect(session.dropped).toEqual([{ direction: 'from-page', frame: expect.objectContaining({ type: 'tool.result', callId }) }]);
    expect(page.statuses).not.toContain('reconnecting');
    expect(commits).toEqual([callId]);
    expect(page.runs.get(callId)).toBe(1);
    // The model is told TIMEOUT although the page's tool did its work (the result came too late: docs/protocol.md, "The agent's side").
    expect([...session.results]).toEqual([[callId, expect.objectContaining({ ok: false, code: 'TIMEOUT' })]]);
    expect(server!.effects.filter((e) => e.sessionId === sessionId)).toEqual([expect.objectContaining({ toolName: 'add_note', outcome: 'accepted' })]);
    expect(page.store.getState().calls[callId]).toMatchObject({ status: 'settled', ok: false, code: 'TIMEOUT' });
    expectNothingLostNothingTwice(page);
    expectStoreMatchesLog(page);
  });
});

describe('fault: slow room answers (delay-responses)', { timeout: 30_000 }, () => {
  it('waits for the room: the write is confirmed and invoked once and ends done, never uncertain', async () => {
    await start();
    const outcomes: ConfirmationOutcome[] = [];
    let page!: Page;
    page = openPage({ tools: [sendInvoiceTool(() => page, outcomes)], person: approvesAndChecks });
    await page.session.ready;
    const sessionId = page.session.sessionId!;
    server!.injectFault(sessionId, { fault: 'delay-responses', ms: 250 });
    const turnId = page.session.startTurn('write');
    // The room has acted while the page still waits for its answer.
    await until(() => server!.effects.some((e) => e.sessionId === sessionId && e.toolName === 'send_invoice'), 'the room to invoke');
    expect(page.controller.getState().current?.status).toBe('invoking');
    await until(() => turnEnded(page, turnId), 'the write turn to end');

    expect(outcomes.map((o) => o.status)).toEqual(['done']);
    expect(server!.effects.filter((e) => e.sessionId === sessionId)).toEqual([
      expect.objectContaining({ toolName: 'send_invoice', outcome: 'accepted', confirmationId: (outcomes[0] as { confirmationId: string }).confirmationId }),
    ]);
    expect(server!.effects[0]!.responseDropped).toBeUndefined();
    expect(page.invokes).toHaveLength(1);
    const callId = page.events.find((e) => e.type === 'tool.call')!.callId as string;
    expect([...server!.session(sessionId)!.results]).toEqual([[callId, expect.objectContaining({ ok: true })]]);
    expect(page.clientErrors).toEqual([]);
    expectNothingLostNothingTwice(page);
  });

  it('writes the same note once for each of two app calls, each waiting for its slow answer', async () => {
    await start({ scripts: [twoSameCalls] });
    let page!: Page;
    const commits: string[] = [];
    page = openPage({ tools: [notingTitleTool(() => page, commits)] });
    await page.session.ready;
    const sessionId = page.session.sessionId!;
    server!.injectFault(sessionId, { fault: 'delay-responses', ms: 150 });
    const turnId = page.session.startTurn('two-same-calls');
    await until(() => turnEnded(page, turnId), 'the turn to end');

    const callIds = page.events.filter((e) => e.type === 'tool.call').map((e) => e.callId as string);
    expect(callIds).toHaveLength(2);
    expect(commits).toEqual(callIds);
    // Two calls, the same arguments, no confirmation: two separate effects, not a repeat.
    const notes = server!.effects.filter((e) => e.sessionId === sessionId);
    expect(notes.map((e) => [e.toolName, e.outcome, e.confirmationId])).toEqual([
      ['add_note', 'accepted', undefined],
      ['add_note', 'accepted', undefined],
    ]);
    expect(notes[0]!.argumentsHash).toBe(notes[1]!.argumentsHash);
    expect(page.invokes.map((i) => i.identity)).toEqual(callIds);
    expectNothingLostNothingTwice(page);
  });
});

describe("the server's record check", { timeout: 30_000 }, () => {
  it('catches an invoke without a confirmation that went out twice for one app call', async () => {
    await start({ scripts: [oneCall] });
    let page!: Page;
    page = openPage({
      tools: [notingTitleTool(() => page)],
      // An adapter that sends every invoke twice (a blind resend): the page asked once.
      roomAdapter: (room) => ({
        confirmTool: (name, args) => room.confirmTool(name, args),
        invokeTool(name, args, confirmationId) {
          void room.invokeTool(name, args, confirmationId).catch(() => {});
          return room.invokeTool(name, args, confirmationId);
        },
      }),
    });
    await page.session.ready;
    const turnId = page.session.startTurn('one-call');
    await until(() => turnEnded(page, turnId), 'the turn to end');
    expect(server!.effects.filter((e) => e.toolName === 'add_note' && e.outcome === 'accepted')).toHaveLength(2);
    expect(page.invokes).toHaveLength(1);
    expect(() => expectNothingLostNothingTwice(page)).toThrow(/accepted direct invokes of add_note/);
  });

  it('catches an app call that invoked the same direct write twice', async () => {
    await start({ scripts: [oneCall] });
    let page!: Page;
    const twice: AppToolSpec = {
      name: 'set_title',
      async run() {
        for (let i = 0; i < 2; i++) await page.room.invokeTool('add_note', { customerId: 'c_100', text: 'Twice' });
        return 'titled';
      },
    };
    page = openPage({ tools: [twice] });
    await page.session.ready;
    const turnId = page.session.startTurn('one-call');
    await until(() => turnEnded(page, turnId), 'the turn to end');
    expect(page.invokes).toHaveLength(2);
    expect(() => expectNothingLostNothingTwice(page)).toThrow(/accepted direct invokes of add_note/);
  });
});

describe('fault: the server closes the session mid-stream', { timeout: 30_000 }, () => {
  it('clears the store, aborts the running app call, sends nothing more and does not reconnect', async () => {
    await start();
    let page!: Page;
    let aborted: AbortSignal | undefined;
    const title: AppToolSpec = {
      name: 'set_title',
      async run(_args, { signal }) {
        aborted = signal;
        server!.closeSession(page.session.sessionId!);
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        return 'too late';
      },
    };
    page = openPage({ tools: [title, INSERT_TEXT] });
    await page.session.ready;
    page.session.startTurn('edit');
    await until(() => page.session.status === 'closed', 'the session to close');

    // The documented outcome: `closed` is final. The store drops every call, the host aborts the
    // running call (its result is never sent), and the client does not try to resume.
    const state = page.store.getState();
    expect(state).toMatchObject({ closed: true, order: [] });
    expect(Object.keys(state.calls)).toEqual([]);
    expect(aborted?.aborted).toBe(true);
    expect(page.host.closed).toBe(true);
    expect(page.statuses.at(-1)).toBe('closed');
    expect(page.statuses).not.toContain('reconnecting');
    const session = server!.session(page.session.sessionId!)!;
    expect(session.closed).toBe(true);
    expect(session.events().at(-1)).toMatchObject({ type: 'closed', reason: 'server' });
    expect(page.runs.size).toBe(1); // insert_text never reached the page
    expectNothingLostNothingTwice(page, { closed: true });
    // Later events change nothing: a closed store stays empty.
    page.store.getState().dispatch({ type: 'tool.stream', phase: 'start', callId: 'late', turnId: 't', name: 'x' });
    expect(page.store.getState()).toBe(state);
  });

  it('closes mid-argument-stream on the close-session fault: the half-written call is dropped, a new session starts empty', async () => {
    await start();
    const page = openPage();
    await page.session.ready;
    page.session.injectFault({ fault: 'close-session', afterEvents: 4 });
    page.session.startTurn('search');
    await until(() => page.session.status === 'closed', 'the session to close');
    expect(page.events.some((e) => e.type === 'tool.stream' && e.phase === 'arguments-delta')).toBe(true);
    expect(page.store.getState()).toMatchObject({ closed: true, order: [] });
    expectNothingLostNothingTwice(page, { closed: true });
    const next = openPage();
    await next.session.ready;
    expect(next.session.sessionId).not.toBe(page.session.sessionId);
    expect(next.store.getState().order).toEqual([]);
  });
});

describe('fault: malformed frames', { timeout: 30_000 }, () => {
  it('reports every kind, applies none, and keeps the session and its calls whole', async () => {
    await start();
    const page = openPage({ tools: [SET_TITLE, INSERT_TEXT] });
    await page.session.ready;
    const turnId = page.session.startTurn('malformed');
    await until(() => turnEnded(page, turnId), 'the malformed turn to end');
    for (const frame of ['invalid-json', 'unknown-phase', 'missing-call-id', 'unknown-type', 'not-an-object', 'repeat-seq'] as const) {
      page.session.injectFault({ fault: 'malformed', frame });
    }
    const edit = page.session.startTurn('edit');
    await until(() => turnEnded(page, edit), 'the edit turn to end');

    expect(page.clientErrors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/not JSON/),
        expect.stringMatching(/not a JSON object/),
        expect.stringMatching(/repeated .* event: seq \d+ was already delivered/),
      ]),
    );
    expect(page.storeErrors).toEqual(expect.arrayContaining([expect.stringMatching(/unknown phase 'rewind'/), expect.stringMatching(/callId must be a non-empty string/)]));
    expect(Object.values(page.store.getState().calls).map((c) => c.status)).toEqual(['settled', 'settled', 'settled', 'settled']);
    expect(page.session.status).toBe('open');
    // Malformed objects with a seq are events of the log too: delivered once, reported, not applied.
    expectNothingLostNothingTwice(page);
    expectStoreMatchesLog(page);
  });

  it('never runs a repeated tool.call twice: the client drops the repeat by its seq', async () => {
    await start({ scripts: [oneCall] });
    let page!: Page;
    const title: AppToolSpec = {
      name: 'set_title',
      async run() {
        // The server sends its last event again, with the same seq: here, this very tool.call.
        server!.injectFault(page.session.sessionId!, { fault: 'malformed', frame: 'repeat-seq' });
        await until(() => page.clientErrors.some((r) => /repeated tool\.call event/.test(r)), 'the repeat to arrive');
        return 'once';
      },
    };
    page = openPage({ tools: [title] });
    await page.session.ready;
    const turnId = page.session.startTurn('one-call');
    await until(() => turnEnded(page, turnId), 'the turn to end');
    expect([...page.runs.values()]).toEqual([1]);
    expect([...server!.session(page.session.sessionId!)!.results.values()]).toEqual([{ ok: true, output: 'once' }]);
    expectNothingLostNothingTwice(page);
  });
});

describe('fault: slow app tools pass the time limit', { timeout: 30_000 }, () => {
  // The client loads the part that runs app-tool calls on the first call; these limits are of
  // 150 ms, so it is loaded beforehand, as a page that has run a call before has it.
  beforeAll(async () => {
    await import('../../src/core/app-tools/host-runtime');
  });
  it("answers TIMEOUT at the client's limit, starts the next call at once, and drops the late run's answer", async () => {
    await start();
    const committed: string[] = [];
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const deafTitle: AppToolSpec = {
      name: 'set_title',
      async run(args) {
        await sleep(600); // ignores its signal
        committed.push(`title ${String(args.title)}`); // cooperative cancellation cannot undo this
        return 'late';
      },
    };
    let inserts = 0;
    const carefulInsert: AppToolSpec = {
      name: 'insert_text',
      async run(args, { signal }) {
        inserts += 1;
        await sleep(inserts === 1 ? 600 : 0); // the first one is slow too
        if (signal.aborted) return null; // checks its signal right before committing: changes nothing
        committed.push(`text ${String(args.text).slice(0, 12)}`);
        return 'inserted';
      },
    };
    const page = openPage({ tools: [deafTitle, carefulInsert], hostTimeoutMs: 150 });
    await page.session.ready;
    const turnId = page.session.startTurn('edit');
    await until(() => turnEnded(page, turnId), 'the edit turn to end');
    await until(() => committed.length === 2, 'the deaf run to wind down', 2_000);

    const session = server!.session(page.session.sessionId!)!;
    expect([...session.results.values()].map((r) => (r.ok ? 'ok' : r.code))).toEqual(['TIMEOUT', 'TIMEOUT', 'ok']);
    // The late answer of the deaf run was never sent: no tool.result was ignored as a repeat.
    expectNothingLostNothingTwice(page);
    // What a run commits after its abort is the tool's own business (cancellation is cooperative: docs/protocol.md, "App tools"); the
    // careful one committed nothing once aborted.
    expect(committed).toHaveLength(2);
    expect(committed).toEqual(expect.arrayContaining(['title Release notes', 'text \n## Fixes\nNo']));
    const calls = Object.values(page.store.getState().calls);
    expect(calls.map((c) => [c.status, c.ok, c.code ?? null])).toEqual([
      ['settled', false, 'TIMEOUT'],
      ['settled', false, 'TIMEOUT'],
      ['settled', true, null],
    ]);
  });

  it("aborts the run when the server's own limit passes first, and sends no result after the server's", async () => {
    await start({ clientToolTimeoutMs: 150 });
    let signal: AbortSignal | undefined;
    const slow: AppToolSpec = {
      name: 'set_title',
      async run(_args, ctx) {
        signal = ctx.signal;
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
        return 'after the server gave up';
      },
    };
    const page = openPage({ tools: [slow, INSERT_TEXT], hostTimeoutMs: 60_000 });
    await page.session.ready;
    const turnId = page.session.startTurn('edit');
    await until(() => turnEnded(page, turnId), 'the edit turn to end');
    expect(signal?.aborted).toBe(true);
    const session = server!.session(page.session.sessionId!)!;
    expect([...session.results.values()].map((r) => (r.ok ? 'ok' : r.code))).toEqual(['TIMEOUT', 'ok', 'ok']);
    expectNothingLostNothingTwice(page);
    expect(Object.values(page.store.getState().calls)[0]).toMatchObject({ status: 'settled', ok: false, code: 'TIMEOUT' });
  });
});
