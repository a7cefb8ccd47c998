import type { Color, ImageType } from '../shared/spec';
import type { ContentProbabilities } from './content-net';
import type { ClassScore } from './classifier';
import type { ChartEvidence, DrawingVote } from './drawings';
import type { ChromaStats } from './color';
import type { InkStats } from './image-type';
import type { DetectedObject } from './objects/types';
import type { FaceEvidence } from './people/faces';
import type { SceneCues } from './scene/cues';
import type { SubjectEvidence } from './subject/subject';

/**
 * Everything the rules (categories, tags, caption) look at, gathered once per image. Model parts
 * are optional: a feature subset may skip a model, and the rules then use what is there.
 */
export interface Evidence {
  width: number;
  height: number;
  color: Color;
  chroma: ChromaStats;
  scene: SceneCues;
  ink: InkStats;
  /** The ImageType plus its clip-art score and how much it is a photo cut out on a plain page (image-type/classify.ts). */
  imageType: ImageType & { clipArtScore: number; isolatedFigure?: number };
  /** nsfwjs class probabilities, when the classifier ran. */
  nsfw?: ContentProbabilities;
  /** COCO detections after NMS, score-sorted. */
  objects: DetectedObject[];
  faces: FaceEvidence[];
  /**
   * 4-bit colour bins covering 90 % of the pixels (texture statistics): photos, also cut out on
   * white, have dozens; drawings a handful. Gates the photo-trained classifier on clip art.
   */
  colorBins90?: number;
  /**
   * The photo probe's P(photo) on the classifier's pooled features (image-type/photo-probe.ts),
   * when the classifier ran: with colorBins90, how far its words are trusted on clip art.
   */
  photoProb?: number;
  /** The ImageNet classifier's top-k classes (softmax probabilities), when it ran. */
  classes?: ClassScore[];
  /** The drawing vocabulary's votes (nearest Open Clip Art drawings), on drawings and clip art when the classifier ran. */
  drawingVotes?: DrawingVote[];
  /** The nearest reference charts' vote (every image type: gnuplot draws charts the pixel rules rate photos), when the classifier ran. */
  chart?: ChartEvidence;
  /** DeepLab's regions and main subject (photos only, when the gate let the segmenter run). */
  subject?: SubjectEvidence;
}
