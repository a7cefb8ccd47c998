import type { Evidence } from '../evidence';
import { holds } from './bands';

/**
 * A blank image: one flat colour (`uniform.blank`), as an "image not available" placeholder, an
 * empty render, a black frame or a lens cap give. Batches of scraped URLs hold many.
 */
export function isBlank(e: Pick<Evidence, 'scene'>): boolean {
  return holds('uniform.blank', e.scene.uniform);
}

/**
 * Share of edge pixels (`scene.edges`: ΔL* > 12 on the 160 px field) below which an image that is
 * not blank has no drawn shape at all: a smooth gradient (0). Flags of flat fields, the plainest
 * drawings there are, have ≥ 1 %.
 */
export const FEATURELESS_EDGES = 0.002;

/**
 * A featureless image is a ramp when 90 % of its pixels spread over at least this many colour
 * bins (`colorBins90`, 4 bits per channel): smooth gradients 2–21 (a subtle blue one 2, most
 * 8–21). A drawing of faint hairlines on paper has no edge pixel either at 64 px (a thin star
 * outline, ΔL* ≤ 12 once shrunk) but keeps 90 % of its pixels in one bin, its paper: it is no
 * ramp, and its reference drawings still speak for it.
 */
export const FEATURELESS_RAMP_BINS = 2;

/**
 * The evidence without what the models cannot have grounds for. On one flat colour (`isBlank`)
 * the detector, the classifier and the drawing vocabulary can only be wrong, and were confidently
 * so: a black or a red page was "a clip art image of a flag" (0.9; its nearest reference drawings
 * were renders that came out empty, and the unanimous vote of identical neighbours is the surest
 * there is). Faces and the pixel statistics stay. On a featureless ramp (a smooth gradient,
 * `FEATURELESS_EDGES`, `FEATURELESS_RAMP_BINS`) the reference drawings and charts nearest to it are those flat renders
 * too: their votes go (a blue-to-white gradient was "a clip art image of a flag", 0.9); the
 * models' own opinions stay.
 */
export function withoutGroundlessThings(e: Evidence): Evidence {
  if (isBlank(e)) return { ...e, objects: [], classes: undefined, drawingVotes: undefined, chart: undefined, subject: undefined };
  if (e.scene.edges < FEATURELESS_EDGES && (e.colorBins90 ?? FEATURELESS_RAMP_BINS) >= FEATURELESS_RAMP_BINS)
    return { ...e, drawingVotes: undefined, chart: undefined };
  return e;
}

/** Confidence of the caption "a blank … image": the pixels say it directly. */
export const BLANK_CAPTION_CONF = 0.9;
