import { toGray } from '../pixels/thumbnail';
import type { RgbImage } from '../../inference';
import { greySplit } from './grey-split';

/**
 * A QR code is found by its three finder patterns, the nested squares at three of its corners:
 * across its centre, in any direction, a finder pattern reads dark, light, dark, light, dark in
 * widths 1 : 1 : 3 : 1 : 1 modules (the standard way decoders find them, ISO/IEC 18004 §12).
 * Grey levels are split halfway between the 5th and 95th percentiles of the ≤ 320 px thumbnail,
 * which must span `minContrast` levels.
 * - `tolerance`: a run may differ from its expected width by this share of a module (3 × it for
 *   the 3-module centre);
 * - `minModulePx`: modules under this many pixels of the thumbnail are not resolved;
 * - a candidate is confirmed across its column too, and a pattern needs `minRows` confirmed
 *   rows;
 * - three patterns of one code: module sizes within `moduleSpread` of each other, two equal sides
 *   (within `sideSpread`) at a right angle (the third side √2 × them, within `sideSpread`), the
 *   sides at least `minSideModules` modules (version 1: 14 modules between finder centres);
 * - and the timing patterns between them: the module row and column 3 modules inside the finder
 *   centres alternate dark and light, in at least `timingAlternation` of the steps along each
 *   side (a geometric tile with nested squares in three corners has finders but no timing).
 */
export const QR_FINDER = {
  minContrast: 80,
  tolerance: 0.5,
  minModulePx: 1.5,
  minRows: 2,
  moduleSpread: 0.4,
  sideSpread: 0.15,
  minSideModules: 12,
  timingAlternation: 0.8,
} as const;

interface Finder {
  x: number;
  y: number;
  module: number;
  rows: number;
}

/**
 * Share of the image (0..1) a QR code found on `mid` (the ≤ 320 px thumbnail) covers, its square
 * reaching 3.5 modules beyond the finder centres; 0 when no code is found (`QR_FINDER`).
 */
export function measureQrCode(mid: RgbImage): number {
  const g = toGray(mid);
  const { width: w, height: h } = mid;
  const split = greySplit(g, QR_FINDER.minContrast);
  if (!split) return 0;
  const { threshold } = split;
  const finders: Finder[] = [];
  // The widths (w0 oldest … w4 newest) of the last five runs of the row and the starts of the
  // last three (scalars: every row of every image is scanned).
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let runs = 0;
    let start = 0;
    let runDark = g[row]! < threshold;
    let w0 = 0,
      w1 = 0,
      w2 = 0,
      w3 = 0,
      w4 = 0,
      s2 = 0,
      s3 = 0,
      s4 = 0;
    for (let x = 1; x <= w; x++) {
      if (x < w && g[row + x]! < threshold === runDark) continue;
      w0 = w1;
      w1 = w2;
      w2 = w3;
      w3 = w4;
      w4 = x - start;
      s2 = s3;
      s3 = s4;
      s4 = start;
      runs++;
      // Five runs ending in a dark one start with a dark one: dark, light, dark, light, dark.
      if (runs >= 5 && runDark && w2 >= 3 * QR_FINDER.minModulePx * (1 - QR_FINDER.tolerance)) {
        const module = finderModule([w0, w1, w2, w3, w4]);
        if (module !== undefined) {
          const cx = s2 + w2 / 2;
          const cy = verticalCentre(g, threshold, w, h, Math.floor(cx), y, module);
          if (cy !== undefined) addFinder(finders, { x: cx, y: cy, module, rows: 1 });
        }
      }
      start = x;
      runDark = !runDark;
    }
  }
  return codeShare(
    finders.filter((f) => f.rows >= QR_FINDER.minRows),
    (x, y) => g[Math.min(h - 1, Math.max(0, Math.round(y))) * w + Math.min(w - 1, Math.max(0, Math.round(x)))]! < threshold,
    w,
    h,
  );
}

/** Expected widths of the five runs across a finder pattern, in modules. */
const FINDER_RUNS = [1, 1, 3, 1, 1] as const;

/** The module width when five run widths read 1 : 1 : 3 : 1 : 1, else undefined. */
function finderModule(widths: ArrayLike<number>): number | undefined {
  const module = (widths[0]! + widths[1]! + widths[2]! + widths[3]! + widths[4]!) / 7;
  if (module < QR_FINDER.minModulePx) return undefined;
  const slack = module * QR_FINDER.tolerance;
  for (let j = 0; j < 5; j++) if (Math.abs(widths[j]! - FINDER_RUNS[j]! * module) > FINDER_RUNS[j]! * slack) return undefined;
  return module;
}

/**
 * The centre row of a finder pattern crossing (x, y) when column x reads 1 : 1 : 3 : 1 : 1 around
 * it with about the same module, else undefined.
 */
function verticalCentre(
  g: Float32Array,
  threshold: number,
  w: number,
  h: number,
  x: number,
  y: number,
  module: number,
): number | undefined {
  const isDark = (row: number): boolean => g[row * w + x]! < threshold;
  if (!isDark(y)) return undefined;
  /** Rows from `row` on, moving by `step`, while they are as dark as `dark`. */
  const run = (row: number, step: 1 | -1, dark: boolean): number => {
    let n = 0;
    for (let r = row; r >= 0 && r < h && isDark(r) === dark; r += step) n++;
    return n;
  };
  // Up from the centre: its dark run, the light ring, the dark ring; then down the same.
  const centreUp = run(y, -1, true);
  const lightUp = run(y - centreUp, -1, false);
  const darkUp = run(y - centreUp - lightUp, -1, true);
  const centreDown = run(y + 1, 1, true);
  const lightDown = run(y + 1 + centreDown, 1, false);
  const darkDown = run(y + 1 + centreDown + lightDown, 1, true);
  const centre = centreUp + centreDown;
  const vertical = finderModule([darkUp, lightUp, centre, lightDown, darkDown]);
  if (vertical === undefined || Math.abs(vertical - module) > module * QR_FINDER.moduleSpread) return undefined;
  return y - centreUp + 1 + centre / 2;
}

/** Adds a confirmed crossing to the finder it falls in (within two modules), or as a new one. */
function addFinder(finders: Finder[], c: Finder): void {
  const near = finders.find((f) => Math.hypot(f.x - c.x, f.y - c.y) <= 2 * Math.max(f.module, c.module));
  if (!near) {
    finders.push(c);
    return;
  }
  const n = near.rows;
  near.x = (near.x * n + c.x) / (n + 1);
  near.y = (near.y * n + c.y) / (n + 1);
  near.module = (near.module * n + c.module) / (n + 1);
  near.rows = n + 1;
}

/** The largest image share of a code whose three finders are among `finders` (0 when none fits). */
function codeShare(finders: Finder[], isDark: (x: number, y: number) => boolean, w: number, h: number): number {
  const { moduleSpread, sideSpread, minSideModules } = QR_FINDER;
  let best = 0;
  for (let a = 0; a < finders.length; a++)
    for (let b = a + 1; b < finders.length; b++)
      for (let c = b + 1; c < finders.length; c++) {
        const three = [finders[a]!, finders[b]!, finders[c]!];
        const modules = three.map((f) => f.module);
        const module = modules.reduce((s, m) => s + m, 0) / 3;
        if (Math.max(...modules) - Math.min(...modules) > moduleSpread * module) continue;
        // The corner finder is the one opposite the longest side.
        const opposite = [dist(three[1]!, three[2]!), dist(three[0]!, three[2]!), dist(three[0]!, three[1]!)];
        const k = opposite.indexOf(Math.max(...opposite));
        const corner = three[k]!;
        const [p, q] = three.filter((_, i) => i !== k) as [Finder, Finder];
        const [s1, s2] = [dist(corner, p), dist(corner, q)].sort((x, y) => x - y) as [number, number];
        const hyp = opposite[k]!;
        const side = (s1 + s2) / 2;
        if (s2 - s1 > sideSpread * side || Math.abs(hyp - Math.SQRT2 * side) > sideSpread * Math.SQRT2 * side) continue;
        if (side < minSideModules * module) continue;
        if (!timingAlternates(corner, p, q, module, isDark) || !timingAlternates(corner, q, p, module, isDark)) continue;
        best = Math.max(best, Math.min(1, (side + 7 * module) ** 2 / (w * h)));
      }
  return best;
}

const dist = (p: Finder, q: Finder): number => Math.hypot(p.x - q.x, p.y - q.y);

/**
 * Whether the timing pattern from the corner finder towards `along` alternates: module by module
 * on the line 3 modules towards `inside` from the line of finder centres, from the 5th module
 * after the corner's centre to the 5th before the other's.
 */
function timingAlternates(
  corner: Finder,
  along: Finder,
  inside: Finder,
  module: number,
  isDark: (x: number, y: number) => boolean,
): boolean {
  const length = dist(corner, along);
  const ux = (along.x - corner.x) / length;
  const uy = (along.y - corner.y) / length;
  const across = dist(corner, inside);
  const vx = (inside.x - corner.x) / across;
  const vy = (inside.y - corner.y) / across;
  // Finder centres are 4 × version + 10 modules apart: the nearest such count gives the module
  // along this side more exactly than the finder's own runs.
  const span = 14 + 4 * Math.max(0, Math.round((length / module - 14) / 4));
  const step = length / span;
  const steps = span - 5;
  let previous: boolean | undefined;
  let pairs = 0;
  let alternating = 0;
  for (let k = 5; k <= steps; k++) {
    const d = isDark(corner.x + ux * k * step + vx * 3 * step, corner.y + uy * k * step + vy * 3 * step);
    if (previous !== undefined) {
      pairs++;
      if (d !== previous) alternating++;
    }
    previous = d;
  }
  return pairs >= 3 && alternating >= QR_FINDER.timingAlternation * pairs;
}
