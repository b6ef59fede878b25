import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ToolRoomError,
  ToolRoomUnknownOutcomeError,
  type ConfirmationOutcome,
  type ConfirmationStatus,
} from 'toolgate/core';
import {
  CONFIRMATION_EVENT_ROLES,
  CONFIRMATION_EVENTS,
  CONFIRMATION_STATUSES,
  confirmationStatusSets,
  CONFIRMATION_TRANSITIONS,
  nextConfirmationStatus,
} from '../../src/core/approval/confirmation-machine';
import { MISSING_TOOL_DESCRIPTOR, needsConfirmation, resolveToolDescriptor } from '../../src/core/approval/tool-descriptor';
import { classifyRoomError } from '../../src/core/session/room';

describe('the confirmation transition table', () => {
  it('has a row for every state', () => {
    expect(Object.keys(CONFIRMATION_TRANSITIONS).sort()).toEqual([...CONFIRMATION_STATUSES].sort());
  });

  it('moves through idle, reviewing, confirming, invoking to done on the happy path', () => {
    let status: ConfirmationStatus = 'idle';
    const path: ConfirmationStatus[] = [status];
    for (const event of ['review', 'confirm', 'confirmed', 'succeed'] as const) {
      status = nextConfirmationStatus(status, event) as ConfirmationStatus;
      path.push(status);
    }
    expect(path).toEqual(['idle', 'reviewing', 'confirming', 'invoking', 'done']);
  });

  it('accepts approve (confirm) only while reviewing, which makes a second approval a no-op', () => {
    const accepting = CONFIRMATION_STATUSES.filter((s) => nextConfirmationStatus(s, 'confirm') !== undefined);
    // `uncertain` and `failed` accept `confirm` only as the controller's guarded, deliberate retry;
    // `idle` only as the guarded answer of a standing grant or of "Approve all" over a list that showed it.
    expect(accepting).toEqual(['idle', 'reviewing', 'failed', 'uncertain']);
    expect(nextConfirmationStatus('confirming', 'confirm')).toBeUndefined();
    expect(nextConfirmationStatus('invoking', 'confirm')).toBeUndefined();
  });

  it('lets nothing cancel a request once approved: no deny or withdraw after reviewing', () => {
    for (const status of ['confirming', 'invoking', 'checking', 'done', 'failed', 'uncertain', 'refused'] as const) {
      expect(nextConfirmationStatus(status, 'deny')).toBeUndefined();
      expect(nextConfirmationStatus(status, 'withdraw')).toBeUndefined();
    }
  });

  it('never invokes from a refused confirmation', () => {
    expect(nextConfirmationStatus('confirming', 'refuse')).toBe('refused');
    expect(CONFIRMATION_TRANSITIONS.refused).toEqual({});
  });

  it('sends a lost write to uncertain and offers the check from there', () => {
    expect(nextConfirmationStatus('invoking', 'lose')).toBe('uncertain');
    expect(nextConfirmationStatus('uncertain', 'check')).toBe('checking');
    expect(nextConfirmationStatus('checking', 'succeed')).toBe('done');
    expect(nextConfirmationStatus('checking', 'fail')).toBe('failed');
    expect(nextConfirmationStatus('checking', 'lose')).toBe('uncertain');
  });

  it('allows a direct invoke from idle for a descriptor that needs no confirmation', () => {
    expect(nextConfirmationStatus('idle', 'invoke')).toBe('invoking');
  });

  it('keeps done, denied, refused, expired and withdrawn final', () => {
    for (const status of ['done', 'denied', 'refused', 'expired', 'withdrawn'] as const) {
      for (const event of CONFIRMATION_EVENTS) expect(nextConfirmationStatus(status, event)).toBeUndefined();
    }
  });

  it('only ever leads to known states', () => {
    for (const status of CONFIRMATION_STATUSES) {
      for (const event of CONFIRMATION_EVENTS) {
        const next = nextConfirmationStatus(status, event);
        if (next !== undefined) expect(CONFIRMATION_STATUSES).toContain(next);
      }
    }
  });

  it('types the outcome as the protocol’s union, exactly', () => {
    expectTypeOf<ConfirmationOutcome['status']>().toEqualTypeOf<'done' | 'denied' | 'refused' | 'failed' | 'uncertain' | 'expired' | 'responded' | 'cancelled'>();
    expectTypeOf<Extract<ConfirmationOutcome, { status: 'done' }>>().toEqualTypeOf<{
      readonly status: 'done';
      readonly output: unknown;
      readonly fingerprint: string;
      readonly confirmationId: string | null;
    }>();
    expectTypeOf<Extract<ConfirmationOutcome, { status: 'denied' }>>().toEqualTypeOf<{ readonly status: 'denied'; readonly reason?: string }>();
    expectTypeOf<Extract<ConfirmationOutcome, { status: 'uncertain' }>>().toEqualTypeOf<{ readonly status: 'uncertain'; readonly reason: string }>();
  });
});

describe('what the table says, derived from it', () => {
  const sorted = (set: ReadonlySet<string>) => [...set].sort();

  it('gives every event a role', () => {
    expect(Object.keys(CONFIRMATION_EVENT_ROLES).sort()).toEqual([...CONFIRMATION_EVENTS].sort());
  });

  it('calls final the statuses no event leaves', () => {
    expect(sorted(confirmationStatusSets().final)).toEqual(['cancelled', 'denied', 'done', 'expired', 'refused', 'responded', 'withdrawn']);
  });

  it("finds the protocol's outcome union in the statuses a success, a problem or a decline reaches", () => {
    expect(sorted(confirmationStatusSets().outcome)).toEqual(['cancelled', 'denied', 'done', 'expired', 'failed', 'refused', 'responded', 'uncertain']);
    expectTypeOf<ConfirmationOutcome['status']>().toEqualTypeOf<'done' | 'denied' | 'refused' | 'failed' | 'uncertain' | 'expired' | 'responded' | 'cancelled'>();
  });

  it('holds on screen the outcomes a problem reaches: refused, failed, uncertain, expired', () => {
    expect(sorted(confirmationStatusSets().held)).toEqual(['expired', 'failed', 'refused', 'uncertain']);
  });

  it('waits for a person where a deny is possible, and calls in flight the statuses only an answer leaves', () => {
    expect(sorted(confirmationStatusSets().awaitingDecision)).toEqual(['editing', 'idle', 'reviewing', 'revising']);
    expect(sorted(confirmationStatusSets().inFlight)).toEqual(['checking', 'confirming', 'invoking']);
    // Nothing cancels a call in flight: no deny, no withdraw there.
    for (const status of confirmationStatusSets().inFlight) {
      expect(nextConfirmationStatus(status, 'deny')).toBeUndefined();
      expect(nextConfirmationStatus(status, 'withdraw')).toBeUndefined();
    }
  });

  it('knows the way from idle to the first end, and what ends a request', () => {
    expect(sorted(confirmationStatusSets().beforeEnd)).toEqual(['confirming', 'editing', 'idle', 'invoking', 'reviewing', 'revising']);
    expect(sorted(confirmationStatusSets().ended)).toEqual(['cancelled', 'denied', 'done', 'expired', 'failed', 'refused', 'responded', 'uncertain', 'withdrawn']);
  });

  it('reaches each outcome by exactly one event, so an outcome names the event that settles it', () => {
    const events = new Map<string, Set<string>>();
    for (const status of CONFIRMATION_STATUSES) {
      for (const [event, next] of Object.entries(CONFIRMATION_TRANSITIONS[status])) {
        if (!confirmationStatusSets().outcome.has(next as ConfirmationStatus)) continue;
        events.set(next, (events.get(next) ?? new Set()).add(event));
      }
    }
    expect(Object.fromEntries([...events].map(([status, set]) => [status, [...set]]))).toEqual({
      done: ['succeed'],
      denied: ['deny'],
      refused: ['refuse'],
      failed: ['fail'],
      uncertain: ['lose'],
      expired: ['expire'],
      responded: ['respond'],
      cancelled: ['cancel'],
    });
  });
});

describe('editing and expiry in the table', () => {
  it('never approves from the editor: an edit is validated and fingerprinted (back through idle) before it can be approved', () => {
    for (const status of ['editing', 'revising'] as const) {
      expect(nextConfirmationStatus(status, 'confirm')).toBeUndefined();
      expect(nextConfirmationStatus(status, 'invoke')).toBeUndefined();
    }
    const path: ConfirmationStatus[] = ['reviewing'];
    for (const event of ['edit', 'submit', 'revise', 'review'] as const) path.push(nextConfirmationStatus(path.at(-1)!, event)!);
    expect(path).toEqual(['reviewing', 'editing', 'revising', 'idle', 'reviewing']);
    expect(nextConfirmationStatus('revising', 'reject')).toBe('editing');
    expect(nextConfirmationStatus('editing', 'keep')).toBe('reviewing');
  });

  it('lets a request expire only while nobody has decided it: never once approved', () => {
    const expiring = CONFIRMATION_STATUSES.filter((status) => nextConfirmationStatus(status, 'expire') !== undefined);
    expect(expiring).toEqual(['idle', 'reviewing', 'editing', 'revising']);
    for (const status of confirmationStatusSets().inFlight) expect(nextConfirmationStatus(status, 'expire')).toBeUndefined();
  });
});

describe('tool descriptors', () => {
  it('counts a missing descriptor as a write that needs confirmation', () => {
    expect(resolveToolDescriptor(undefined)).toBe(MISSING_TOOL_DESCRIPTOR);
    expect(resolveToolDescriptor(null)).toMatchObject({ effect: 'write', requiresConfirmation: true });
    expect(needsConfirmation(undefined)).toBe(true);
  });

  it('takes the cautious default for each missing or unknown field, and says which were not declared', () => {
    expect(resolveToolDescriptor({})).toEqual({ effect: 'write', risk: 'high', requiresConfirmation: true, undeclared: ['effect', 'risk'] });
    expect(resolveToolDescriptor({ effect: 'read' })).toEqual({ effect: 'read', risk: 'high', requiresConfirmation: true, undeclared: ['risk'] });
    expect(resolveToolDescriptor({ effect: 'delete' as never, risk: 'extreme' as never, requiresConfirmation: 'no' as never })).toEqual({
      effect: 'write',
      risk: 'high',
      requiresConfirmation: true,
      undeclared: ['effect', 'risk'],
    });
    // Resolving again keeps what was found undeclared: the defaults are not the tool's word.
    expect(resolveToolDescriptor(resolveToolDescriptor({ effect: 'read' })).undeclared).toEqual(['risk']);
  });

  it('keeps what a full descriptor says, frozen', () => {
    const resolved = resolveToolDescriptor({
      effect: 'read',
      risk: 'low',
      requiresConfirmation: false,
      requiredAction: 'tool:invoke:lookup',
      description: 'Looks things up',
      title: 'Look up',
    });
    expect(resolved).toEqual({
      effect: 'read',
      risk: 'low',
      requiresConfirmation: false,
      requiredAction: 'tool:invoke:lookup',
      description: 'Looks things up',
      title: 'Look up',
    });
    expect(Object.isFrozen(resolved)).toBe(true);
    expect(needsConfirmation(resolved)).toBe(false);
  });
});

describe('room errors', () => {
  it('are definite only when they say so', () => {
    expect(classifyRoomError(new ToolRoomError('no'))).toBe('definite');
    expect(classifyRoomError({ definite: true, message: 'no' })).toBe('definite');
    expect(classifyRoomError(new ToolRoomError('maybe', { definite: false }))).toBe('unknown');
    expect(classifyRoomError(new ToolRoomUnknownOutcomeError('lost'))).toBe('unknown');
    expect(classifyRoomError(new DOMException('timed out', 'TimeoutError'))).toBe('unknown');
    expect(classifyRoomError(new TypeError('Failed to fetch'))).toBe('unknown');
    expect(classifyRoomError(undefined)).toBe('unknown');
  });

  it('carry their name, code and definiteness', () => {
    const lost = new ToolRoomUnknownOutcomeError('no answer', { code: 'timeout' });
    expect(lost).toBeInstanceOf(ToolRoomError);
    expect(lost).toMatchObject({ name: 'ToolRoomUnknownOutcomeError', definite: false, code: 'timeout', message: 'no answer' });
    expect(new ToolRoomError('forbidden', { code: 'forbidden' })).toMatchObject({ name: 'ToolRoomError', definite: true });
  });
});
