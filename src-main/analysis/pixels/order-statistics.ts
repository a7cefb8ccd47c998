/**
 * Order statistics without a full sort: the values at given ranks of a sample, the same numbers
 * `Float32Array.from(values).sort()[rank]` gives, by quickselect on one copy (O(n) per rank
 * instead of sorting all n).
 */
export function valuesAtRanks(values: Float32Array, ranks: readonly number[]): number[] {
  const a = Float32Array.from(values);
  const out = new Array<number>(ranks.length).fill(0);
  if (!a.length) return out;
  // Highest rank first: after selecting rank k everything left of k is ≤ a[k], so a lower rank is
  // searched in a[0..k] only.
  const order = ranks.map((_, i) => i).sort((p, q) => ranks[q]! - ranks[p]!);
  let hi = a.length - 1;
  for (const i of order) {
    const k = Math.max(0, Math.min(a.length - 1, ranks[i]!));
    selectRank(a, 0, Math.max(hi, k), k);
    out[i] = a[k]!;
    hi = k;
  }
  return out;
}

/** Rearranges a[lo..hi] so that a[k] holds the value of rank k, smaller or equal values left of it, larger or equal right (Hoare partition, median-of-three pivot). */
function selectRank(a: Float32Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    const x = a[lo]!;
    const y = a[(lo + hi) >> 1]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    // a[lo..j] ≤ pivot ≤ a[i..hi]; anything between j and i equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}
