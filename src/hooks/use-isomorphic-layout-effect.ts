import { useEffect, useLayoutEffect } from 'react';

/**
 * `useLayoutEffect` in the browser, `useEffect` on the server, where neither runs: React 18 warns
 * for every `useLayoutEffect` rendered by `react-dom/server` (React 19 no longer does). Internal.
 */
export const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;
