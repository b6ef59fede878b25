'use client';
// toolgate/devtools: a panel that shows a client's session (events, each call's history, approvals
// and audit records), the recorder behind it, recordings a test replays, and a TanStack Devtools
// plugin. Loaded only by apps that import it. Each name is listed on purpose and described in docs/api.md.

export {
  createDevtoolsRecorder,
  type DevtoolsEntry,
  type DevtoolsRecorder,
  type DevtoolsRecorderOptions,
  type DevtoolsRecorderState,
  type DevtoolsSource,
} from './recorder';
export { recordingToJson, toRecording } from './recording-export';
export { inspectRecording } from './recording-inspect';
export { callHistory, filterChoices, filterEntries, latestEntries, type DevtoolsFilter } from './entry-filter';
export { ToolgateDevtools, type ToolgateDevtoolsProps } from './toolgate-devtools';
export { toolgateDevtoolsPlugin, type ToolgateDevtoolsPlugin } from './tanstack-plugin';

// What the store's tap hears, which the recorder reads (the client's `onEvent` is built on it)
export type { ToolStreamTap, ToolStreamTapEntry } from '../core/stream/store';
