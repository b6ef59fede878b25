// toolgate/testing: scripted sessions and clocks for tests, stories and users' own tests. No React.

export * from './scripted-session';
export * from './manual-clock';
export * from './tool-events';
