import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { alias } from '../.storybook/aliases.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The demo imports what users import: the kit's public entries (and its stylesheet), mapped to
// the sources. Built with `vite build` (npm start, the end-to-end tests), never served by a dev server.
export default defineConfig({
  root: here('.'),
  base: './',
  plugins: [react()],
  resolve: {
    alias: [
      { find: 'toolgate/styles.css', replacement: here('../src/styles.css') },
      ...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })),
    ],
  },
  // One small page: a single bundle (React, Radix, the kit) is fine.
  build: { outDir: here('../demo-dist'), emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1024 },
  logLevel: 'warn',
});
