// toolgate/core: everything that works without React.

// protocol: wire types and the session interface
export * from './wire';
export * from './session';
export * from './json-value';
export * from './arguments-parser';

// app tools: the host (queue, epoch gate, signals, time limits, result codes) and its session binding
export * from './tool-error';
export * from './standard-schema';
export * from './json-schema-check';
export * from './app-tool-host';
export * from './bind-session';
