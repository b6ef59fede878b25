export interface DemoServer {
  /** The page: `http://HOST:PORT/`. */
  readonly url: string;
  /** The socket, forwarded to the reference server: `ws://HOST:PORT/ws`. */
  readonly wsUrl: string;
  readonly port: number;
  /** The origins whose pages and sockets are served: the page's own, and those given. */
  readonly allowedOrigins: string[];
  close(): Promise<void>;
}

/**
 * Serve the built demo from `root` and forward WebSocket upgrades to `target` (a ws:// URL), for
 * the page's own origin and `allowedOrigins` only (others get 403).
 */
export function serveDemo(options: {
  root: string;
  target: string;
  host?: string;
  port?: number;
  allowedOrigins?: readonly string[];
}): Promise<DemoServer>;
