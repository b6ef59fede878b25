/**
 * The reference server: a WebSocket endpoint (package `ws`) speaking the session of DESIGN.md
 * for the two runtimes of the seeds. See server/README.md for the protocol.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { builtInServerTools, defaultBeforeToolCall, type BeforeToolCall, type ServerTool } from './agent-tools';
import { parseClientFrame, type FaultSpec } from './protocol';
import { Records, type EffectRecord, type IgnoredRecord, type TraceRecord } from './records';
import { Room, type RoomOptions } from './room';
import { BUILT_IN_SCRIPTS, type Script } from './scripts';
import { Session, type SessionConfig } from './session';
import { systemTimer, type Timer } from './timer';

export interface ReferenceServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Pacing of scripted turns: 1 is realistic, 4 four times faster, Infinity (or 0) instant. */
  speed?: number;
  /** Base delay of one argument fragment at speed 1, in ms (default 30; 0 = instant). */
  tokenDelayMs?: number;
  /** The clock for pacing, timeouts and delays (tests pass a manual one). */
  timer?: Timer;
  /** seed 000: app tools are offered to the model only when the agent accepts them. Default 'accept'. */
  clientTools?: 'accept' | 'ignore';
  /** Whether the server speaks tool-stream-v1 at all (false: a legacy server, previews only). Default true. */
  toolStream?: boolean;
  /** seed 000 `clientToolTimeoutMs`: how long an app-tool call may take. Default 120000. */
  clientToolTimeoutMs?: number;
  /** How long a session without a socket waits for a resume before it closes. Default 300000. */
  resumeWindowMs?: number;
  /** seed 000 `beforeToolCall`; the default asks the page to approve high-risk calls. */
  beforeToolCall?: BeforeToolCall;
  /** Server tools besides the built-in ones (same name replaces). */
  serverTools?: readonly ServerTool[];
  /** Scripts besides the built-in ones (same name replaces). */
  scripts?: readonly Script[];
  room?: RoomOptions;
  /** Fault injection: `false` refuses `fault` messages; an object also arms faults for every new session. */
  faults?: boolean | { enabled?: boolean; dropInvokeResponses?: number; responseDelayMs?: number };
  /** Largest accepted client frame, in bytes. Default 16 MiB. */
  maxPayload?: number;
  /** Diagnostics (a crashed turn); default silent. */
  log?: (line: string) => void;
}

export interface ReferenceServer {
  /** `ws://127.0.0.1:PORT` */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly room: Room;
  /** Every effect, in order: room invocations and server-tool writes, accepted, refused or failed. */
  readonly effects: readonly EffectRecord[];
  /** Internal trace publications (`tool.invoked`, `tool.completed`, `tool.failed`). */
  readonly traces: readonly TraceRecord[];
  /** Client messages the server ignored, with the reason. */
  readonly ignored: readonly IgnoredRecord[];
  /** Live (not closed) sessions by id. */
  readonly sessions: ReadonlyMap<string, Session>;
  /** A session by id, live or closed. */
  session(id: string): Session | undefined;
  /** Server-side final close of a session: `closed`, then no resume. */
  closeSession(id: string): boolean;
  /** Drop a session's socket as a network failure would; the session stays resumable. */
  dropConnection(id: string): boolean;
  injectFault(id: string, fault: FaultSpec): boolean;
  /** Close every session (`closed`), every socket, and stop listening. */
  close(): Promise<void>;
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const host = options.host ?? '127.0.0.1';
  const timer = options.timer ?? systemTimer;
  const records = new Records(() => timer.now());
  const room = new Room(records, () => timer.now(), options.room);
  const faultOptions = typeof options.faults === 'object' ? options.faults : {};
  const serverTools = new Map<string, ServerTool>();
  for (const tool of [...builtInServerTools(), ...(options.serverTools ?? [])]) serverTools.set(tool.name, tool);
  const scripts = new Map<string, Script>();
  for (const script of [...BUILT_IN_SCRIPTS, ...(options.scripts ?? [])]) scripts.set(script.name, script);
  const log = options.log ?? (() => {});

  const live = new Map<string, Session>();
  const all = new Map<string, Session>();
  const sockets = new Set<WebSocket>();

  const config: SessionConfig = {
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
    log,
  };

  const wss = new WebSocketServer({ host, port: options.port ?? 8787, maxPayload: options.maxPayload ?? 16 * 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  wss.on('error', (error) => log(`server error: ${error.message}`));
  const port = (wss.address() as AddressInfo).port;

  wss.on('connection', (socket) => {
    sockets.add(socket);
    let session: Session | undefined;
    const reply = (frame: Record<string, unknown>) => {
      if (socket.readyState === 1) socket.send(JSON.stringify(frame));
    };

    socket.on('message', (data, isBinary) => {
      const ignore = (reason: string, code: string, message: string) => {
        records.addIgnored({ sessionId: session?.id, message: 'frame', reason });
        reply({ type: 'error', code, message });
      };
      if (isBinary) return ignore('binary-frame', 'BAD_JSON', 'frames are JSON text');
      let value: unknown;
      try {
        value = JSON.parse(textOf(data));
      } catch {
        return ignore('invalid-json', 'BAD_JSON', 'the frame is not JSON');
      }
      const parsed = parseClientFrame(value);
      if (!parsed.ok) {
        records.addIgnored({
          sessionId: session?.id,
          message: typeof (value as { type?: unknown })?.type === 'string' ? (value as { type: string }).type : 'frame',
          reason: parsed.code === 'UNKNOWN_MESSAGE' ? 'unknown-message' : 'bad-message',
          detail: parsed.message,
        });
        reply({ type: 'error', code: parsed.code, message: parsed.message });
        return;
      }
      const frame = parsed.frame;
      if (frame.type === 'hello' && !session) {
        if (frame.sessionId !== undefined) {
          const existing = live.get(frame.sessionId);
          if (!existing) {
            const closed = all.has(frame.sessionId);
            reply({
              type: 'session.refused',
              sessionId: frame.sessionId,
              reason: closed ? 'closed' : 'unknown',
              message: closed ? 'that session was closed for good; start a new one' : 'no such session',
            });
            socket.close(closed ? 4410 : 4404, closed ? 'session closed' : 'unknown session');
            return;
          }
          session = existing;
          existing.attach(socket, frame, true);
          return;
        }
        const id = `sess_${randomBytes(8).toString('hex')}`;
        session = new Session(id, config, (s) => live.delete(s.id));
        live.set(id, session);
        all.set(id, session);
        session.attach(socket, frame, false);
        return;
      }
      if (!session) {
        records.addIgnored({ sessionId: undefined, message: frame.type, reason: 'hello-required' });
        reply({ type: 'error', code: 'HELLO_REQUIRED', message: 'say hello first' });
        return;
      }
      // A socket replaced by a resume, or of a closed session, speaks for nobody.
      if (!session.isAttached(socket)) return;
      session.handle(frame);
    });
    socket.on('close', () => {
      sockets.delete(socket);
      session?.detach(socket);
    });
    socket.on('error', (error) => log(`socket error: ${error.message}`));
  });

  let closing: Promise<void> | undefined;
  return {
    url: `ws://${host}:${port}`,
    port,
    host,
    room,
    effects: records.effects,
    traces: records.traces,
    ignored: records.ignored,
    sessions: live,
    session: (id) => all.get(id),
    closeSession(id) {
      const s = live.get(id);
      if (!s) return false;
      s.close('server');
      return true;
    },
    dropConnection(id) {
      return live.get(id)?.dropConnection() ?? false;
    },
    injectFault(id, fault) {
      const s = live.get(id);
      if (!s) return false;
      s.injectFault(fault);
      return true;
    },
    close() {
      closing ??= (async () => {
        for (const s of [...live.values()]) s.close('shutdown');
        for (const s of sockets) if (s.readyState === 1) s.close(1001, 'server shutting down');
        // Let close handshakes finish so `closed` reaches the clients, then cut what is left.
        const pending = [...sockets].filter((s) => s.readyState !== 3);
        await Promise.race([
          Promise.all(pending.map((s) => new Promise<void>((resolve) => (s.readyState === 3 ? resolve() : s.once('close', () => resolve()))))),
          new Promise<void>((resolve) => setTimeout(resolve, 500).unref()),
        ]);
        for (const s of sockets) s.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
      })();
      return closing;
    },
  };
}
