/**
 * `fileEditRenderer`: `<FileEditReview>` registered for a file-editing tool, in the call's card
 * and, as its `review`, in the confirmation dialog. Both send what a person kept through the
 * confirmation's edit path (docs/architecture.md, "From the dialog to a run"), one draft at a time.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ConfirmationView } from '../../core/approval/confirmation-types';
import type { EditResult } from '../../core/approval/confirmation-controller-types';
import type { ToolRenderer, ToolRenderProps, ToolReviewProps } from '../../provider/tool-renderers';
import { FileEditReview, type FileEditReviewProps } from './file-edit-review';

/**
 * Send drafts one at a time: the controller checks one edit at a time, so a draft made while
 * another is checked waits, and only the latest waiting one is sent once the request can be
 * edited again (a person who keeps and discards quickly ends with what they last chose).
 */
function useEditQueue(request: ConfirmationView, submitEdit: (draft: unknown) => Promise<EditResult>): (draft: unknown) => void {
  const queued = useRef<{ draft: unknown } | null>(null);
  const inFlight = useRef(false);
  const [tick, setTick] = useState(0);
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  useEffect(() => {
    if (queued.current === null || inFlight.current || !request.can.edit) return;
    const { draft } = queued.current;
    queued.current = null;
    inFlight.current = true;
    void submitEdit(draft).finally(() => {
      inFlight.current = false;
      if (live.current) setTick((n) => n + 1);
    });
  }, [request, submitEdit, tick]);
  return useCallback((draft: unknown) => {
    queued.current = { draft };
    setTick((n) => n + 1);
  }, []);
}

/**
 * Options of {@link createFileEditRenderer}: the layout the review opens in, windowing, words.
 *
 * @example
 * const options: FileEditRendererOptions = { defaultView: 'split', windowAfter: 5000 };
 */
export type FileEditRendererOptions = Pick<FileEditReviewProps, 'defaultView' | 'windowAfter' | 'maxHeight' | 'labels'>;

interface RequestReviewProps extends ToolReviewProps {
  options: FileEditRendererOptions;
  /** Other requests are shown before it: it cannot be edited yet. */
  waiting?: boolean;
}

/** A request's edit, reviewed: the proposed hunks, which the current arguments keep, and the way to change them. */
function RequestReview({ request, submitEdit, options, waiting = false }: RequestReviewProps) {
  const send = useEditQueue(request, submitEdit);
  // Under review and editable: a person decides; otherwise the decisions are only shown.
  const readOnly = waiting || !request.editable || !request.can.deny;
  return <FileEditReview {...options} arguments={request.original} current={request.arguments} readOnly={readOnly} onChange={(next) => send(next)} />;
}

/**
 * A renderer for a tool that edits a file (`{ path, oldText, newText }` or `{ path, patch }`),
 * with options of its own: `<FileEditReview>` in the call's card (the request it waits for, or
 * the arguments it was given) and, as its `review`, in the confirmation dialog, where the hunks a
 * person keeps become the arguments approved and run.
 *
 * @example
 * const renderers = { write_file: createFileEditRenderer({ defaultView: 'split' }) };
 */
export function createFileEditRenderer(options: FileEditRendererOptions = {}): ToolRenderer {
  function FileEditCard({ call, approval }: ToolRenderProps): ReactNode {
    if (approval?.request) return <RequestReview options={options} request={approval.request} submitEdit={approval.submitEdit} waiting={approval.ahead > 0} />;
    if (call.arguments !== undefined) return <FileEditReview {...options} arguments={call.arguments} readOnly />;
    const path = (call.partialArguments as { path?: unknown } | undefined)?.path;
    return (
      <p className="toolgate-file-edit-waiting" role="status">
        {typeof path === 'string' ? `Writing an edit of ${path}…` : 'Writing an edit…'}
      </p>
    );
  }
  function FileEditDialogReview(props: ToolReviewProps): ReactNode {
    return <RequestReview options={options} {...props} />;
  }
  return Object.assign(FileEditCard, { review: FileEditDialogReview });
}

/**
 * The renderer of a tool that edits a file, with the default options (see
 * {@link createFileEditRenderer}). Register it by the tool's name.
 *
 * @example
 * <ToolgateProvider client={client} renderers={{ write_file: fileEditRenderer, apply_patch: fileEditRenderer }}>
 *   <ToolCallList />
 *   <ConfirmToolDialog />
 * </ToolgateProvider>
 */
export const fileEditRenderer: ToolRenderer = createFileEditRenderer();
