/** Reading what the server sends: text, JSON, objects with a type. Nothing here throws. */
import type { ReferenceWelcome } from './protocol';

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function excerpt(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function textOf(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
  return undefined;
}

export function isWelcome(frame: Record<string, unknown>): frame is Record<string, unknown> & ReferenceWelcome {
  return typeof frame.sessionId === 'string' && frame.sessionId !== '' && typeof frame.resumed === 'boolean';
}

export type Decoded =
  | { ok: true; frame: Record<string, unknown> & { type: string } }
  | { ok: false; reason: string; detail: unknown };

/** A frame's data as a JSON object with a string `type`, or the reason it is not one. */
export function decodeFrame(data: unknown): Decoded {
  const text = textOf(data);
  if (text === undefined) return { ok: false, reason: 'a binary frame from the server (frames are JSON text)', detail: data };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: `a frame from the server is not JSON: ${excerpt(text)}`, detail: text };
  }
  if (!isRecord(value)) return { ok: false, reason: `a frame from the server is not a JSON object: ${excerpt(text)}`, detail: value };
  if (typeof value.type !== 'string') return { ok: false, reason: `a frame from the server has no type: ${excerpt(text)}`, detail: value };
  return { ok: true, frame: value as Record<string, unknown> & { type: string } };
}
