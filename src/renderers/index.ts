'use client';
/**
 * `toolgate/renderers`: views for the tools people run most, each in this entry of its own so that
 * an app that does not show them never loads their parsers.
 */
export { TerminalOutput, type TerminalOutputProps, type TerminalLabels, type TerminalStatus } from './terminal/terminal-output';
export { createAnsiLines, type AnsiLine, type AnsiLines, type AnsiRun } from './terminal/ansi-lines';
export {
  readFileEdit,
  keepHunks,
  keptHunksOf,
  type FileEdit,
  type FileEditArguments,
  type FileEditHunk,
  type FileEditRead,
} from './file-edit/file-edit-hunks';
export {
  FileEditReview,
  type FileEditReviewProps,
  type FileEditLabels,
  type FileEditView,
} from './file-edit/file-edit-review';
export { fileEditRenderer, createFileEditRenderer, type FileEditRendererOptions } from './file-edit/file-edit-renderer';
export {
  readElicitationRequest,
  checkElicitationContent,
  describeUrl,
  type ElicitationRequest,
  type ElicitationSchema,
  type ElicitationProperty,
  type ElicitationValue,
  type ElicitationIssue,
  type ElicitResult,
  type UrlTarget,
  type UrlWarning,
} from './elicitation/elicitation-request';
export { ElicitationDialog, type ElicitationDialogProps, type ElicitationLabels } from './elicitation/elicitation-dialog';
export { useElicitation, type Elicitation } from './elicitation/use-elicitation';
