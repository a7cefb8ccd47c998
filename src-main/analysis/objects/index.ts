/** COCO-80 object detection (CenterNet) with per-class NMS. */
import { imageFeeds, imageInput, type ModelRunner, type RgbImage } from '../../inference';
import { wideWindows, windowViews } from '../wide-windows';
import { CENTERNET_MODEL_ID, centernetDecode } from './centernet';
import { mergeWindowDetections, WIDE_DETECTION } from './wide';
import type { DetectedObject } from './types';

export { COCO80, type CocoLabel } from './coco';
export { nms } from './nms';
export { CENTERNET_MODEL_ID, centernetDecode } from './centernet';
export { mergeWindowDetections, WIDE_DETECTION, type WindowDetections } from './wide';
export type { DetectedObject } from './types';

/**
 * Raw-score floor of reported detections (calibrated later in rules/derive.ts), NMS IoU and the
 * maximum number of objects kept.
 */
export const DETECTION = { minScore: 0.2, iouMax: 0.5, maxCount: 30 } as const;

/**
 * decode → preprocess (the manifest's letterbox, aspect kept, trimmed to the image) → session → postprocess: COCO
 * objects with boxes in source pixels, best first. A panorama or banner (wide-windows.ts) is
 * searched whole and in windows along its long side (objects/wide.ts).
 */
export async function detectObjects(img: RgbImage, runner: ModelRunner, signal?: AbortSignal): Promise<DetectedObject[]> {
  const whole = await detectIn(img, runner, signal);
  const windows = wideWindows(img.width, img.height, WIDE_DETECTION.overlap);
  if (windows.length === 1) return whole;
  const perWindow = [];
  for (const { window, pixels, toImage } of await windowViews(img, windows)) {
    const objects = await detectIn(pixels, runner, signal);
    perWindow.push({ window, objects: objects.map((d) => ({ ...d, box: toImage(d.box) })) });
  }
  return mergeWindowDetections(whole, perWindow, img.width, img.height, DETECTION);
}

async function detectIn(img: RgbImage, runner: ModelRunner, signal?: AbortSignal): Promise<DetectedObject[]> {
  const spec = runner.spec(CENTERNET_MODEL_ID);
  const outputs = await runner.run(CENTERNET_MODEL_ID, await imageFeeds(img, spec), signal);
  return centernetDecode(outputs, img.width, img.height, DETECTION, imageInput(spec).pre.size);
}
