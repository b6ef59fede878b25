/**
 * The reference session's client: one connection at a time, its hello and welcome, the outbox
 * that waits for the welcome, events in `seq` order, reconnects with backoff and resumes with the
 * session's token, and the session's end. `connectReferenceSession` wraps it in the public object.
 */
import type { ToolSessionStatus } from '../core/session/tool-session';
import { createSessionPersistence, type SessionPersistence } from '../core/session/session-persistence';
import { TOOL_STREAM_CAPABILITY, type AppToolCallMessage, type ClientMessage, type ToolDeclaration } from '../core/wire';
import { AnswerLedger } from './unacknowledged-answers';
import { decodeFrame, isWelcome } from './frames';
import type { ReferenceClientMessage, ReferenceHello, ReferenceResume, ReferenceWelcome } from './protocol';
import { RoomChannel, type OutboxItem } from './room-channel';
import type { ReferenceSessionOptions, WebSocketConstructor, WebSocketLike } from './session-types';

const OPEN = 1;
const TERMINAL_PHASES = new Set(['settled', 'cancelled', 'failed']);

/** The keys of the requests a welcome lists as waiting for the page's answer (a field read defensively). */
function waitingKeys(waiting: unknown): Set<string> {
  const keys = new Set<string>();
  if (typeof waiting !== 'object' || waiting === null) return keys;
  const { calls, approvals } = waiting as { calls?: unknown; approvals?: unknown };
  if (Array.isArray(calls)) for (const id of calls) if (typeof id === 'string') keys.add(`call:${id}`);
  if (Array.isArray(approvals)) for (const id of approvals) if (typeof id === 'string') keys.add(`approval:${id}`);
  return keys;
}

/** `call:<callId>` or `approval:<requestId>` for a request, else `undefined`. */
function requestKey(event: Record<string, unknown>): string | undefined {
  if (event.type === 'tool.call' && typeof event.callId === 'string' && event.callId !== '') return `call:${event.callId}`;
  if (event.type === 'tool.approval-request' && typeof event.requestId === 'string' && event.requestId !== '') return `approval:${event.requestId}`;
  return undefined;
}
const DEFAULT_ROOM_TIMEOUT_MS = 15_000;
/** How long `close()` waits for the server's `closed` before closing on its own. */
const CLOSE_GRACE_MS = 2_000;

export class SessionClient {
  readonly eventListeners = new Set<(event: unknown) => void>();
  readonly callHandlers = new Set<(call: AppToolCallMessage) => void>();
  readonly statusListeners = new Set<(status: ToolSessionStatus) => void>();
  readonly frameListeners = new Set<(frame: Record<string, unknown>) => void>();
  readonly channel: RoomChannel;
  readonly ready: Promise<ReferenceWelcome>;

  status: ToolSessionStatus = 'connecting';
  sessionId: string | undefined;
  welcome: ReferenceWelcome | undefined;
  lastSeq = 0;
  /** Where the session is kept across a reload (the `persist` option), if anywhere. */
  readonly persistence: SessionPersistence | undefined;
  /** The session's resume token, from its first welcome (or the `resume` option). */
  private token: string | undefined;
  private socket: WebSocketLike | undefined;
  /** This socket said hello / was welcomed. */
  private helloSent = false;
  private welcomed = false;
  /** The declarations of the latest hello (or tools.update), for the next connection's hello. */
  private lastHello: { capabilities: string[]; tools: ToolDeclaration[] };
  private outbox: OutboxItem[] = [];
  private readonly answers = new AnswerLedger();
  private attempts = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  private closing = false;
  private finalized = false;
  private readonly Socket: WebSocketConstructor | undefined;
  private readonly backoff: { initialDelayMs: number; maxDelayMs: number; factor: number; maxAttempts: number };
  /**
   * A resumed connection's replay ends at this seq. A `tool.call` or `tool.approval-request` in it
   * that the welcome does not list as waiting (`waitingAtWelcome`) is history: it was answered,
   * timed out or withdrawn while the page was away, and nobody may act on it.
   */
  private replayEnd = 0;
  private waitingAtWelcome = new Set<string>();
  /** Requests delivered on this page whose call has not ended (`call:<id>`, `approval:<id>` -> callId): a resent one is not delivered twice. */
  private readonly requests = new Map<string, string>();
  /** A session restored from storage connects once the page is wired to it (see `wired`). */
  private waitsForWiring = false;
  /** The nonce of a client that keeps nothing across a reload: one per client object. */
  private readonly ownPage = `p-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  private resolveReady!: (welcome: ReferenceWelcome) => void;
  private rejectReady!: (error: unknown) => void;

  constructor(
    readonly url: string,
    private readonly options: ReferenceSessionOptions,
  ) {
    this.Socket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    this.backoff = {
      initialDelayMs: options.reconnect?.initialDelayMs ?? 250,
      maxDelayMs: options.reconnect?.maxDelayMs ?? 5_000,
      factor: options.reconnect?.factor ?? 2,
      maxAttempts: options.reconnect?.maxAttempts ?? Infinity,
    };
    this.lastHello = { capabilities: [...(options.capabilities ?? [TOOL_STREAM_CAPABILITY])], tools: [...(options.tools ?? [])] };
    if (options.persist) {
      const where = options.persist === true ? {} : options.persist;
      this.persistence = createSessionPersistence({
        ...(where.storage === undefined ? {} : { storage: where.storage }),
        ...(where.key === undefined ? {} : { key: where.key }),
        onError: (reason, detail) => this.report(reason, detail),
      });
    }
    const restored = options.resume === undefined ? this.persistence?.restored : undefined;
    if (options.resume) {
      // Take up a session the page had before: the first hello resumes it.
      this.sessionId = options.resume.sessionId;
      this.token = options.resume.token;
      this.lastSeq = options.resume.lastSeq;
    } else if (restored) {
      // A page that reloaded has an empty store: the server replays the whole session (from seq 0)
      // to rebuild it. What the page before had delivered (restored.lastSeq) changes nothing here:
      // requests still waiting for an answer come again after the replay.
      this.sessionId = restored.sessionId;
      this.token = restored.token;
      this.waitsForWiring = true;
    }
    this.ready = new Promise<ReferenceWelcome>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // Nobody has to wait for it: an unobserved rejection is not an error here.
    this.ready.catch(() => {});
    this.channel = new RoomChannel(
      {
        ended: () => this.ended,
        enqueue: (item) => {
          this.outbox.push(item);
          this.flush();
        },
        withdraw: (item) => {
          this.outbox = this.outbox.filter((queued) => queued !== item);
        },
        report: (reason, detail) => this.report(reason, detail),
      },
      options.roomTimeoutMs ?? DEFAULT_ROOM_TIMEOUT_MS,
    );
  }

  /** The session is over, or `close()` was asked: nothing more is sent. */
  get ended(): boolean {
    return this.finalized || this.closing;
  }

  get resume(): ReferenceResume | undefined {
    if (this.sessionId === undefined || this.token === undefined || this.welcome === undefined) return undefined;
    return { sessionId: this.sessionId, token: this.token, lastSeq: this.lastSeq };
  }

  /** This session was restored from storage and waits for the page to listen before it connects. */
  get restoring(): boolean {
    return this.waitsForWiring;
  }

  /**
   * The page listens for app-tool calls (the provider's binding does, after it subscribed the
   * store and the approval queue): a restored session connects now, so its replay and the
   * requests sent again reach all of them, not only what listened first.
   */
  wired(): void {
    if (!this.waitsForWiring) return;
    this.waitsForWiring = false;
    const persistence = this.persistence;
    if (persistence === undefined || persistence.held === true) {
      this.connect();
      return;
    }
    // docs/guarantees.md "One page holds a saved session": resume only once this page holds the
    // saved entry; a copy of the tab (its sessionStorage duplicated) starts a session of its own.
    void persistence.claim().then((held) => {
      if (this.finalized) return;
      if (!held) this.startOver(persistence);
      this.connect();
    });
  }

  /** Another live page holds the saved session: this page forgets it and starts its own. */
  private startOver(persistence: SessionPersistence): void {
    this.report(`another page holds session ${String(this.sessionId)} (this page is a copy of it): this page starts a session of its own`);
    this.sessionId = undefined;
    this.token = undefined;
    this.lastSeq = 0;
    persistence.startOver();
  }

  /** This page's nonce, sent with every hello: the server tells this page's reconnects from another page's resume. */
  private get page(): string {
    return this.persistence?.page ?? this.ownPage;
  }

  report(reason: string, detail?: unknown): void {
    if (!this.options.onError) return;
    try {
      this.options.onError(reason, detail);
    } catch {
      // An error handler that throws has nowhere left to report to.
    }
  }

  safely<T>(listener: (value: T) => void, value: T): void {
    try {
      listener(value);
    } catch (error) {
      this.report(`a session listener threw: ${error instanceof Error ? error.message : String(error)}`, error);
    }
  }

  /* ----------------------------------------------------------- sending */

  /** A message from the kit (`ToolSession.send`). */
  send(message: ClientMessage): void {
    if (this.ended) {
      this.report(`the session is closed: ${String((message as { type?: unknown }).type)} was not sent`, message);
      return;
    }
    if (message.type === 'hello') {
      this.lastHello = { capabilities: [...message.capabilities], tools: [...message.tools] };
      // Not connected: the next connection says hello with these declarations.
      if (!this.socketOpen()) return;
      if (!this.helloSent) {
        this.sendHello();
        return;
      }
      // The server takes one hello per connection (HELLO_REPEATED): a later one (a binding made
      // after the client's own hello, a StrictMode re-bind) carries its tools as tools.update.
      this.enqueue({ type: 'tools.update', tools: [...message.tools] });
      return;
    }
    if (message.type === 'tools.update') this.lastHello = { ...this.lastHello, tools: [...message.tools] };
    this.sendAnswer(message);
  }

  enqueue(message: ReferenceClientMessage, onSent?: () => void): void {
    this.outbox.push(onSent ? { text: JSON.stringify(message), onSent } : { text: JSON.stringify(message) });
    this.flush();
  }

  /** End the session for good: `session.close`, then the server's `closed` (or our own after a grace period). */
  close(): void {
    if (this.ended) return;
    this.closing = true;
    if (this.welcomed && this.socketOpen()) {
      this.flush();
      this.transmit(JSON.stringify({ type: 'session.close' } satisfies ReferenceClientMessage));
      // The server answers with `closed`; if it never does, end here all the same.
      this.closeTimer = setTimeout(() => this.finalize('client'), CLOSE_GRACE_MS);
      return;
    }
    // Not connected: the server's session ends when its resume window passes.
    this.finalize('client');
  }

  private socketOpen(): boolean {
    return this.socket !== undefined && this.socket.readyState === OPEN;
  }

  private transmit(text: string): boolean {
    if (!this.socket || !this.socketOpen()) return false;
    try {
      this.socket.send(text);
      return true;
    } catch (error) {
      this.report('the socket refused a message', error);
      return false;
    }
  }

  /** Messages wait for the welcome of the current connection: the server takes nothing before hello. */
  private flush(): void {
    if (!this.welcomed) return;
    while (this.outbox.length > 0) {
      const item = this.outbox[0]!;
      if (!this.transmit(item.text)) return;
      this.outbox.shift();
      item.onSent?.();
    }
  }

  private sendAnswer(message: ReferenceClientMessage): void {
    // Without tool-stream-v1 no `settled` comes to acknowledge results and approvals.
    const key = this.answers.keyOf(message, this.welcome?.mode !== 'preview');
    if (key === undefined) this.enqueue(message);
    else this.enqueue(message, () => this.answers.sent(key, message));
  }

  /** Once a resumed session's replay has caught up, send again what the lost connection may have swallowed. */
  private resendIfCaughtUp(): void {
    if (!this.welcomed) return;
    for (const message of this.answers.due(this.lastSeq)) this.sendAnswer(message);
  }

  private sendHello(): void {
    const message: ReferenceHello = { type: 'hello', capabilities: [...this.lastHello.capabilities], tools: [...this.lastHello.tools], page: this.page };
    // Only this client knows which session to resume, with which token, and what it has delivered
    // (the store's own lastSeq skips events it ignores, such as tool.call).
    if (this.sessionId !== undefined && this.token !== undefined) {
      message.resume = { sessionId: this.sessionId, token: this.token, lastSeq: this.lastSeq };
    }
    if (this.transmit(JSON.stringify(message))) this.helloSent = true;
  }

  /* --------------------------------------------------------- receiving */

  private onMessage(data: unknown): void {
    const decoded = decodeFrame(data);
    if (!decoded.ok) {
      this.report(decoded.reason, decoded.detail);
      return;
    }
    this.handleFrame(decoded.frame);
    // After the client applied it, so a listener reads the new state (welcome, lastSeq, status).
    for (const listener of [...this.frameListeners]) this.safely(listener, decoded.frame);
  }

  private handleFrame(value: Record<string, unknown> & { type: string }): void {
    if (value.seq !== undefined) {
      this.onEvent(value);
      return;
    }
    switch (value.type) {
      case 'session.welcome':
        this.onWelcome(value);
        return;
      case 'session.refused':
        this.report(`the server refused to resume session ${String(value.sessionId)}: ${String(value.message ?? value.reason)}`, value);
        // In use by another live socket: not an end. The close follows, and the page tries again
        // with backoff until that socket is gone (never both run the session's calls).
        if (value.reason === 'in-use') return;
        this.finalize(`refused: ${String(value.reason ?? 'unknown')}`);
        return;
      case 'session.taken':
        // A newer connection of this page's nonce holds the session now: taking it back would
        // make two pages run its calls in turn.
        this.report(`session ${String(value.sessionId)} was taken over by a newer connection: this page no longer holds it`, value);
        this.finalize('taken');
        return;
      case 'room.response':
        this.channel.respond(value);
        return;
      case 'error':
        // An answer the server ignored was heard all the same: never send it again.
        if (typeof value.callId === 'string' && value.code === 'RESULT_IGNORED') this.answers.heard(`result:${value.callId}`);
        if (typeof value.requestId === 'string') this.answers.heard(`approval:${value.requestId}`);
        this.report(`the server refused a message: ${String(value.code)}: ${String(value.message)}`, value);
        return;
      case 'turn.interrupt-ignored':
        if (typeof value.turnId === 'string') this.answers.heard(`interrupt:${value.turnId}`);
        return;
      case 'tool.call':
      case 'tool.approval-request':
        // Without a seq: sent again after a resume because it still waits for an answer.
        this.onResent(value);
        return;
      case 'tools.offered':
      case 'fault.ack':
        // Connection frames for onFrame listeners only.
        return;
      default:
        // An event without seq (from a server that does not number them): delivered as it is.
        this.deliver(value);
    }
  }

  private onEvent(value: Record<string, unknown> & { type: string }): void {
    const seq = value.seq;
    if (typeof seq !== 'number' || !Number.isFinite(seq)) {
      this.report(`a ${value.type} event with a seq that is not a number`, value);
      return;
    }
    if (seq <= this.lastSeq) {
      // A repeat must not reach the kit a second time: a repeated tool.call would run twice.
      this.report(`a repeated ${value.type} event: seq ${seq} was already delivered (last ${this.lastSeq})`, value);
      return;
    }
    this.lastSeq = seq;
    const key = seq <= this.replayEnd ? requestKey(value) : undefined;
    if (key !== undefined && !this.waitingAtWelcome.has(key)) {
      // History: acting on it could run a call the server already settled, or ask a person about
      // an approval that was already answered.
      this.answers.acknowledge(value);
    } else {
      this.deliver(value);
    }
    if (this.welcome) this.persistence?.saveResume({ sessionId: this.welcome.sessionId, token: this.token ?? '', lastSeq: seq });
    this.resendIfCaughtUp();
  }

  /** A request the server sent again after a resume: delivered unless this page already has it. */
  private onResent(value: Record<string, unknown> & { type: string }): void {
    const key = requestKey(value);
    if (key === undefined) {
      this.report(`a resent ${value.type} without its id`, value);
      return;
    }
    if (this.requests.has(key)) return;
    this.deliver(value);
  }

  private deliver(event: Record<string, unknown>): void {
    this.answers.acknowledge(event);
    this.trackRequest(event);
    for (const listener of [...this.eventListeners]) this.safely(listener, event);
    if (event.type === 'tool.call') {
      for (const handler of [...this.callHandlers]) this.safely(handler, event as unknown as AppToolCallMessage);
    }
    if (event.type === 'closed') this.finalize();
  }

  /** Remember the requests this page has until their call ends. */
  private trackRequest(event: Record<string, unknown>): void {
    const key = requestKey(event);
    if (key !== undefined && typeof event.callId === 'string') {
      this.requests.set(key, event.callId);
      return;
    }
    if (event.type !== 'tool.stream' || !TERMINAL_PHASES.has(event.phase as string) || this.requests.size === 0) return;
    for (const [request, callId] of this.requests) if (callId === event.callId) this.requests.delete(request);
  }

  private onWelcome(frame: Record<string, unknown>): void {
    if (!isWelcome(frame)) {
      this.report('a session.welcome without a session id', frame);
      return;
    }
    if (this.sessionId !== undefined && (frame.sessionId !== this.sessionId || !frame.resumed)) {
      // Events of the old session would be mixed with a new one's: end the old one plainly.
      this.report(`asked to resume ${this.sessionId}, the server started ${frame.sessionId} instead`, frame);
      this.finalize('not-resumed');
      return;
    }
    this.sessionId = frame.sessionId;
    if (typeof frame.resumeToken === 'string' && frame.resumeToken !== '') this.token = frame.resumeToken;
    this.welcome = frame;
    this.welcomed = true;
    this.attempts = 0;
    this.replayEnd = frame.resumed && typeof frame.currentSeq === 'number' ? frame.currentSeq : 0;
    this.waitingAtWelcome = waitingKeys(frame.waiting);
    if (this.token !== undefined) this.persistence?.saveResume({ sessionId: frame.sessionId, token: this.token, lastSeq: this.lastSeq });
    this.resolveReady(frame);
    // The replay of what was missed follows; `currentSeq` is where it ends.
    this.answers.welcomed(frame.resumed, typeof frame.currentSeq === 'number' ? frame.currentSeq : this.lastSeq);
    this.flush();
    this.resendIfCaughtUp();
  }

  /* -------------------------------------------------------- connecting */

  setStatus(next: ToolSessionStatus): void {
    if (this.status === next) return;
    this.status = next;
    for (const listener of [...this.statusListeners]) this.safely(listener, next);
  }

  connect(): void {
    if (this.finalized) return;
    if (!this.Socket) {
      this.report('no WebSocket constructor: pass options.WebSocket (Node 20 has no global WebSocket)');
      this.finalize('no-websocket');
      return;
    }
    let s: WebSocketLike;
    try {
      s = new this.Socket(this.url);
    } catch (error) {
      this.report(`cannot open ${this.url}: ${error instanceof Error ? error.message : String(error)}`, error);
      this.finalize('bad-url');
      return;
    }
    this.socket = s;
    this.helloSent = false;
    this.welcomed = false;
    s.addEventListener('open', () => this.onOpen(s));
    s.addEventListener('message', (event: { data?: unknown }) => {
      if (s !== this.socket || this.finalized) return;
      this.onMessage(event.data);
    });
    s.addEventListener('close', () => this.onClose(s));
    // An error is followed by close, which decides what happens next.
    s.addEventListener('error', () => {});
  }

  private onOpen(s: WebSocketLike): void {
    if (s !== this.socket || this.finalized) return;
    if (this.closing) {
      this.finalize('client');
      return;
    }
    // `open` tells bindAppToolHost to say hello (with its app tools) through `send`.
    this.setStatus('open');
    if (!this.helloSent && s === this.socket) this.sendHello();
  }

  private onClose(s: WebSocketLike): void {
    if (s !== this.socket) return;
    this.socket = undefined;
    this.helloSent = false;
    this.welcomed = false;
    // Room answers belong to the connection that asked: a lost connection loses them (docs/protocol.md, "Rooms").
    this.channel.connectionLost();
    if (this.finalized) return;
    if (this.closing) {
      this.finalize('client');
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.attempts += 1;
    if (this.attempts > this.backoff.maxAttempts) {
      this.report(`gave up reconnecting to ${this.url} after ${this.backoff.maxAttempts} attempts`);
      this.finalize('unreachable');
      return;
    }
    this.setStatus(this.sessionId === undefined ? 'connecting' : 'reconnecting');
    const { initialDelayMs, maxDelayMs, factor } = this.backoff;
    const base = Math.min(maxDelayMs, initialDelayMs * factor ** (this.attempts - 1));
    this.reconnectTimer = setTimeout(() => this.connect(), base * (0.5 + Math.random() * 0.5));
  }

  /* ----------------------------------------------------------- the end */

  /** The session is over: `closed` (the server's, or one made here when none can come), then status `closed`. */
  finalize(syntheticReason?: string): void {
    if (this.finalized) return;
    this.finalized = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.closeTimer);
    this.waitsForWiring = false;
    this.outbox = [];
    this.answers.clear();
    this.requests.clear();
    // The session is over: a reload must start a new one, not try to resume this.
    this.persistence?.clear();
    this.channel.sessionEnded();
    if (syntheticReason !== undefined) {
      // The final close must reach the store (drop the preview state) even when the server's
      // `closed` cannot arrive: a refused resume, a client that gave up, a close without answer.
      const event = { type: 'closed', reason: syntheticReason };
      for (const listener of [...this.eventListeners]) this.safely(listener, event);
    }
    this.setStatus('closed');
    if (!this.welcome) this.rejectReady(new Error(`the session ended before the server welcomed it (${syntheticReason ?? 'closed'})`));
    const s = this.socket;
    this.socket = undefined;
    this.helloSent = false;
    this.welcomed = false;
    if (s && s.readyState <= OPEN) {
      try {
        s.close(1000, 'session closed');
      } catch {
        // already closing
      }
    }
  }
}
