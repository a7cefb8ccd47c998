// Place networks measured against the shipped one (docs/galleries.md "Places"): the ImageNet
// classifier's pooled 1 280-d features, by the same windows, balance and pooling.
import { CLASSIFIER_FEATURES, classifyWithFeatures, IMAGENET_MODEL_ID } from '../../src-main/analysis/classifier';
import type { PlaceNet } from '../../src-main/analysis/gallery/index';

export const CLASSIFIER_PLACE_NET: PlaceNet = {
  modelId: IMAGENET_MODEL_ID,
  dim: CLASSIFIER_FEATURES,
  features: async (crop, runModel, signal) => (await classifyWithFeatures(crop, runModel, signal)).features,
};
