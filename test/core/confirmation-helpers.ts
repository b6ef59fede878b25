// Shared by the confirmation tests: wait on the controller's state, never on time.
import type { ConfirmationController, ConfirmationState, ConfirmationStatus, ConfirmationView } from 'toolgate/core';

/** Resolves with the first state (the current one included) for which `predicate` holds. */
export function until(
  controller: ConfirmationController,
  predicate: (state: ConfirmationState) => boolean,
): Promise<ConfirmationState> {
  return new Promise((resolve) => {
    if (predicate(controller.getState())) {
      resolve(controller.getState());
      return;
    }
    const unsubscribe = controller.subscribe((state) => {
      if (predicate(state)) {
        unsubscribe();
        resolve(state);
      }
    });
  });
}

/** Resolves with the shown request once it has `status`. */
export async function shown(controller: ConfirmationController, status: ConfirmationStatus = 'reviewing'): Promise<ConfirmationView> {
  const state = await until(controller, (s) => s.current?.status === status);
  return state.current as ConfirmationView;
}

/** Let every pending promise chain run (several macrotask turns). */
export async function settleAll(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Every state the controller publishes, from now on. */
export function record(controller: ConfirmationController): ConfirmationState[] {
  const states: ConfirmationState[] = [controller.getState()];
  controller.subscribe((state) => states.push(state));
  return states;
}

/** Whether `value` and everything inside it is frozen. */
export function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  return Object.keys(value).every((key) => isDeepFrozen((value as Record<string, unknown>)[key]));
}

/** A promise and the functions that settle it. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
