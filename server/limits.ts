/**
 * The reference server's limits, in one place with their defaults (server/README.md "Limits").
 * Each refusal names the limit it applied; every one is configurable through `limits`.
 */
export interface ServerLimits {
  /** Largest frame a client may send, in bytes; a larger one closes the socket with 1009. */
  maxFrameBytes: number;
  /** Levels of nesting in a message, its arguments included. */
  maxDepth: number;
  /** JSON values in a message, its arguments included. */
  maxNodes: number;
  /** Messages one socket may send per second, sustained… */
  messagesPerSecond: number;
  /** …and at once, before that rate applies. */
  messageBurst: number;
  /** Live sessions; a `hello` beyond them is refused (SERVER_BUSY, close 1013). */
  maxSessions: number;
  /** How long a socket may stay without saying hello (real time). */
  helloTimeoutMs: number;
  /** Ping period; a socket that missed the last ping's pong is dropped (real time; 0: no pings). */
  heartbeatMs: number;
  /** How long a room confirmation stays usable unused. */
  confirmationTtlMs: number;
  /** Unused confirmations one session may hold at once. */
  maxUnusedConfirmations: number;
  /** Records (effects, traces, ignored messages) kept per session, of each kind. */
  maxRecordsPerSession: number;
  /** Records kept in all, of each kind. */
  maxRecords: number;
  /** Largest value (arguments, result, detail) a record keeps as it is, in bytes of JSON. */
  maxRecordedValueBytes: number;
  /** Bytes of one session's events kept for replay. */
  maxReplayBytes: number;
  /** Finished turns one session keeps, with their calls and results. */
  maxTurnsKept: number;
  /**
   * Bytes one socket may have waiting to be sent (ws `bufferedAmount`) when the server writes to
   * it; past them the socket is dropped as a lost connection (its session waits for a resume). A
   * resume's replay may go over by its own size until the socket drains below the limit once.
   */
  maxBufferedBytes: number;
  /** Live sessions one remote address may hold (open or waiting for a resume); a `hello` beyond them is refused (SERVER_BUSY, close 1013). */
  maxSessionsPerAddress: number;
  /** How long a session that never started a turn waits for a resume once its socket is gone (instead of the resume window). */
  unusedSessionTtlMs: number;
  /** The largest `params.size` a client may ask of a script (characters); a larger one is clamped to it. */
  maxScriptSize: number;
  /** The slowest `speed` a client may ask for a turn (0 and Infinity still mean instant); a slower one is clamped to it. */
  minTurnSpeed: number;
}

export const DEFAULT_LIMITS: Readonly<ServerLimits> = {
  maxFrameBytes: 1024 * 1024,
  maxDepth: 32,
  maxNodes: 10_000,
  messagesPerSecond: 500,
  messageBurst: 1000,
  maxSessions: 1000,
  helloTimeoutMs: 10_000,
  heartbeatMs: 30_000,
  confirmationTtlMs: 5 * 60_000,
  maxUnusedConfirmations: 100,
  maxRecordsPerSession: 1000,
  maxRecords: 10_000,
  maxRecordedValueBytes: 16 * 1024,
  maxReplayBytes: 16 * 1024 * 1024,
  maxTurnsKept: 200,
  maxBufferedBytes: 4 * 1024 * 1024,
  maxSessionsPerAddress: 50,
  unusedSessionTtlMs: 15_000,
  maxScriptSize: 200_000,
  minTurnSpeed: 0.1,
};

/** The defaults with `overrides`, each checked to be a number >= 0 (Infinity allowed). */
export function resolveLimits(overrides: Partial<ServerLimits> = {}): ServerLimits {
  const limits = { ...DEFAULT_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0) throw new Error(`limits.${name} must be a number >= 0, not ${String(value)}`);
  }
  return limits;
}
