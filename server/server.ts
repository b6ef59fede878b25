/**
 * The reference server: a WebSocket endpoint (package `ws`) speaking the session of
 * docs/protocol.md, as the agent and as the room. See server/README.md for the protocol, its limits, and what
 * a deployment must add.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { builtInServerTools, defaultBeforeToolCall, type BeforeToolCall, type ServerTool } from './agent-tools';
import { serveConnection } from './connection';
import { registerIntrospection, type ServerFootprint } from './introspect';
import { resolveLimits, type ServerLimits } from './limits';
import { originAllowed, type OriginPolicy } from './origins';
import type { FaultSpec } from './protocol';
import { Records, type EffectRecord, type IgnoredRecord, type TraceRecord } from './records';
import { SessionRegistry } from './registry';
import { Room, type RoomOptions } from './room';
import { BUILT_IN_SCRIPTS, type Script } from './scripts';
import type { Session, SessionConfig } from './session';
import { systemTimer, type Timer } from './timer';
import { createApprovalSigner } from '../src/server/approval-signer';

export interface ReferenceServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /**
   * The web pages that may open a session: their origins (`http://127.0.0.1:8787`), or a function
   * of the origin. A browser's upgrade from any other origin gets HTTP 403 before any session
   * exists. A client that is not a browser sends no `Origin` and is let through (only
   * authentication can tell such clients apart). Default none: no page may connect.
   */
  allowedOrigins?: OriginPolicy;
  /** Pacing of scripted turns: 1 is realistic, 4 four times faster, Infinity (or 0) instant. */
  speed?: number;
  /** Base delay of one argument fragment at speed 1, in ms (default 30; 0 = instant). */
  tokenDelayMs?: number;
  /** The clock for pacing, timeouts, expiries and message budgets (tests pass a manual one). */
  timer?: Timer;
  /** App tools are offered to the model only when the agent accepts them. Default 'accept'. */
  clientTools?: 'accept' | 'ignore';
  /** Whether the server speaks tool-stream-v1 at all (false: a legacy server, previews only). Default true. */
  toolStream?: boolean;
  /** How long an app-tool call may take. Default 120000. */
  clientToolTimeoutMs?: number;
  /** How long a session without a socket waits for a resume before it closes, and a closed one is remembered. Default 300000. */
  resumeWindowMs?: number;
  /** The before-tool-call gate (docs/protocol.md, "The agent's side"); the default asks the page to approve high-risk calls. */
  beforeToolCall?: BeforeToolCall;
  /** Server tools besides the built-in ones (same name replaces). */
  serverTools?: readonly ServerTool[];
  /** Scripts besides the built-in ones (same name replaces). */
  scripts?: readonly Script[];
  /** The room: its id, tools, and the grants each session gets (`grants`, a list or a function of the session). */
  room?: RoomOptions;
  /** Fault injection: `false` refuses `fault` messages; an object also arms faults for every new session. */
  faults?: boolean | { enabled?: boolean; dropInvokeResponses?: number; responseDelayMs?: number };
  /** Frame size, depth and values, message budget, sessions, expiries, what is kept (see ServerLimits). */
  limits?: Partial<ServerLimits>;
  /** Diagnostics (a crashed turn, a socket error); default silent. */
  log?: (line: string) => void;
  /**
   * The secret approval requests are signed with (at least 32 bytes; docs/protocol.md "Signed
   * approvals"). Default: 32 random bytes made when the server starts, so tokens die with it.
   */
  approvalSecret?: string | Uint8Array;
}

export interface ReferenceServer {
  /** `ws://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly room: Room;
  readonly limits: Readonly<ServerLimits>;
  /** Effects, in order (room invocations and server-tool writes, accepted, refused or failed); bounded. */
  readonly effects: readonly EffectRecord[];
  /** Internal trace publications (`tool.invoked`, `tool.completed`, `tool.failed`); bounded. */
  readonly traces: readonly TraceRecord[];
  /** Client messages and upgrades the server refused or ignored, with the reason; bounded. */
  readonly ignored: readonly IgnoredRecord[];
  /** Live (not closed) sessions by id. */
  readonly sessions: ReadonlyMap<string, Session>;
  /** A session by id, live or recently closed. */
  session(id: string): Session | undefined;
  /** Server-side final close of a session: `closed`, then no resume. */
  closeSession(id: string): boolean;
  /** Drop a session's socket as a network failure would; the session stays resumable. */
  dropConnection(id: string): boolean;
  injectFault(id: string, fault: FaultSpec): boolean;
  /** Close every session (`closed`), every socket, and stop listening. */
  close(): Promise<void>;
}

/** Answer an upgrade that may not go on with a plain HTTP status, before any WebSocket exists. */
function refuseUpgrade(socket: Duplex, status: number, text: string, message: string): void {
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.on('error', () => {});
}

/** The session configuration, records and room a server's sessions share. */
function configure(options: ReferenceServerOptions, limits: ServerLimits): SessionConfig {
  const timer = options.timer ?? systemTimer;
  const records = new Records(() => timer.now(), {
    perSession: limits.maxRecordsPerSession,
    total: limits.maxRecords,
    valueBytes: limits.maxRecordedValueBytes,
  });
  const room = new Room(records, () => timer.now(), {
    confirmationTtlMs: limits.confirmationTtlMs,
    maxUnusedConfirmations: limits.maxUnusedConfirmations,
    ...options.room,
    // The limits every frame is held to: arguments read from a frame were checked against them.
    argumentLimits: { maxDepth: limits.maxDepth, maxNodes: limits.maxNodes },
  });
  const faultOptions = typeof options.faults === 'object' ? options.faults : {};
  const serverTools = new Map<string, ServerTool>();
  for (const tool of [...builtInServerTools(), ...(options.serverTools ?? [])]) serverTools.set(tool.name, tool);
  const scripts = new Map<string, Script>();
  for (const script of [...BUILT_IN_SCRIPTS, ...(options.scripts ?? [])]) scripts.set(script.name, script);
  return {
    toolStream: options.toolStream ?? true,
    clientTools: options.clientTools ?? 'accept',
    clientToolTimeoutMs: options.clientToolTimeoutMs ?? 120_000,
    resumeWindowMs: options.resumeWindowMs ?? 300_000,
    speed: options.speed ?? 1,
    tokenDelayMs: options.tokenDelayMs ?? 30,
    faultsEnabled: options.faults === false ? false : (faultOptions.enabled ?? true),
    initialFaults: {
      dropInvokeResponses: faultOptions.dropInvokeResponses ?? 0,
      responseDelayMs: faultOptions.responseDelayMs ?? 0,
    },
    serverTools,
    scripts,
    beforeToolCall: options.beforeToolCall ?? defaultBeforeToolCall,
    timer,
    room,
    records,
    approvalSigner: createApprovalSigner({
      secret: options.approvalSecret ?? globalThis.crypto.getRandomValues(new Uint8Array(32)),
      now: () => timer.now(),
      // A request without its own expiry waits as long as its session may; its token lives an hour.
      ttlMs: 60 * 60_000,
    }),
    limits: {
      maxReplayBytes: limits.maxReplayBytes,
      maxTurnsKept: limits.maxTurnsKept,
      maxDroppedKept: 100,
      maxBufferedBytes: limits.maxBufferedBytes,
      unusedSessionTtlMs: limits.unusedSessionTtlMs,
      maxScriptSize: limits.maxScriptSize,
      minTurnSpeed: limits.minTurnSpeed,
    },
    log: options.log ?? (() => {}),
  };
}

interface Endpoint {
  http: Server;
  sockets: Set<WebSocket>;
  stop(): void;
}

/**
 * The HTTP server whose upgrades become sessions' sockets: the origin is checked first (403
 * before any WebSocket exists), frames are limited in size by ws itself, and a heartbeat drops
 * sockets whose peer vanished without a close.
 */
function openEndpoint(options: ReferenceServerOptions, limits: ServerLimits, config: SessionConfig, registry: SessionRegistry): Endpoint {
  const { records, timer, log } = config;
  const allowedOrigins = options.allowedOrigins ?? [];
  const sockets = new Set<WebSocket>();
  /** Sockets that answered the last ping (or opened since). */
  const alive = new Set<WebSocket>();
  // ws's maxPayload: a frame larger than the limit closes the socket with 1009 as soon as its
  // header says so, before its payload is buffered.
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes });
  const http = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket' }).end('this is a WebSocket endpoint\n');
  });
  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const origin = request.headers.origin;
    if (!originAllowed(allowedOrigins, origin)) {
      records.addIgnored({ sessionId: undefined, message: 'upgrade', reason: 'origin-not-allowed', detail: origin });
      refuseUpgrade(socket, 403, 'Forbidden', `origin not allowed: ${String(origin)}`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      alive.add(ws);
      ws.on('pong', () => alive.add(ws));
      ws.on('close', () => {
        sockets.delete(ws);
        alive.delete(ws);
      });
      ws.on('error', (error) => log(`socket error: ${error.message}`));
      serveConnection(ws, { registry, records, limits, timer, origin, address: request.socket.remoteAddress ?? '' });
    });
  });
  http.on('error', (error) => log(`server error: ${error.message}`));
  // A socket whose peer vanished without a close (a sleeping laptop, a cut cable) answers no ping:
  // it is dropped like a lost connection, and its session waits for a resume.
  const heartbeat =
    limits.heartbeatMs > 0 && Number.isFinite(limits.heartbeatMs)
      ? setInterval(() => {
          for (const ws of sockets) {
            if (!alive.delete(ws)) ws.terminate();
            else ws.ping();
          }
        }, limits.heartbeatMs).unref()
      : undefined;
  return { http, sockets, stop: () => clearInterval(heartbeat) };
}

/** Close every session (so `closed` reaches the pages), then every socket, then stop listening. */
async function shutDown(endpoint: Endpoint, registry: SessionRegistry): Promise<void> {
  const { http, sockets } = endpoint;
  endpoint.stop();
  registry.closeAll('shutdown');
  for (const s of sockets) if (s.readyState === 1) s.close(1001, 'server shutting down');
  // Let close handshakes finish so `closed` reaches the clients, then cut what is left.
  const pending = [...sockets].filter((s) => s.readyState !== 3);
  await Promise.race([
    Promise.all(pending.map((s) => new Promise<void>((resolve) => (s.readyState === 3 ? resolve() : s.once('close', () => resolve()))))),
    new Promise<void>((resolve) => setTimeout(resolve, 500).unref()),
  ]);
  for (const s of sockets) s.terminate();
  registry.forgetAll();
  const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeAllConnections();
  await stopped;
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const host = options.host ?? '127.0.0.1';
  const limits = resolveLimits(options.limits);
  const config = configure(options, limits);
  const { room, records } = config;
  const registry = new SessionRegistry(config, limits.maxSessions, limits.maxSessionsPerAddress);
  const endpoint = openEndpoint(options, limits, config, registry);
  await new Promise<void>((resolve, reject) => {
    endpoint.http.once('error', reject);
    endpoint.http.listen(options.port ?? 8787, host, () => resolve());
  });
  const port = (endpoint.http.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  const server: ReferenceServer = {
    url: `ws://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    host,
    room,
    limits,
    effects: records.effects,
    traces: records.traces,
    ignored: records.ignored,
    sessions: registry.live,
    session: (id) => registry.get(id),
    closeSession(id) {
      const s = registry.live.get(id);
      if (!s) return false;
      s.close('server');
      return true;
    },
    dropConnection(id) {
      return registry.live.get(id)?.dropConnection() ?? false;
    },
    injectFault(id, fault) {
      const s = registry.live.get(id);
      if (!s) return false;
      s.injectFault(fault);
      return true;
    },
    close() {
      closing ??= shutDown(endpoint, registry);
      return closing;
    },
  };
  registerIntrospection(server, (): ServerFootprint => {
    const sessions: ServerFootprint['sessions'] = {};
    for (const [id, session] of registry.live) sessions[id] = session.footprint();
    return { ...registry.counts(), sockets: endpoint.sockets.size, room: room.counts(), records: records.sessionCounts(), sessions };
  });
  return server;
}
