/**
 * The server's sessions, from hello to forgotten: a new session per `hello`, a resume only with
 * the session's token, a closed session remembered for one more resume window (so a late resume
 * learns it closed), then forgotten everywhere: here, in the room, in the records.
 */
import type { WebSocket } from 'ws';
import type { ReferenceRefusal } from '../src/client/protocol';
import type { ClientFrame } from './protocol';
import type { SessionGrantInfo } from './room';
import { Session, type SessionConfig } from './session';
import type { TimerHandle } from './timer';
import { newSessionId, tokenDigest, tokenMatches } from './tokens';

type Hello = Extract<ClientFrame, { type: 'hello' }>;

/** What a refused resume closes its socket with. */
export const REFUSAL_CLOSE_CODES: Record<ReferenceRefusal['reason'], number> = { unknown: 4404, closed: 4410, gap: 4412, 'in-use': 4409 };

/** Compared against when there is no session, so that an unknown id takes as long as a wrong token. */
const NO_SESSION = tokenDigest('');

export class SessionRegistry {
  /** Live (not closed) sessions by id. */
  readonly live = new Map<string, Session>();
  /** Live and recently closed sessions by id. */
  private readonly known = new Map<string, Session>();
  private readonly forgetTimers = new Map<string, TimerHandle>();
  /** Live sessions by the remote address that opened them (server/README.md "Limits"). */
  private readonly perAddress = new Map<string, number>();
  private readonly addressOf = new Map<string, string>();

  constructor(
    private readonly config: SessionConfig,
    private readonly maxSessions: number,
    private readonly maxPerAddress = Infinity,
  ) {}

  get(id: string): Session | undefined {
    return this.known.get(id);
  }

  /**
   * A new session for this socket, or why not: the server holds as many as it may (`server`), or
   * the socket's address does (`address`: one client's flood must not keep others out).
   */
  open(socket: WebSocket, hello: Hello, info: SessionGrantInfo, address = ''): Session | 'server' | 'address' {
    if (this.live.size >= this.maxSessions) return 'server';
    const held = this.perAddress.get(address) ?? 0;
    if (held >= this.maxPerAddress) return 'address';
    let id = newSessionId();
    while (this.known.has(id)) id = newSessionId();
    const session = new Session(id, this.config, (s) => this.closed(s));
    this.perAddress.set(address, held + 1);
    this.addressOf.set(id, address);
    this.live.set(id, session);
    this.known.set(id, session);
    this.config.room.openSession(id, info);
    session.attach(socket, hello);
    return session;
  }

  /**
   * Attach the socket to the session `hello` names, if it presents that session's token and the
   * events it missed are still kept. A wrong token is answered as an unknown session: knowing an
   * id tells nothing, and the session's own socket is left alone.
   */
  resume(socket: WebSocket, hello: Hello): { session: Session } | { refusal: ReferenceRefusal } {
    const resume = hello.resume;
    if (!resume) {
      return this.refusal(hello.sessionId ?? '', 'unknown', 'a resume needs the session token: hello.resume = { sessionId, token, lastSeq }');
    }
    const session = this.known.get(resume.sessionId);
    // One constant-time comparison whether or not the session exists.
    let tokenOk = false;
    if (session) tokenOk = session.acceptsToken(resume.token);
    else tokenMatches(NO_SESSION, resume.token);
    if (!session || !tokenOk) return this.refusal(resume.sessionId, 'unknown', 'no session with that id and token');
    if (session.closed) return this.refusal(resume.sessionId, 'closed', 'that session was closed for good; start a new one');
    if (!session.canResumeFrom(resume.lastSeq)) {
      return this.refusal(resume.sessionId, 'gap', `the events after seq ${resume.lastSeq} are no longer kept; start a new session`);
    }
    if (!session.mayTakeOver(hello.page)) {
      return this.refusal(resume.sessionId, 'in-use', 'another page holds this session on a live connection; a page that lost its connection resumes with its own page nonce');
    }
    session.attach(socket, hello);
    return { session };
  }

  /** Close every live session (the server's shutdown). */
  closeAll(reason: 'shutdown'): void {
    for (const session of [...this.live.values()]) session.close(reason);
  }

  /** Forget every session now (after shutdown), clearing the timers that would have. */
  forgetAll(): void {
    for (const id of [...this.known.keys()]) this.forget(id);
  }

  /** How much the registry holds (the server's own accounting, for tests). */
  counts(): { live: number; known: number; forgetTimers: number } {
    return { live: this.live.size, known: this.known.size, forgetTimers: this.forgetTimers.size };
  }

  private closed(session: Session): void {
    this.live.delete(session.id);
    this.release(session.id);
    const handle = this.config.timer.setTimeout(() => this.forget(session.id), this.config.resumeWindowMs);
    this.forgetTimers.set(session.id, handle);
  }

  private forget(id: string): void {
    this.config.timer.clearTimeout(this.forgetTimers.get(id));
    this.forgetTimers.delete(id);
    this.live.delete(id);
    this.release(id);
    this.known.delete(id);
    this.config.room.forgetSession(id);
    this.config.records.forget(id);
  }

  /** The session no longer counts against its address. */
  private release(id: string): void {
    const address = this.addressOf.get(id);
    if (address === undefined) return;
    this.addressOf.delete(id);
    const held = (this.perAddress.get(address) ?? 1) - 1;
    if (held > 0) this.perAddress.set(address, held);
    else this.perAddress.delete(address);
  }

  private refusal(sessionId: string, reason: ReferenceRefusal['reason'], message: string): { refusal: ReferenceRefusal } {
    return { refusal: { type: 'session.refused', sessionId, reason, message } };
  }
}
