import type { ArgumentsSchema } from './arguments-preview';
import { useConfirmToolDialog } from './confirm-dialog-context';
import { ConfirmToolDialogContent, ConfirmToolDialogOverlay, ConfirmToolDialogPortal } from './confirm-dialog-parts';
import { ConfirmToolDialogRoot, type ConfirmToolDialogRootProps } from './confirm-dialog-root';
import { DefaultBody } from './confirm-dialog-sections';

/**
 * Props of {@link ConfirmToolDialog}: those of {@link ConfirmToolDialogRoot}, and where and how the
 * dialog is drawn. With `open` (or `defaultOpen`) given, the dialog confirms that one call
 * (`toolName`, `arguments`, through `room` or `onApprove`); without either, it shows the
 * controller's queue (the provider's by default), one request at a time.
 *
 * @example
 * const props: ConfirmToolDialogProps = { open, onOpenChange: setOpen, toolName: 'transfer', arguments: args, room, onResult };
 */
export interface ConfirmToolDialogProps extends Omit<ConfirmToolDialogRootProps, 'children'> {
  /** The tool's JSON Schema: field titles and descriptions in the argument tree. */
  schema?: ArgumentsSchema;
  /** Where the dialog is portalled (default `document.body`). With `modal={false}` it sits where you put it. */
  container?: HTMLElement | null;
  className?: string;
}

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
export function ConfirmToolDialog({ schema, container, className, ...root }: ConfirmToolDialogProps) {
  return (
    <ConfirmToolDialogRoot {...root}>
      <ConfirmToolDialogPortal container={container}>
        <ConfirmToolDialogOverlay />
        <ConfirmToolDialogContent className={className}>
          <Body schema={schema} />
        </ConfirmToolDialogContent>
      </ConfirmToolDialogPortal>
    </ConfirmToolDialogRoot>
  );
}

/** A new request mounts a new body: its fields, focus and buttons start afresh. */
function Body({ schema }: { schema: ArgumentsSchema | undefined }) {
  const { view } = useConfirmToolDialog();
  return <DefaultBody key={view?.id ?? ''} schema={schema} />;
}
