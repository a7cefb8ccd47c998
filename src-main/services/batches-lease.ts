import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { AppError } from '../core';
import type { BatchLease, LeasesRepo } from '../store';

/** How often a running batch renews its lease and looks for a cancel from another process, in ms. */
export const LEASE_HEARTBEAT_MS = 1_000;
/**
 * A lease not renewed for this long belongs to a process that is gone (crashed, machine off),
 * in ms. On the same host a dead pid frees the lease at once; this bound covers other hosts
 * sharing the file and a pid reused by an unrelated process.
 */
export const LEASE_STALE_MS = 15_000;

/** True while process `pid` exists on this host (EPERM: it exists but is another user's). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a lease still has a live holder: renewed recently and, on this host, its process alive. */
export function isLiveHolder(holder: BatchLease, nowMs = Date.now(), host = hostname()): boolean {
  if (nowMs - holder.heartbeatMs > LEASE_STALE_MS) return false;
  return holder.host !== host || isProcessAlive(holder.pid);
}

/** The refusal for a batch another process runs (or, `importing`, is still reading the list of), naming that process. */
export function batchLockedError(holder: BatchLease, importing = false): AppError {
  const doing = importing ? 'is still having its list imported by' : 'is already running in';
  return new AppError(
    'batch-locked',
    `Batch ${holder.batchId} ${doing} process ${holder.pid} on ${holder.host} (started ${holder.startedAt}); ` +
      `wait for it to finish, or stop it there (Ctrl-C) or with: picscan cancel ${holder.batchId}`,
    { details: { batchId: holder.batchId, pid: holder.pid, host: holder.host, startedAt: holder.startedAt } },
  );
}

/** This process's lease on one batch while it runs it. */
export class RunLease {
  readonly token = randomUUID();

  private constructor(
    private readonly leases: LeasesRepo,
    readonly batchId: number,
  ) {}

  /** Takes the lease of `batchId` or throws `batch-locked` naming the live holder. */
  static acquire(leases: LeasesRepo, batchId: number): RunLease {
    const lease = new RunLease(leases, batchId);
    const now = new Date();
    const holder = leases.acquire(
      { batchId, token: lease.token, pid: process.pid, host: hostname(), startedAt: now.toISOString(), heartbeatMs: now.getTime() },
      (h) => isLiveHolder(h),
    );
    if (holder) throw batchLockedError(holder);
    return lease;
  }

  /** Renews the heartbeat; false if the lease was lost (taken over after a stall). */
  renew(): boolean {
    return this.leases.renew(this.batchId, this.token);
  }

  release(): void {
    this.leases.release(this.batchId, this.token);
  }
}
