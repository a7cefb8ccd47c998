/**
 * Glasses from pixels around mesh landmarks (no glasses model ships with the detector):
 * - Sun: both eye regions much darker than the cheeks and flat inside (tinted lenses hide the
 *   eye whites and iris edges).
 * - Eye: a frame's bridge draws a thin horizontal line across the nose bridge between the brows
 *   and the eyes, where bare skin is smooth: the strongest row of vertical-gradient energy in that
 *   band, relative to the skin's gradient level (forehead and cheeks), so lighting and resolution
 *   cancel. Rimless or thin frames and bridges hidden by hair are missed; deep frown lines can
 *   fire it — see docs/faces.md for the (small) measured sample.
 */
import { patchPoint, regionStats, type FacePatch } from './face-patch';
import type { Point3 } from './mesh-geometry';

/** Measurements behind the glasses decision (exported for the eval and tests). */
export interface GlassesFeatures {
  /** Eye-region luma / cheek luma. */
  eyeDarkness: number;
  /** Eye-region luma std (0..255). */
  eyeStd: number;
  /** Strongest row of horizontal edges across the nose bridge between brows and eyes / skin level. */
  bridgeEdges: number;
  /** Strongest row of horizontal edges in the band under the eyes (lower rims) / skin level. */
  rimEdges: number;
  /** Horizontal edges beside the outer eye corners (temple arms) / skin level. */
  templeEdges: number;
}

/** Decision thresholds (see docs/faces.md for how they were chosen and measured). */
export const GLASSES_THRESHOLDS = { sunDarkness: 0.45, sunStd: 40, bridgeEdges: 3.2, maxAbsYawDeg: 30 } as const;

/**
 * Where a frame's bridge is looked for, in inter-ocular distances (outer eye corners): from the
 * eye line up to `above` of it, `halfWidth` to either side of the nose bridge (mesh point 168).
 * The bridge of a pair of glasses sits at eye level; a taller, wider band (0.4 up, ±0.1) took in
 * the heads of the brows, frown lines and, on faces near the top of the photo, the patch's
 * padding beyond the image, and fired on 33 of 170 bare faces (docs/faces.md "Glasses").
 */
export const BRIDGE_BAND = { above: 0.2, halfWidth: 0.05 } as const;

/** Computes the features from an upright face patch and the mesh (image px). */
export function glassesFeatures(p: FacePatch, mesh: readonly Point3[]): GlassesFeatures {
  const pt = (i: number): [number, number] => patchPoint(p, mesh, i);
  const [rOutX, rOutY] = pt(33);
  const [rInX] = pt(133);
  const [lInX] = pt(362);
  const [lOutX, lOutY] = pt(263);
  const ied = Math.max(4, Math.hypot(lOutX - rOutX, lOutY - rOutY));
  const eyeY = (rOutY + lOutY) / 2;
  const h = ied * 0.12;
  const right = regionStats(p, rOutX, eyeY - h, rInX, eyeY + h);
  const left = regionStats(p, lInX, eyeY - h, lOutX, eyeY + h);
  const [rcX, rcY] = pt(205);
  const [lcX, lcY] = pt(425);
  const r = ied * 0.08;
  const cheekR = regionStats(p, rcX - r, rcY - r, rcX + r, rcY + r);
  const cheekL = regionStats(p, lcX - r, lcY - r, lcX + r, lcY + r);
  const [bx] = pt(168);
  const [fx, fy] = pt(151);
  const forehead = regionStats(p, fx - ied * 0.15, fy - ied * 0.1, fx + ied * 0.15, fy + ied * 0.1);
  const skinGrad = (cheekR.gy + cheekL.gy + forehead.gy) / 3;
  const cheek = (cheekR.mean + cheekL.mean) / 2;
  return {
    eyeDarkness: cheek > 0 ? (right.mean + left.mean) / 2 / cheek : 1,
    eyeStd: (right.std + left.std) / 2,
    bridgeEdges:
      maxRowEdges(p, bx - ied * BRIDGE_BAND.halfWidth, bx + ied * BRIDGE_BAND.halfWidth, eyeY - BRIDGE_BAND.above * ied, eyeY) /
      Math.max(1, skinGrad),
    rimEdges: maxRowEdges(p, rOutX, lOutX, eyeY + 0.15 * ied, eyeY + 0.45 * ied) / Math.max(1, skinGrad),
    templeEdges:
      (regionStats(p, rOutX - 0.4 * ied, eyeY - 0.08 * ied, rOutX - 0.15 * ied, eyeY + 0.08 * ied).gy +
        regionStats(p, lOutX + 0.15 * ied, eyeY - 0.08 * ied, lOutX + 0.4 * ied, eyeY + 0.08 * ied).gy) /
      2 /
      Math.max(1, skinGrad),
  };
}

// Mean |∂/∂y| of the strongest patch row between y0 and y1 over x0..x1 (a rim is one thin line).
function maxRowEdges(p: FacePatch, x0: number, x1: number, y0: number, y1: number): number {
  let best = 0;
  for (let y = Math.floor(y0); y <= Math.ceil(y1); y++) best = Math.max(best, regionStats(p, x0, y, x1, y).gy);
  return best;
}

/**
 * Kairos `glasses`: Sun, Eye or None. The bridge test needs a roughly frontal face (|yaw| ≤ 30°):
 * on a turned face the "bridge" band shows the far cheek's outline or the background.
 */
export function classifyGlasses(f: GlassesFeatures, yawDeg = 0): 'None' | 'Eye' | 'Sun' {
  if (f.eyeDarkness < GLASSES_THRESHOLDS.sunDarkness && f.eyeStd < GLASSES_THRESHOLDS.sunStd) return 'Sun';
  if (Math.abs(yawDeg) <= GLASSES_THRESHOLDS.maxAbsYawDeg && f.bridgeEdges > GLASSES_THRESHOLDS.bridgeEdges) return 'Eye';
  return 'None';
}
