/**
 * A real `ws` client for the reference server tests: it records every frame and lets a test
 * wait for a frame that matches, never for time.
 */
import WebSocket from 'ws';
import { afterEach } from 'vitest';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../server/server';

// Frames are whatever the server sent; tests read fields freely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Frame = Record<string, any>;

const WAIT_MS = 3000;

export class TestClient {
  /** Every decoded frame, in arrival order (frames that are not JSON objects land in `raw` only). */
  readonly frames: Frame[] = [];
  readonly raw: string[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly listeners = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const text = String(data);
      this.raw.push(text);
      try {
        const value: unknown = JSON.parse(text);
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) this.frames.push(value as Frame);
      } catch {
        // kept in `raw`
      }
      for (const listener of [...this.listeners]) listener();
    });
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        resolve({ code, reason: String(reason) });
        for (const listener of [...this.listeners]) listener();
      });
    });
    socket.on('error', () => {});
  }

  /** Open a socket; with `origin`, the upgrade carries that `Origin` header, as a browser's would. */
  static open(url: string, origin?: string): Promise<TestClient> {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new TestClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Record the frames of a socket opened elsewhere (with options of its own, such as `localAddress`). */
  static adopt(socket: WebSocket): TestClient {
    return new TestClient(socket);
  }

  /** Connect and say hello; resolves with the welcome. */
  static async connect(url: string, hello: Frame = {}): Promise<{ client: TestClient; welcome: Frame }> {
    return TestClient.connectFrom(url, undefined, hello);
  }

  /** Connect as a page of `origin` would, and say hello. */
  static async connectFrom(url: string, origin: string | undefined, hello: Frame = {}): Promise<{ client: TestClient; welcome: Frame }> {
    const client = await TestClient.open(url, origin);
    client.send({ type: 'hello', capabilities: ['tool-stream-v1'], tools: APP_TOOLS, ...hello });
    const welcome = await client.waitFor((f) => f.type === 'session.welcome' || f.type === 'session.refused');
    return { client, welcome };
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  sendText(text: string): void {
    this.socket.send(text);
  }

  /** The first frame (from index `from`) that matches; waits for it if none has come yet. */
  waitFor(predicate: (f: Frame) => boolean, from = 0, label = predicate.toString()): Promise<Frame> {
    let next = from;
    return new Promise((resolve, reject) => {
      const check = () => {
        // Resume where the last check stopped, so waiting over many frames stays linear.
        for (; next < this.frames.length; next++) {
          const frame = this.frames[next]!;
          if (predicate(frame)) {
            cleanup();
            resolve(frame);
            return true;
          }
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no frame matched ${label} within ${WAIT_MS} ms; got:\n${this.raw.slice(-15).join('\n')}`));
      }, WAIT_MS);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      const listener = () => void check();
      if (check()) return;
      this.listeners.add(listener);
    });
  }

  /** Wait until `count` raw frames have arrived. */
  waitForRaw(count: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${this.raw.length} raw frames, wanted ${count}`)), WAIT_MS);
      const listener = () => {
        if (this.raw.length >= count) {
          clearTimeout(timer);
          this.listeners.delete(listener);
          resolve();
        }
      };
      this.listeners.add(listener);
      listener();
    });
  }

  /** Sends a describeTools request and waits for its answer: everything sent before it was handled. */
  async roundTrip(): Promise<void> {
    const id = `sync-${Math.random().toString(36).slice(2)}`;
    this.send({ type: 'room.request', id, method: 'describeTools', params: {} });
    await this.waitFor((f) => f.type === 'room.response' && f.id === id);
  }

  async room(method: string, params: Frame = {}): Promise<Frame> {
    const id = `r-${Math.random().toString(36).slice(2)}`;
    this.send({ type: 'room.request', id, method, params });
    return this.waitFor((f) => f.type === 'room.response' && f.id === id);
  }

  /** Sequenced events received so far. */
  events(): Frame[] {
    return this.frames.filter((f) => typeof f.seq === 'number');
  }

  stream(callId?: string): Frame[] {
    return this.frames.filter((f) => f.type === 'tool.stream' && (callId === undefined || f.callId === callId));
  }

  phases(callId: string): string[] {
    return this.stream(callId).map((f) => f.phase as string);
  }

  /** Start a turn and wait for its `turn.ended`. */
  async runTurn(prompt: string, extra: Frame = {}): Promise<{ turnId: string; ended: Frame }> {
    const from = this.frames.length;
    this.send({ type: 'turn.start', prompt, ...extra });
    const started = await this.waitFor((f) => f.type === 'turn.started' && f.prompt === prompt, from);
    const ended = await this.waitFor((f) => f.type === 'turn.ended' && f.turnId === started.turnId, from);
    return { turnId: started.turnId as string, ended };
  }

  close(): Promise<{ code: number; reason: string }> {
    this.socket.close();
    return this.closed;
  }

  terminate(): Promise<{ code: number; reason: string }> {
    this.socket.terminate();
    return this.closed;
  }
}

/** Try an upgrade that the server refuses: resolves with the HTTP status and body it answered. */
export function refusedUpgrade(url: string, origin: string | undefined, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const socket = new WebSocket(url, { ...(origin === undefined ? {} : { origin }), headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.terminate();
      reject(new Error(`the upgrade to ${url} from ${String(origin)} was accepted`));
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once('error', () => {});
  });
}

/** The app tools the built-in scripts call, as a page would declare them. */
export const APP_TOOLS = [
  {
    name: 'set_title',
    description: 'Set the document title.',
    parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  },
  {
    name: 'insert_text',
    description: 'Insert text into the document.',
    parameters: { type: 'object', properties: { text: { type: 'string' }, position: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'send_invoice',
    description: 'Send an invoice through the room after the user confirms it.',
    parameters: { type: 'object', properties: { customerId: { type: 'string' }, amount: { type: 'number' } } },
  },
];

/**
 * Authority over every room tool but confirming `delete_customer`: these tests exercise each room
 * tool, where a session gets only what the demo needs unless granted more.
 */
export const ROOM_TEST_GRANTS = ['tool:invoke:*', 'tool:confirm:lookup_customer', 'tool:confirm:add_note', 'tool:confirm:send_invoice'];

/** Start a server on a free port with instant pacing and ROOM_TEST_GRANTS unless told otherwise. */
export function startTestServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  return startReferenceServer({ port: 0, speed: Infinity, room: { grants: ROOM_TEST_GRANTS }, ...options });
}

/**
 * The servers and clients of a file's tests, closed after each test: one cleanup for every file,
 * so that no test leaves a socket or a server open for the next. Call it once, at the top of the file.
 */
export function useTestServer() {
  const servers: ReferenceServer[] = [];
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.socket.terminate();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  /** The server the test started last. */
  const server = (): ReferenceServer => {
    const last = servers.at(-1);
    if (last === undefined) throw new Error('no server started in this test');
    return last;
  };
  /** Terminate `client` after the test. */
  const track = (client: TestClient): TestClient => {
    clients.push(client);
    return client;
  };
  return {
    /** Start a server as startTestServer does, closed after the test. */
    async startServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
      const started = await startTestServer(options);
      servers.push(started);
      return started;
    },
    server,
    /** Connect to the test's server (as a page of `origin`, if given) and say hello; the client is terminated after the test. */
    async connect(hello: Frame = {}, origin?: string): Promise<{ client: TestClient; welcome: Frame }> {
      const result = await TestClient.connectFrom(server().url, origin, hello);
      track(result.client);
      return result;
    },
    track,
  };
}

/** The `hello` fields that resume the session of `welcome` after `lastSeq`. */
export function resumeOf(welcome: Frame, lastSeq: number): Frame {
  return { resume: { sessionId: welcome.sessionId, token: welcome.resumeToken, lastSeq } };
}

/** Answer every `tool.call` as it comes, with `answer(call)`. */
export function autoAnswer(client: TestClient, answer: (call: Frame) => unknown = () => ({ ok: true, output: null })): void {
  let next = 0;
  const listener = () => {
    for (; next < client.frames.length; next++) {
      const f = client.frames[next]!;
      if (f.type === 'tool.call') client.send({ type: 'tool.result', callId: f.callId, epoch: f.epoch, result: answer(f) });
    }
  };
  client.socket.on('message', () => setImmediate(listener));
}
