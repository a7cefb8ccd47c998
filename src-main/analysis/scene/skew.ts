/**
 * The skew of a page of writing: a page photographed or scanned a few degrees askew has its lines
 * slanted, so no row is blank between them and rows of ink no longer make lines (a printed page
 * turned by 2° was "a black and white photo of a ruler"). The angle whose projection of the ink
 * onto the page's height is the most peaked (the largest sum of squared counts: lines and the gaps
 * between them sharpest) is the skew (the projection-profile method of Postl and of Baird).
 * - Angles from −`maxDeg` to `maxDeg` in steps of `stepDeg` (degrees, positive = lines falling to
 *   the right in image coordinates);
 * - the best angle counts only when its profile is at least `minGain` × as peaked as the level
 *   one's (pages turned 2–8°: 1.76–2.49; the rays of many-pointed star outlines find an angle
 *   too, at 1.10–1.15), and at least `minDeg` from level (a level page is read as it is);
 * - the ink must be `minInk`–`maxInk` of the pixels (too little to tell; a photo, not writing).
 */
export const SKEW = { maxDeg: 8, stepDeg: 1, minDeg: 1, minGain: 1.4, minInk: 0.005, maxInk: 0.35 } as const;

/**
 * The skew in degrees of the ink of a w×h grey image (`ink(i)` for pixel i), 0 when level or not
 * clear (`SKEW`).
 */
export function skewDegrees(w: number, h: number, isInk: (i: number) => boolean): number {
  // Ink pixels of every other column: plenty for a profile, and half the work (every other row
  // would favour the level angle, whose profile then fills every other row only).
  const xs = new Int16Array(((w * h) >> 1) + h);
  const ys = new Int16Array(xs.length);
  let n = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x += 2)
      if (isInk(y * w + x)) {
        xs[n] = x;
        ys[n++] = y;
      }
  const share = (2 * n) / (w * h);
  if (share < SKEW.minInk || share > SKEW.maxInk) return 0;
  // The projection at angle a puts pixel (x, y) in row y − x·tan(a), offset so rows stay ≥ 0.
  const margin = Math.ceil(w * Math.tan((SKEW.maxDeg * Math.PI) / 180)) + 1;
  const profile = new Float64Array(h + 2 * margin);
  const peakedness = (deg: number): number => {
    profile.fill(0);
    const t = Math.tan((deg * Math.PI) / 180);
    for (let i = 0; i < n; i++) profile[Math.round(ys[i]! - xs[i]! * t) + margin]!++;
    let sum = 0;
    for (let r = 0; r < profile.length; r++) sum += profile[r]! * profile[r]!;
    return sum;
  };
  const level = peakedness(0);
  let best = 0;
  let bestScore = level;
  for (let deg = -SKEW.maxDeg; deg <= SKEW.maxDeg; deg += SKEW.stepDeg) {
    if (deg === 0) continue;
    const score = peakedness(deg);
    if (score > bestScore) {
      bestScore = score;
      best = deg;
    }
  }
  return Math.abs(best) >= SKEW.minDeg && bestScore >= SKEW.minGain * level ? best : 0;
}

/**
 * `g` (w×h grey) turned by −`deg` degrees about its centre so lines slanted by `deg` lie level;
 * corners brought in from outside take `fill` (the page tone). Bilinear.
 */
export function levelled(g: Float32Array, w: number, h: number, deg: number, fill: number): Float32Array {
  const out = new Float32Array(w * h);
  const a = (deg * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      // The source of output pixel (x, y): rotate it by +deg about the centre.
      const dx = x - cx;
      const dy = y - cy;
      const sx = cx + dx * cos - dy * sin;
      const sy = cy + dx * sin + dy * cos;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= h) {
        out[y * w + x] = fill;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * w + x0;
      const top = g[i]! + (g[i + 1]! - g[i]!) * fx;
      const bottom = g[i + w]! + (g[i + w + 1]! - g[i + w]!) * fx;
      out[y * w + x] = top + (bottom - top) * fy;
    }
  return out;
}
