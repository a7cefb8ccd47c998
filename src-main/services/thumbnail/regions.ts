/**
 * Regions of interest for smart cropping, tried in order until one source finds something:
 * faces (picscan's face detection), then a main subject (a seam for a segmentation model), then
 * object boxes (CenterNet), then the saliency estimate. Each source returns weighted boxes in
 * source-image pixels; the crop geometry does the rest.
 */
import { detectObjects } from '../../analysis';
import { detectFacesInImage, selectorPlan } from '../../analysis/faces';
import { resizeRgb, type ModelRunner, type RgbImage } from '../../inference';
import type { WeightedBox } from './crop-geometry';
import { SALIENCY, saliencyBox } from './saliency';

/** Which source supplied the regions a smart crop was placed around. */
export type RegionKind = 'faces' | 'subject' | 'objects' | 'saliency';

/** One source of regions: returns no boxes when it finds nothing (the next source is tried). */
export interface RegionSource {
  kind: RegionKind;
  find(img: RgbImage, signal?: AbortSignal): Promise<WeightedBox[]>;
}

/** The regions used for one image and where they came from. */
export interface FoundRegions {
  kind: RegionKind;
  boxes: WeightedBox[];
}

/** Named thresholds of the region sources. */
export const REGION_RULES = {
  /** Smallest face searched, as a fraction of the shorter side (analyze's default). */
  faceMinHeadScale: 0.1,
  /**
   * Margin added on each side of a face box, as a fraction of its size: the detector's box hugs
   * the face mesh (brows to chin), and a thumbnail should keep forehead and chin whole.
   */
  faceMarginShare: 0.15,
  /** Objects below this detector score are not trusted to steer the crop (0..1). */
  objectMinScore: 0.35,
} as const;

/** Faces as regions, weighted by area × confidence so the main face wins when not all fit. */
export function faceRegions(runner: ModelRunner): RegionSource {
  const selector = selectorPlan(['FRONTAL']);
  return {
    kind: 'faces',
    async find(img, signal) {
      const faces = await detectFacesInImage(
        img,
        { minHeadScale: REGION_RULES.faceMinHeadScale, selector, skipAttributes: true },
        runner,
        signal,
      );
      return faces.map((f) => {
        const m = f.box.width * REGION_RULES.faceMarginShare;
        const n = f.box.height * REGION_RULES.faceMarginShare;
        return {
          left: f.box.left - m,
          top: f.box.top - n,
          width: f.box.width + 2 * m,
          height: f.box.height + 2 * n,
          weight: f.box.width * f.box.height * f.confidence,
        };
      });
    },
  };
}

/** CenterNet object boxes as regions, weighted by area × score. */
export function objectRegions(runModel: ModelRunner): RegionSource {
  return {
    kind: 'objects',
    async find(img, signal) {
      const objects = await detectObjects(img, runModel, signal);
      return objects
        .filter((o) => o.score >= REGION_RULES.objectMinScore)
        .map((o) => ({ ...o.box, weight: o.box.width * o.box.height * o.score }));
    },
  };
}

/** The saliency estimate on a ≤ 64 px copy, scaled back to source pixels; always finds a box. */
export function saliencyRegions(): RegionSource {
  return {
    kind: 'saliency',
    async find(img) {
      const scale = Math.min(1, SALIENCY.sidePx / Math.max(img.width, img.height));
      const w = Math.max(1, Math.round(img.width * scale));
      const h = Math.max(1, Math.round(img.height * scale));
      const small = scale < 1 ? await resizeRgb(img, w, h, { fit: 'fill', kernel: 'linear' }) : img;
      const box = saliencyBox(small);
      const sx = img.width / small.width;
      const sy = img.height / small.height;
      return [{ left: box.left * sx, top: box.top * sy, width: box.width * sx, height: box.height * sy, weight: 1 }];
    },
  };
}

/** Runs the sources in order and returns the first that finds boxes (undefined if none did). */
export async function findRegions(
  img: RgbImage,
  sources: readonly RegionSource[],
  signal?: AbortSignal,
): Promise<FoundRegions | undefined> {
  for (const source of sources) {
    const boxes = await source.find(img, signal);
    if (boxes.length > 0) return { kind: source.kind, boxes };
  }
  return undefined;
}
