import { BugError } from '../core';
import type { AnalyzeData, Celebrity, Color, Detail, ImageType, LandmarkDetail, VisualFeature } from '../shared/spec';
import { adultFromProbabilities } from './adult';
import { contentProbabilities, runContentNet, type ContentProbabilities } from './content-net';
import { classifyWithFeatures, type ClassScore } from './classifier';
import type { Evidence } from './evidence';
import { withoutAnimalHeads } from './faces-not-animals';
import { CHART_TABLE, chartVote, DRAWING_TABLE, drawingVotes, type ChartEvidence, type DrawingVote } from './drawings';
import { attachDetails, type GalleryMatcher, type LandmarkMatch } from './details';
import { classifyImageType, photoProbability } from './image-type';
import { detectObjects, type DetectedObject } from './objects';
import { toAnalyzeFaces, type FaceEvidence } from './people';
import { imageTypeEvidence, measurePixels, type PixelEvidence } from './pixel-evidence';
import { seenVocThings, segmentImage, subjectFromMask, type SubjectEvidence } from './subject';
import type { RgbImage } from '../inference';
import {
  buildCaption,
  buildTags,
  categorize,
  CHART_RULE,
  CLIP_ART_TYPE,
  derive,
  DESCRIPTION_TAG_CONFIDENCE,
  scoreCategories,
  withoutGroundlessThings,
} from './rules';
import type { ModelRunner } from '../inference';

/** What the pipeline needs from the outside: a model runner, the face detector, galleries. */
export interface AnalyzeDeps {
  runModel: ModelRunner;
  /** The detect operation's faces for this image (analyze uses its default search scale). */
  detectFaces?: (img: RgbImage, signal?: AbortSignal) => Promise<FaceEvidence[]>;
  gallery?: GalleryMatcher;
  /**
   * Runs the branch that needs no faces (objects, NSFW, pixel statistics) elsewhere, e.g. in a
   * worker thread while the faces run here; default `runModelBranch` on this thread with `runModel`.
   */
  modelBranch?: ModelBranch;
  /** Whether `modelBranch` also measures the pixel statistics (else they run on this thread). */
  pixelsInBranch?: boolean;
  /**
   * Runs the subject segmenter after `modelBranch` returns instead of inside it (default: in the
   * branch, after its detector and classifier, on the branch's one thread).
   */
  subjectModels?: SubjectModels;
}

/**
 * Where the subject segmenter runs when the branch leaves it to the calling thread: the branch's
 * core is idle once the branch has returned, so DeepLab goes there while the faces still run
 * here, and here, on sessions that take both cores, once they are done (a photo of a pet, a car
 * or a room: 58 → 35 ms for DeepLab at two threads on a 2-core AMD EPYC, docs/benchmarks.md).
 */
export interface SubjectModels {
  /** This thread's models (DeepLab on every core). */
  here: ModelRunner;
  /** The branch's core (the analyze worker). */
  there: ModelRunner;
}

/** Which stages the face-free branch runs. */
export interface BranchRequest {
  objects: boolean;
  /** The ImageNet classifier (describing features); default false. */
  classes?: boolean;
  nsfw: boolean;
  pixels: boolean;
  /**
   * The subject segmenter (DeepLab), run after the detector and the classifier and only when
   * they see a VOC thing (subject/gate.ts); needs `objects` or `classes`. Default false.
   */
  subject?: boolean;
}

/** The face-free branch's evidence plus its per-stage wall times (ms). */
export interface BranchResult {
  /** Present when requested. */
  pixels?: PixelEvidence;
  objects: DetectedObject[];
  /** The classifier's top-k, when requested. */
  classes?: ClassScore[];
  /** The classifier's pooled features (the drawing vocabulary's descriptor), with `classes`. */
  features?: Float32Array;
  nsfw?: ContentProbabilities;
  /** Segmented regions and the main subject, when requested and the gate let it run. */
  subject?: SubjectEvidence;
  timingsMs: Record<string, number>;
}

export type ModelBranch = (img: RgbImage, want: BranchRequest, signal?: AbortSignal) => Promise<BranchResult>;

/** The feature part of `data` plus per-stage wall times (ms; model stages overlap). */
export interface AnalysisResult {
  data: Omit<AnalyzeData, 'requestId' | 'metadata'>;
  timingsMs: Record<string, number>;
}

const DESCRIBING: readonly VisualFeature[] = ['Categories', 'Tags', 'Description'];

/** Wall time per named stage (ms); `timed` records a stage even when it throws. */
function stageTimer(): { timingsMs: Record<string, number>; timed: <T>(stage: string, f: () => Promise<T>) => Promise<T> } {
  const timingsMs: Record<string, number> = {};
  const timed = async <T>(stage: string, f: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await f();
    } finally {
      timingsMs[stage] = performance.now() - t0;
    }
  };
  return { timingsMs, timed };
}

/**
 * Runs the requested features on a decoded image: the faces, and the face-free branch (objects,
 * ImageNet classes, NSFW, pixel statistics; `deps.modelBranch`, e.g. a worker thread, else this thread), then the
 * pure rules. Only the models a feature needs are run.
 */
export async function analyzePixels(
  img: RgbImage,
  features: ReadonlySet<VisualFeature>,
  details: ReadonlySet<Detail>,
  deps: AnalyzeDeps,
  signal?: AbortSignal,
): Promise<AnalysisResult> {
  const { timingsMs, timed } = stageTimer();
  const describing = DESCRIBING.some((f) => features.has(f));
  const wantCelebs = details.has('Celebrities') && features.has('Categories') && !!deps.gallery?.matchCelebrities;
  const needFaces = (features.has('Faces') || describing || wantCelebs) && !!deps.detectFaces;
  const needNsfw = features.has('Adult') || features.has('ImageType');
  const facesP = needFaces ? timed('faces', () => deps.detectFaces!(img, signal)) : Promise.resolve<FaceEvidence[]>([]);
  let facesDone = false;
  void facesP.finally(() => (facesDone = true)).catch(() => undefined);
  const pixelsHere = !!deps.modelBranch && !deps.pixelsInBranch;
  const subjectModels = deps.modelBranch && describing ? deps.subjectModels : undefined;
  // The classifier's features also feed the image type (the photo probe).
  const want: BranchRequest = {
    objects: describing,
    classes: describing || features.has('ImageType'),
    subject: describing && !subjectModels,
    nsfw: needNsfw,
    pixels: !pixelsHere,
  };
  const branchP = deps.modelBranch
    ? timed('branch', () => deps.modelBranch!(img, want, signal))
    : runModelBranch(img, want, deps.runModel, signal);
  const landmarksP: Promise<LandmarkMatch> =
    details.has('Landmarks') && features.has('Categories') && deps.gallery?.matchLandmarks
      ? timed('landmarks', () => deps.gallery!.matchLandmarks!(img, signal))
      : Promise.resolve({ details: [] });
  // Avoid unhandled rejections while the pixel stage runs; the awaits below rethrow.
  for (const p of [facesP, branchP, landmarksP]) p.catch(() => undefined);

  const pixelsHereP = pixelsHere ? timed('pixels', () => measurePixels(img)) : undefined;
  const subjectHereP = subjectModels
    ? Promise.all([branchP, pixelsHereP]).then(([b, px]) =>
        subjectStage(
          img,
          b.objects,
          b.classes && { classes: b.classes, features: b.features },
          b.nsfw,
          px ?? b.pixels,
          timed,
          signal,
          () => (facesDone ? subjectModels.here : subjectModels.there),
        ),
      )
    : undefined;
  subjectHereP?.catch(() => undefined);
  const [found, branch, landmarks, measured, subjectHere] = await Promise.all([facesP, branchP, landmarksP, pixelsHereP, subjectHereP]);
  const { objects, nsfw, classes, features: classFeatures } = branch;
  // A close-up face the face search only just verified, on an image the classifier is sure shows
  // an animal, is the animal's head (faces-not-animals.ts); every part of the result drops it.
  const faces = await withoutAnimalHeads(img, found, deps.runModel, classes, signal);
  const subject = subjectHere ?? branch.subject;
  const pixels = measured ?? branch.pixels;
  if (!pixels) throw new BugError('analysis: the model branch returned no pixel statistics');
  const { chroma, scene, ink, texture } = pixels;
  Object.assign(timingsMs, branch.timingsMs);
  const t1 = performance.now();
  const photoProb = classFeatures ? photoProbability(classFeatures) : undefined;
  const imageType = imageTypeOf(pixels, nsfw, photoProb);
  const photo = isPhoto(imageType);
  const color = photo ? withSubjectColour(pixels.color, subject) : pixels.color;
  const lineDrawing = imageType.lineDrawingType === 1;
  // The drawing vocabulary is Open Clip Art: it speaks for drawings and clip art only.
  const votes = !photo && classFeatures ? drawingVotes(classFeatures, DRAWING_TABLE, { lineDrawing }) : undefined;
  const evidence: Evidence = withoutGroundlessThings({
    width: img.width,
    height: img.height,
    color,
    chroma,
    scene,
    ink,
    imageType,
    nsfw,
    objects,
    faces,
    classes,
    drawingVotes: votes,
    chart: classFeatures ? chartEvidence(classFeatures, votes, lineDrawing, texture.borderFlat) : undefined,
    // DeepLab learnt from photos: its regions count on photos only.
    subject: photo ? subject : undefined,
    colorBins90: texture.colorBins90,
    photoProb,
  });
  const data = describe(evidence, features, nsfw);
  timingsMs['rules'] = performance.now() - t1;

  if (features.has('Categories') && data.categories) {
    const celebrities: Celebrity[] =
      wantCelebs && faces.length ? await timed('celebrities', () => deps.gallery!.matchCelebrities!(img, faces, signal)) : [];
    const landmarkDetails: LandmarkDetail[] = landmarks.details;
    data.categories = attachDetails(data.categories, details, celebrities, landmarkDetails);
    if (landmarks.annotations?.length) data.Landmarks = landmarks.annotations;
  }
  return { data, timingsMs };
}

/**
 * The branch of the analysis that needs no faces: the object detector, the ImageNet classifier and
 * the NSFW classifier (started first), then the pixel statistics if requested. Runs in-process or in the analyze
 * worker.
 */
export async function runModelBranch(
  img: RgbImage,
  want: BranchRequest,
  runModel: ModelRunner,
  signal?: AbortSignal,
): Promise<BranchResult> {
  const { timingsMs, timed } = stageTimer();
  const noObjects: DetectedObject[] = [];
  const objectsP = want.objects ? timed('objects', () => detectObjects(img, runModel, signal)) : Promise.resolve(noObjects);
  const classifiedP = want.classes ? timed('classes', () => classifyWithFeatures(img, runModel, signal)) : Promise.resolve(undefined);
  const nsfwP = want.nsfw
    ? timed('nsfw', async () => contentProbabilities(await runContentNet(img, runModel, signal)))
    : Promise.resolve(undefined);
  const pixelsP = want.pixels ? timed('pixels', () => measurePixels(img)) : Promise.resolve(undefined);
  // The subject counts on photos only (analyzePixels): with the pixel statistics here, the same
  // image type decides first and drawings skip the segmenter (it starts after the NSFW net and
  // the pixels then, not only after the detector and the classifier).
  const subjectP = Promise.all([objectsP, classifiedP, nsfwP, pixelsP]).then(([objects, classified, nsfw, pixels]) =>
    want.subject ? subjectStage(img, objects, classified, nsfw, pixels, timed, signal, () => runModel) : undefined,
  );
  for (const p of [objectsP, classifiedP, nsfwP, pixelsP, subjectP]) p.catch(() => undefined);
  const [objects, classified, nsfw, pixels, subject] = await Promise.all([objectsP, classifiedP, nsfwP, pixelsP, subjectP]);
  return { pixels, objects, classes: classified?.classes, features: classified?.features, nsfw, subject, timingsMs };
}

/**
 * The subject stage: DeepLab when the detector or the classifier sees a VOC thing (subject/gate.ts)
 * and, when the pixel statistics are at hand, the image type calls it a photo (DeepLab's regions
 * count on photos only); `runnerNow` picks where it runs once it starts.
 */
function subjectStage(
  img: RgbImage,
  objects: DetectedObject[],
  classified: { classes: ClassScore[]; features?: Float32Array } | undefined,
  nsfw: ContentProbabilities | undefined,
  pixels: PixelEvidence | undefined,
  timed: ReturnType<typeof stageTimer>['timed'],
  signal: AbortSignal | undefined,
  runnerNow: () => ModelRunner,
): Promise<SubjectEvidence | undefined> | undefined {
  const seen = seenVocThings(objects, classified?.classes);
  const photoProb = classified?.features ? photoProbability(classified.features) : undefined;
  if (!seen.size || (pixels && !isPhoto(imageTypeOf(pixels, nsfw, photoProb)))) return undefined;
  return timed('subject', async () => subjectFromMask(await segmentImage(img, runnerNow(), signal), img, seen));
}

/**
 * The reference charts' vote with the drawing vocabulary's best similarity to compare it with: the
 * votes already cast on drawings, else (photos) a vote of its own, only when the charts are near
 * enough to matter.
 */
function chartEvidence(features: Float32Array, votes: DrawingVote[] | undefined, lineDrawing: boolean, borderFlat: number): ChartEvidence {
  const vote = chartVote(features, CHART_TABLE, DRAWING_TABLE);
  const near = vote.similarity >= CHART_RULE.minSimilarity;
  const drawing = votes ?? (near ? drawingVotes(features, DRAWING_TABLE, { lineDrawing }) : []);
  return { ...vote, drawingSimilarity: drawing.reduce((m, v) => Math.max(m, v.similarity), 0), borderFlat };
}

/** The image type from the pixel statistics, the NSFW net's drawing probability and the photo probe's P(photo) (on the classifier's features). */
function imageTypeOf(
  pixels: PixelEvidence,
  nsfw: ContentProbabilities | undefined,
  photoProb: number | undefined,
): ReturnType<typeof classifyImageType> {
  return classifyImageType(imageTypeEvidence(pixels, nsfw?.Drawing, photoProb));
}

/** A photo: neither clip art nor a line drawing (DeepLab's regions and colour count on photos only). */
function isPhoto(t: ImageType): boolean {
  return t.clipArtType < CLIP_ART_TYPE.clipArt && t.lineDrawingType !== 1;
}

/**
 * The Color feature with the main subject's own colour as the foreground (when the mask is big
 * enough to have one), listed among the dominant colours too.
 */
function withSubjectColour(color: Color, subject: SubjectEvidence | undefined): Color {
  const fg = subject?.foreground;
  if (!fg || fg === color.dominantColorForeground) return color;
  const dominantColors = color.dominantColors.includes(fg) ? color.dominantColors : [...color.dominantColors, fg];
  return { ...color, dominantColorForeground: fg, dominantColors };
}

function describe(e: Evidence, features: ReadonlySet<VisualFeature>, nsfw: ContentProbabilities | undefined): AnalysisResult['data'] {
  const d = derive(e);
  const data: AnalysisResult['data'] = {};
  if (features.has('Categories')) data.categories = categorize(e, d);
  if (features.has('Adult') && nsfw) data.adult = adultFromProbabilities(nsfw);
  const tags = features.has('Tags') || features.has('Description') ? buildTags(e, d) : [];
  if (features.has('Tags')) data.tags = tags;
  if (features.has('Description')) {
    const caption = buildCaption(e, d, scoreCategories(e, d));
    data.description = { tags: tags.filter((t) => t.confidence >= DESCRIPTION_TAG_CONFIDENCE).map((t) => t.name), captions: [caption] };
  }
  if (features.has('Faces')) data.faces = toAnalyzeFaces(e.faces, e.width, e.height);
  if (features.has('Color')) data.color = e.color;
  if (features.has('ImageType')) data.imageType = { clipArtType: e.imageType.clipArtType, lineDrawingType: e.imageType.lineDrawingType };
  return data;
}
