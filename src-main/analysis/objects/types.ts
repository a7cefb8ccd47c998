import type { Box } from '../../inference';
import type { CocoLabel } from './coco';

/** One detected object; box in source-image pixels, origin top-left. */
export interface DetectedObject {
  label: CocoLabel;
  /** 0..1 detector confidence. */
  score: number;
  box: Box;
}
