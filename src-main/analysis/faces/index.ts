/**
 * Face detection library: multi-scale BlazeFace search, facemesh landmarks, pose, quality and
 * attributes (see docs/faces.md). Used by the detect service and by analyze's `faces`.
 *
 * @example
 * // engine: the InferenceEngine, or any ModelRunner
 * const faces = await detectFacesInImage(image, { minHeadScale: 0.1, selector: selectorPlan(['FRONTAL']) }, engine, signal);
 * faces[0].box; // { left, top, width, height } in image px
 */
export {
  detectFacesInImage,
  orderFaces,
  searchLevels,
  LIPS_APART_RATIO,
  type FaceResult,
  type DetectOptions,
  type FaceSearchStats,
} from './detect-faces';
export { selectorPlan, YAW_LIMIT_DEG, type SelectorPlan } from './selector';
export { EMOTIONS, type Emotion, type FaceAttributeLevel } from './attributes';
export { FACE_MODEL_SPARE_CORE_THREADS, FACE_MODEL_THREADS, runOnWindow, type FaceModelId } from './runner';
export { minFacePx, planSearch, countWindows, MIN_FACE_IMAGE_PX, MIN_FACE_DETECTOR_PX } from './search-plan';
// Alignment building blocks, shared with the person gallery's face descriptor.
export { meshCandidate } from './landmarks';
export { eyeLineAngle, windowFromMesh } from './mesh-align';
export { keyPoints } from './mesh-geometry';
