/**
 * Where a verifier remembers the tokens it has accepted, so that each is accepted once
 * (docs/guarantees.md, "Approvals any server can verify").
 */

/**
 * A store of spent approval tokens. `spend` must be atomic: it returns `true` the first time an
 * id is spent and `false` every time after, until `expiresAt` (after which the token is refused as
 * expired anyway and the id may be forgotten). Plug in a shared store (Redis `SET key 1 NX PXAT`,
 * a database row with a unique key) when several server processes verify tokens.
 *
 * @example
 * const shared: SpentTokenStore = {
 *   spend: async (id, expiresAt) => (await redis.set(`approval:${id}`, '1', { NX: true, PXAT: expiresAt })) === 'OK',
 * };
 */
export interface SpentTokenStore {
  spend(id: string, expiresAt: number): boolean | 'full' | Promise<boolean | 'full'>;
}

/**
 * Options of {@link createMemoryTokenStore}.
 *
 * @example
 * const spent = createMemoryTokenStore({ max: 10_000 });
 */
export interface MemoryTokenStoreOptions {
  /** The clock that decides when a spent token may be forgotten; `Date.now` when omitted. */
  now?: (() => number) | undefined;
  /** The most unexpired tokens kept (100,000 when omitted); when full, new tokens are refused, never an old one forgotten early. */
  max?: number | undefined;
}

/**
 * The in-memory store of spent tokens: one process's memory, bounded, forgetting each token once it
 * has expired.
 *
 * @example
 * const spent: MemoryTokenStore = createMemoryTokenStore();
 * spent.size // how many unexpired tokens it remembers
 */
export interface MemoryTokenStore extends SpentTokenStore {
  spend(id: string, expiresAt: number): boolean | 'full';
  /** How many unexpired tokens it remembers now. */
  readonly size: number;
}

/** How many spends pass between two sweeps of expired tokens, while the store is not full. */
const SWEEP_EVERY = 256;

/**
 * A {@link SpentTokenStore} in this process's memory. It forgets a token once its expiry has passed
 * (an expired token is refused before the store is asked), and holds at most `max` tokens: when
 * that many unexpired tokens are kept, `spend` answers `'full'` (the verifier refuses with `busy`)
 * rather than forget one that could then be replayed.
 *
 * @example
 * const signer = createApprovalSigner({ secret, spent: createMemoryTokenStore({ max: 50_000 }) });
 */
export function createMemoryTokenStore(options: MemoryTokenStoreOptions = {}): MemoryTokenStore {
  const now = options.now ?? Date.now;
  const max = options.max ?? 100_000;
  const spent = new Map<string, number>();
  let sinceSweep = 0;
  const sweep = (): void => {
    const t = now();
    for (const [id, expiresAt] of spent) if (expiresAt <= t) spent.delete(id);
    sinceSweep = 0;
  };
  return {
    spend(id, expiresAt) {
      if (++sinceSweep >= SWEEP_EVERY || spent.size >= max) sweep();
      const known = spent.get(id);
      if (known !== undefined && known > now()) return false;
      if (known === undefined && spent.size >= max) return 'full';
      spent.set(id, expiresAt);
      return true;
    },
    get size() {
      sweep();
      return spent.size;
    },
  };
}
