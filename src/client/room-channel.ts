/**
 * The room over the socket: `room.request` out, `room.response` back with the same id. Answers
 * `ok: false` are definite `ToolRoomError`s with the server's code; a request that was sent and
 * never answered (timeout, lost connection, closed session) is a `ToolRoomUnknownOutcomeError`,
 * so a write becomes `uncertain` and is never retried blindly (docs/protocol.md, "Rooms": a lost
 * response must not lead to a blind retry). One that never left is
 * definite: nothing was sent.
 */
import { ToolRoomError, ToolRoomUnknownOutcomeError } from '../core/session/room';
import { isRecord } from './frames';
import type { ReferenceClientMessage, ReferenceEffect, ReferenceRoomMethod, ReferenceRoomTool } from './protocol';
import type { ReferenceRoom } from './session-types';

/** A message waiting for the current connection's welcome. */
export interface OutboxItem {
  text: string;
  onSent?: () => void;
}

interface PendingRequest {
  readonly method: ReferenceRoomMethod;
  readonly item: OutboxItem;
  sent: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** What the channel needs of its session. */
export interface RoomChannelHost {
  /** The session ended or is ending: nothing more is sent. */
  ended(): boolean;
  /** Queue a message for the socket (sent once welcomed). */
  enqueue(item: OutboxItem): void;
  /** Take a message that was never sent out of the queue. */
  withdraw(item: OutboxItem): void;
  report(reason: string, detail?: unknown): void;
}

export class RoomChannel {
  private readonly pending = new Map<string, PendingRequest>();
  private counter = 0;
  readonly room: ReferenceRoom;

  constructor(
    private readonly host: RoomChannelHost,
    private readonly timeoutMs: number,
  ) {
    this.room = createRoom((method, params, options) => this.request(method, params, options));
  }

  /** Any room method; resolves with its result, rejects with a `ToolRoomError`. */
  request(method: ReferenceRoomMethod, params: Record<string, unknown> = {}, options: { timeoutMs?: number } = {}): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.host.ended()) {
        reject(new ToolRoomError(`the session is closed; ${method} was not sent`, { code: 'session-closed' }));
        return;
      }
      const id = `room-${++this.counter}`;
      const ms = options.timeoutMs ?? this.timeoutMs;
      const item: OutboxItem = {
        text: JSON.stringify({ type: 'room.request', id, method, params } satisfies ReferenceClientMessage),
        onSent: () => {
          entry.sent = true;
        },
      };
      const entry: PendingRequest = { method, item, sent: false, resolve, reject, timer: setTimeout(() => this.expire(id, entry, ms), ms) };
      this.pending.set(id, entry);
      this.host.enqueue(item);
    });
  }

  /** A `room.response`: settle the request it answers. */
  respond(frame: Record<string, unknown>): void {
    const id = frame.id;
    const request = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (!request) {
      this.host.report(`a room response that nobody waits for (${String(id)}): it came after its time limit, or was never asked`, frame);
      return;
    }
    this.pending.delete(id as string);
    clearTimeout(request.timer);
    if (frame.ok === true) {
      request.resolve(frame.result);
      return;
    }
    if (frame.ok === false) {
      const error = isRecord(frame.error) ? frame.error : {};
      const code = typeof error.code === 'string' ? error.code : 'ROOM_ERROR';
      const message = typeof error.message === 'string' && error.message !== '' ? error.message : `${request.method} was refused (${code})`;
      // The room answered no: definite, nothing took effect (or the handler's own failure, recorded).
      request.reject(new ToolRoomError(message, { code }));
      return;
    }
    request.reject(new ToolRoomUnknownOutcomeError(`a malformed answer to ${request.method}: its outcome is unknown`, { code: 'bad-response' }));
  }

  /** The connection was lost: requests it carried will never be answered (outcome unknown). */
  connectionLost(): void {
    this.fail((method) => new ToolRoomUnknownOutcomeError(`the connection was lost before ${method} was answered: it may or may not have taken effect`, { code: 'connection-lost' }));
  }

  /** The session ended: every request fails, sent ones as unknown, unsent ones as definite. */
  sessionEnded(): void {
    this.fail(
      (method) => new ToolRoomUnknownOutcomeError(`the session closed before ${method} was answered: it may or may not have taken effect`, { code: 'session-closed' }),
      (method) => new ToolRoomError(`the session closed before ${method} could be sent; nothing was sent`, { code: 'session-closed' }),
    );
  }

  private expire(id: string, entry: PendingRequest, ms: number): void {
    if (!this.pending.delete(id)) return;
    if (entry.sent) {
      entry.reject(new ToolRoomUnknownOutcomeError(`no answer to ${entry.method} within ${ms} ms: it may or may not have taken effect`, { code: 'timeout' }));
      return;
    }
    this.host.withdraw(entry.item);
    entry.reject(new ToolRoomError(`${entry.method} could not be sent within ${ms} ms (not connected); nothing was sent`, { code: 'not-sent' }));
  }

  private fail(sentError: (method: string) => Error, unsentError?: (method: string) => Error): void {
    for (const [id, request] of this.pending) {
      if (!request.sent && unsentError === undefined) continue;
      this.pending.delete(id);
      clearTimeout(request.timer);
      request.reject(request.sent ? sentError(request.method) : unsentError!(request.method));
    }
  }
}

type Request = (method: ReferenceRoomMethod, params?: Record<string, unknown>, options?: { timeoutMs?: number }) => Promise<unknown>;

/** The kit's `ToolRoom` and the reference server's other methods, over `request`. */
function createRoom(request: Request): ReferenceRoom {
  return {
    async confirmTool(toolName, args) {
      const result = await request('confirmTool', { toolName, arguments: args });
      const id = isRecord(result) ? result.confirmationId : undefined;
      if (typeof id !== 'string' || id === '') {
        throw new ToolRoomError('confirmTool answered without a confirmation id', { code: 'bad-response' });
      }
      return id;
    },
    invokeTool(toolName, args, confirmationId) {
      return request('invokeTool', {
        toolName,
        arguments: args,
        ...(confirmationId === undefined ? {} : { confirmationId }),
      });
    },
    async describeTools() {
      const result = await request('describeTools');
      if (!isRecord(result) || !Array.isArray(result.tools)) throw new ToolRoomError('describeTools answered without tools', { code: 'bad-response' });
      return result as unknown as { roomId: string; tools: ReferenceRoomTool[]; authority: string[] };
    },
    async listEffects(filter = {}) {
      const result = await request('listEffects', { ...filter });
      if (!isRecord(result) || !Array.isArray(result.effects)) throw new ToolRoomError('listEffects answered without effects', { code: 'bad-response' });
      return result.effects as ReferenceEffect[];
    },
    request,
  };
}
