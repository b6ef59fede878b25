import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The public entry points, so tests import what users import.
export const alias = {
  'toolgate/core': here('./src/core/index.ts'),
  'toolgate/testing': here('./src/testing/index.ts'),
  'toolgate/adapters': here('./src/adapters/index.ts'),
  toolgate: here('./src/index.ts'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/e2e/**'],
          setupFiles: ['test/setup.ts'],
        },
      },
    ],
  },
});
