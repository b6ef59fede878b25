#!/usr/bin/env node
// npm run soak: bundle the soak (test/reliability/soak-main.ts) and its server with esbuild, then
// run it with a GC it can force. Arguments go to the soak: --calls=N --sessions=S --tolerance-mb=T.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// Inside the project, so that the bundles' bare imports (ws, zustand) resolve from node_modules.
const out = join(root, 'node_modules', '.cache', 'toolgate-soak');
mkdirSync(out, { recursive: true });
const built = spawnSync(
  join(root, 'node_modules', '.bin', 'esbuild'),
  [
    'test/reliability/soak-main.ts',
    'test/reliability/soak-server.ts',
    '--bundle',
    '--platform=node',
    '--format=esm',
    '--target=node20',
    `--outdir=${out}`,
    '--out-extension:.js=.mjs',
    '--packages=external',
    '--log-level=warning',
  ],
  { cwd: root, stdio: 'inherit' },
);
if (built.status !== 0) process.exit(built.status ?? 1);
const ran = spawnSync(process.execPath, ['--expose-gc', join(out, 'soak-main.mjs'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(ran.status ?? 1);
