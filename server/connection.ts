/**
 * One socket, from upgrade to close: its message budget, the checks every frame passes before it
 * is read (budget, then depth and size on the raw text, then JSON, then the message's shape), its
 * `hello` (a new session, or a resume with the session's token), and the session it then speaks for.
 */
import type { WebSocket, RawData } from 'ws';
import type { ReferenceConnectionFrame, ReferenceErrorCode } from '../src/client/protocol';
import { MessageBudget } from './budget';
import { sendBounded } from './outbound';
import type { ServerLimits } from './limits';
import { parseClientFrame, type ClientFrame } from './protocol';
import type { Records } from './records';
import { REFUSAL_CLOSE_CODES, type SessionRegistry } from './registry';
import type { Session } from './session';
import { refuseRoomRequest } from './session/room-requests';
import { scanJsonText } from './shape';
import type { Timer } from './timer';

export interface ConnectionContext {
  registry: SessionRegistry;
  records: Records;
  limits: ServerLimits;
  timer: Timer;
  /** The upgrade's `Origin`, already allowed (absent for a client that is not a browser). */
  origin: string | undefined;
  /** The peer's address, whose live sessions are counted against `limits.maxSessionsPerAddress`. */
  address: string;
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

export function serveConnection(socket: WebSocket, context: ConnectionContext): void {
  const { registry, records, limits } = context;
  let session: Session | undefined;
  const budget = new MessageBudget({ perSecond: limits.messagesPerSecond, burst: limits.messageBurst }, () => context.timer.now());
  const reply = (frame: ReferenceConnectionFrame) => {
    sendBounded(socket, JSON.stringify(frame), limits.maxBufferedBytes, (buffered) => {
      records.addIgnored({ sessionId: session?.id, message: 'socket', reason: 'send-buffer-full', detail: { buffered, limit: limits.maxBufferedBytes } });
    });
  };
  const refuse = (code: ReferenceErrorCode, reason: string, message: string, type = 'frame') => {
    records.addIgnored({ sessionId: session?.id, message: type, reason });
    reply({ type: 'error', code, message });
  };
  // Real time, not the server's clock: a socket that never speaks must not hold a slot forever.
  const helloTimer = limits.helloTimeoutMs > 0 && Number.isFinite(limits.helloTimeoutMs)
    ? setTimeout(() => {
        if (!session) socket.close(4408, 'no hello in time');
      }, limits.helloTimeoutMs).unref()
    : undefined;

  /** Decode one frame (with the number of values it holds), or refuse it with its reason; never throws. */
  const read = (data: RawData, isBinary: boolean): { frame: ClientFrame; nodes: number } | undefined => {
    const spent = budget.take();
    if (!spent.ok) {
      if (spent.first) {
        const message = `more than ${limits.messagesPerSecond} messages a second (bursts of ${limits.messageBurst}): this one and those after it until the rate drops were not read`;
        refuse('RATE_LIMITED', 'rate-limited', message);
      }
      return undefined;
    }
    if (isBinary) return void refuse('BAD_JSON', 'binary-frame', 'frames are JSON text');
    const text = textOf(data);
    // Before JSON.parse: parsing a megabyte of nesting alone would stall every other session.
    const scan = scanJsonText(text, limits);
    if (scan.problem) {
      const { type, id } = scan.top;
      const reason = scan.problem.kind === 'depth' ? 'too-deep' : 'too-many-values';
      const sentence = `the message has ${scan.problem.message} (arguments included); it was not read`;
      records.addIgnored({ sessionId: session?.id, message: typeof type === 'string' ? type : 'frame', reason });
      if (type === 'room.request' && id !== undefined && session) reply(refuseRoomRequest(id, sentence));
      else reply({ type: 'error', code: 'TOO_COMPLEX', message: sentence });
      return undefined;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return void refuse('BAD_JSON', 'invalid-json', 'the frame is not JSON');
    }
    const parsed = parseClientFrame(value);
    if (!parsed.ok) {
      const type = (value as { type?: unknown } | null)?.type;
      records.addIgnored({
        sessionId: session?.id,
        message: typeof type === 'string' ? type : 'frame',
        reason: parsed.code === 'UNKNOWN_MESSAGE' ? 'unknown-message' : 'bad-message',
        detail: parsed.message,
      });
      reply({ type: 'error', code: parsed.code, message: parsed.message });
      return undefined;
    }
    return { frame: parsed.frame, nodes: scan.nodes };
  };

  const hello = (frame: Extract<ClientFrame, { type: 'hello' }>) => {
    if (frame.resume === undefined && frame.sessionId === undefined) {
      const opened = registry.open(socket, frame, context.origin === undefined ? {} : { origin: context.origin }, context.address);
      if (typeof opened === 'object') {
        session = opened;
        return;
      }
      if (opened === 'server') refuse('SERVER_BUSY', 'server-busy', `the server holds ${limits.maxSessions} sessions; try again later`, 'hello');
      else refuse('SERVER_BUSY', 'address-busy', `this address holds ${limits.maxSessionsPerAddress} sessions; close one or try again later`, 'hello');
      socket.close(1013, 'server busy');
      return;
    }
    const resumed = registry.resume(socket, frame);
    if ('refusal' in resumed) {
      const { refusal } = resumed;
      records.addIgnored({ sessionId: undefined, message: 'hello', reason: `resume-refused-${refusal.reason}` });
      reply(refusal);
      socket.close(REFUSAL_CLOSE_CODES[refusal.reason], `resume refused: ${refusal.reason}`);
      return;
    }
    session = resumed.session;
  };

  socket.on('message', (data, isBinary) => {
    const message = read(data, isBinary);
    if (!message) return;
    const { frame, nodes } = message;
    if (frame.type === 'hello' && !session) {
      clearTimeout(helloTimer);
      hello(frame);
      return;
    }
    if (!session) return refuse('HELLO_REQUIRED', 'hello-required', 'say hello first', frame.type);
    // A socket replaced by a resume, or of a closed session, speaks for nobody.
    if (!session.isAttached(socket)) return;
    session.handle(frame, nodes);
  });
  socket.on('close', () => {
    clearTimeout(helloTimer);
    session?.detach(socket);
  });
}
