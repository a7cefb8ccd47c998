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

/** For a reply that refuses a write: its first sentence and the fix; undefined for any other error. */
export function writeRefusal(err: unknown): { reply: string; fix: string } | undefined {
  const message = err instanceof Error ? err.message : '';
  const fix = WRITE_REFUSALS.find((r) => r.reply.test(message))?.fix;
  if (fix === undefined) return undefined;
  return { reply: message.replace(/\.\s.*$/s, '').replace(/\.$/, ''), fix };
}

/**
 * `remote-failed` naming the server (without its password), its reply's first sentence and the
 * fix, for a write Redis refused; any other error is returned as it is.
 */
export function writeRefusedError(address: RedisAddress, err: unknown): unknown {
  const refusal = writeRefusal(err);
  if (!refusal) return err;
  return new AppError(
    'remote-failed',
    `Redis at ${address.redacted} refuses writes (${refusal.reply}): ${refusal.fix}; then resume the batch.`,
    { cause: err },
  );
}
