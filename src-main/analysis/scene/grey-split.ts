import { histogramQuantile } from '../pixels/histogram';

/** The dark and light levels of a grey image and the grey level halfway between them. */
export interface GreySplit {
  /** 5th percentile grey level (0..255). */
  dark: number;
  /** 95th percentile grey level. */
  light: number;
  /** Halfway between: darker pixels are ink, bars or modules. */
  threshold: number;
}

/**
 * The 5th and 95th percentiles of `g` (grey 0..255, from every 4th pixel: plenty for two
 * quantiles), when they span at least `minContrast` levels, else undefined: a printed code's ink
 * and paper, however lit.
 */
export function greySplit(g: Float32Array, minContrast: number): GreySplit | undefined {
  const hist = new Uint32Array(256);
  for (let i = 0; i < g.length; i += 4) hist[g[i]! | 0]!++;
  const dark = histogramQuantile(hist, 0.05);
  const light = histogramQuantile(hist, 0.95);
  return light - dark < minContrast ? undefined : { dark, light, threshold: (dark + light) / 2 };
}
