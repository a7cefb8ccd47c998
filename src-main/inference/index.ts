/**
 * Inference: model manifest, ONNX Runtime sessions, the one model runner interface, manifest-driven
 * preprocessing and the shared image, tensor, box and scalar vocabulary. Other folders import
 * only this file; onnxruntime-node and sharp are imported nowhere else.
 */
export { InferenceEngine, readVerifiedModel, verifyModelFiles, zeroFeeds, type EngineOptions } from './engine';
export {
  loadManifest,
  parseManifest,
  type Manifest,
  type ModelSpec,
  type ModelInputSpec,
  type ModelOutputSpec,
  type Preprocess,
} from './manifest';
export { haltModelRuns } from './run-gate';
export { EXACT_INTEGER_KERNELS, openSession, validateFeeds, type Session, type SessionIo, type SessionOptions } from './session';
export { outputData, type ModelRunner } from './runner';
export { clamp, clamp01, sigmoid } from './math';
export {
  atBatch,
  batchItem,
  DYNAMIC_BATCH,
  fitsShape,
  intersectionArea,
  iou,
  overlapOfSmaller,
  l2Normalize,
  nms,
  softmax,
  topK,
  type Box,
  type FloatTensor,
  type NmsOptions,
  type Scored,
  type TensorMap,
} from './tensor';
export {
  imageFeeds,
  imageInput,
  dynamicBatch,
  inputLength,
  letterboxFit,
  letterboxTensor,
  trimmedFrame,
  stretchFrame,
  valueMap,
  warpTarget,
  sourcedWindowFeeds,
  windowBatchFeeds,
  windowFeeds,
  type LetterboxFit,
  type ValueMap,
} from './preprocess';
export { resizeBilinearToTensor, type BilinearOptions } from './bilinear';
export { imageToWindow, warpToTensor, windowToImage, type WarpTarget, type Window } from './warp';
export { HALVE_FROM_STEP, MAX_HALVINGS, MIN_COPY_STEP, sampledWindowFeeds, windowSource, type WindowSource } from './window-source';
export { HALF_TILE_PX, halvedCopy, halvedWindow } from './halved-copy';
export {
  decodeImage,
  makeThumbnail,
  resizeRgb,
  workingCopy,
  adoptWorkingCopy,
  transferable,
  WORKING_COPY,
  cropRgb,
  type RgbImage,
  type Thumbnail,
  type DecodeOptions,
  type ResizeOptions,
  type ResizeFit,
  type ResizeKernel,
} from './image';
