/**
 * The epoch gate on a session: connects an app-tool host to a `ToolSession`.
 *
 * docs/protocol.md, "The session": the client declares its app tools in `hello`, announces later ones with
 * `tools.update`, answers every `tool.call` with one `tool.result { callId, epoch, result }`,
 * sends `turn.interrupt` when the user interrupts (the host raises its epoch floor), lets a server
 * `settled` or `cancelled` abort an app call's run, and closes the host on `closed`.
 *
 * The session adapter owns the socket; the binding only uses `send`, `subscribe`, `onToolCall`
 * and the status. It sends `hello` itself each time the session (re)opens, because only the host
 * knows the declarations; an adapter with a handshake of its own passes `hello: false` and
 * builds the message with {@link createHelloMessage}.
 */

import type { AppToolHost } from './app-tool-host';
import type { ToolSession } from '../session/tool-session';
import { validateToolEvent } from '../stream/validate-event';
import {
  TOOL_RESULT_CODES,
  TOOL_STREAM_CAPABILITY,
  type ClientMessage,
  type ToolDeclaration,
  type ToolResult,
  type ToolResultCode,
} from '../wire';

/**
 * The first message a page sends: its capabilities and app tools.
 *
 * @example
 * const hello: HelloMessage = createHelloMessage(host, { lastSeq: 42 });
 * session.send(hello);
 */
export type HelloMessage = Extract<ClientMessage, { type: 'hello' }>;

/**
 * Options of {@link createHelloMessage}.
 *
 * @example
 * createHelloMessage(host, { capabilities: [], lastSeq: 42 } satisfies HelloOptions); // a client that wants only tool.preview
 */
export interface HelloOptions {
  /** Default `['tool-stream-v1']`. */
  capabilities?: readonly string[];
  /** The last event `seq` the page has seen, for a resume. */
  lastSeq?: number;
}

/**
 * Options of {@link bindAppToolHost}.
 *
 * @example
 * const unbind = bindAppToolHost(session, host, { lastSeq: () => store.getState().lastSeq, onError: console.warn } satisfies BindAppToolHostOptions);
 */
export interface BindAppToolHostOptions {
  /**
   * Send `hello` when bound to an open session and each time the session opens again (default
   * `true`). A session without `onStatusChange` gets it at once unless it is `closed`: such an
   * adapter must queue what is sent before its socket opens.
   */
  hello?: boolean;
  /** Default `['tool-stream-v1']`. */
  capabilities?: readonly string[];
  /** Read when a `hello` is built: the last event `seq` seen (the store knows it), for a resume. */
  lastSeq?: () => number | undefined;
  /** A failed `send`, or a call without a usable `callId`. Default `console.error`. */
  onError?: (error: unknown) => void;
}

/**
 * The `hello` message for a host's current tools.
 *
 * @example
 * socket.addEventListener('open', () => socket.send(JSON.stringify(createHelloMessage(host, { lastSeq }))));
 */
export function createHelloMessage(host: Pick<AppToolHost, 'declarations'>, options: HelloOptions = {}): HelloMessage {
  const message: HelloMessage = {
    type: 'hello',
    capabilities: [...(options.capabilities ?? [TOOL_STREAM_CAPABILITY])],
    tools: [...host.declarations()],
  };
  if (typeof options.lastSeq === 'number') message.lastSeq = options.lastSeq;
  return message;
}

function isResultCode(value: unknown): value is ToolResultCode {
  return typeof value === 'string' && (TOOL_RESULT_CODES as readonly string[]).includes(value);
}

/**
 * Connect `host` to `session`: declarations out, calls in, results out, interrupts both ways.
 * Returns the function that unbinds; after it nothing more is sent, not even the results of
 * calls still running (the host keeps running them; close it to stop them).
 *
 * @example
 * const host = createAppToolHost();
 * const unbind = bindAppToolHost(session, host, { lastSeq: () => store.getState().lastSeq });
 * host.register(setTitleTool); // announced with tools.update
 * host.interrupt('turn-7');    // sends { type: 'turn.interrupt', turnId: 'turn-7' }
 * unbind();
 */
export function bindAppToolHost(
  session: ToolSession,
  host: AppToolHost,
  options: BindAppToolHostOptions = {},
): () => void {
  const reportError = options.onError ?? ((error: unknown) => console.error(error));
  const sendsHello = options.hello !== false;
  let bound = true;
  /** The declarations the server last heard (hello or tools.update). */
  let announced: readonly ToolDeclaration[] | undefined;
  /** App calls the server already settled or cancelled: their local result is not sent. */
  const closedByServer = new Set<string>();

  const send = (message: ClientMessage): void => {
    try {
      session.send(message);
    } catch (error) {
      reportError(error);
    }
  };

  const sendHello = (): void => {
    const lastSeq = options.lastSeq?.();
    const message = createHelloMessage(host, {
      ...(options.capabilities ? { capabilities: options.capabilities } : {}),
      ...(typeof lastSeq === 'number' ? { lastSeq } : {}),
    });
    announced = host.declarations();
    send(message);
  };

  // A session that cannot report its status changes is taken as ready unless it says closed.
  const isOpen = (): boolean =>
    session.status === 'open' || (session.onStatusChange === undefined && session.status !== 'closed');

  const unsubscribers: Array<() => void> = [];

  unsubscribers.push(
    host.subscribe(() => {
      if (!bound) return;
      const current = host.declarations();
      // docs/protocol.md, "The session": tools registered after hello are announced with tools.update.
      // The whole list goes, so a server that replaces and one that merges both end up right, and
      // an unregister is announced too. Nothing goes while reconnecting: the next hello carries it.
      if (announced === undefined || current === announced || !isOpen()) return;
      announced = current;
      send({ type: 'tools.update', tools: [...current] });
    }),
  );

  unsubscribers.push(
    host.onInterrupt(({ turnIds }) => {
      if (!bound) return;
      // The host already raised its floor and answered INTERRUPTED; tell the server without waiting.
      for (const turnId of turnIds) send({ type: 'turn.interrupt', turnId });
    }),
  );

  unsubscribers.push(
    session.onToolCall((message) => {
      if (!bound) return;
      const callId: unknown = (message as { callId?: unknown } | null)?.callId;
      const epoch: unknown = (message as { epoch?: unknown } | null)?.epoch;
      void host.call(message).then((result) => {
        if (!bound) return;
        if (typeof callId !== 'string' || callId === '') {
          reportError(new Error(`an app-tool call without a callId cannot be answered (${result.ok ? 'ok' : (result.message ?? result.code)})`));
          return;
        }
        if (closedByServer.delete(callId)) return;
        send({ type: 'tool.result', callId, epoch: typeof epoch === 'number' ? epoch : host.epoch, result });
      });
    }),
  );

  unsubscribers.push(
    session.subscribe((raw) => {
      if (!bound) return;
      // Read through validation, once: a frame is acted on as the copy validation made of it, and
      // one that is malformed, another message, or names the page's own events changes nothing
      // here (the tool-call store reports those).
      const checked = validateToolEvent(raw);
      if (checked.kind !== 'event') return;
      const e = checked.event;
      if (e.type === 'closed') {
        // docs/protocol.md, "App tools": on closed, every open call is aborted and all app-tool state is cleared.
        host.close();
        return;
      }
      if (e.type !== 'tool.stream' || (e.phase !== 'settled' && e.phase !== 'cancelled')) return;
      // docs/protocol.md, "The session": a server settled or cancelled for an app call aborts its run.
      let result: ToolResult & { ok: false };
      if (e.phase === 'cancelled') {
        result = { ok: false, code: 'INTERRUPTED', message: 'the server cancelled this call' };
      } else if (!e.ok && isResultCode(e.code)) {
        result = { ok: false, code: e.code, message: `the server settled this call with ${e.code}` };
      } else {
        result = { ok: false, code: 'INTERRUPTED', message: 'the server settled this call before the page answered' };
      }
      if (host.abortCall(e.callId, result)) closedByServer.add(e.callId);
    }),
  );

  if (session.onStatusChange) {
    unsubscribers.push(
      session.onStatusChange((status) => {
        if (!bound) return;
        if (status === 'open' && sendsHello) sendHello();
        // `closed` is final (a lost connection is `reconnecting`): the same as the closed event.
        if (status === 'closed') host.close();
      }),
    );
  }

  if (session.status === 'closed') {
    host.close();
  } else if (sendsHello) {
    if (isOpen()) sendHello();
  } else {
    // The adapter's own hello declares what the host holds now.
    announced = host.declarations();
  }

  return () => {
    if (!bound) return;
    bound = false;
    for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
    closedByServer.clear();
  };
}
