import type { Box } from '../../inference';

/**
 * Images far from square. The classifier stretches the whole image to its 224 × 224 input, which
 * suits the photos it learnt from (4:3 squeezed by a quarter) but squeezes a 3:1 panorama or a
 * banner three times over: the Colosseum composed four wide read as a gondola. Beyond `aspect`
 * (long side / short side; above 16:9 and the 2.39:1 of cinema stills) the classes of a scene
 * come from windows along the long side instead, each at most `windowAspect`:1 (a usual photo's
 * shape), as few as cover it, evenly spaced (neighbours overlap when the side does not divide
 * evenly), their probabilities averaged. docs/analysis.md "Wide images".
 */
export const WIDE_IMAGE = { aspect: 2.5, windowAspect: 1.5 } as const;

/** The windows of an image of w × h px: one (the whole image) unless it is wider or taller than WIDE_IMAGE.aspect. */
export function classifierWindows(width: number, height: number): Box[] {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  if (short <= 0 || long / short <= WIDE_IMAGE.aspect) return [{ left: 0, top: 0, width, height }];
  const span = Math.min(long, Math.round(short * WIDE_IMAGE.windowAspect));
  const count = Math.ceil(long / span);
  const step = count > 1 ? (long - span) / (count - 1) : 0;
  return Array.from({ length: count }, (_, i) => {
    const start = Math.round(i * step);
    return width >= height ? { left: start, top: 0, width: span, height } : { left: 0, top: start, width, height: span };
  });
}
