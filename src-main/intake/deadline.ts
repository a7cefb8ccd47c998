/**
 * The total time budget of one fetch. It can be paused while the server has asked us to wait
 * (Retry-After): that wait is the server's choice, bounded by `maxRetryAfterMs`, not slowness.
 */
export class Deadline {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private leftMs: number;
  private armedAtMs = 0;

  /** Starts the clock: `onExpire` runs once `budgetMs` of unpaused time has passed. */
  constructor(
    budgetMs: number,
    private readonly onExpire: () => void,
  ) {
    this.leftMs = budgetMs;
    this.arm();
  }

  /** Milliseconds of budget left. */
  remainingMs(): number {
    return this.timer === undefined ? this.leftMs : Math.max(0, this.leftMs - (Date.now() - this.armedAtMs));
  }

  /** Runs `wait` with the clock stopped, then restarts it with what was left. */
  async paused<T>(wait: () => Promise<T>): Promise<T> {
    this.leftMs = this.remainingMs();
    this.clear();
    try {
      return await wait();
    } finally {
      this.arm();
    }
  }

  /** Stops the clock for good. */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.armedAtMs = Date.now();
    this.timer = setTimeout(this.onExpire, this.leftMs);
  }
}
