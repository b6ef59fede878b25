'use client';
// toolgate: the React entry (hooks and components), with everything of toolgate/core.

export * from './core';
export * from './hooks';
export * from './components';
