// Components: thin views over the hooks; every string comes from the labels (useLabels).
export { ArgumentsPreview, type ArgumentsPreviewProps, type ArgumentsSchema } from './arguments-preview';
export { ToolStatusBadge, type ToolStatusBadgeProps } from './tool-status-badge';
export { ToolProgress, readToolProgress, type ToolProgressProps, type ToolProgressReading } from './tool-progress';
export { ToolCallCard, type ToolCallCardProps } from './tool-call-card';
export { ToolCallList, type ToolCallListProps } from './tool-call-list';
export { ToolStatusAnnouncer, type ToolStatusAnnouncerProps } from './tool-status-announcer';
export { ToolTimeline, type ToolTimelineProps } from './tool-timeline';
export { HoldButton, type ConfirmStep, type HoldButtonProps } from './confirm-step';
export { ConfirmToolDialog, type ConfirmToolDialogProps } from './confirm-tool-dialog';
export { ConfirmToolDialogRoot, type ConfirmToolDialogRootProps } from './confirm-dialog-root';
export { ConfirmToolDialogEditor, type ConfirmToolDialogEditorProps } from './confirm-editor';
export { ConfirmToolDialogChanges, type ConfirmToolDialogChangesProps } from './confirm-changes';
export { ConfirmToolDialogExpiry, type ConfirmToolDialogExpiryProps } from './confirm-expiry';
export { ConfirmBatch, type ConfirmBatchProps } from './confirm-batch';
export { ToolGrantList, type ToolGrantListProps } from './tool-grant-list';
export { AuditView, type AuditViewProps } from './audit-view';
export {
  ConfirmToolDialogApprove,
  ConfirmToolDialogArguments,
  ConfirmToolDialogContent,
  ConfirmToolDialogDeny,
  ConfirmToolDialogDescription,
  ConfirmToolDialogFingerprint,
  ConfirmToolDialogOverlay,
  ConfirmToolDialogPortal,
  ConfirmToolDialogQueueCount,
  ConfirmToolDialogTitle,
  useConfirmToolDialog,
  type ConfirmToolDialogApproveProps,
  type ConfirmToolDialogArgumentsProps,
  type ConfirmToolDialogContentProps,
  type ConfirmToolDialogContextValue,
  type ConfirmToolDialogDenyProps,
  type ConfirmToolDialogDescriptionProps,
  type ConfirmToolDialogFingerprintProps,
  type ConfirmToolDialogOverlayProps,
  type ConfirmToolDialogPortalProps,
  type ConfirmToolDialogQueueCountProps,
  type ConfirmToolDialogTitleProps,
} from './confirm-dialog-parts';
export {
  ToolCallApproval,
  ToolCallError,
  ToolCallInput,
  ToolRenderBoundary,
  type ToolCallApprovalProps,
  type ToolCallErrorProps,
  type ToolCallInputProps,
  type ToolRenderBoundaryProps,
} from './tool-call-parts';
export { ToolCallOutput, type ToolCallOutputProps } from './tool-call-output';
export { ToolCallView, type ToolCallViewProps } from './tool-call-view';
