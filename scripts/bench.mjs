#!/usr/bin/env node
// npm run bench: bundle bench/ (TypeScript) with esbuild and run it with a GC we can force.
// Arguments name the sections to run (parser, store, devtools, growth, memory, render, size, server); none runs all.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'bench', '.work', 'bench.mjs');
const built = spawnSync(
  join(root, 'node_modules', '.bin', 'esbuild'),
  ['bench/main.ts', '--bundle', '--platform=node', '--format=esm', `--outfile=${out}`, '--packages=external', '--log-level=warning'],
  { cwd: root, stdio: 'inherit' },
);
if (built.status !== 0) process.exit(built.status ?? 1);
const ran = spawnSync(process.execPath, ['--expose-gc', out, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(ran.status ?? 1);
