/**
 * `node server/run.mjs` (or the bundle it builds): the reference server on 127.0.0.1:PORT.
 * Environment: PORT (default 8787, 0 = a free port), HOST (default 127.0.0.1),
 * TOOLGATE_ALLOWED_ORIGINS (the web pages that may open a session, comma-separated; default
 * none), TOOLGATE_SPEED (pacing, default 1; Infinity = instant), TOOLGATE_CLIENT_TOOLS
 * (accept | ignore), TOOLGATE_TOOL_STREAM (0 = a legacy server sending previews only).
 */
import { parseOriginList } from './origins';
import { startReferenceServer } from './server';

function numberFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw === 'Infinity' ? Infinity : Number(raw);
  if (Number.isNaN(value)) throw new Error(`${name} must be a number, not ${JSON.stringify(raw)}`);
  return value;
}

const port = numberFrom('PORT', 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0..65535, not ${port}`);

const allowedOrigins = parseOriginList(process.env.TOOLGATE_ALLOWED_ORIGINS);

const server = await startReferenceServer({
  port,
  allowedOrigins,
  host: process.env.HOST || '127.0.0.1',
  speed: numberFrom('TOOLGATE_SPEED', 1),
  clientTools: process.env.TOOLGATE_CLIENT_TOOLS === 'ignore' ? 'ignore' : 'accept',
  toolStream: process.env.TOOLGATE_TOOL_STREAM !== '0',
  log: (line) => console.error(line),
});
console.log(`toolgate reference server listening on ${server.url}`);
console.log(
  allowedOrigins.length > 0
    ? `pages allowed to connect: ${allowedOrigins.join(', ')}`
    : 'no web page may connect (clients that are not browsers may); set TOOLGATE_ALLOWED_ORIGINS to allow some',
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void server.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
