/** How often `until` asks again, in ms: often enough to catch a run mid-way (an import, a delete). */
const POLL_MS = 50;

/**
 * Asks `probe` until it answers a value (anything but `undefined` or `false`) and resolves to it;
 * throws naming `what` after `timeoutMs`. For tests that wait on another process.
 */
export async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 120_000): Promise<T> {
  for (const start = Date.now(); Date.now() - start < timeoutMs;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new Error(`timed out waiting for ${what}`);
}
