/**
 * The float TFLite candidate converted by tooling/convert/tflite/convert.ts (build.ts here). Same manifest text
 * conventions as tooling/convert/specs.ts; batch fixed to 1; graphs end before sigmoid/decoding/NMS.
 */
import type { InputDoc } from '../../convert/specs';
import type { TfliteOutputSpec } from '../../convert/tflite/convert';
import type { TfliteSource } from './source';

export interface TfliteBuildSpec {
  id: string;
  task: string;
  source: TfliteSource;
  license: string;
  input: InputDoc;
  outputs: (TfliteOutputSpec & { meaning: string })[];
  /** models/-relative labels file, written from the packed label map `labelAsset`. */
  labels?: string;
  labelAsset?: string;
}

const out = (tensor: string, name: string, meaning: string): TfliteOutputSpec & { meaning: string } => ({
  tensor,
  name,
  doc: meaning,
  meaning,
});

export const OBJECTRON = {
  package: '@mediapipe/objectron',
  data: 'objectron_solution_packed_assets.data',
  loader: 'objectron_solution_packed_assets_loader.js',
} as const;

export const tfliteSpecs: TfliteBuildSpec[] = [
  {
    id: 'oidv4-ssd',
    task: 'object-detect',
    source: { ...OBJECTRON, asset: 'object_detection_ssd_mobilenetv2_oidv4_fp16.tflite' },
    license: 'Apache-2.0 (MediaPipe Objectron SSD MobileNetV2 Open Images v4 detector, @mediapipe/objectron)',
    input: {
      name: 'input',
      shape: [1, 300, 300, 3],
      layout: 'NHWC',
      range: [-1, 1],
      normalization: 'RGB x/127.5-1, bilinear resize of the whole image to 300x300 (aspect not kept, as MediaPipe)',
    },
    outputs: [
      out(
        'raw_outputs/box_encodings',
        'box_encodings',
        '[1,1917,4] per SSD anchor [dy, dx, dh, dw] (TF object-detection order): cy = ay + dy/10*ah, cx = ax + dx/10*aw, h = exp(dh/5)*ah, w = exp(dw/5)*aw, in 0..1 of the input',
      ),
      out(
        'raw_outputs/class_predictions',
        'class_logits',
        '[1,1917,24] per anchor class logits (apply sigmoid); class 0 is background, labels in labels/oidv4.json',
      ),
    ],
    labels: 'labels/oidv4.json',
    labelAsset: 'object_detection_oidv4_labelmap.txt',
  },
];
