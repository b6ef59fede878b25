/**
 * The queue dialog's two callbacks, `onResult` (every outcome the controller reaches, even two
 * between renders) and `onOpenChange` (when a request starts or stops being shown), heard from
 * the controller itself. Both the light `<ConfirmToolDialog>` (before its body has loaded) and
 * `ConfirmToolDialogRoot` use it, so an outcome is told once whichever of them is on screen.
 */
import { useEffect, useRef } from 'react';
import type { ConfirmationOutcome } from '../core/approval/confirmation-types';
import type { ConfirmationController } from '../core/approval/confirmation-controller-types';
import { useIsomorphicLayoutEffect } from '../hooks/use-isomorphic-layout-effect';

export interface QueueCallbacks {
  onResult?: ((outcome: ConfirmationOutcome) => void) | undefined;
  onOpenChange?: ((open: boolean) => void) | undefined;
}

export function useQueueCallbacks(controller: ConfirmationController, open: boolean, callbacks: QueueCallbacks): void {
  const latest = useRef(callbacks);
  useIsomorphicLayoutEffect(() => {
    latest.current = callbacks;
  });
  useEffect(
    () =>
      controller.subscribe((state, previous) => {
        if (state.last !== previous.last && state.last !== null) latest.current.onResult?.(state.last.outcome);
      }),
    [controller],
  );
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current === open) return;
    wasOpen.current = open;
    latest.current.onOpenChange?.(open);
  }, [open]);
}
