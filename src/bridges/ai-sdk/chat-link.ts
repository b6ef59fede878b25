/**
 * The bridge's line to the chat: answers go through it once the chat is connected (kept until
 * then), a chat that refuses an answer is reported, never raised, and the chat's stop and the
 * page's interrupts reach each other.
 */
import type { AppToolHost, ErrorReporter } from '../../core';
import { describeThrown } from '../../core/external-store';
import type { ChatLike } from './chat-types';

export interface ChatLink {
  /** Answer through the chat, now or once it is connected. */
  send(answer: (chat: ChatLike) => unknown): void;
  /** See `AISDKBridge.connect`. */
  connect(chat: ChatLike): () => void;
}

export interface ChatLinkOptions {
  /** Reports a problem; the reason already names the provider. */
  say: ErrorReporter;
  host: AppToolHost;
  /** Stop the kit's calls (the chat was stopped). */
  stop(): void;
  /** Whether that stop is under way (so the page's interrupt it causes does not stop the chat again). */
  stopping(): boolean;
}

export function createChatLink(options: ChatLinkOptions): ChatLink {
  const { say } = options;
  let chat: ChatLike | undefined;
  const unsent: Array<(chat: ChatLike) => void> = [];

  const refused = (error: unknown): void => say(`the chat refused an answer: ${describeThrown(error)}`, error, 'answer-failed');

  const send = (answer: (chat: ChatLike) => unknown): void => {
    const deliver = (to: ChatLike): void => {
      try {
        void Promise.resolve(answer(to)).catch(refused);
      } catch (error) {
        refused(error);
      }
    };
    if (chat !== undefined) {
      deliver(chat);
      return;
    }
    if (unsent.length === 0) say('an answer waits for bridge.connect(chat)', undefined, 'not-connected');
    unsent.push(deliver);
  };

  const connect = (next: ChatLike): (() => void) => {
    chat = next;
    // The chat's own stop (its stop button, useChat's stop) stops the kit's calls too, also when
    // no response is streaming (an approval or an app tool still waits).
    const own = Object.prototype.hasOwnProperty.call(next, 'stop') ? next.stop : undefined;
    if (typeof own === 'function') {
      (next as { stop: (...args: unknown[]) => unknown }).stop = (...args: unknown[]) => {
        options.stop();
        return (own as (...a: unknown[]) => unknown).apply(next, args);
      };
    }
    // An interrupt in the page (useInterrupt) stops the chat.
    const stopInterrupts = options.host.onInterrupt(() => {
      if (!options.stopping() && chat === next) void Promise.resolve(next.stop()).catch(() => undefined);
    });
    for (const deliver of unsent.splice(0)) deliver(next);
    return () => {
      stopInterrupts();
      if (typeof own === 'function') (next as { stop: unknown }).stop = own;
      if (chat === next) chat = undefined;
    };
  };

  return { send, connect };
}
