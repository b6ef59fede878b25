/**
 * Builds the demo once for the e2e project, into a folder of its own (never demo-dist/, which
 * `npm start` may be serving), and hands its path to the tests with `provide`, with a folder for
 * what other files build once per run (test/e2e/run-builds.ts); both are removed at the end.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    demoDir: string;
    runDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const outDir = fileURLToPath(new URL(`../../.cache/e2e/demo-${process.pid}`, import.meta.url));
  const runDir = fileURLToPath(new URL(`../../.cache/e2e/run-${process.pid}`, import.meta.url));
  mkdirSync(runDir, { recursive: true });
  await build({
    configFile: fileURLToPath(new URL('../../demo/vite.config.ts', import.meta.url)),
    build: { outDir, emptyOutDir: true, sourcemap: false },
    logLevel: 'warn',
  });
  project.provide('demoDir', outDir);
  project.provide('runDir', runDir);
  return () => {
    rmSync(outDir, { recursive: true, force: true });
    rmSync(runDir, { recursive: true, force: true });
  };
}
