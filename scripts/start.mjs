#!/usr/bin/env node
// npm start: install if needed, build the reference server and the demo, then serve both from one
// Node process on PORT (default 8787): the page at http://HOST:PORT/ and its WebSocket at
// ws://HOST:PORT/ws, forwarded to the reference server listening on a free local port.
// Stops cleanly on SIGINT and SIGTERM (every session gets `closed` first).
//
// Environment: PORT (default 8787), HOST (default 127.0.0.1), TOOLGATE_ALLOWED_ORIGINS (origins
// besides the page's own that may load the page and open a session, comma-separated), and the
// reference server's TOOLGATE_SPEED (pacing, default 1; Infinity = instant), TOOLGATE_CLIENT_TOOLS
// (accept | ignore), TOOLGATE_TOOL_STREAM (0 = a legacy server sending previews only).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
process.chdir(root);

function fail(message) {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

function numberFrom(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw === 'Infinity' ? Infinity : Number(raw);
  if (Number.isNaN(value)) fail(`${name} must be a number, not ${JSON.stringify(raw)}`);
  return value;
}

const port = numberFrom('PORT', 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`PORT must be 0..65535, not ${port}`);
const host = process.env.HOST || '127.0.0.1';

// 1. Dependencies.
if (!existsSync('node_modules/.package-lock.json')) {
  console.log('Installing dependencies (npm ci)…');
  // Playwright cannot download its browsers here; the tests use Debian's Chromium.
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  if (spawnSync('npm', ['ci'], { stdio: 'inherit', env }).status !== 0) fail('npm ci failed');
}

// 2. The reference server, bundled for Node 20 into a folder of its own (tests build elsewhere).
const serverOut = join('.cache', 'start', 'server');
console.log('Building the reference server…');
if (spawnSync(process.execPath, ['server/run.mjs', '--build-only', `--out=${serverOut}`], { stdio: 'inherit' }).status !== 0) {
  fail('the reference server did not build');
}

// 3. The demo, with Vite, into demo-dist/ (served as files: no dev server).
console.log('Building the demo…');
const { build } = await import('vite');
try {
  await build({ configFile: 'demo/vite.config.ts', logLevel: 'warn' });
} catch (error) {
  fail(`the demo did not build: ${error instanceof Error ? error.message : String(error)}`);
}

// 4. Start both.
const { startReferenceServer, parseOriginList } = await import(pathToFileURL(join(root, serverOut, 'index.mjs')).href);
const { serveDemo } = await import(pathToFileURL(join(root, 'demo', 'serve.mjs')).href);

let extraOrigins;
try {
  extraOrigins = parseOriginList(process.env.TOOLGATE_ALLOWED_ORIGINS);
} catch (error) {
  fail(`TOOLGATE_ALLOWED_ORIGINS: ${error instanceof Error ? error.message : String(error)}`);
}
// The pages that may open a session: the demo's own origin (known once it listens) and those given.
const pageOrigins = new Set(extraOrigins);

const server = await startReferenceServer({
  host: '127.0.0.1',
  port: 0,
  allowedOrigins: (origin) => pageOrigins.has(origin),
  speed: numberFrom('TOOLGATE_SPEED', 1),
  clientTools: process.env.TOOLGATE_CLIENT_TOOLS === 'ignore' ? 'ignore' : 'accept',
  toolStream: process.env.TOOLGATE_TOOL_STREAM !== '0',
  log: (line) => console.error(line),
});
let demo;
try {
  demo = await serveDemo({ root: join(root, 'demo-dist'), target: server.url, host, port, allowedOrigins: extraOrigins });
  for (const origin of demo.allowedOrigins) pageOrigins.add(origin);
} catch (error) {
  await server.close();
  fail(
    error && error.code === 'EADDRINUSE'
      ? `port ${port} is in use; set PORT to another one (PORT=0 picks a free port)`
      : `cannot serve the demo: ${error instanceof Error ? error.message : String(error)}`,
  );
}

console.log('');
console.log(`toolgate demo: open ${demo.url}`);
console.log(`  its session speaks WebSocket at ${demo.wsUrl} (the reference server, forwarded)`);
console.log(`  pages allowed to connect: ${[...pageOrigins].join(', ')} (add others with TOOLGATE_ALLOWED_ORIGINS)`);
console.log('  press Ctrl+C to stop');

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: closing every session and stopping…`);
  // The reference server first, so each page gets its `closed` before the sockets go.
  await server.close();
  await demo.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
