import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor end as soon as their state holds; 1 s (the default) is shorter than a
// render took under load on a 2-core machine, so give them 10 s before they fail.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
});
