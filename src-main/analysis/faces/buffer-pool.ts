/**
 * A small free-list of Float32Arrays by length for model inputs: a detect call warps ~2 MB of
 * inputs per face, and reusing them instead of allocating keeps the GC out of the latency.
 * A buffer must be returned only after the run that reads it has resolved.
 */
const free = new Map<number, Float32Array[]>();
/** Buffers kept per length; more are left to the GC. */
const KEEP = 4;

/** A buffer of `length` floats (contents undefined: callers overwrite every element). */
export function borrowBuffer(length: number): Float32Array {
  return free.get(length)?.pop() ?? new Float32Array(length);
}

/** Gives `buf` back for reuse. */
export function returnBuffer(buf: Float32Array): void {
  const list = free.get(buf.length) ?? [];
  if (list.length < KEEP) list.push(buf);
  free.set(buf.length, list);
}

/** Runs `fn` with a borrowed buffer and returns it afterwards (also on failure). */
export async function withBuffer<T>(length: number, fn: (buf: Float32Array) => Promise<T>): Promise<T> {
  const buf = borrowBuffer(length);
  try {
    return await fn(buf);
  } finally {
    returnBuffer(buf);
  }
}
