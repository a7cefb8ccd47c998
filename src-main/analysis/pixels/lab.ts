/**
 * sRGB (D65) → CIE L*a*b* conversion. Colour decisions are made in Lab because its distances and
 * chroma (√(a²+b²)) follow perception far better than RGB or HSV: a dark navy and a pale sky blue
 * share a hue angle, greys have chroma ≈ 0 at every lightness.
 */

/** sRGB byte → linear light 0..1 (IEC 61966-2-1 transfer curve), tabulated once. */
const LINEAR = new Float64Array(256);
for (let v = 0; v < 256; v++) {
  const c = v / 255;
  LINEAR[v] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function f(t: number): number {
  return t > 216 / 24389 ? Math.cbrt(t) : (t * 24389) / 27 / 116 + 16 / 116;
}

/** A colour in CIE L*a*b*: L 0..100, a and b roughly -128..127. */
export interface Lab {
  L: number;
  a: number;
  b: number;
}

/** Converts one sRGB colour (bytes 0..255) to Lab (D65 white). */
export function rgbToLab(r: number, g: number, b: number): Lab {
  const rl = LINEAR[r & 255]!;
  const gl = LINEAR[g & 255]!;
  const bl = LINEAR[b & 255]!;
  // Linear sRGB → XYZ, normalised by the D65 white point.
  const x = (0.4124564 * rl + 0.3575761 * gl + 0.1804375 * bl) / 0.95047;
  const y = 0.2126729 * rl + 0.7151522 * gl + 0.072175 * bl;
  const z = (0.0193339 * rl + 0.119192 * gl + 0.9503041 * bl) / 1.08883;
  const fx = f(x);
  const fy = f(y);
  const fz = f(z);
  return { L: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz) };
}

/** Lab chroma √(a²+b²): 0 for greys, ≈ 100+ for saturated primaries. */
export function chroma(c: Lab): number {
  return Math.hypot(c.a, c.b);
}

/** Lab hue angle in degrees 0..360 (0 ≈ magenta-red, 90 ≈ yellow, 180 ≈ green-cyan, 270 ≈ blue). */
export function hueDeg(c: Lab): number {
  const h = (Math.atan2(c.b, c.a) * 180) / Math.PI;
  return h < 0 ? h + 360 : h;
}

/** Squared Euclidean Lab distance (CIE76 ΔE²). */
export function deltaE2(p: Lab, q: Lab): number {
  const dL = p.L - q.L;
  const da = p.a - q.a;
  const db = p.b - q.b;
  return dL * dL + da * da + db * db;
}

/** Formats an sRGB colour as six upper-case hex digits without '#'. */
export function toHex(r: number, g: number, b: number): string {
  const h = (v: number): string =>
    Math.max(0, Math.min(255, Math.round(v)))
      .toString(16)
      .padStart(2, '0');
  return (h(r) + h(g) + h(b)).toUpperCase();
}
