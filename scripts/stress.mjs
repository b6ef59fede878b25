#!/usr/bin/env node
// npm run test:stress: the story projects (storybook, storybook-dark) and the e2e project, run
// several times in a row with busy CPU workers beside them, as on a loaded CI machine. A test that
// waits on time instead of state fails here first.
//
//   npm run test:stress                                  2 busy workers, 3 runs, every story and e2e file
//   npm run test:stress -- --busy 6 --runs 5             more load, more runs
//   npm run test:stress -- stories/approvals/Approvals.stories.tsx   only these files (vitest filters)
//   npm run test:stress -- --project storybook           only this project (repeatable)
//
// Prints per run "N passed, N failed" (with its time and the load average), then the totals, and
// exits non-zero when any run failed. The busy workers are started and ended here, by their PIDs.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
process.chdir(root);

function parse(argv) {
  const options = { busy: 2, runs: 3, projects: [], filters: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--busy' || flag === '--runs') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < (flag === '--runs' ? 1 : 0)) throw new Error(`${flag} takes a whole number, not ${arg}`);
      options[flag.slice(2)] = n;
    } else if (flag === '--project') options.projects.push(value());
    else if (flag === '--help' || flag === '-h') options.help = true;
    else options.filters.push(arg);
  }
  if (options.projects.length === 0) options.projects = ['storybook', 'storybook-dark', 'e2e'];
  return options;
}

let options;
try {
  options = parse(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
if (options.help) {
  console.log('usage: npm run test:stress -- [--busy N] [--runs N] [--project NAME]... [file filters]...');
  process.exit(0);
}

// The story and e2e projects drive Debian's Chromium (vitest.config.ts reads CHROMIUM_PATH).
process.env.CHROMIUM_PATH ||= '/usr/bin/chromium';
if (!existsSync(process.env.CHROMIUM_PATH)) {
  console.error(`Chromium not found at ${process.env.CHROMIUM_PATH}: set CHROMIUM_PATH.`);
  process.exit(2);
}

// Busy workers: each spins one core until it is ended, by its own PID, when the runs are over.
const workers = [];
for (let i = 0; i < options.busy; i++) {
  workers.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
}
let child;
function endAll() {
  for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}
process.on('exit', endAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    endAll();
    process.exit(130);
  });
}

const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
const report = join(root, '.vitest-results', `stress-${process.pid}.json`);

/** One vitest run of the chosen projects; resolves with its counts and the names of what failed. */
function runOnce() {
  rmSync(report, { force: true });
  const args = ['run', '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`];
  for (const project of options.projects) args.push('--project', project);
  args.push(...options.filters);
  return new Promise((resolve) => {
    child = spawn(join(root, 'node_modules', '.bin', 'vitest'), args, { stdio: 'inherit' });
    child.on('exit', (code) => {
      child = undefined;
      let passed = 0;
      let failed = 0;
      const failures = [];
      const durations = [];
      if (existsSync(report)) {
        const json = JSON.parse(readFileSync(report, 'utf8'));
        passed = json.numPassedTests;
        failed = json.numFailedTests;
        for (const file of json.testResults) {
          for (const t of file.assertionResults) durations.push({ name: `${file.name.replace(`${root}/`, '')} > ${t.fullName}`, ms: t.duration ?? 0 });
          const tests = file.assertionResults.filter((t) => t.status === 'failed');
          for (const t of tests) failures.push(`${file.name.replace(`${root}/`, '')} > ${t.fullName}${t.failureMessages?.[0] ? `: ${t.failureMessages[0].split('\n').find((l) => l.trim()) ?? ''}` : ''}`);
          // A file that fails to load fails without a failed test: count it once.
          if (file.status === 'failed' && tests.length === 0) {
            failures.push(`${file.name.replace(`${root}/`, '')} (did not run${file.message ? `: ${file.message.split('\n')[0]}` : ''})`);
            failed++;
          }
        }
      }
      // Crashed, or failed outside any test (an unhandled error): still a failure.
      if (code !== 0 && failed === 0) {
        failures.push(`vitest exited with code ${code}`);
        failed = 1;
      }
      const slowest = durations.sort((a, b) => b.ms - a.ms).slice(0, 3).map((d) => `${(d.ms / 1000).toFixed(1)} s ${d.name}`);
      resolve({ passed, failed, failures, slowest });
    });
  });
}

console.log(
  `stress: ${options.runs} run(s) of ${options.projects.join(', ')}${options.filters.length ? ` (${options.filters.join(' ')})` : ''} ` +
    `beside ${options.busy} busy worker(s) (PIDs ${workers.map((w) => w.pid).join(', ') || 'none'}); load average ${load()}`,
);
const lines = [];
let failedRuns = 0;
for (let run = 1; run <= options.runs; run++) {
  const started = Date.now();
  const { passed, failed, failures, slowest } = await runOnce();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (failed > 0) failedRuns++;
  const line = `run ${run}: ${passed} passed, ${failed} failed (${seconds} s, load average ${load()})`;
  const details = [...failures.map((f) => `  FAILED ${f}`), ...slowest.map((d) => `  slowest: ${d}`)];
  lines.push(line, ...details);
  console.log(`\n${line}`);
  for (const d of details) console.log(d);
}
endAll();
rmSync(report, { force: true });

console.log(`\nstress summary (${options.busy} busy worker(s)):`);
for (const line of lines) console.log(line);
console.log(`${options.runs - failedRuns} of ${options.runs} runs passed`);
process.exit(failedRuns > 0 ? 1 : 0);
