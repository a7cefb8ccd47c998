import type { AnalyzeData, Celebrity, Detail, LandmarkDetail, VisualFeature } from '../shared/spec';
import { adultFromProbabilities, NSFW_MODEL_ID, nsfwPreprocess, nsfwProbabilities, type NsfwProbabilities } from './adult';
import { isBlackAndWhite } from './color';
import type { Evidence } from './evidence';
import { attachDetails, type GalleryMatcher, type LandmarkMatch } from './gallery';
import { classifyImageType } from './image-type';
import { detectObjects, type DetectedObject } from './objects';
import { toAnalyzeFaces, type FaceEvidence } from './people';
import { measurePixels } from './pixel-evidence';
import type { RgbPixels } from './pixels';
import { buildCaption, buildTags, categorize, derive, DESCRIPTION_TAG_CONFIDENCE, scoreCategories } from './rules';
import type { ModelRunner } from './tensor/runner';

/** What the pipeline needs from the outside: a model runner, the face detector, galleries. */
export interface AnalyzeDeps {
  runModel: ModelRunner;
  /** The detect operation's faces for this image (analyze uses its default search scale). */
  detectFaces?: (img: RgbPixels, signal?: AbortSignal) => Promise<FaceEvidence[]>;
  gallery?: GalleryMatcher;
}

/** The feature part of `data` plus per-stage wall times (ms; model stages overlap). */
export interface AnalysisResult {
  data: Omit<AnalyzeData, 'requestId' | 'metadata'>;
  timingsMs: Record<string, number>;
}

const DESCRIBING: readonly VisualFeature[] = ['Categories', 'Tags', 'Description'];

/**
 * Runs the requested features on a decoded image: models (objects, faces, NSFW) run
 * concurrently in ONNX Runtime's threads while the pixel statistics run on this thread; then the
 * pure rules. Only the models a feature needs are run.
 */
export async function analyzePixels(
  img: RgbPixels,
  features: ReadonlySet<VisualFeature>,
  details: ReadonlySet<Detail>,
  deps: AnalyzeDeps,
  signal?: AbortSignal,
): Promise<AnalysisResult> {
  const timingsMs: Record<string, number> = {};
  const timed = async <T>(stage: string, f: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await f();
    } finally {
      timingsMs[stage] = performance.now() - t0;
    }
  };
  const describing = DESCRIBING.some((f) => features.has(f));
  const wantCelebs = details.has('Celebrities') && features.has('Categories') && !!deps.gallery?.matchCelebrities;
  const needFaces = (features.has('Faces') || describing || wantCelebs) && !!deps.detectFaces;
  const needNsfw = features.has('Adult') || features.has('ImageType');
  const noObjects: DetectedObject[] = [];
  const facesP = needFaces ? timed('faces', () => deps.detectFaces!(img, signal)) : Promise.resolve<FaceEvidence[]>([]);
  const objectsP = describing ? timed('objects', () => detectObjects(img, deps.runModel, signal)) : Promise.resolve(noObjects);
  const nsfwP = needNsfw
    ? timed('nsfw', async () => nsfwProbabilities(await deps.runModel(NSFW_MODEL_ID, nsfwPreprocess(img), signal)))
    : Promise.resolve(undefined);
  const landmarksP: Promise<LandmarkMatch> =
    details.has('Landmarks') && features.has('Categories') && deps.gallery?.matchLandmarks
      ? timed('landmarks', () => deps.gallery!.matchLandmarks!(img, signal))
      : Promise.resolve({ details: [] });
  // Avoid unhandled rejections while the pixel stage runs; the awaits below rethrow.
  for (const p of [facesP, objectsP, nsfwP, landmarksP]) p.catch(() => undefined);

  const t0 = performance.now();
  const { color, chroma, scene, ink, texture } = await measurePixels(img);
  timingsMs['pixels'] = performance.now() - t0;

  const [faces, objects, nsfw, landmarks] = await Promise.all([facesP, objectsP, nsfwP, landmarksP]);
  const t1 = performance.now();
  const imageType = classifyImageType({
    texture,
    ink,
    chromaP90: chroma.p90,
    isBW: isBlackAndWhite(chroma),
    drawingProb: nsfw?.Drawing,
    textLines: scene.textLines,
  });
  const evidence: Evidence = { width: img.width, height: img.height, color, chroma, scene, ink, imageType, nsfw, objects, faces };
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

function describe(e: Evidence, features: ReadonlySet<VisualFeature>, nsfw: NsfwProbabilities | undefined): AnalysisResult['data'] {
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
  if (features.has('Faces')) data.faces = toAnalyzeFaces(e.faces);
  if (features.has('Color')) data.color = e.color;
  if (features.has('ImageType')) data.imageType = { clipArtType: e.imageType.clipArtType, lineDrawingType: e.imageType.lineDrawingType };
  return data;
}
