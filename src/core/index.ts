// toolgate/core: everything that works without React.

// protocol: wire types and the session interface
export * from './wire';
export * from './session';
export * from './json-value';
export * from './arguments-parser';
