/**
 * A socket's message budget: a token bucket that holds `burst` messages and refills at
 * `perSecond`, on the server's clock (a manual one in tests). A message over budget is not read;
 * the first of a run of refusals is answered, the rest only counted, so a flood cannot make the
 * server write as much as it reads.
 */
export interface BudgetLimits {
  /** Messages a socket may send per second, sustained. */
  perSecond: number;
  /** Messages a socket may send at once before the rate applies. */
  burst: number;
}

export class MessageBudget {
  private tokens: number;
  private last: number;
  /** Refusals since the last message that was within budget. */
  private refusedRun = 0;

  constructor(
    private readonly limits: BudgetLimits,
    private readonly now: () => number,
  ) {
    this.tokens = limits.burst;
    this.last = now();
  }

  /**
   * Spend one message. `ok: false` when over budget; `first` is true for the first refusal of a
   * run, the one to answer.
   */
  take(): { ok: true } | { ok: false; first: boolean } {
    const now = this.now();
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    this.tokens = Math.min(this.limits.burst, this.tokens + (elapsed / 1000) * this.limits.perSecond);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.refusedRun = 0;
      return { ok: true };
    }
    this.refusedRun += 1;
    return { ok: false, first: this.refusedRun === 1 };
  }
}
