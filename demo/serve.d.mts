export interface DemoServer {
  /** The page: `http://HOST:PORT/`. */
  readonly url: string;
  /** The socket, forwarded to the reference server: `ws://HOST:PORT/ws`. */
  readonly wsUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Serve the built demo from `root` and forward WebSocket upgrades to `target` (a ws:// URL). */
export function serveDemo(options: { root: string; target: string; host?: string; port?: number }): Promise<DemoServer>;
