/**
 * Stage 3: attribute models on upright face crops, and the pure mapping of their outputs.
 *
 * Crops are taken in the face's own frame (`face`: upright window whose side is the mesh's
 * extent); each model gets the framing it was trained on, and the size and value mapping of its
 * manifest entry (`preprocess`):
 * - `faceres` (224 px, RGB 0..255) on the face extent: male probability (sigmoid) and an age
 *   softmax over 0..99 years;
 * - `gear` (198 px, RGB 0..1) on 1.2× the extent, shifted up by a tenth (UTKFace-style crops
 *   include the hair): gender softmax [male, female], age buckets, race softmax
 *   [white, black, asian, indian, other];
 * - `emotion` (64 px luma, −1..1) on the extent: [angry, disgust, fear, happy, sad, surprise, neutral].
 *
 * Which of them run is the caller's `FaceAttributeLevel`: detect reports every attribute, analyze
 * only age and gender (plus the smile and glasses its tags and captions read), so it runs gear on
 * its largest faces only.
 */
import { clamp, sigmoid, type ModelRunner, type RgbImage, type Window } from '../../inference';
import { runOnWindow, runOnWindows } from './runner';

/** Emotion labels in model output order. */
export const EMOTIONS = ['angry', 'disgust', 'fear', 'happy', 'sad', 'surprise', 'neutral'] as const;
export type Emotion = (typeof EMOTIONS)[number];

/** Raw attribute estimates of one face. */
export interface AttributeScores {
  /** Probability the face is male, 0..1. */
  male: number;
  /** Age in years. */
  ageYears: number;
  /** Kairos ethnicity shares, summing to 1. */
  ethnicity: { asian: number; hispanic: number; black: number; white: number; other: number };
  /** Emotion probabilities by label. */
  emotions: Record<Emotion, number>;
}

/**
 * Which attribute models run on each verified face:
 * - `full`: faceres, gear and emotion — gender and age from both models, ethnicity (gear), emotions
 *   (the detect operation);
 * - `summary`: faceres and emotion on every face, gear only on the `SUMMARY_GEAR_FACES` largest
 *   (analyze, whose response has age, gender and box and whose rules read the smile and glasses).
 *   The other faces take gender and age from faceres alone and the neutral ethnicity (0.2 each):
 *   gear costs ≈ 11 ms CPU per face, half of a face's cost, so a crowd's cost per face halves,
 *   while portraits and pairs keep both models' gender (docs/faces.md, "Attribute levels");
 * - `none`: no attribute model (neutral values; galleries and thumbnails need the geometry only).
 */
export type FaceAttributeLevel = 'full' | 'summary' | 'none';

/**
 * Faces (the largest windows) that still get gear at the `summary` level. Two: on the fixtures'
 * portraits gear's vote corrects faceres' gender (Grace Hopper), and a portrait or a pair is what
 * most analyses show; beyond two faces the cost per added face is faceres' alone.
 */
export const SUMMARY_GEAR_FACES = 2;

/** Centre age (years) of gear's buckets <20, 21-25, 26-30, 31-40, 41-50, 51-60, >60. */
export const GEAR_AGE_YEARS = [15, 23, 28, 35.5, 45.5, 55.5, 68] as const;
/** Each model's male log-odds are clipped to ±this first, so one saturated model cannot veto the other. */
export const GENDER_LOGIT_CLIP = 4;

/**
 * Male log-odds from the models' clipped male log-odds, fitted by logistic regression on 159
 * faces of known or by-eye gender (the fixtures' named people and the people crops,
 * `npm run eval:faces`; docs/faces.md "Gender"): `faceres` · L(faceres) + `gear` · L(gear) + `bias`.
 * gear leans towards male (its median log-odds: +4 for men, −2 for women), so it weighs less than
 * faceres and the bias takes its lean back; faceres' own probabilities are under-confident (×2).
 * Leave-one-out: 148 of 159 right, against 133 for the plain mean of the two log-odds.
 */
export const GENDER_FUSION = { faceres: 2.0, gear: 0.6, bias: -1.8 } as const;

/** The same fit for faceres alone (the `summary` level beyond its largest faces); leave-one-out 149 of 159. */
export const GENDER_FACERES_ALONE = { faceres: 2.1, bias: -1.0 } as const;

/**
 * Runs `faceres` alone on the upright face window: male probability, age softmax and the
 * 1024-d descriptor (the verification stage reads the descriptor before the other models run).
 */
export async function runFaceres(
  img: RgbImage,
  face: Window,
  runner: ModelRunner,
  signal?: AbortSignal,
): Promise<Record<string, Float32Array>> {
  return runOnWindow(runner, 'faceres', img, face, signal);
}

/** Runs `faceres` on several upright face windows, batched (`runOnWindows`); outputs per face. */
export async function runFaceresBatch(
  img: RgbImage,
  faces: readonly Window[],
  runner: ModelRunner,
  signal?: AbortSignal,
): Promise<Record<string, Float32Array>[]> {
  return runOnWindows(runner, 'faceres', img, faces, signal);
}

/**
 * Runs the attribute models on the upright face window `face` (side = face extent); `faceres`
 * is the output of `runFaceres` when the caller already has it (then only gear and emotion run).
 */
export async function estimateAttributes(
  img: RgbImage,
  face: Window,
  runner: ModelRunner,
  signal?: AbortSignal,
  faceres?: Record<string, Float32Array>,
): Promise<AttributeScores> {
  const [scores] = await estimateAttributesBatch(img, [face], runner, signal, faceres ? [faceres] : undefined);
  return scores!;
}

/**
 * `estimateAttributes` for all faces of an image: gear (`full` level only) and emotion (and
 * faceres unless its outputs are given, one per face) each run once on all the faces' crops
 * (`runOnWindows`).
 */
export async function estimateAttributesBatch(
  img: RgbImage,
  faces: readonly Window[],
  runner: ModelRunner,
  signal?: AbortSignal,
  faceres?: readonly Record<string, Float32Array>[],
  level: Exclude<FaceAttributeLevel, 'none'> = 'full',
): Promise<AttributeScores[]> {
  // In turn, not concurrently: onnxruntime-node's run blocks the calling thread anyway, and one
  // model at a time keeps one batch of crops in memory.
  const faceresOut = faceres ?? (await runFaceresBatch(img, faces, runner, signal));
  const gearFaces = level === 'full' ? faces.map((_, i) => i) : largestWindows(faces, SUMMARY_GEAR_FACES);
  const gearOut = gearFaces.length
    ? await runOnWindows(
        runner,
        'gear',
        img,
        gearFaces.map((i) => gearWindow(faces[i]!)),
        signal,
      )
    : [];
  const gearOf = new Map(gearFaces.map((face, k) => [face, gearOut[k]!]));
  const emotion = await runOnWindows(runner, 'emotion', img, faces, signal);
  return faces.map((_, i) => {
    const faceresMale = req(faceresOut[i]!, 'gender')[0]!;
    const faceresAge = req(faceresOut[i]!, 'age');
    const emotionOut = req(emotion[i]!, 'emotion');
    const gear = gearOf.get(i);
    if (!gear) return summaryAttributes({ faceresMale, faceresAge, emotion: emotionOut });
    return combineAttributes({
      faceresMale,
      faceresAge,
      gearGender: req(gear, 'gender'),
      gearAge: req(gear, 'age'),
      gearRace: req(gear, 'race'),
      emotion: emotionOut,
    });
  });
}

/** Indices of the `count` largest windows (by side; ties by index), in index order. */
export function largestWindows(wins: readonly Window[], count: number): number[] {
  return wins
    .map((w, i) => ({ i, size: w.size }))
    .sort((a, b) => b.size - a.size || a.i - b.i)
    .slice(0, count)
    .map((x) => x.i)
    .sort((a, b) => a - b);
}

/** Ethnicity shares when gear did not run (`summary`, `none`): no information, equal shares. */
export const NEUTRAL_ETHNICITY: AttributeScores['ethnicity'] = Object.freeze({
  asian: 0.2,
  hispanic: 0.2,
  black: 0.2,
  white: 0.2,
  other: 0.2,
});

/**
 * The `summary` level's mapping: gender and age from faceres alone (its male log-odds recalibrated,
 * `GENDER_FACERES_ALONE`; expected age of its 0..99 softmax), emotions as `combineAttributes`,
 * neutral ethnicity.
 */
export function summaryAttributes(o: Pick<AttributeOutputs, 'faceresMale' | 'faceresAge' | 'emotion'>): AttributeScores {
  const emotions = {} as Record<Emotion, number>;
  EMOTIONS.forEach((e, i) => (emotions[e] = o.emotion[i] ?? 0));
  const male = sigmoid(GENDER_FACERES_ALONE.faceres * clippedLogit(o.faceresMale) + GENDER_FACERES_ALONE.bias);
  return { male, ageYears: expectation(o.faceresAge, (i) => i), ethnicity: { ...NEUTRAL_ETHNICITY }, emotions };
}

/** gear's crop of a face window: 1.2× the extent, shifted up (in the face's frame) by a tenth of it. */
export function gearWindow(face: Window): Window {
  return {
    ...face,
    size: face.size * 1.2,
    cx: face.cx + Math.sin(face.angleRad) * face.size * 0.1,
    cy: face.cy - Math.cos(face.angleRad) * face.size * 0.1,
  };
}

/** Model outputs consumed by `combineAttributes`. */
export interface AttributeOutputs {
  faceresMale: number;
  faceresAge: ArrayLike<number>;
  gearGender: ArrayLike<number>;
  gearAge: ArrayLike<number>;
  gearRace: ArrayLike<number>;
  emotion: ArrayLike<number>;
}

/**
 * Pure mapping of model outputs to attributes.
 * - Gender: the two models' clipped male log-odds weighed by `GENDER_FUSION`, through a sigmoid.
 * - Age: mean of faceres' expected age and gear's bucket-centre expectation.
 * - Ethnicity from gear's UTKFace classes: white→white, black→black, asian + indian→asian (the
 *   census sense of Asian), UTKFace "others" (Hispanic, Latino, Middle Eastern) split evenly into
 *   hispanic and other; renormalised to sum to 1.
 */
export function combineAttributes(o: AttributeOutputs): AttributeScores {
  const f = GENDER_FUSION;
  const male = sigmoid(f.faceres * clippedLogit(o.faceresMale) + f.gear * clippedLogit(o.gearGender[0] ?? 0.5) + f.bias);
  const faceresAge = expectation(o.faceresAge, (i) => i);
  const gearAge = expectation(o.gearAge, (i) => GEAR_AGE_YEARS[i] ?? 68);
  const r = Array.from(o.gearRace);
  const [white = 0, black = 0, asian = 0, indian = 0, others = 0] = r;
  const sum = white + black + asian + indian + others || 1;
  const emotions = {} as Record<Emotion, number>;
  EMOTIONS.forEach((e, i) => (emotions[e] = o.emotion[i] ?? 0));
  return {
    male,
    ageYears: (faceresAge + gearAge) / 2,
    ethnicity: {
      asian: (asian + indian) / sum,
      hispanic: others / 2 / sum,
      black: black / sum,
      white: white / sum,
      other: others / 2 / sum,
    },
    emotions,
  };
}

function expectation(p: ArrayLike<number>, value: (i: number) => number): number {
  let s = 0;
  let t = 0;
  for (let i = 0; i < p.length; i++) {
    s += value(i) * p[i]!;
    t += p[i]!;
  }
  return t > 0 ? s / t : 0;
}

function clippedLogit(p: number): number {
  const q = clamp(p, 1e-6, 1 - 1e-6);
  return clamp(Math.log(q / (1 - q)), -GENDER_LOGIT_CLIP, GENDER_LOGIT_CLIP);
}

/** A named model output; throws when the model did not produce it. */
export function req(out: Record<string, Float32Array>, name: string): Float32Array {
  const v = out[name];
  if (!v) throw new Error(`attribute model: missing output ${name}`);
  return v;
}
