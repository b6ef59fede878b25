#!/usr/bin/env node
// npm start: for now, Storybook (the demo page will take its place).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

process.chdir(dirname(dirname(fileURLToPath(import.meta.url))));

if (!existsSync('node_modules/.package-lock.json')) {
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  if (spawnSync('npm', ['ci'], { stdio: 'inherit', env }).status !== 0) process.exit(1);
}

const port = process.env.PORT || '6006';
console.log(`Storybook: http://localhost:${port}/`);
const storybook = spawn('node_modules/.bin/storybook', ['dev', '-p', port, '--no-open'], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => storybook.kill(signal));
storybook.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
