#!/usr/bin/env node
// Package smoke test: install the packed tarball (.cache/package/toolgate.tgz, from scripts/pack.mjs;
// built here if missing) into a fresh project with React 18.3 and another with React 19, then in
// each: import every entry through the exports map with no work at import time, render
// ConfirmToolDialog, ToolCallList, ArgumentsPreview and ToolStatusBadge with react-dom/server and
// resolve the stylesheet (test/package/smoke-run.mjs), and
// type-check a usage file against the installed package and that React's types
// (test/package/usage.tsx, NodeNext resolution). The projects live in .cache/smoke/ and are reused,
// so a second run installs only the new tarball; npm's cache serves the rest (--prefer-offline).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const tarball = join(root, '.cache', 'package', 'toolgate.tgz');
const fixtures = join(root, 'test', 'package');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// The kit's .d.ts files are checked in full (skipLibCheck off) against React 18.3's types, the
// ones they were not written against; with React 19's the repository's own typecheck already
// covers them, so that project checks only the usage file (about 6 s of CPU less).
const PROJECTS = [
  { name: 'react-18', react: '~18.3.1', types: '~18.3.0', libCheck: true },
  { name: 'react-19', react: '^19', types: '^19', libCheck: false },
];

if (!existsSync(tarball)) {
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'pack.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
}

// Output is collected per project and printed at once, so the two projects can run side by side.
function run(command, args, cwd, log) {
  return new Promise((resolve) => {
    log.push(`> ${[command, ...args].join(' ')}`);
    const child = spawn(command, args, { cwd, env: { ...process.env, npm_config_update_notifier: 'false' } });
    child.stdout.on('data', (d) => log.push(String(d).trimEnd()));
    child.stderr.on('data', (d) => log.push(String(d).trimEnd()));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function smoke({ name, react, types, libCheck }) {
  const started = Date.now();
  const log = [];
  const dir = join(root, '.cache', 'smoke', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        name: `toolgate-smoke-${name}`,
        private: true,
        type: 'module',
        dependencies: {
          toolgate: `file:${tarball}`,
          react,
          'react-dom': react,
          '@types/react': types,
          '@types/react-dom': types,
          // toolgate/otel's optional peer: the smoke run imports every entry.
          '@opentelemetry/api': pkg.devDependencies['@opentelemetry/api'],
        },
      },
      null,
      2,
    ),
  );
  // npm keeps an installed file: tarball of the same version ("up to date"): drop it and its lock
  // entry so that this run's build is the one installed. The rest comes from npm's cache.
  rmSync(join(dir, 'node_modules', 'toolgate'), { recursive: true, force: true });
  rmSync(join(dir, 'package-lock.json'), { force: true });
  copyFileSync(join(fixtures, 'smoke-run.mjs'), join(dir, 'smoke-run.mjs'));
  copyFileSync(join(fixtures, 'usage.tsx'), join(dir, 'usage.tsx'));
  copyFileSync(join(fixtures, 'tsconfig.smoke.json'), join(dir, 'tsconfig.json'));

  const steps = [
    ['install', 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']],
    ['render', process.execPath, ['smoke-run.mjs']],
    ['types', process.execPath, [tsc, '-p', 'tsconfig.json', ...(libCheck ? [] : ['--skipLibCheck'])]],
  ];
  const times = [];
  let ok = true;
  for (const [label, command, args] of steps) {
    const t = Date.now();
    if ((await run(command, args, dir, log)) !== 0) {
      log.push(`FAILED: ${name}: ${label}`);
      ok = false;
      break;
    }
    times.push(`${label} ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  log.push(`${ok ? 'ok' : 'FAILED'}: ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s (${times.join(', ')})`);
  return { ok, log };
}

const results = await Promise.all(PROJECTS.map(smoke));
for (const { log } of results) console.log(log.filter(Boolean).join('\n'));
process.exit(results.every((r) => r.ok) ? 0 : 1);
