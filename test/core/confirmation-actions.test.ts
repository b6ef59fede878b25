// The actions a request offers (`view.can`) are what the transition table allows from its status,
// never a list of statuses of their own: approve and retry fire the decision event, deny the
// decline, check the check; dismiss is offered exactly where the table holds an outcome on screen.
import { describe, expect, it } from 'vitest';
import { createConfirmationController, type ConfirmationController, type ConfirmationView, type ToolDescriptor } from 'toolgate/core';
import {
  CONFIRMATION_EVENT_ROLES,
  confirmationStatusSets,
  nextConfirmationStatus,
  type ConfirmationEvent,
} from '../../src/core/approval/confirmation-machine';
import { createScriptedRoom, type ScriptedRoomFault } from 'toolgate/testing';
import { shown, until } from './confirmation-helpers';

const write: ToolDescriptor = { effect: 'write', risk: 'high', requiresConfirmation: true };
const read: ToolDescriptor = { effect: 'read', risk: 'low', requiresConfirmation: true };

/** Every view the controller publishes, shown or waiting. */
function views(controller: ConfirmationController): ConfirmationView[] {
  const seen: ConfirmationView[] = [];
  controller.subscribe((state) => seen.push(...(state.current ? [state.current] : []), ...state.queue));
  return seen;
}

const allows = (view: ConfirmationView, event: ConfirmationEvent) => nextConfirmationStatus(view.status, event) !== undefined;
const decision = (view: ConfirmationView): ConfirmationEvent => (view.path === 'room' ? 'confirm' : 'invoke');

/** Walk a request through approve, its fault, check and retry, whatever the outcome. */
async function walk(fault: ScriptedRoomFault | undefined, descriptor: ToolDescriptor, checkable: boolean, path: 'room' | 'callback') {
  const room = createScriptedRoom({ faults: fault ? [fault] : [] });
  const controller = createConfirmationController({
    room,
    ...(checkable ? { checkOutcome: () => ({ status: 'not-done' as const }) } : {}),
  });
  const seen = views(controller);
  const outcome = controller.request({
    toolName: 't',
    arguments: { n: 1 },
    descriptor,
    ...(path === 'callback' ? { onApprove: fault ? () => Promise.reject(new Error('lost')) : () => 'ok' } : {}),
  });
  const queued = controller.request({ toolName: 'waiting', arguments: {}, descriptor });
  await shown(controller);
  controller.approve();
  const after = await until(controller, (s) => s.current?.toolName !== 't' || confirmationStatusSets().held.has(s.current.status));
  if (after.current?.status === 'uncertain' && after.current.can.check) {
    controller.check();
    await until(controller, (s) => s.current?.status !== 'checking');
  }
  if (controller.getState().current?.can.retry) {
    controller.retry();
    await until(controller, (s) => s.current?.toolName !== 't' || !confirmationStatusSets().inFlight.has(s.current.status));
  }
  controller.dismiss({ requestId: controller.getState().current?.toolName === 't' ? controller.getState().current?.id : '' });
  await outcome.catch(() => undefined);
  controller.deny();
  await queued;
  return seen;
}

describe('the actions a request offers', () => {
  it('are exactly what the table allows from its status (with the guards it lists)', async () => {
    const seen: ConfirmationView[] = [];
    for (const fault of [undefined, { kind: 'refuse-confirm' }, { kind: 'fail-invoke' }, { kind: 'lose-response' }, { kind: 'lose-request' }] as const) {
      for (const descriptor of [write, read]) {
        for (const checkable of [false, true]) {
          seen.push(...(await walk(fault, descriptor, checkable, 'room')));
          if (fault === undefined || fault.kind === 'lose-response') seen.push(...(await walk(fault, descriptor, checkable, 'callback')));
        }
      }
    }
    const statuses = new Set(seen.map((view) => view.status));
    expect([...statuses].sort()).toEqual(['checking', 'confirming', 'failed', 'idle', 'invoking', 'refused', 'reviewing', 'uncertain']);
    for (const view of seen) {
      const { can } = view;
      const where = `${view.status} (${view.path}, attempt ${view.attempt})`;
      // Approve: a person is still deciding, and the table lets the decision start a run.
      expect(can.approve, where).toBe(allows(view, 'deny') && allows(view, decision(view)) && view.fingerprint !== null && view.status !== 'idle');
      expect(can.deny, where).toBe(allows(view, 'deny'));
      expect(can.check, where).toBe(allows(view, 'check') && view.checkable);
      // Retry: the same decision event, after an outcome (nobody can deny any more).
      if (can.retry) expect(allows(view, decision(view)) && !allows(view, 'deny'), where).toBe(true);
      expect(can.dismiss, where).toBe(confirmationStatusSets().held.has(view.status));
      // Whatever is offered, the event it fires has the role the table gives it.
      if (can.approve || can.retry) expect(CONFIRMATION_EVENT_ROLES[decision(view)]).toBe('decision');
    }
  });
});
