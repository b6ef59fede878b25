/**
 * An AG-UI agent endpoint on a real HTTP server for the AG-UI bridge's tests: each run's
 * `RunAgentInput` goes to a script, whose events the protocol's own encoder (`@ag-ui/encoder`)
 * writes as the SSE stream that `HttpAgent` reads.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEncoder } from '@ag-ui/encoder';
import type { BaseEvent, RunAgentInput } from '@ag-ui/core';

/** One run's events; `hold` pauses the stream before that event until `release()` (or the client aborts). */
export interface ScriptedRun {
  events: Array<Record<string, unknown>>;
  holdBefore?: number;
}

export type AgentScript = (input: RunAgentInput, run: number) => ScriptedRun;

export interface AgentServer {
  url: string;
  /** Every run's input, as the client sent it. */
  inputs: RunAgentInput[];
  release(): void;
  close(): Promise<void>;
}

export async function startAgentServer(script: AgentScript): Promise<AgentServer> {
  const inputs: RunAgentInput[] = [];
  // A release that comes before the hold lets the stream through it.
  let released = false;
  let release: () => void = () => {
    released = true;
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      void (async () => {
        const input = JSON.parse(body) as RunAgentInput;
        inputs.push(input);
        const { events, holdBefore } = script(input, inputs.length);
        const encoder = new EventEncoder({ accept: req.headers.accept });
        res.writeHead(200, { 'Content-Type': encoder.getContentType(), 'Cache-Control': 'no-cache' });
        let closed = false;
        res.on('close', () => {
          closed = true;
          release();
        });
        for (const [index, event] of events.entries()) {
          if (index === holdBefore && !released) {
            await new Promise<void>((resolve) => {
              release = resolve;
            });
          }
          if (closed) return;
          // The run's own ids on the events that carry them.
          const ids = event.type === 'RUN_STARTED' || event.type === 'RUN_FINISHED' ? { threadId: input.threadId, runId: input.runId } : {};
          res.write(encoder.encode({ ...ids, ...event } as unknown as BaseEvent));
        }
        res.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/agent`,
    inputs,
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
