// toolgate/testing: scripted sessions, rooms, event builders and clocks for tests, stories and
// users' own tests. No React.

export * from './scripted-session';
export * from './manual-clock';
export * from './tool-events';
export * from './scripted-room';
export * from './replay';
