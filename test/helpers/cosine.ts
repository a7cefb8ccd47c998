/** Cosine similarity of two vectors of any length (1 when both are zero), for comparing model outputs. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return na === 0 && nb === 0 ? 1 : dot / Math.sqrt(na * nb);
}
