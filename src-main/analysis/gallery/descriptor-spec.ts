/**
 * What a stored descriptor is: which model produced it, from which output, by which crop and
 * pooling method. A descriptor is only comparable with descriptors of the same spec and the same
 * model file (sha256); a changed model or method makes a gallery unusable until re-enrolled.
 */

/** Gallery kinds: people (faces) and places (whole scenes). */
export type GalleryKind = 'person' | 'place';

/** Identity of a descriptor space. */
export interface DescriptorSpec {
  kind: GalleryKind;
  /** Manifest id of the model. */
  modelId: string;
  /** Model output read as the descriptor. */
  output: string;
  /** Vector length. */
  dim: number;
  /**
   * Crop/pooling recipe version. Bump it whenever preprocessing changes: stored vectors made by
   * another recipe are refused like a model change.
   */
  method: string;
}

/** How a person descriptor's face crop is made (data of the recipe, read by face-descriptor.ts). */
export interface FaceCrop {
  /** `upright`: the facemesh eye line levelled, a square window centred on the mesh. */
  kind: 'upright';
  /** Window side relative to the mesh extent (the larger of its width and height). */
  scale: number;
}

/** A person descriptor recipe: the model, its output and the crop. */
export interface FaceDescriptorSpec extends DescriptorSpec {
  kind: 'person';
  crop: FaceCrop;
}

/**
 * Person descriptor: dlib's face-recognition ResNet (`dlib-face-descriptor`, 128-d) of the upright
 * face crop (facemesh eye line levelled, side = 0.9 × the mesh extent, 150 px RGB 0..255),
 * L2-normalised. dlib was trained on tight crops: 0.9 separated people best of 0.9–1.3
 * (docs/galleries.md "Person descriptor").
 */
export const FACE_DESCRIPTOR: FaceDescriptorSpec = {
  kind: 'person',
  modelId: 'dlib-face-descriptor',
  output: 'descriptor',
  dim: 128,
  method: 'dlib-resnet-upright-0.9x-v1',
  crop: { kind: 'upright', scale: 0.9 },
};

/**
 * The previous person recipe: faceres' 1024-d global-average-pooled embedding of the upright crop
 * 1.5 × the mesh extent (224 px). References stored by it are ignored by the matcher and
 * re-described by redescribe.ts; kept so the recipe that made them stays documented and testable.
 */
export const FACERES_DESCRIPTOR_V1: FaceDescriptorSpec = {
  kind: 'person',
  modelId: 'faceres',
  output: 'descriptor',
  dim: 1024,
  method: 'faceres-upright-1.5x-v1',
  crop: { kind: 'upright', scale: 1.5 },
};

/**
 * Place descriptor: MobileNetV2 (nsfwjs backbone) 1792-d pooled features over a grey-world
 * colour-balanced image, averaged over the whole frame and square multi-scale crops, L2-normalised.
 * Matching centres it first (see place-descriptor.ts).
 */
export const PLACE_DESCRIPTOR: DescriptorSpec = {
  kind: 'place',
  modelId: 'nsfw-mobilenet-v2-mid',
  output: 'features',
  dim: 1792,
  method: 'mnv2-greyworld-multicrop-v1',
};

/** The spec of a kind. */
export const descriptorSpec = (kind: GalleryKind): DescriptorSpec => (kind === 'person' ? FACE_DESCRIPTOR : PLACE_DESCRIPTOR);

/** Cosine similarity of two L2-normalised vectors (their dot product), −1..1. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
