/** The props of `<ConfirmToolDialog>`, apart from it: the light component and the dialog it loads both read them. */
import type { ArgumentsSchema } from './arguments-preview';
import type { ConfirmToolDialogRootProps } from './confirm-dialog-root';

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
