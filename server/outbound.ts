/**
 * What one socket may have waiting to be sent (server/README.md "Limits", `maxBufferedBytes`). A
 * client that stops reading while the server writes would otherwise make the server queue
 * everything for it in memory; past the limit the socket is dropped as a lost connection would
 * be, and its session waits for a resume like any other.
 *
 * A resume's replay is written at once and may be larger than the limit: `allowBurst` lets the
 * socket go over by that much until it has drained below the limit once.
 */
import type { WebSocket } from 'ws';

const OPEN = 1;
/** Bytes a socket may hold beyond the limit, from a replay it has not drained yet. */
const allowance = new WeakMap<WebSocket, number>();

/** Let `socket` hold `bytes` more than the limit until it drains below the limit (a resume's replay). */
export function allowBurst(socket: WebSocket, bytes: number): void {
  allowance.set(socket, (allowance.get(socket) ?? 0) + bytes);
}

/**
 * Send `text` to `socket` unless it already holds more than `maxBuffered` bytes unsent: then it is
 * dropped (terminated, so its close follows) and `dropped` is told how much waited. Returns
 * whether the text was sent.
 */
export function sendBounded(socket: WebSocket, text: string, maxBuffered: number, dropped: (buffered: number) => void): boolean {
  if (socket.readyState !== OPEN) return false;
  const buffered = socket.bufferedAmount;
  const extra = allowance.get(socket);
  if (extra !== undefined && buffered <= maxBuffered) allowance.delete(socket);
  else if (buffered > maxBuffered + (extra ?? 0)) {
    socket.terminate();
    dropped(buffered);
    return false;
  }
  socket.send(text);
  return true;
}
