/** COCO-80 object detection (CenterNet) with per-class NMS. */
import type { RgbPixels } from '../pixels/types';
import type { ModelRunner } from '../tensor/runner';
import { resizeRgb } from '../../inference';
import { CENTERNET_MODEL_ID, centernetDecode, centernetFeeds, centernetLetterbox } from './centernet';
import type { DetectedObject } from './types';

export { COCO80, type CocoLabel } from './coco';
export { nms, objectBox } from './nms';
export { CENTERNET_MODEL_ID, CENTERNET_INPUT_PX, centernetDecode, centernetFeeds, centernetLetterbox, type Letterbox } from './centernet';
export type { DetectedObject } from './types';

/**
 * Raw-score floor of reported detections (calibrated later in rules/derive.ts), NMS IoU and the
 * maximum number of objects kept.
 */
export const DETECTION = { minScore: 0.2, iouMax: 0.5, maxCount: 30 } as const;

/** Detects COCO objects in the image (letterboxed, aspect kept); boxes in source pixels, best first. */
export async function detectObjects(img: RgbPixels, run: ModelRunner, signal?: AbortSignal): Promise<DetectedObject[]> {
  const box = centernetLetterbox(img.width, img.height);
  const resized = await resizeRgb({ ...img, channels: 3 }, box.width, box.height, { fit: 'fill', kernel: 'linear' });
  const outputs = await run(CENTERNET_MODEL_ID, centernetFeeds(resized), signal);
  return centernetDecode(outputs, img.width, img.height, DETECTION);
}
