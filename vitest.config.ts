import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { alias } from './.storybook/aliases.js';

// The public entry points (defined once in .storybook/aliases.ts), so tests import what users import.
export { alias };

// Debian's Chromium (apt-get install chromium); Playwright cannot download its own browsers here.
const chromiumPath = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  // Without these, Chromium keeps dialling out and floods a closed network with refused connections.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// A browser project that runs every story of stories/ as a test, with `initialGlobals` set under
// each story's own globals. Aliases and the React plugin come from .storybook/main.ts through the plugin.
function storybookProject(name: string, initialGlobals: Record<string, unknown>) {
  return {
    plugins: [storybookTest({ configDir: '.storybook', initialGlobals })],
    // Without this a clean cache fails with "react/index.js does not provide an export named
    // 'default'"; listing the kit's runtime deps also avoids a reload when one is found mid-run.
    optimizeDeps: {
      include: [
        'react',
        'react-dom',
        'react-dom/client',
        'react/jsx-runtime',
        'react/jsx-dev-runtime',
        'zustand',
        'zustand/vanilla',
        '@radix-ui/react-dialog',
        // The list's windowing, loaded by import() past windowAfter: pre-bundled up front, not found mid-run.
        '@tanstack/react-virtual',
        // TanStack Devtools' shell, where the devtools plugin story mounts the panel.
        '@tanstack/react-devtools',
        // CommonJS packages of the renderers and policies: pre-bundled once, not found mid-run.
        'anser',
        'diff',
        'shell-quote',
        // Syntax colouring of file edits, loaded by import() when a story turns it on.
        'lowlight',
        // The bridges' stories run the real libraries in the page.
        'ai',
        'ai/test',
        '@ai-sdk/react',
        '@ag-ui/client',
        '@ag-ui/core',
        '@ag-ui/encoder',
        // The MCP Apps host bridge, loaded by import() when a frame mounts: pre-bundled up front.
        '@modelcontextprotocol/ext-apps/app-bridge',
      ],
    },
    test: {
      name,
      // A story renders and plays in one test: 15 s (vitest's default for browser tests) is less
      // than a story of 10,000 rows took on a loaded 2-core machine. Its waits end on state, and fail
      // first (stories/support/waits.ts), so this limit only stops a story that hangs.
      testTimeout: 120_000,
      browser: {
        enabled: true,
        headless: true,
        provider: playwright({
          launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
        }),
        instances: [{ browser: 'chromium' as const }],
      },
    },
  };
}

export default defineConfig({
  resolve: { alias },
  test: {
    // Stories arrive file by file; an empty project must not fail the run.
    passWithNoTests: true,
    // Chromium starts and Vite bundles the stories' dependencies before the first story connects:
    // on a loaded 2-core machine that took longer than the default 60 s (npm run test:stress).
    // Vitest reads this limit from the root config only, for every browser project.
    browser: { connectTimeout: 300_000 },
    // Two files at a time. Vitest's default on a 2-core machine is one (cores - 1), which leaves a
    // core idle while a story waits on Chromium or an e2e test on its server. Every wait ends on
    // state and every limit is sized for a loaded machine, so two at a time is only faster.
    maxWorkers: 2,
    projects: [
      // jsdom unit tests.
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'jsdom',
          // A file's first test also loads its modules (React, Radix, jsdom): under load on a
          // 2-core machine that alone passed vitest's 5 s default. Waits end on state, so this
          // limit only stops a test that hangs.
          testTimeout: 30_000,
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/e2e/**'],
          setupFiles: ['test/setup.ts'],
        },
      },
      // Every story of stories/ as a test in real Chromium: it renders, its play function passes,
      // and axe finds no violation (a11y.test = 'error' in .storybook/preview.ts), once in each theme:
      // `storybook` in the light theme (preview.ts's initialGlobals), `storybook-dark` with the theme
      // global set to dark for the whole project (storybookTest's initialGlobals). A story that sets
      // its own `globals.theme` keeps it in both.
      storybookProject('storybook', {}),
      storybookProject('storybook-dark', { theme: 'dark' }),
      // e2e: the reference server, the BUILT demo (built once by the global setup) and Debian's
      // Chromium driven by Playwright; one file at a time, since each starts a server and a browser.
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          // Each wait ends on state within WAIT_MS (test/e2e/harness.ts); a test makes several, and
          // starting a server, the demo and Chromium (a hook) took most of a minute on a loaded
          // 2-core machine.
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
