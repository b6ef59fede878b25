/**
 * An AG-UI endpoint that answers in the page, for the AG-UI bridge's story: `HttpAgent`'s own
 * `fetch` option gets a streamed response whose body the protocol's encoder writes, so the real
 * client reads a real SSE stream without a server (a browser test has none).
 */
import { EventEncoder } from '@ag-ui/encoder';
import type { BaseEvent, RunAgentInput } from '@ag-ui/core';

export type PageScript = (input: RunAgentInput, run: number) => Array<Record<string, unknown>>;

/**
 * A `fetch` for `new HttpAgent({ url, fetch })`; `delayMs` is the pause before each event;
 * `holdAfter` events in, the stream waits (as an agent still thinking does) until the run is aborted.
 */
export function pageEndpoint(script: PageScript, options: { delayMs?: number; holdAfter?: number } = {}) {
  let runs = 0;
  return async (_url: string, init: RequestInit): Promise<Response> => {
    const input = JSON.parse(String(init.body)) as RunAgentInput;
    const events = script(input, ++runs);
    const encoder = new EventEncoder({ accept: 'text/event-stream' });
    const bytes = new TextEncoder();
    const signal = init.signal ?? undefined;
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (signal?.aborted) {
          controller.error(signal.reason);
          return;
        }
        if (index === options.holdAfter) {
          await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
          controller.error(signal?.reason);
          return;
        }
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        const event = events[index++];
        if (event === undefined) {
          controller.close();
          return;
        }
        const ids = event.type === 'RUN_STARTED' || event.type === 'RUN_FINISHED' ? { threadId: input.threadId, runId: input.runId } : {};
        controller.enqueue(bytes.encode(encoder.encode({ ...ids, ...event } as unknown as BaseEvent)));
      },
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': encoder.getContentType() } });
  };
}
