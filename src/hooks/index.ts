// The React hooks of `toolgate`, listed by name: what a page composes with. Shared helpers
// (the renderers' context, the results watcher, the generic store selector) stay internal.
export {
  useAppToolHost,
  useConfirmationController,
  useInterrupt,
  useToolgateContext,
  useToolgateStore,
  type ToolgateContextValue,
} from '../provider/context';
export { ToolgateProvider, type ToolgateProviderProps } from '../provider/provider';
export { useToolStream, useToolStreamStore, type ToolEventSource, type UseToolStreamOptions } from './use-tool-stream';
export { useToolCall, useToolCalls } from './use-tool-call';
export {
  ToolgateLabelsProvider,
  callOutcome,
  defaultLabels,
  formatDuration,
  formatNumber,
  formatTime,
  mergeLabels,
  outcomeText,
  statusText,
  useLabels,
  type ToolCallOutcome,
  type ToolgateLabels,
  type ToolgateLabelsOverride,
  type ToolgateLabelsProviderProps,
} from '../wording/labels';
export { systemClock, type ToolgateClock } from './use-now';
export { useCallDuration, type CallDuration } from './use-call-duration';
export { useStatusAnnouncer, type UseStatusAnnouncerOptions } from './use-status-announcer';
export {
  useToolTimeline,
  type ToolTimelineLayout,
  type ToolTimelineRow,
  type UseToolTimelineOptions,
} from './use-tool-timeline';
export { useToolCallTree, type ToolCallTree, type UseToolCallTreeOptions } from './use-tool-call-tree';
export type { ToolCallFilter, ToolCallTreeCallRow, ToolCallTreeRow, ToolCallTreeTurnRow } from '../core/stream/call-tree';
export { useAppTool, useAppTools, type AppToolView, type UseAppToolOptions } from './use-app-tool';
export type { ConfirmToolLabels, ConfirmToolLabelsOverride } from '../wording/confirm-labels';
export {
  useToolConfirmation,
  useToolConfirmationRequest,
  type ToolConfirmationActions,
  type UseToolConfirmationRequestOptions,
  type UseToolConfirmationRequestResult,
  type UseToolConfirmationResult,
} from './use-tool-confirmation';
export {
  defineToolRenderer,
  useToolRenderer,
  type JsonSchemaType,
  type ToolArgumentsOf,
  type ToolRenderProps,
  type ToolRenderer,
  type ToolReview,
  type ToolReviewProps,
  type ToolRenderers,
} from '../provider/tool-renderers';
export { useCallApproval, type CallApproval } from './use-call-approval';
export { useToolGrants, type ToolGrantsView } from './use-tool-grants';
export { useAppToolCall, type AppToolCallView } from './use-app-tool-call';
export {
  useHumanTool,
  usePersonRequest,
  type HumanTool,
  type HumanToolView,
  type PersonInputProps,
  type PersonRequest,
} from './use-human-tool';
