import { writeRefusal } from './write-refused';

/** What is wrong with Redis right now, as the coordinator last saw it. */
type Trouble = { kind: 'unreachable'; reason: string; since: number } | { kind: 'refused'; reply: string; fix: string; since: number };

/**
 * The coordinator's view of its Redis, for the progress line: unreachable (connection errors
 * until it is ready again) or refusing writes (until a write succeeds). Without it a user saw only
 * "0 workers (… gone)" and no word that Redis, not the workers, was the problem.
 */
export class RedisHealth {
  private trouble: Trouble | undefined;

  constructor(
    private readonly redacted: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A connection attempt failed. */
  unreachable(reason: string): void {
    if (this.trouble?.kind !== 'unreachable') this.trouble = { kind: 'unreachable', reason, since: this.now() };
    else this.trouble.reason = reason;
  }

  /** The connection is ready again. */
  reachable(): void {
    if (this.trouble?.kind === 'unreachable') this.trouble = undefined;
  }

  /** A write failed: noted when Redis refused it (memory full, read-only, failed snapshots). */
  writeFailed(err: unknown): void {
    const refusal = writeRefusal(err);
    if (!refusal || this.trouble?.kind === 'refused') return;
    this.trouble = { kind: 'refused', ...refusal, since: this.now() };
  }

  /** A write succeeded. */
  writable(): void {
    this.trouble = undefined;
  }

  /** One line for the user, or undefined when all is well. */
  describe(): string | undefined {
    const t = this.trouble;
    if (!t) return undefined;
    const seconds = Math.round((this.now() - t.since) / 1000);
    if (t.kind === 'unreachable') return `Redis at ${this.redacted} unreachable for ${seconds} s (${t.reason}); waiting for it`;
    return `Redis at ${this.redacted} refuses writes (${t.reply}) for ${seconds} s: ${t.fix}; waiting for it`;
  }
}
