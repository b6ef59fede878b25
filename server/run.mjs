// Build server/ into server/dist (Node 20 cannot run TypeScript) and start it.
// Usage: node server/run.mjs [--build-only] [--out=DIR]
// Environment: PORT, HOST, TOOLGATE_SPEED, … as documented in server/main.ts.
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'tsdown';

const root = fileURLToPath(new URL('..', import.meta.url));
const outArg = process.argv.find((a) => a.startsWith('--out='));
// A separate folder per caller keeps two concurrent builds (a test, `npm start`) apart.
const outDir = outArg ? resolve(root, outArg.slice('--out='.length)) : fileURLToPath(new URL('./dist', import.meta.url));

await build({
  config: false,
  cwd: root,
  entry: { main: 'server/main.ts', index: 'server/index.ts' },
  outDir,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  dts: false,
  // Stable file names, so a rebuild overwrites rather than piles up.
  hash: false,
  clean: false,
  fixedExtension: true,
  tsconfig: false,
  logLevel: 'warn',
  deps: { skipNodeModulesBundle: true },
});

if (process.argv.includes('--build-only')) process.exit(0);
await import(pathToFileURL(resolve(outDir, 'main.mjs')).href);
