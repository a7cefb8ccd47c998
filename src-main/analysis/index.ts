/**
 * Image analysis (`ai/vision/analyze`): pixel statistics, model post-processing and the rules
 * that turn them into categories, tags, captions, colour, image type and adult scores. Pure
 * except for the injected model runner, face detector and galleries.
 */
export {
  analyzePixels,
  runModelBranch,
  type AnalyzeDeps,
  type AnalysisResult,
  type BranchRequest,
  type BranchResult,
  type ModelBranch,
  type SubjectModels,
} from './pipeline';
export { imageTypeEvidence, measurePixels, shrinkTo, TEXTURE_SIDE_PX, type PixelEvidence } from './pixel-evidence';
export { attachDetails, type GalleryMatcher, type LandmarkMatch } from './details';
export { faceEvidenceFromDetected, faceEvidenceFromResults, toAnalyzeFaces, type FaceEvidence } from './people';
export type { Evidence } from './evidence';
export { CATEGORY_NAMES, CATEGORY_RULES, categorize, buildTags, buildCaption, derive, objectConfidence } from './rules';
export { analyzeColor, isBlackAndWhite, chromaStats, nameRgb } from './color';
export { classifyImageType } from './image-type';
export { adultFromProbabilities, ADULT_THRESHOLDS } from './adult';
export { CONTENT_NET_MODEL_ID, contentNetFeeds, runContentNet, type ContentProbabilities } from './content-net';
export { detectObjects, centernetDecode, COCO80, type DetectedObject, type CocoLabel } from './objects';
export {
  IMAGENET_HIERARCHY,
  IMAGENET_MODEL_ID,
  classifierTopK,
  classifyImage,
  classifyWithFeatures,
  type ClassScore,
  type ImagenetClass,
} from './classifier';
