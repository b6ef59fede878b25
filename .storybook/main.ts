import type { StorybookConfig } from '@storybook/react-vite';
import { mergeConfig } from 'vite';
import { alias } from './aliases.js';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y', '@storybook/addon-vitest'],
  core: { disableTelemetry: true },
  // The vitest plugin (storybookTest) applies this too, so stories resolve the same entries in tests.
  viteFinal: (viteConfig) =>
    mergeConfig(viteConfig, {
      resolve: { alias },
      build: {
        // Storybook's own chunks are large by nature; the kit's size is checked by size-limit.
        chunkSizeWarningLimit: 4096,
        rolldownOptions: {
          onwarn(warning, warn) {
            // 'use client' marks the React entries for frameworks; a bundled story build drops it on purpose.
            if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
          },
        },
      },
    }),
};

export default config;
