/**
 * The quantized TFLite models shipped from models/sources/coral (Google's hosted MobileNetV2 and
 * DeepLabV3 models as published in google-coral/test_data, Apache-2.0; provenance and sha256 in
 * models/sources/coral/README.md). Converted by quantized.ts in `qlinear` mode.
 */
import type { Preprocess } from '../../../src-main/inference/manifest';
import type { InputDoc } from '../specs';
import type { TfliteOutputSpec } from './convert';

/** Structured pre-processing of an image input (the manifest's `preprocess` object, validated by the app). */
export type { Preprocess };

/** A file of the google-coral/test_data repository, copied into models/sources/coral. */
export interface CoralSource {
  repo: 'google-coral/test_data';
  commit: string;
  file: string;
  /** Of the file as copied; the build refuses other bytes. */
  sha256: string;
}

/** How a label text file becomes models/labels/<file>.json. */
export interface LabelSource {
  /** models/-relative output file. */
  file: string;
  /** Text file in models/sources/coral. */
  source: string;
  /** 'synonyms': each line a comma-separated synonym list -> string[][]; 'names': one name per line up to the first blank line -> string[]. */
  format: 'synonyms' | 'names';
  /** Number of classes the model predicts (checked against the file). */
  count: number;
}

export interface QuantizedBuildSpec {
  id: string;
  task: string;
  source: CoralSource;
  license: string;
  input: InputDoc & { preprocess: Preprocess };
  outputs: (TfliteOutputSpec & { meaning: string })[];
  labels: LabelSource;
  /** Fixtures of the parity check (test/fixtures/images), besides one seeded random input. */
  parityImages: string[];
  /**
   * Inner tensors also compared in the parity check (built into a test-only variant of the graph):
   * DeepLab's 33x33 logits and upsampled scores, whose values tell rounding differences from real
   * errors where the argmax map of a random input flips on near-ties. `stride` stores a sample.
   */
  parityTaps?: (TfliteOutputSpec & { stride?: number })[];
  /**
   * Converted with a free spatial size (quantized.ts `freeSpatial`) and run by the app at this
   * square size (the manifest's input, preprocess and output shapes); `input` stays the source
   * graph's, at which the parity check runs.
   */
  runSize?: number;
}

/** google-coral/test_data "Release Grouper" (2021-07-26). */
export const CORAL_COMMIT = '104342d2d3480b3e66203073dac24f4e2dbb4c41';
const CORAL_LICENSE = 'Apache-2.0 (Google hosted TFLite model, quantized uint8; google-coral/test_data)';

const out = (tensor: string, name: string, meaning: string): TfliteOutputSpec & { meaning: string } => ({
  tensor,
  name,
  doc: meaning,
  meaning,
});

const rgbUint8 = (size: number): Preprocess => ({
  size: [size, size],
  resize: 'stretch',
  interpolation: 'bilinear',
  channels: 'RGB',
  layout: 'NHWC',
  dtype: 'uint8',
  scale: 1,
  offset: 0,
});

export const quantizedSpecs: QuantizedBuildSpec[] = [
  {
    id: 'mobilenet-v2-imagenet',
    task: 'image-classify',
    source: {
      repo: 'google-coral/test_data',
      commit: CORAL_COMMIT,
      file: 'mobilenet_v2_1.0_224_quant.tflite',
      sha256: '7aad0c74c5e3c06e5eb3c827e13304fdd68a83da6087d92ee169c24ff9fd4776',
    },
    license: CORAL_LICENSE,
    input: {
      name: 'input',
      shape: [1, 224, 224, 3],
      layout: 'NHWC',
      range: [0, 255],
      normalization:
        'RGB bytes 0..255 fed as uint8, whole image stretched to 224x224 (bilinear; a smaller image enlarged bicubic, preprocess.enlarge); the graph reads them as (x-128)/128',
      // A thumbnail enlarged bilinear reaches the model blurred: small copies of photos kept the
      // class of the full image more often enlarged bicubic (docs/models.md, "Small images").
      preprocess: { ...rgbUint8(224), enlarge: 'bicubic' },
    },
    outputs: [
      out(
        'MobilenetV2/Predictions/Softmax',
        'probabilities',
        '[1,1001] uint8 softmax, probability = q/256 (scale 1/256, zero point 0); index 0 is background, 1..1000 the ImageNet-1k classes (labels/imagenet-1k.json)',
      ),
      out(
        'MobilenetV2/Logits/AvgPool',
        'features',
        '[1,1,1,1280] uint8 global average pool of the last ReLU6 feature map, the input of the logits (scale 0.0235, zero point 0); an image descriptor: compare by cosine (analysis/drawings)',
      ),
    ],
    labels: { file: 'labels/imagenet-1k.json', source: 'imagenet_labels.txt', format: 'synonyms', count: 1001 },
    parityImages: ['cat_chelsea.jpg', 'coffee_cup.jpg', 'rocket_launchpad.jpg', 'colosseum.jpg', 'family_six_faces.jpg'],
  },
  {
    id: 'deeplabv3-pascal',
    task: 'segment',
    source: {
      repo: 'google-coral/test_data',
      commit: CORAL_COMMIT,
      file: 'deeplabv3_mnv2_pascal_quant.tflite',
      sha256: '350af47fd346ea6d74b58833a351f583ba860e9806ec5bd292ff8d8f1f249398',
    },
    license: CORAL_LICENSE,
    input: {
      name: 'input',
      shape: [1, 513, 513, 3],
      layout: 'NHWC',
      range: [0, 255],
      normalization:
        'RGB bytes 0..255 fed as uint8, whole image stretched to 513x513 (bilinear; beyond 2.5:1 to a frame of its own aspect, preprocess.wideFrame); the graph reads them as (x-128)/128',
      // A panorama keeps its aspect (up to 6:1) at about the same pixel count, in the 16k + 1
      // sizes the free-spatial graph takes: squeezed 3× into the square it lost its subjects.
      preprocess: { ...rgbUint8(513), wideFrame: { fromAspect: 2.5, maxAspect: 6, step: 16, offset: 1 } },
    },
    outputs: [
      out(
        'ArgMax',
        'classes',
        '[1,H,W] int64 PASCAL VOC class per input pixel (0 background, 15 person, labels/pascal-voc.json); map back by scaling x and y separately',
      ),
    ],
    labels: { file: 'labels/pascal-voc.json', source: 'pascal_voc_segmentation_labels.txt', format: 'names', count: 21 },
    parityImages: ['cat_chelsea.jpg', 'family_six_faces.jpg', 'obama_biden_two_people.jpg'],
    // 321 = 16·20 + 1 (output stride 16): 2.6x less CPU than 513 with the subject's mask at IoU
    // 0.88 of 513's on the labelled VOC things of the fixtures and eval:unseen photos (deeplab-size.ts).
    runSize: 321,
    parityTaps: [
      {
        tensor: 'logits/semantic/BiasAdd;logits/semantic/Conv2D;logits/semantic/biases1',
        name: 'logits',
        doc: '[1,33,33,21] uint8 class scores before the upsampling',
      },
      {
        tensor: 'ResizeBilinear_2',
        name: 'upsampled',
        doc: '[1,513,513,21] uint8 class scores after the upsampling (every 1009th value stored)',
        stride: 1009,
      },
    ],
  },
];
