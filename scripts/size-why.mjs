#!/usr/bin/env node
// What each size-limit check of .size-limit.json is made of: for every check, the built modules
// (dist/, from `npm run build`) that end up in the bundle, with their minified bytes and an
// estimate of their share of the min+gzip total (gzip does not add up per module, so each module
// gets its share of the compressed total in proportion to its minified bytes). Totals come within
// a few percent of size-limit's own (another esbuild version, gzip level 9 here).
// Usage: node scripts/size-why.mjs [name filter]
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const checks = JSON.parse(readFileSync(resolve(root, '.size-limit.json'), 'utf8'));
const filter = process.argv[2];

for (const check of checks) {
  if (filter && !check.name.includes(filter)) continue;
  const file = resolve(root, check.path);
  const result = await build({
    stdin: {
      contents: check.import ? `export ${check.import} from ${JSON.stringify(file)};` : `export * from ${JSON.stringify(file)};`,
      resolveDir: root,
    },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    metafile: true,
    external: check.ignore ?? [],
    logLevel: 'error',
  });
  const code = result.outputFiles[0].contents;
  const gzip = gzipSync(code, { level: 9 }).length;
  const inputs = Object.values(result.metafile.outputs)[0].inputs;
  const rows = Object.entries(inputs)
    .map(([path, { bytesInOutput }]) => ({ path: path.replace(/^dist\//, ''), bytes: bytesInOutput }))
    .filter((r) => r.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  console.log(`\n${check.name}: ${(gzip / 1000).toFixed(2)} kB min+gzip (${(code.length / 1000).toFixed(1)} kB min), limit ${check.limit}`);
  for (const { path, bytes } of rows) {
    const share = (gzip * bytes) / code.length / 1000;
    console.log(`  ${share.toFixed(2).padStart(6)} kB  ${String(bytes).padStart(6)} B min  ${path}`);
  }
}
