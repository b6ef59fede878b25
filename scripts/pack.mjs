#!/usr/bin/env node
// Build the package once and pack it, for the package checks of `npm test` (publint, attw,
// size-limit, scripts/smoke.mjs), which all read what this writes:
//   dist/                       the build (tsdown.config.ts)
//   .cache/package/toolgate.tgz the tarball npm would publish
// It also checks what a bundler cannot: 'use client' opens the React entry and no other file, and
// the built code imports nothing but the declared dependencies and peers.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
process.chdir(root);
const out = join(root, '.cache', 'package');
const fail = (message) => {
  console.error(`pack: ${message}`);
  process.exit(1);
};
const run = (command, args) => {
  console.log(`> ${[command, ...args].join(' ')}`);
  const child = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (child.status !== 0) fail(`${command} exited with ${child.status}\n${child.stdout}`);
  return child.stdout;
};

const started = Date.now();
// No tarball from an earlier run may stand in for a build that fails now.
rmSync(out, { recursive: true, force: true });
run(join(root, 'node_modules', '.bin', 'tsdown'), ['--log-level', 'warn']);

// 'use client' marks the React entries for frameworks with server components (Next.js): it must be
// the file's first statement, and only there, since core, testing, adapters and client run anywhere.
const REACT_ENTRIES = ['index.js', 'renderers.js', 'mcp-apps.js', 'devtools.js'];
const files = readdirSync('dist', { recursive: true }).map(String).filter((f) => f.endsWith('.js'));
for (const file of files) {
  const text = readFileSync(join('dist', file), 'utf8');
  const marked = /^(['"])use client\1;?\s*$/m.test(text.split('\n')[0] ?? '');
  if (REACT_ENTRIES.includes(file) && !marked) fail(`dist/${file} does not begin with 'use client'`);
  if (!REACT_ENTRIES.includes(file) && /(['"])use client\1/.test(text)) fail(`dist/${file} says 'use client'; only the React entries may`);
}

// Every bare import of the built code must be a declared dependency or peer.
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const used = new Map();
for (const file of files) {
  const text = readFileSync(join('dist', file), 'utf8');
  for (const [, fromSpec, dynamicSpec] of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]/g)) {
    const spec = fromSpec ?? dynamicSpec;
    if (!spec || spec.startsWith('.')) continue;
    if (!declared.has(packageOf(spec))) fail(`dist/${file} imports '${spec}', which package.json does not declare`);
    used.set(spec, (used.get(spec) ?? 0) + 1);
  }
}
console.log(`dist/: ${files.length} modules; imports ${[...used.keys()].sort().join(', ')}`);

mkdirSync(out, { recursive: true });
const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', out]));
if (!packed) fail('npm pack reported nothing');
renameSync(join(out, packed.filename), join(out, 'toolgate.tgz'));
const packedPaths = new Set(packed.files.map((f) => f.path));
const stray = [...packedPaths].filter((p) => !/^(dist\/|docs\/[\w-]+\.md$|package\.json$|README\.md$|LICENSE$)/.test(p));
if (stray.length) fail(`the tarball holds files outside dist/ and docs/: ${stray.join(', ')}`);
if (!packedPaths.has('LICENSE')) fail('the tarball has no LICENSE');
// Every relative link of the shipped Markdown points to a shipped file: a reader of the
// installed package (or of its page on the registry) never meets a dead link.
for (const page of [...packedPaths].filter((p) => p.endsWith('.md'))) {
  const text = readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '');
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:|^#/.test(target)) continue;
    const path = join(dirname(page), target.split('#')[0]).replace(/\\/g, '/');
    if (!packedPaths.has(path)) fail(`${page} links to ${target}, which the tarball does not hold`);
  }
}
console.log(
  `${relative(root, join(out, 'toolgate.tgz'))}: ${packed.entryCount} files, ${(packed.size / 1000).toFixed(1)} kB packed, ` +
    `${(packed.unpackedSize / 1000).toFixed(1)} kB unpacked (${Date.now() - started} ms)`,
);
