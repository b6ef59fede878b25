/**
 * `<ConfirmToolDialog>`: a light component that loads the dialog itself (its body, its parts and
 * Radix's dialog) on first use, when there is something to confirm: `open` or `defaultOpen` true,
 * or a current request in the controller's queue. Until then it renders nothing and weighs little
 * (docs/architecture.md, "What loads when"). It brings its own `<Suspense>`, so an app needs none.
 */
import { Suspense, useState, useSyncExternalStore } from 'react';
import { useConfirmationController } from '../provider/context';
import type { ConfirmToolDialogProps } from './confirm-tool-dialog-props';
import { useQueueCallbacks } from './confirm-queue-callbacks';
import { lazyPart } from './lazy-part';

export type { ConfirmToolDialogProps } from './confirm-tool-dialog-props';

/** The whole dialog, loaded when first needed. */
const complete = lazyPart(() => import('./confirm-dialog-complete').then((m) => m.CompleteConfirmToolDialog));

/** Loads the dialog now (tests, or an app that would rather load it early); the same load the first request starts. */
export const preloadConfirmToolDialog = (): Promise<unknown> => complete.preload();

/**
 * The approval dialog, on `@radix-ui/react-dialog`: titled with the proposed action, the exact arguments as a readable tree (long strings and large arrays start
 * collapsed, never cut), effect, risk, the short fingerprint, Approve and Deny.
 *
 * - Escape denies while reviewing; a click outside does nothing; once approved, nothing (Escape,
 *   close, unmount) cancels the call in flight.
 * - Errors appear in a `role="alert"` region inside the dialog: a refused confirmation, a failed
 *   call, an unknown outcome (with the application's `checkOutcome`, then a deliberate retry
 *   with a new confirmation).
 * - Focus is trapped while open and returns to where it was.
 * - `data-state` (`open`/`closed`) and `data-status` (the request's status) for styling.
 * - It loads on first use: nothing of the dialog (nor Radix) is in an app's first load; the first
 *   request (or `open`) loads it, and it shows in the same commit as later ones once loaded.
 *
 * It is `ConfirmToolDialogRoot` with every part in place: compose the parts
 * (`ConfirmToolDialogTitle`, `…Arguments`, `…Fingerprint`, `…Approve`, `…Deny`, `…QueueCount`) for
 * a layout of your own, or build your own dialog on `useToolConfirmation` (the queue) or
 * `useToolConfirmationRequest` (one call) alone.
 *
 * @example
 * // One proposed call, through a room:
 * <ConfirmToolDialog open={open} onOpenChange={setOpen} toolName="transfer" arguments={{ to: 'bob', amount: 5 }}
 *   room={room} descriptor={{ effect: 'write', risk: 'high', requiresConfirmation: true }} onResult={setOutcome} />;
 * // The provider's queue (the server's gate, app tools), one at a time:
 * <ToolgateProvider session={session} room={room}><ConfirmToolDialog /></ToolgateProvider>;
 */
export function ConfirmToolDialog(props: ConfirmToolDialogProps) {
  if (props.open !== undefined) return <OneCall props={props} asked={props.open} />;
  if (props.defaultOpen !== undefined) return <OneCall props={props} asked={props.defaultOpen} />;
  return <Queue props={props} />;
}

/** True from the first render at which `now` is true, for good: the loaded dialog then runs its own closing. */
function useSticky(now: boolean): boolean {
  const [ever, setEver] = useState(now);
  if (now && !ever) setEver(true);
  return ever || now;
}

const noSubscription = () => () => {};

function Loaded({ props }: { props: ConfirmToolDialogProps }) {
  // A dialog is portalled into the page, so a server renders none: nothing is loaded there, and a
  // hydrating page loads it after hydration, as it shows it.
  const inBrowser = useSyncExternalStore(noSubscription, () => true, () => false);
  if (!inBrowser) return null;
  return (
    <Suspense fallback={null}>
      <complete.Part {...props} />
    </Suspense>
  );
}

/** One proposed call: needed once it is asked for. */
function OneCall({ props, asked }: { props: ConfirmToolDialogProps; asked: boolean }) {
  return useSticky(asked) ? <Loaded props={props} /> : null;
}

/**
 * The controller's queue: needed once a request is current. The callbacks are heard here, not in
 * the loaded root, so an outcome reached while the dialog loads is told too, and told once.
 */
function Queue({ props }: { props: ConfirmToolDialogProps }) {
  const controller = useConfirmationController(props.controller);
  const current = useSyncExternalStore(
    controller.subscribe,
    () => controller.getState().current !== null,
    () => controller.getInitialState().current !== null,
  );
  useQueueCallbacks(controller, current, props);
  const needed = useSticky(current);
  return needed ? <Loaded props={{ ...props, controller, onResult: undefined, onOpenChange: undefined }} /> : null;
}
