/**
 * Inference: model manifest, ONNX Runtime sessions and pure tensor helpers. Other folders import
 * only this file; onnxruntime-node and sharp are imported nowhere else.
 */
export { InferenceEngine, zeroFeeds, type EngineOptions } from './engine';
export { loadManifest, parseManifest, type Manifest, type ModelSpec, type ModelInputSpec, type ModelOutputSpec } from './manifest';
export { openSession, validateFeeds, type FloatTensor, type Session, type SessionIo, type SessionOptions, type TensorMap } from './session';
export { clamp, clamp01, sigmoid } from './math';
export { iou, l2Normalize, nms, softmax, topK, type Box, type NmsOptions, type Scored } from './tensor';
export {
  decodeImage,
  makeThumbnail,
  resizeRgb,
  cropRgb,
  type RgbImage,
  type Thumbnail,
  type DecodeOptions,
  type ResizeOptions,
  type ResizeFit,
  type ResizeKernel,
  type PixelRect,
} from './image';
