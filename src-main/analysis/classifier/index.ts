/** Whole-image ImageNet-1k classification and the WordNet-generated words of its classes. */
export { IMAGENET_HIERARCHY, subjectWord, type ImagenetClass, type ImagenetHierarchy } from './hierarchy';
export {
  CLASSIFIER_FEATURES,
  CLASSIFIER_OUTPUTS,
  CLASSIFIER_TOP_K,
  IMAGENET_MODEL_ID,
  classifierTopK,
  classifyImage,
  classifyWithFeatures,
  type ClassScore,
  type Classified,
} from './imagenet';
