// toolgate/testing: scripted sessions, rooms, event builders and clocks for tests, stories and
// users' own tests. No React. Each name is listed on purpose and described in docs/api.md.

export {
  createScriptedSession,
  step,
  type ScriptStep,
  type ScriptedCall,
  type ScriptedSession,
  type ScriptedSessionOptions,
} from './scripted-session';
export { createManualClock, type ManualClock, type ManualClockOptions } from './manual-clock';
export { callEvents, toolEvents } from './tool-events';
export {
  createScriptedRoom,
  type ScriptedRoom,
  type ScriptedRoomCall,
  type ScriptedRoomConfirmation,
  type ScriptedRoomEffect,
  type ScriptedRoomFault,
  type ScriptedRoomOptions,
  type ScriptedRoomTool,
} from './scripted-room';
export {
  ReplayPause,
  argumentDeltas,
  eventScript,
  interleave,
  pause,
  replayEvents,
  waitForState,
  type ReplayOptions,
  type ReplayTarget,
} from './replay';

// The pure reducer, for tests and tools that replay a stream without a store
export {
  explainToolEvent,
  initialToolStreamState,
  reduceLocalToolEvent,
  reduceToolEvent,
  type ToolEventIssue,
  type ToolEventVerdict,
} from '../core/stream/reducer';
export type { LocalToolEvent } from '../core/stream/local-events';
export {
  isToolgateRecording,
  parseRecording,
  type RecordedAnswer,
  type RecordedPageEvent,
  type RecordedPause,
  type RecordedRefusal,
  type RecordingRead,
  type ToolgateRecording,
} from './recording';
