/**
 * Builds the demo once for the e2e project, into a folder of its own (never demo-dist/, which
 * `npm start` may be serving), and hands its path to the tests with `provide`.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    demoDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const outDir = fileURLToPath(new URL(`../../.cache/e2e/demo-${process.pid}`, import.meta.url));
  await build({
    configFile: fileURLToPath(new URL('../../demo/vite.config.ts', import.meta.url)),
    build: { outDir, emptyOutDir: true, sourcemap: false },
    logLevel: 'warn',
  });
  project.provide('demoDir', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
