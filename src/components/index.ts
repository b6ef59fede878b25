// Components: thin views over the hooks; every string comes from the labels (useLabels).
export * from './arguments-preview';
export * from './tool-status-badge';
export * from './tool-progress';
export * from './tool-call-card';
export * from './tool-call-list';
export * from './tool-status-announcer';
export * from './tool-timeline';
export * from './confirm-step';
export * from './confirm-tool-dialog';
export * from './tool-call-parts';
export * from './tool-call-view';
