/**
 * What the built-output tests build, once per run of the e2e project: the packed package as an
 * app installs it, and the static Storybook. Each lands in the run's folder (global-setup.ts),
 * so a second file of the same run reuses it and the next run starts afresh.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

/** The run's folder for builds (removed when the run ends). */
export function runDir(): string {
  return inject('runDir');
}

/**
 * Run a build step; on failure, throw with `pipeline` (which build broke) and the end of its output.
 * `timeoutMs` bounds it: a build that hangs fails the test rather than the whole run.
 */
export function runStep(pipeline: string, command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${pipeline}: could not start ${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${pipeline}: \`${[command, ...args].join(' ')}\` ${signal ? `was stopped (${signal}, too slow)` : `exited with ${code}`}\n${output}`));
    });
  });
}

/** Build `name` into the run's folder once: later calls of the run return the same folder. */
export async function once(name: string, build: (dir: string) => Promise<void>): Promise<string> {
  const dir = join(runDir(), name);
  const done = join(dir, '.built');
  if (existsSync(done)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await build(dir);
  writeFileSync(done, '');
  return dir;
}

/** The newest change time of the files a package build reads. */
function newestSource(): number {
  let newest = 0;
  const visit = (path: string) => {
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of ['src', 'package.json', 'tsdown.config.ts', 'tsconfig.build.json']) visit(join(ROOT, path));
  return newest;
}

/**
 * The package as npm would publish it (.cache/package/toolgate.tgz from scripts/pack.mjs, packed
 * again when a source is newer), unpacked into the run's node_modules/toolgate: every app under
 * the run's folder imports `toolgate` from there, and React and the kit's dependencies from the
 * repository's node_modules, as an app's own install would give them.
 */
export function packedPackage(): Promise<string> {
  return once('node_modules/toolgate', async (dir) => {
    const tarball = join(ROOT, '.cache', 'package', 'toolgate.tgz');
    if (!existsSync(tarball) || statSync(tarball).mtimeMs < newestSource()) await runStep('the package (scripts/pack.mjs)', process.execPath, ['scripts/pack.mjs'], { timeoutMs: 300_000 });
    await runStep('unpacking the package', 'tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
  });
}

/** The static Storybook (`storybook build`), as `npm run build-storybook` makes it. */
export function storybookStatic(): Promise<string> {
  return once('storybook-static', (dir) =>
    runStep('the static Storybook (storybook build)', bin('storybook'), ['build', '--quiet', '-o', dir], {
      env: { STORYBOOK_DISABLE_TELEMETRY: '1' },
      timeoutMs: 300_000,
    }),
  );
}
