export * from './context';
export * from './use-store-selector';
export * from './use-tool-stream';
export * from './use-tool-call';
