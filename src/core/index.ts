// toolgate/core: everything that works without React.

// protocol: wire types and the session interface
export * from './wire';
export * from './session';
export * from './json-value';
export * from './arguments-parser';
export * from './validate-event';
export * from './call-lifecycle';
export type { ToolCall, ToolCallFields, LateOutcome } from './tool-call';
export type { PreviewMode } from './legacy-preview';
export * from './reducer';

// store
export * from './store';

// app tools: the host (queue, epoch gate, signals, time limits, result codes) and its session binding
export * from './tool-error';
export * from './standard-schema';
export * from './json-schema-check';
export * from './app-tool-host';
export * from './bind-session';

// confirmation: canonical JSON (RFC 8785), fingerprints, descriptors, the room, the flow and its bridges
export * from './canonical-json';
export * from './fingerprint';
export * from './tool-descriptor';
export * from './room';
export * from './confirmation-machine';
export * from './confirmation-bridges';
