// Serves the built demo and forwards WebSocket upgrades to the reference server, so that the page
// and its socket share one origin (http://HOST:PORT/ and ws://HOST:PORT/ws). Plain Node, no
// dependencies: `npm start` and the end-to-end tests both use it.
//
// Only for allowed origins (the page's own, and any given): a request whose Host is not one of
// theirs (a DNS-rebinding page reaching 127.0.0.1 under another name) or whose Origin is another
// site's gets 403, before anything is served or forwarded. The reference server checks the
// upgrade's Origin again on its side.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** `scheme://host[:port]` as a browser sends it, or undefined. */
function originOf(value) {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The page's own origins: http://HOST:PORT, and every loopback name when HOST is one (or all interfaces). */
function ownOrigins(host, port) {
  const names = LOOPBACK.has(host) || host === '0.0.0.0' || host === '::' ? ['127.0.0.1', 'localhost', '[::1]'] : [host.includes(':') ? `[${host}]` : host];
  return names.map((name) => originOf(`http://${name}:${port}`)).filter(Boolean);
}

/**
 * @param {{ root: string, target: string, host?: string, port?: number, allowedOrigins?: readonly string[] }} options
 *   `root`: the built demo; `target`: the reference server's ws:// URL; `allowedOrigins`: origins
 *   besides the page's own (a proxy's public address, say).
 * @returns {Promise<{ url: string, wsUrl: string, port: number, allowedOrigins: string[], close: () => Promise<void> }>}
 */
export async function serveDemo({ root, target, host = '127.0.0.1', port = 0, allowedOrigins = [] }) {
  const base = resolve(root);
  const upstream = new URL(target);
  const sockets = new Set();
  /** Filled once listening (the port may be the kernel's pick). */
  const allowed = new Set();
  const allowedHosts = new Set();

  /** Why a request may not be served, or undefined when it may. */
  const refusal = (req) => {
    const hostHeader = String(req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(hostHeader)) return `host not allowed: ${hostHeader}`;
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.has(originOf(origin))) return `origin not allowed: ${origin}`;
    return undefined;
  };

  const server = createServer((req, res) => {
    const refused = refusal(req);
    if (refused) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(`${refused}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end('bad path');
      return;
    }
    const file = normalize(join(base, pathname.endsWith('/') ? `${pathname}index.html` : pathname));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end();
      return;
    }
    let stat;
    try {
      stat = statSync(file);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: ${pathname}`);
      return;
    }
    if (!stat.isFile()) {
      res.writeHead(404).end();
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    // Built assets carry a content hash in their names; the page itself must always be fresh.
    const cache = extname(file) === '.html' ? 'no-store' : 'public, max-age=31536000, immutable';
    res.writeHead(200, { 'content-type': type, 'content-length': stat.size, 'cache-control': cache });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file).pipe(res);
  });

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  // A WebSocket upgrade is passed through byte for byte: the reference server does the handshake.
  server.on('upgrade', (req, client, head) => {
    const refused = refusal(req);
    if (refused) {
      client.on('error', () => {});
      client.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(refused) + 1}\r\n\r\n${refused}\n`);
      return;
    }
    const remote = connect(Number(upstream.port), upstream.hostname);
    sockets.add(remote);
    remote.on('close', () => sockets.delete(remote));
    remote.on('connect', () => {
      const lines = [`${req.method} ${upstream.pathname || '/'} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      remote.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) remote.write(head);
      remote.pipe(client);
      client.pipe(remote);
    });
    const end = () => {
      remote.destroy();
      client.destroy();
    };
    remote.on('error', end);
    client.on('error', end);
    remote.on('close', end);
    client.on('close', end);
  });

  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen(undefined));
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shown = host.includes(':') ? `[${host}]` : host;
  for (const origin of [...ownOrigins(host, actualPort), ...allowedOrigins.map(originOf)]) {
    if (origin === undefined) continue;
    allowed.add(origin);
    allowedHosts.add(new URL(origin).host);
  }
  return {
    url: `http://${shown}:${actualPort}/`,
    wsUrl: `ws://${shown}:${actualPort}/ws`,
    port: actualPort,
    allowedOrigins: [...allowed],
    close: () =>
      new Promise((resolveClose) => {
        server.close(() => resolveClose(undefined));
        for (const socket of sockets) socket.destroy();
      }),
  };
}
