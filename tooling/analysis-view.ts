// What the analysis sees in one image, for the generators that learn from it (the drawing
// vocabulary, the chart references, the photo probe): the classifier's classes and pooled
// features, the NSFW net's probabilities and the pixel statistics, run as the pipeline runs them.
import { classifyWithFeatures, type ClassScore } from '../src-main/analysis/classifier';
import { contentProbabilities, runContentNet, type ContentProbabilities } from '../src-main/analysis/content-net';
import { measurePixels, type PixelEvidence } from '../src-main/analysis/pixel-evidence';
import type { ModelRunner, RgbImage } from '../src-main/inference';

export interface AnalysisView {
  classes: ClassScore[];
  /** The 1 280 pooled features (uint8 steps). */
  features: Float32Array;
  nsfw: ContentProbabilities;
  pixels: PixelEvidence;
}

/** Runs the classifier, the NSFW net and the pixel statistics on `img`. */
export async function analysisView(img: RgbImage, runner: ModelRunner): Promise<AnalysisView> {
  const [{ classes, features }, nsfw, pixels] = await Promise.all([
    classifyWithFeatures(img, runner),
    runContentNet(img, runner).then(contentProbabilities),
    measurePixels(img),
  ]);
  if (!features) throw new Error('the classifier returned no pooled features');
  return { classes, features, nsfw, pixels };
}
