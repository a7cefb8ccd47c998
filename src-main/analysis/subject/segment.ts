import { imageFeeds, type ModelRunner, type RgbImage } from '../../inference';
import { VOC21 } from './voc';

/** Manifest id of the subject segmenter (Coral's quantised DeepLabV3 MobileNetV2, PASCAL VOC). */
export const SEGMENT_MODEL_ID = 'deeplabv3-pascal';

/** DeepLab's answer: a VOC class index per cell of a `width` × `height` grid stretched over the image. */
export interface ClassMask {
  width: number;
  height: number;
  classes: Uint8Array;
}

/**
 * decode → preprocess (the manifest's stretch to 321×321, uint8) → session → postprocess: the
 * per-pixel VOC classes. The graph ends in an arg-max, so its single output already holds class
 * indices (as float32 through the runner). The converted graph takes any 16k + 1 size (its source
 * runs at 513); the manifest's 321 costs ≈ 2.6× less CPU with the same analyze results on the
 * fixtures (docs/models.md).
 */
export async function segmentImage(img: RgbImage, runner: ModelRunner, signal?: AbortSignal): Promise<ClassMask> {
  const spec = runner.spec(SEGMENT_MODEL_ID);
  const outputs = await runner.run(SEGMENT_MODEL_ID, await imageFeeds(img, spec), signal);
  const out = Object.values(outputs)[0];
  if (!out) throw new Error('segmenter returned no output');
  const [height, width] = out.dims.slice(-2) as [number, number];
  if (out.data.length !== width * height) throw new Error(`segmenter returned ${out.data.length} cells, expected ${width}×${height}`);
  const classes = new Uint8Array(out.data.length);
  for (let i = 0; i < classes.length; i++) {
    const k = out.data[i]!;
    classes[i] = k >= 0 && k < VOC21.length ? k : 0;
  }
  return { width, height, classes };
}
