/**
 * The whole confirmation dialog: `ConfirmToolDialogRoot` with every part in place, over Radix's
 * dialog. `<ConfirmToolDialog>` loads this module on first use, when there is something to confirm
 * (docs/architecture.md, "What loads when"), so an app that never shows a request never loads it.
 */
import type { ArgumentsSchema } from './arguments-preview';
import { useConfirmToolDialog } from './confirm-dialog-context';
import { ConfirmToolDialogContent, ConfirmToolDialogOverlay, ConfirmToolDialogPortal } from './confirm-dialog-parts';
import { ConfirmToolDialogRoot } from './confirm-dialog-root';
import { DefaultBody } from './confirm-dialog-sections';
import type { ConfirmToolDialogProps } from './confirm-tool-dialog-props';

export function CompleteConfirmToolDialog({ schema, container, className, ...root }: ConfirmToolDialogProps) {
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
