#!/usr/bin/env node
// npm test: install if needed, find Chromium, type-check, run every vitest project (jsdom unit
// tests and every story in Chromium with axe), then the extra steps below. Ends with the line
// "N passed, N failed" and a non-zero exit code on any failure.
// Arguments go to vitest, e.g. `npm test -- --project unit`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
process.chdir(root);
const bin = (name) => join(root, 'node_modules', '.bin', name);

// Extra test steps, each counted as one test: passed when its command exits with 0.
// Add yours here, e.g. { name: 'package smoke test', command: 'node scripts/smoke.mjs' }.
const extraSteps = [
  // These read the package that step 3b built and packed.
  { name: 'package: publint', command: 'node_modules/.bin/publint run .cache/package/toolgate.tgz --strict' },
  // esm-only: the package ships ESM alone, so the node10 and CommonJS-under-node16 resolutions are
  // not checked (a require() of it needs Node's require(esm), 20.19+). The stylesheet has no types.
  {
    name: 'package: are the types wrong (esm-only)',
    command: 'node_modules/.bin/attw .cache/package/toolgate.tgz --profile esm-only --exclude-entrypoints ./styles.css --no-color',
  },
  { name: 'package: size-limit (.size-limit.json)', command: 'node_modules/.bin/size-limit' },
  { name: 'package: smoke test with React 18.3 and 19', command: 'node scripts/smoke.mjs' },
  // docs/architecture.md, "Conventions": every public export has JSDoc with an @example (TypeScript's API over the barrels).
  { name: 'JSDoc: an @example on every public export', command: 'node scripts/check-examples.mjs' },
];

const results = []; // { name, ok } for each step outside vitest

function run(command, args, options = {}) {
  console.log(`\n> ${[command, ...args].join(' ')}`);
  const child = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (child.error) console.error(child.error.message);
  return child.status ?? 1;
}

function step(name, command, args, options) {
  const ok = run(command, args, options) === 0;
  results.push({ name, ok });
  if (!ok) console.error(`\nFAILED: ${name}`);
  return ok;
}

// 1. Dependencies: npm writes node_modules/.package-lock.json after each install, so it is older
//    than package-lock.json exactly when the lock file changed since (a pull, a new dependency).
const installed = 'node_modules/.package-lock.json';
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync('package-lock.json').mtimeMs) {
  // Playwright cannot download its browsers here; the tests use Debian's Chromium.
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  if (run('npm', ['ci'], { env }) !== 0) {
    console.error('npm ci failed: cannot run the tests.');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

// 2. Chromium, for the story tests (vitest.config.ts reads CHROMIUM_PATH).
function findChromium() {
  for (const path of [process.env.CHROMIUM_PATH, '/usr/bin/chromium']) {
    if (path && existsSync(path)) return path;
  }
  const found = spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

let chromium = findChromium();
if (!chromium) {
  console.error(
    '\nChromium was not found (CHROMIUM_PATH, /usr/bin/chromium, chromium on PATH).\n' +
      'The story tests need it. On Debian or Ubuntu install it with:\n' +
      '  sudo apt-get update && sudo apt-get install -y chromium\n' +
      'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
  );
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (process.getuid?.() === 0 && hasApt) {
    run('sh', ['-c', 'apt-get update && apt-get install -y chromium']);
    chromium = findChromium();
  }
}
const vitestArgs = process.argv.slice(2);
if (chromium) {
  process.env.CHROMIUM_PATH = chromium;
} else {
  // Without a browser only the jsdom tests can run; the missing browser counts as a failure.
  results.push({ name: 'Chromium for the story tests', ok: false });
  vitestArgs.push('--project', 'unit');
}

// 3. Type-check.
step('typecheck (tsc --noEmit)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);

// 3b. The package: built and packed once by scripts/pack.mjs (dist/ and .cache/package/toolgate.tgz,
//     checking 'use client' and that the build imports only declared dependencies), before vitest:
//     the built-output tests (test/e2e/built-styles.test.ts) install that tarball in their apps,
//     and the extra steps below read it.
step('package: build and pack', 'node', ['scripts/pack.mjs']);

// 4. vitest: every project, the default reporter on the console, JSON to a file for the totals.
const report = '.vitest-results/vitest.json';
rmSync(report, { force: true });
const vitestStatus = run(bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...vitestArgs,
]);
let vitestPassed = 0;
let vitestFailed = 0;
const vitestFailures = []; // "file > test" of each failed test, repeated in the summary at the end
if (existsSync(report)) {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  vitestPassed = json.numPassedTests;
  vitestFailed = json.numFailedTests;
  // A file that fails to load fails without a failed test: count it once.
  for (const file of json.testResults) {
    const failedTests = file.assertionResults.filter((t) => t.status === 'failed').length;
    for (const t of file.assertionResults) {
      if (t.status === 'failed') vitestFailures.push(`${relative(root, file.name)} > ${t.fullName}`);
    }
    if (file.status === 'failed' && failedTests === 0) {
      console.error(`FAILED to run: ${file.name}${file.message ? `: ${file.message}` : ''}`);
      vitestFailed += 1;
    }
  }
}
if (vitestStatus !== 0 && vitestFailed === 0) {
  // Crashed, or failed outside any test (an unhandled error, a bad config): still a failure.
  console.error(`\nFAILED: vitest exited with code ${vitestStatus}`);
  vitestFailed = 1;
}

// 5. Extra steps.
for (const { name, command } of extraSteps) step(name, command, [], { shell: true });

const stepsPassed = results.filter((r) => r.ok).length;
const stepsFailed = results.length - stepsPassed;
console.log('');
for (const r of results) console.log(`${r.ok ? 'ok    ' : 'FAILED'} ${r.name}`);
console.log(`vitest: ${vitestPassed} passed, ${vitestFailed} failed`);
// The names again at the very end: a log cut to its tail still says which tests failed.
for (const name of vitestFailures) console.log(`FAILED ${name}`);
const failed = vitestFailed + stepsFailed;
console.log(`${vitestPassed + stepsPassed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
