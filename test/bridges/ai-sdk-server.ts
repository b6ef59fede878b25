/**
 * A chat route on a real HTTP server for the AI SDK bridge's tests: POST /api/chat streams the
 * scripted model's next turn with `pipeUIMessageStreamToResponse`, as a Node route handler would,
 * so the page's `DefaultChatTransport` reads real SSE.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UIMessage } from 'ai';
import { respond, scriptedModel, serverTools, type RespondOptions, type ServerLog, type Turn } from './ai-sdk-model';

export interface ChatServer {
  url: string;
  log: ServerLog;
  /** The messages of each request, as the page sent them. */
  requests: UIMessage[][];
  /** What the route's `streamText` refused (an approval whose signature does not verify, among others). */
  errors: unknown[];
  release(): void;
  close(): Promise<void>;
}

/** `approvalSecret`: the route signs its approval requests and verifies the answers (the SDK's own signed approvals). */
export async function startChatServer(turns: Turn[], options: Pick<RespondOptions, 'approvalSecret'> = {}): Promise<ChatServer> {
  const { model, release } = scriptedModel(turns);
  const log: ServerLog = { deleted: [] };
  const tools = serverTools(log);
  const requests: UIMessage[][] = [];
  const errors: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      void (async () => {
        const { messages } = JSON.parse(body) as { messages: UIMessage[] };
        requests.push(messages);
        const aborted = new AbortController();
        res.on('close', () => aborted.abort());
        const result = await respond(model, tools, messages, aborted.signal, { ...options, onError: (error) => errors.push(error) });
        result.pipeUIMessageStreamToResponse(res, { originalMessages: messages });
      })().catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/chat`,
    log,
    requests,
    errors,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
