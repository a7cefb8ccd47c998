import { AppError } from '../../core';
import type { RedisAddress } from './redis-url';

/**
 * Replies of a Redis that is up but refuses writes, with what the operator does about each:
 * memory full under the `noeviction` policy (the default), a read-only replica, or writes
 * stopped after a failed RDB save. Reconnecting cures none of them.
 */
const WRITE_REFUSALS: ReadonlyArray<{ reply: RegExp; fix: string }> = [
  { reply: /^OOM\b/, fix: 'free memory there (finished batches, other data) or raise its maxmemory' },
  { reply: /^READONLY\b/, fix: 'give the URL of the primary, not of a read-only replica' },
  { reply: /^MISCONF\b/, fix: 'fix its snapshots (disk space, permissions of its dir) so it accepts writes again' },
];

/** The fix for a reply that refuses a write, or undefined for any other error. */
function refusal(err: unknown): string | undefined {
  const message = err instanceof Error ? err.message : '';
  return WRITE_REFUSALS.find((r) => r.reply.test(message))?.fix;
}

/** True when `err` is Redis refusing a write (memory full, read-only, failed snapshots). */
export const isWriteRefused = (err: unknown): boolean => refusal(err) !== undefined;

/**
 * `remote-failed` naming the server (without its password), its reply's first sentence and the
 * fix, for a write Redis refused; any other error is returned as it is.
 */
export function writeRefusedError(address: RedisAddress, err: unknown): unknown {
  const fix = refusal(err);
  if (fix === undefined) return err;
  const reply = (err as Error).message.replace(/\.\s.*$/s, '').replace(/\.$/, '');
  return new AppError('remote-failed', `Redis at ${address.redacted} refuses writes (${reply}): ${fix}; then resume the batch.`, {
    cause: err,
  });
}
