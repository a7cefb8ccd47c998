import type { ColorName } from '../../shared/spec';
import { deltaE2, rgbToLab, type Lab } from '../pixels/lab';

/**
 * Prototype colours for the 12 names (sRGB). A pixel gets the name of its nearest prototype in
 * Lab. Several prototypes per name cover light/dark and warm/cool variants (e.g. navy and sky
 * blue are both Blue; tan and chocolate are both Brown), which one centroid per name cannot.
 */
const PROTOTYPES: ReadonlyArray<readonly [ColorName, number, number, number]> = [
  ['Black', 0, 0, 0],
  ['Black', 35, 35, 35],
  ['Gray', 80, 80, 80],
  ['Gray', 128, 128, 128],
  ['Gray', 175, 175, 175],
  ['White', 215, 215, 215],
  ['White', 255, 255, 255],
  ['Red', 220, 20, 30],
  ['Red', 170, 25, 35],
  ['Red', 120, 10, 20],
  ['Red', 240, 80, 70],
  ['Orange', 255, 140, 0],
  ['Orange', 235, 115, 40],
  ['Orange', 250, 170, 90],
  ['Orange', 205, 110, 40],
  ['Yellow', 255, 225, 0],
  ['Yellow', 240, 230, 110],
  ['Yellow', 215, 190, 50],
  ['Yellow', 255, 250, 170],
  ['Green', 0, 160, 0],
  ['Green', 50, 110, 40],
  ['Green', 120, 195, 80],
  ['Green', 25, 70, 30],
  ['Green', 150, 185, 110],
  ['Green', 95, 110, 50],
  ['Teal', 0, 128, 128],
  ['Teal', 30, 180, 170],
  ['Teal', 90, 160, 155],
  ['Teal', 25, 85, 90],
  ['Blue', 0, 0, 255],
  ['Blue', 30, 80, 200],
  ['Blue', 100, 150, 225],
  ['Blue', 20, 35, 100],
  ['Blue', 140, 190, 235],
  ['Blue', 70, 105, 150],
  ['Purple', 128, 0, 128],
  ['Purple', 110, 60, 165],
  ['Purple', 165, 125, 200],
  ['Purple', 70, 30, 90],
  ['Pink', 255, 150, 185],
  ['Pink', 235, 100, 160],
  ['Pink', 215, 70, 135],
  ['Pink', 250, 200, 210],
  ['Pink', 200, 125, 145],
  ['Brown', 140, 70, 20],
  ['Brown', 115, 80, 50],
  ['Brown', 165, 115, 75],
  ['Brown', 85, 55, 35],
  ['Brown', 190, 150, 110],
  ['Brown', 100, 85, 65],
];

const PROTO_LAB: ReadonlyArray<{ name: ColorName; lab: Lab }> = PROTOTYPES.map(([name, r, g, b]) => ({ name, lab: rgbToLab(r, g, b) }));

/** Chroma below which a colour is treated as a grey (named by lightness only). */
export const ACHROMATIC_CHROMA = 9;

/**
 * Names one Lab colour with the 12-name vocabulary. Near-greys (chroma < ACHROMATIC_CHROMA) are
 * Black (L* < 25), White (L* > 82) or Gray; everything else goes to the nearest prototype.
 */
export function nameLab(c: Lab): ColorName {
  if (Math.hypot(c.a, c.b) < ACHROMATIC_CHROMA) return c.L < 25 ? 'Black' : c.L > 82 ? 'White' : 'Gray';
  let best: ColorName = 'Gray';
  let bestD = Infinity;
  for (const p of PROTO_LAB) {
    const d = deltaE2(c, p.lab);
    if (d < bestD) {
      bestD = d;
      best = p.name;
    }
  }
  return best;
}

/** Names an sRGB colour (bytes). */
export function nameRgb(r: number, g: number, b: number): ColorName {
  return nameLab(rgbToLab(r, g, b));
}
