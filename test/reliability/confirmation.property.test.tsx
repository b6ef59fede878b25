/**
 * Confirmation properties (issue 8, item 3; docs/protocol.md, "Confirmation" and
 * "Rooms"): for random argument values and random sequences of clicks, keys and spoken
 * approvals, at most one invoke per approval; the invoked arguments deep-equal those shown and
 * have the same fingerprint; never an invoke without an approval.
 *
 * `test/core/confirmation-property.test.ts` runs the controller 500 times over ordinary values
 * (nesting up to 300, strings up to 3,000 characters) with controller-level actions, faults,
 * checks and retries. This file adds what it leaves out:
 * 1. arguments of extreme shape through the controller: strings of up to a megabyte, nesting up
 *    to 20,000 levels (past what a recursive walk survives), `__proto__` keys at any depth, wide
 *    objects; with the three input channels racing in the same tick (a click, a held key's
 *    repeats, a spoken "yes" that names a request, maybe one no longer shown);
 * 2. the same promises through the real `ConfirmToolDialog` in jsdom, under StrictMode: clicks,
 *    double clicks, Enter held down on Approve or Deny, Escape (held), clicks outside, and spoken
 *    approvals through `useToolConfirmation`, with the fingerprint read from the dialog itself.
 *
 * Fingerprints are checked against the reference server's own RFC 8785 code (`server/jcs.ts`),
 * not the kit's, so that a bug in one cannot hide in both.
 */
import { createHash } from 'node:crypto';
import { StrictMode } from 'react';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ConfirmToolDialog,
  createConfirmationController,
  type ConfirmationController,
  type ConfirmationOutcome,
  type ConfirmationView,
  type ToolDescriptor,
} from 'toolgate';
import { createScriptedRoom, type ScriptedRoom, type ScriptedRoomFault } from 'toolgate/testing';
import { fingerprintOf } from '../../server/jcs';
import { preloadConfirmToolDialog } from '../../src/components/confirm-tool-dialog';

const SEED = 0x5eed_0003;
const CONTROLLER_RUNS = 60;
const DIALOG_RUNS = 30;

/** SHA-256 on the microtask queue, so that a run's interleaving depends on the seed alone. */
const subtle = {
  digest: (_algorithm: string, data: Uint8Array) => {
    const bytes = createHash('sha256').update(data).digest();
    return Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  },
} as unknown as SubtleCrypto;
const crypto = { subtle };

const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/* ------------------------------------------------------------------ arguments */

// Built inside each run from plain data (fast-check keeps the data for shrinking and replay).
type Shape =
  | { kind: 'huge'; size: number; text: string }
  | { kind: 'deep'; depth: number; proto: boolean }
  | { kind: 'wide'; keys: number }
  | { kind: 'proto'; inner: unknown; at: number }
  | { kind: 'plain'; value: unknown };

const shape: fc.Arbitrary<Shape> = fc.oneof(
  // Text up to a megabyte, with escapes, non-ASCII and sometimes a lone surrogate (refused by RFC 8785).
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('huge' as const),
      size: fc.integer({ min: 50_000, max: 1_000_000 }),
      text: fc.oneof({ weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }) }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: 100, max: 20_000 }), proto: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wide' as const), keys: fc.integer({ min: 100, max: 20_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('proto' as const), inner: fc.jsonValue({ maxDepth: 2 }), at: fc.integer({ min: 0, max: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('plain' as const), value: fc.jsonValue({ maxDepth: 3 }) }) },
);

/**
 * The value as JSON.parse builds it from a wire (`__proto__` an own key, any depth), and what the
 * server computes as its fingerprint: its own RFC 8785 code, or, for deep nesting its recursive
 * walk cannot survive, the SHA-256 of the text itself (which is already canonical: one key per
 * object, no spaces, no numbers).
 */
function build(s: Shape): { value: unknown; fingerprint: string | null; mayRefuse: boolean } {
  switch (s.kind) {
    case 'huge': {
      const value = { note: s.text.repeat(Math.ceil(s.size / s.text.length)).slice(0, s.size) };
      return { value, fingerprint: serverFingerprint(value), mayRefuse: false };
    }
    case 'deep': {
      const key = s.proto ? '__proto__' : 'n';
      const text = `${`{"${key}":[`.repeat(s.depth)}"leaf"${']}'.repeat(s.depth)}`;
      return { value: JSON.parse(text), fingerprint: sha256(text), mayRefuse: s.depth > 500 };
    }
    case 'wide': {
      const value = JSON.parse(`{${Array.from({ length: s.keys }, (_, i) => `"k${i}":${i}`).join(',')},"__proto__":{"polluted":true}}`) as unknown;
      return { value, fingerprint: serverFingerprint(value), mayRefuse: false };
    }
    case 'proto': {
      let text = `{"__proto__":{"polluted":true,"inner":${JSON.stringify(s.inner)}},"constructor":{"prototype":{"polluted":true}}}`;
      for (let i = 0; i < s.at; i++) text = `{"level${i}":${text},"__proto__":${i}}`;
      const value = JSON.parse(text) as unknown;
      return { value, fingerprint: serverFingerprint(value), mayRefuse: false };
    }
    case 'plain': {
      const value = JSON.parse(JSON.stringify(s.value)) as unknown;
      return { value, fingerprint: serverFingerprint(value), mayRefuse: false };
    }
  }
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The server's own fingerprint of a value, or null when its RFC 8785 code refuses it. */
function serverFingerprint(value: unknown): string | null {
  try {
    return fingerprintOf(value);
  } catch {
    return null;
  }
}

const descriptors: (ToolDescriptor | undefined)[] = [
  undefined, // missing: a write that needs confirmation
  { effect: 'write', risk: 'high', requiresConfirmation: true },
  { effect: 'read', risk: 'low', requiresConfirmation: true },
];

const fault: fc.Arbitrary<ScriptedRoomFault> = fc.record({
  kind: fc.constantFrom('refuse-confirm', 'fail-invoke', 'lose-response', 'lose-request'),
  toolName: fc.option(fc.constantFrom('t0', 't1', 't2'), { nil: undefined }),
}) as fc.Arbitrary<ScriptedRoomFault>;

/* ---------------------------------------------------------------- accounting */

/**
 * What a person did, per request: how many times an approval reached it while it was shown for
 * review. An approval is counted from the state the person saw, once per review, however many
 * clicks, repeats or voices carried it.
 */
class Ledger {
  readonly approvals = new Map<string, number>(); // by tool name
  readonly shownFingerprints = new Map<string, Set<string>>(); // by tool name: every fingerprint the person saw
  readonly views = new Map<string, ConfirmationView>(); // by tool name: the view that was reviewed
  /** The request whose present review already counted an approval. */
  private counted: string | null = null;

  constructor(private readonly controller: ConfirmationController) {
    controller.subscribe((state) => {
      for (const view of [state.current, ...state.queue]) {
        if (view && view.fingerprint !== null && !this.views.has(view.toolName)) this.views.set(view.toolName, view);
      }
      // Leaving review ends it: only a new review (a deliberate retry) can take another approval.
      if (state.current?.status !== 'reviewing' || state.current.id !== this.counted) this.counted = null;
    });
  }

  /** Call right before an approving input; returns the request it would approve, if any. */
  approving(target?: string): ConfirmationView | null {
    const current = this.controller.getState().current;
    if (current === null || current.status !== 'reviewing' || (target !== undefined && target !== current.id)) return null;
    if (this.counted !== current.id) {
      this.counted = current.id;
      this.approvals.set(current.toolName, (this.approvals.get(current.toolName) ?? 0) + 1);
    }
    return current;
  }

  saw(toolName: string, fingerprint: string | null | undefined): void {
    if (!fingerprint) return;
    const set = this.shownFingerprints.get(toolName) ?? new Set<string>();
    set.add(fingerprint);
    this.shownFingerprints.set(toolName, set);
  }
}

interface Expectation {
  toolName: string;
  /** The server's fingerprint of the value as it was given, or null when it cannot have one. */
  fingerprint: string | null;
  /** Nested so deep that the kit may refuse it (with a reason) rather than show it. */
  mayRefuse: boolean;
}

/** The promises, checked on what the room received. */
function checkRoom(room: ScriptedRoom, ledger: Ledger, expectations: Expectation[], outcomes: ConfirmationOutcome[], say: (why: string) => void): void {
  expectations.forEach(({ toolName, fingerprint }, i) => {
    const mine = room.calls.filter((c) => c.toolName === toolName);
    const confirms = mine.filter((c) => c.method === 'confirmTool');
    const invokes = mine.filter((c) => c.method === 'invokeTool');
    const approvals = ledger.approvals.get(toolName) ?? 0;
    const outcome = outcomes[i];
    // Never without an approval; at most one confirm and one invoke per approval.
    if (confirms.length > approvals) say(`${toolName}: ${confirms.length} confirmTool for ${approvals} approval(s)`);
    if (invokes.length > approvals) say(`${toolName}: ${invokes.length} invokeTool for ${approvals} approval(s)`);
    const refusedBeforeReview = outcome?.status === 'refused' && !ledger.views.has(toolName);
    if (fingerprint === null || refusedBeforeReview) {
      // Not RFC 8785 JSON (a lone surrogate), or too deep to hold: refused before review, nothing sent.
      if (mine.length > 0) say(`${toolName}: arguments refused before review reached the room`);
      if (outcome && outcome.status !== 'refused') say(`${toolName}: arguments that cannot be fingerprinted ended ${outcome.status}`);
      if (refusedBeforeReview && fingerprint !== null && !expectations[i]?.mayRefuse) say(`${toolName}: fine arguments were refused before review`);
      return;
    }
    const view = ledger.views.get(toolName);
    for (const call of mine) {
      // Exactly what was shown: the very snapshot, with the fingerprint the server computes for the original value.
      if (call.hash !== fingerprint) say(`${toolName}: ${call.method} got arguments with another fingerprint`);
      if (view && call.received !== view.arguments) say(`${toolName}: ${call.method} got another object than the one shown`);
    }
    if (view && view.fingerprint?.hex !== fingerprint) say(`${toolName}: the fingerprint shown differs from the server's`);
    for (const shown of ledger.shownFingerprints.get(toolName) ?? []) {
      if (shown !== fingerprint) say(`${toolName}: the dialog showed fingerprint ${shown}, the server computes ${fingerprint}`);
    }
    if (outcome?.status === 'done' && outcome.fingerprint !== fingerprint) say(`${toolName}: done with another fingerprint`);
    if (outcome?.status === 'done' && invokes.length === 0) say(`${toolName}: done without an invoke`);
  });
  if (({} as Record<string, unknown>).polluted !== undefined || (Object.prototype as Record<string, unknown>).inner !== undefined) say('a prototype was polluted');
}

/* ------------------------------------------------------ 1. through the controller */

type ControllerAction =
  | { kind: 'click' }
  | { kind: 'key-repeat'; times: number }
  | { kind: 'spoken'; which: 'current' | 'stale' | 'waiting' | 'unaddressed' }
  | { kind: 'race' } // a click, a held key and a voice in the same tick
  | { kind: 'deny' }
  | { kind: 'escape-held'; times: number }
  | { kind: 'dismiss' }
  | { kind: 'microtask' }
  | { kind: 'turn' }
  | { kind: 'until-still' };

const controllerAction: fc.Arbitrary<ControllerAction> = fc.oneof(
  fc.constant({ kind: 'click' as const }),
  fc.record({ kind: fc.constant('key-repeat' as const), times: fc.integer({ min: 2, max: 30 }) }),
  fc.record({ kind: fc.constant('spoken' as const), which: fc.constantFrom('current', 'stale', 'waiting', 'unaddressed') }),
  fc.constant({ kind: 'race' as const }),
  fc.constant({ kind: 'deny' as const }),
  fc.record({ kind: fc.constant('escape-held' as const), times: fc.integer({ min: 1, max: 10 }) }),
  fc.constant({ kind: 'dismiss' as const }),
  fc.constant({ kind: 'microtask' as const }),
  fc.constant({ kind: 'turn' as const }),
  fc.constant({ kind: 'until-still' as const }),
  fc.constant({ kind: 'until-still' as const }),
  fc.constant({ kind: 'until-still' as const }),
  fc.constant({ kind: 'until-still' as const }),
);

const STILL = new Set(['reviewing', 'done', 'denied', 'refused', 'failed', 'uncertain', 'withdrawn', 'none']);

async function untilStill(controller: ConfirmationController): Promise<void> {
  for (let i = 0; i < 1000 && !STILL.has(controller.getState().current?.status ?? 'none'); i++) await turn();
}

/** Deny what waits, dismiss what is held, until every request has its outcome. */
async function windDown(controller: ConfirmationController, pending: Promise<ConfirmationOutcome>[], step: (act: () => void) => Promise<void> | void): Promise<ConfirmationOutcome[]> {
  const finished = pending.map(() => false);
  pending.forEach((p, i) => void p.then(() => (finished[i] = true)));
  for (let i = 0; i < 5000 && finished.includes(false); i++) {
    const current = controller.getState().current;
    if (current?.can.deny) await step(() => void controller.deny('wind down'));
    else if (current?.can.dismiss) await step(() => void controller.dismiss());
    else await turn();
  }
  return Promise.all(pending);
}

describe('confirmation: arguments of extreme shape, through the controller', () => {
  it("computes the deep values' fingerprint as the server does", () => {
    const { value, fingerprint } = build({ kind: 'deep', depth: 50, proto: true });
    expect(fingerprint).toBe(fingerprintOf(value));
  });

  it(`never invokes without an approval, at most once per approval, and exactly what was shown (${CONTROLLER_RUNS} runs, seed ${SEED})`, async () => {
    const seen = { runs: 0, approvals: 0, invokes: 0, done: 0, refused: 0, deep: 0, huge: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(shape, fc.nat(descriptors.length - 1)), { minLength: 1, maxLength: 3 }),
        fc.array(controllerAction, { minLength: 4, maxLength: 30, size: 'medium' }),
        fc.array(fault, { maxLength: 2 }),
        async (requests, actions, faults) => {
          const room = createScriptedRoom({ faults, crypto });
          const controller = createConfirmationController({ room, crypto });
          const ledger = new Ledger(controller);
          const expectations: Expectation[] = [];
          const staleIds: string[] = [];
          const pending = requests.map(([s, d], i) => {
            const { value, fingerprint, mayRefuse } = build(s);
            const toolName = `t${i}`;
            expectations.push({ toolName, fingerprint, mayRefuse });
            if (s.kind === 'deep' && s.depth > 5_000) seen.deep += 1;
            if (s.kind === 'huge' && s.size > 500_000) seen.huge += 1;
            // Whatever the value, request() answers with an outcome: it never throws.
            return controller.request({ toolName, arguments: value, descriptor: descriptors[d] ?? null });
          });

          for (const action of actions) {
            const current = controller.getState().current;
            switch (action.kind) {
              case 'click':
                ledger.approving();
                controller.approve();
                break;
              case 'key-repeat':
                ledger.approving();
                for (let i = 0; i < action.times; i++) controller.approve();
                break;
              case 'spoken': {
                const state = controller.getState();
                const id =
                  action.which === 'current' ? state.current?.id
                  : action.which === 'stale' ? staleIds[staleIds.length - 1]
                  : action.which === 'waiting' ? state.queue[0]?.id
                  : undefined;
                if (action.which !== 'unaddressed' && id === undefined) break;
                const hits = ledger.approving(id);
                const accepted = controller.approve(id === undefined ? undefined : { requestId: id });
                if (accepted && hits === null) throw new Error(`a spoken approval for ${String(id)} was accepted though that request was not under review`);
                break;
              }
              case 'race': {
                const id = current?.id;
                ledger.approving();
                const results = [controller.approve(), controller.approve(), controller.approve(id === undefined ? undefined : { requestId: id }), controller.approve()];
                if (results.filter(Boolean).length > 1) throw new Error(`one racing approval was accepted ${results.filter(Boolean).length} times`);
                break;
              }
              case 'deny':
                if (controller.deny('no') && current) staleIds.push(current.id);
                break;
              case 'escape-held':
                for (let i = 0; i < action.times; i++) if (controller.deny() && current) staleIds.push(current.id);
                break;
              case 'dismiss':
                if (controller.dismiss() && current) staleIds.push(current.id);
                break;
              case 'microtask':
                await Promise.resolve();
                break;
              case 'turn':
                await turn();
                break;
              case 'until-still':
                await untilStill(controller);
                break;
            }
          }
          const outcomes = await windDown(controller, pending, (f) => f());
          const violations: string[] = [];
          checkRoom(room, ledger, expectations, outcomes, (why) => violations.push(why));
          expect(violations, `seed ${SEED}`).toEqual([]);
          seen.runs += 1;
          seen.invokes += room.calls.filter((c) => c.method === 'invokeTool').length;
          seen.done += outcomes.filter((o) => o.status === 'done').length;
          seen.refused += outcomes.filter((o) => o.status === 'refused').length;
          seen.approvals += [...ledger.approvals.values()].reduce((a, b) => a + b, 0);
                  },
      ),
      { seed: SEED, numRuns: CONTROLLER_RUNS },
    );
    console.log(`confirmation property (controller): ${JSON.stringify(seen)}`);
    expect(seen.invokes).toBeGreaterThan(CONTROLLER_RUNS / 3);
    expect(seen.done).toBeGreaterThan(CONTROLLER_RUNS / 6);
    expect(seen.refused).toBeGreaterThan(0);
    expect(seen.deep).toBeGreaterThan(0);
    expect(seen.huge).toBeGreaterThan(0);
  }, 120_000);
});

/* ---------------------------------------------------------- 2. through the dialog */

type DialogAction =
  | { kind: 'click-approve' }
  | { kind: 'double-click-approve' }
  | { kind: 'enter-held-on'; button: 'Approve' | 'Deny'; times: number }
  | { kind: 'escape'; times: number }
  | { kind: 'click-deny' }
  | { kind: 'click-outside' }
  | { kind: 'spoken'; which: 'shown' | 'stale' | 'waiting' | 'unaddressed' }
  | { kind: 'spoken-while-clicking' }
  | { kind: 'close' }
  | { kind: 'turn' }
  | { kind: 'until-still' };

const dialogAction: fc.Arbitrary<DialogAction> = fc.oneof(
  fc.constant({ kind: 'click-approve' as const }),
  fc.constant({ kind: 'double-click-approve' as const }),
  fc.record({ kind: fc.constant('enter-held-on' as const), button: fc.constantFrom('Approve' as const, 'Deny' as const), times: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ kind: fc.constant('escape' as const), times: fc.integer({ min: 1, max: 6 }) }),
  fc.constant({ kind: 'click-deny' as const }),
  fc.constant({ kind: 'click-outside' as const }),
  fc.record({ kind: fc.constant('spoken' as const), which: fc.constantFrom('shown', 'stale', 'waiting', 'unaddressed') }),
  fc.constant({ kind: 'spoken-while-clicking' as const }),
  fc.constant({ kind: 'close' as const }),
  fc.constant({ kind: 'turn' as const }),
  fc.constant({ kind: 'until-still' as const }),
  fc.constant({ kind: 'until-still' as const }),
  fc.constant({ kind: 'until-still' as const }),
  fc.constant({ kind: 'until-still' as const }),
);

/** Values a dialog renders in a moment: proto keys anywhere, long text, moderate nesting. */
const dialogShape: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({ kind: fc.constant('huge' as const), size: fc.integer({ min: 1_000, max: 30_000 }), text: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('deep' as const), depth: fc.integer({ min: 5, max: 40 }), proto: fc.boolean() }),
  fc.record({ kind: fc.constant('proto' as const), inner: fc.jsonValue({ maxDepth: 2 }), at: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('plain' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
);

describe('confirmation: clicks, keys and spoken approvals through ConfirmToolDialog', () => {
  // The dialog's body loads on its first request. Loaded here first, every run's inputs reach a
  // dialog; otherwise, on a loaded machine, the first runs' clicks and keys met no buttons at all and
  // the property checked less than it says (once, no approval by key in 30 runs).
  beforeAll(() => preloadConfirmToolDialog());

  it(`never invokes without an approval, at most once per approval, and exactly what the dialog showed (${DIALOG_RUNS} runs, seed ${SEED + 1})`, async () => {
    const seen = { runs: 0, approvals: 0, invokes: 0, done: 0, denied: 0, approvalsByKey: 0, spokenAccepted: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(dialogShape, fc.nat(descriptors.length - 1)), { minLength: 1, maxLength: 3 }),
        fc.array(dialogAction, { minLength: 3, maxLength: 20, size: 'medium' }),
        fc.array(fault, { maxLength: 2 }),
        async (requests, actions, faults) => {
          const user = userEvent.setup({ delay: null });
          const room = createScriptedRoom({ faults, crypto });
          const controller = createConfirmationController({ room, crypto });
          const ledger = new Ledger(controller);
          render(
            <StrictMode>
              <button type="button">Elsewhere on the page</button>
              <ConfirmToolDialog controller={controller} />
            </StrictMode>,
          );
          const expectations: Expectation[] = [];
          const staleIds: string[] = [];
          let pending: Promise<ConfirmationOutcome>[] = [];
          act(() => {
            pending = requests.map(([s, d], i) => {
              const { value, fingerprint, mayRefuse } = build(s);
              expectations.push({ toolName: `t${i}`, fingerprint, mayRefuse });
              return controller.request({ toolName: `t${i}`, arguments: value, descriptor: descriptors[d] ?? null });
            });
          });

          // Let the first request be fingerprinted and shown before the person acts.
          await act(() => untilStill(controller));
          const dialog = () => screen.queryByRole('dialog');
          const button = (name: string) => {
            const d = dialog();
            return d ? within(d).queryByRole('button', { name }) : null;
          };
          /** Before an approving input: what the person sees (the fingerprint in the dialog), and the ledger. */
          const beforeApproving = (target?: string) => {
            const d = dialog();
            const shown = ledger.approving(target);
            if (shown && d) ledger.saw(shown.toolName, d.querySelector('[data-fingerprint]')?.getAttribute('data-fingerprint'));
            return shown;
          };
          const remember = (id: string | undefined, ended: boolean) => {
            if (ended && id !== undefined) staleIds.push(id);
          };

          for (const action of actions) {
            const current = controller.getState().current;
            switch (action.kind) {
              case 'click-approve': {
                const b = button('Approve');
                if (!b) break;
                beforeApproving();
                act(() => void fireEvent.click(b));
                break;
              }
              case 'double-click-approve': {
                const b = button('Approve');
                if (!b) break;
                beforeApproving();
                act(() => {
                  fireEvent.click(b);
                  fireEvent.click(b);
                });
                break;
              }
              case 'enter-held-on': {
                const b = button(action.button);
                if (!b) break;
                if (action.button === 'Approve' && beforeApproving()) seen.approvalsByKey += 1;
                act(() => b.focus());
                await user.keyboard(`{Enter>${action.times}/}`);
                if (action.button === 'Deny') remember(current?.id, controller.getState().current?.id !== current?.id || controller.getState().current?.status === 'denied');
                break;
              }
              case 'escape':
                if (!dialog()) break;
                await user.keyboard(action.times === 1 ? '{Escape}' : `{Escape>${action.times}/}`);
                remember(current?.id, controller.getState().current?.id !== current?.id);
                break;
              case 'click-deny': {
                const b = button('Deny');
                if (!b) break;
                act(() => void fireEvent.click(b));
                remember(current?.id, controller.getState().current?.id !== current?.id);
                break;
              }
              case 'click-outside':
                // Nothing happens: a click outside neither approves nor denies.
                act(() => {
                  fireEvent.pointerDown(document.body);
                  fireEvent.click(document.body);
                });
                break;
              case 'spoken': {
                const state = controller.getState();
                const id =
                  action.which === 'shown' ? state.current?.id
                  : action.which === 'stale' ? staleIds[staleIds.length - 1]
                  : action.which === 'waiting' ? state.queue[0]?.id
                  : undefined;
                if (action.which !== 'unaddressed' && id === undefined) break;
                const hits = beforeApproving(id);
                let accepted = false;
                act(() => {
                  accepted = controller.approve(id === undefined ? undefined : { requestId: id });
                });
                if (accepted && hits === null) throw new Error(`a spoken approval for ${String(id)} was accepted though that request was not under review`);
                if (accepted) seen.spokenAccepted += 1;
                break;
              }
              case 'spoken-while-clicking': {
                const b = button('Approve');
                const id = current?.id;
                beforeApproving();
                act(() => {
                  controller.approve(id === undefined ? undefined : { requestId: id });
                  if (b) fireEvent.click(b);
                  controller.approve();
                });
                break;
              }
              case 'close': {
                const b = button('Close');
                if (b) act(() => void fireEvent.click(b));
                remember(current?.id, controller.getState().current?.id !== current?.id);
                break;
              }
              case 'turn':
                await act(turn);
                break;
              case 'until-still':
                await act(() => untilStill(controller));
                break;
            }
          }
          const outcomes = await windDown(controller, pending, async (f) => {
            act(f);
            await act(turn);
          });
          cleanup();
          const violations: string[] = [];
          checkRoom(room, ledger, expectations, outcomes, (why) => violations.push(why));
          expect(violations, `seed ${SEED + 1}`).toEqual([]);
          seen.runs += 1;
          seen.invokes += room.calls.filter((c) => c.method === 'invokeTool').length;
          seen.done += outcomes.filter((o) => o.status === 'done').length;
          seen.denied += outcomes.filter((o) => o.status === 'denied').length;
          seen.approvals += [...ledger.approvals.values()].reduce((a, b) => a + b, 0);
        },
      ),
      { seed: SEED + 1, numRuns: DIALOG_RUNS },
    );
    console.log(`confirmation property (dialog): ${JSON.stringify(seen)}`);
    expect(seen.invokes).toBeGreaterThan(DIALOG_RUNS / 4);
    expect(seen.done).toBeGreaterThan(DIALOG_RUNS / 8);
    expect(seen.denied).toBeGreaterThan(DIALOG_RUNS / 8);
    expect(seen.approvalsByKey).toBeGreaterThan(0);
    expect(seen.spokenAccepted).toBeGreaterThan(0);
  }, 180_000);
});
