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
 * The evidence of a blank image without the models' things. On one flat colour the detector, the
 * classifier and the drawing vocabulary can only be wrong, and were confidently so: a black or a
 * red page was "a clip art image of a flag" (0.9; its nearest reference drawings were renders
 * that came out empty, and the unanimous vote of identical neighbours is the surest there is).
 * Faces and the pixel statistics stay.
 */
export function withoutThingsIfBlank(e: Evidence): Evidence {
  if (!isBlank(e)) return e;
  return { ...e, objects: [], classes: undefined, drawingVotes: undefined, chart: undefined, subject: undefined };
}

/** Confidence of the caption "a blank … image": the pixels say it directly. */
export const BLANK_CAPTION_CONF = 0.9;
