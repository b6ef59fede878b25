// Build server/ into server/dist (Node 20 cannot run TypeScript) and start it.
// Usage: node server/run.mjs   (PORT, HOST, TOOLGATE_SPEED, ... as in server/main.ts)
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsdown';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = fileURLToPath(new URL('./dist', import.meta.url));

await build({
  config: false,
  cwd: root,
  entry: { main: 'server/main.ts', index: 'server/index.ts' },
  outDir,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  dts: false,
  clean: true,
  fixedExtension: true,
  tsconfig: false,
  logLevel: 'warn',
  deps: { skipNodeModulesBundle: true },
});

if (process.argv.includes('--build-only')) process.exit(0);
await import(pathToFileURL(`${outDir}/main.mjs`).href);
