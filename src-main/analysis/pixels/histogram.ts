/** The `q` quantile of a histogram: the smallest bin whose cumulative count reaches q·total (0 when empty). */
export function histogramQuantile(hist: ArrayLike<number>, q: number): number {
  let total = 0;
  for (let i = 0; i < hist.length; i++) total += hist[i]!;
  if (total === 0) return 0;
  let acc = 0;
  for (let i = 0; i < hist.length; i++) {
    acc += hist[i]!;
    if (acc >= q * total) return i;
  }
  return hist.length - 1;
}
