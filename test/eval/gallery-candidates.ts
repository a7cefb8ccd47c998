// Candidate person-descriptor recipes compared by `npm run eval:gallery -- --descriptors a,b,…`
// (docs/galleries.md "Other embedders measured"). The embedders that are not shipped come from
// `npx tsx tooling/experiments/face-embedders.ts --out <dir>` (pass `--models <dir>`).
// Value-range and channel-order variants of a model run through a runner that re-maps the
// manifest's input before the session: the model id `<id>~<variant>`.
import { eyeLineAngle, keyPoints, meshCandidate, windowFromMesh } from '../../src-main/analysis/faces';
import { describeFace, FACE_DESCRIPTOR, FACERES_DESCRIPTOR_V1, type FaceBox } from '../../src-main/analysis/gallery/index';
import {
  l2Normalize,
  outputData,
  warpTarget,
  windowFeeds,
  type ModelRunner,
  type RgbImage,
  type TensorMap,
  type Window,
} from '../../src-main/inference';
import { arcfaceWindow, fivePoints } from './arcface-align';

/** Describes the face in `box` (a detect box), or null when the mesh finds no face there. */
export type FaceDescriber = (img: RgbImage, box: FaceBox, runner: ModelRunner) => Promise<Float32Array | null>;

/** How a variant re-maps the manifest's input: pixel (0..255) → value, optional BGR order. */
interface InputVariant {
  scale: number;
  offset: number;
  bgr: boolean;
}

const VARIANTS: Record<string, InputVariant> = {
  'm1..1': { scale: 1 / 127.5, offset: -1, bgr: false },
  '0..1': { scale: 1 / 255, offset: 0, bgr: false },
  '0..255': { scale: 1, offset: 0, bgr: false },
  'bgr-m1..1': { scale: 1 / 127.5, offset: -1, bgr: true },
  'bgr-0..255': { scale: 1, offset: 0, bgr: true },
};

type Mesh = NonNullable<Awaited<ReturnType<typeof meshCandidate>>>['mesh'];

/** The refined mesh of the face in `box`, as `describeFace` computes it (two facemesh passes). */
async function meshOf(img: RgbImage, box: FaceBox, runner: ModelRunner): Promise<Mesh | null> {
  const side = Math.max(box.width, box.height);
  const cx = box.left + box.width / 2;
  const cy = box.top + box.height / 2;
  const candidate = { score: 1, cx, cy, size: side, keypoints: [cx - 1, cy, cx + 1, cy, cx, cy, cx, cy, cx, cy, cx, cy] };
  return (await meshCandidate(img, candidate, runner))?.mesh ?? null;
}

/** Mirrors an NHWC tensor of `side` × `side` × `channels` left to right, in place. */
function mirrorNhwc(data: Float32Array, side: number, channels: number): void {
  for (let y = 0; y < side; y++) {
    const row = y * side * channels;
    for (let x = 0; x < side >> 1; x++) {
      const a = row + x * channels;
      const b = row + (side - 1 - x) * channels;
      for (let c = 0; c < channels; c++) [data[a + c], data[b + c]] = [data[b + c]!, data[a + c]!];
    }
  }
}

/**
 * A recipe: the crop (`upright`: eye line levelled, `scale` × the mesh extent (default faceres' 1.5); `arcface`:
 * five mesh points onto the ArcFace 112 px template), the model output, and optionally the mean
 * with the mirrored crop's embedding (flip test-time augmentation).
 */
function recipe(
  modelId: string,
  output: string,
  crop: 'upright' | 'arcface',
  flip: boolean,
  scale = FACERES_DESCRIPTOR_V1.crop.scale,
): FaceDescriber {
  return async (img, box, runner) => {
    const mesh = await meshOf(img, box, runner);
    if (!mesh) return null;
    const eyes = keyPoints(mesh);
    const win: Window =
      crop === 'arcface' ? arcfaceWindow(fivePoints(mesh)) : windowFromMesh(mesh, eyeLineAngle(eyes.rightEye, eyes.leftEye), scale);
    const feeds = windowFeeds(img, runner.spec(modelId), win);
    const read = async (): Promise<Float32Array> => l2Normalize(outputData(await runner.run(modelId, feeds))[output]!);
    const a = await read();
    if (!flip) return a;
    const input = Object.values(feeds)[0]!;
    mirrorNhwc(input.data, input.dims[1]!, input.dims[3]!);
    const b = await read();
    return l2Normalize(a.map((v, i) => v + b[i]!));
  };
}

export const CANDIDATES: Record<string, FaceDescriber> = {
  [FACE_DESCRIPTOR.method]: async (img, box, runner) => (await describeFace(img, box, runner))?.vector ?? null,
  'dlib-resnet-1.1': recipe('dlib-face-descriptor', 'descriptor', 'upright', false, 1.1),
  'dlib-resnet-1.3': recipe('dlib-face-descriptor', 'descriptor', 'upright', false, 1.3),
  'dlib-resnet-1.1-flip': recipe('dlib-face-descriptor', 'descriptor', 'upright', true, 1.1),
  [FACERES_DESCRIPTOR_V1.method]: async (img, box, runner) =>
    (await describeFace(img, box, runner, undefined, FACERES_DESCRIPTOR_V1))?.vector ?? null,
  'faceres-flip': recipe('faceres', 'descriptor', 'upright', true),
  mobilefacenet: recipe('mobilefacenet', 'embedding', 'arcface', false),
  'mobilefacenet-0..1': recipe('mobilefacenet~0..1', 'embedding', 'arcface', false),
  'mobilefacenet-0..255': recipe('mobilefacenet~0..255', 'embedding', 'arcface', false),
  'mobilefacenet-bgr': recipe('mobilefacenet~bgr-m1..1', 'embedding', 'arcface', false),
  mobileface: recipe('mobileface', 'embedding', 'arcface', false),
  'mobileface-flip': recipe('mobileface', 'embedding', 'arcface', true),
  'mobileface-bgr': recipe('mobileface~bgr-0..255', 'embedding', 'arcface', false),
  'mobileface-m1..1': recipe('mobileface~m1..1', 'embedding', 'arcface', false),
};

/** `runner` plus the `<id>~<variant>` ids: the manifest's window input re-mapped per the variant. */
export function variantRunner(runner: ModelRunner): ModelRunner {
  const split = (id: string): [string, InputVariant | undefined] => {
    const [base, v] = id.split('~') as [string, string | undefined];
    return [base, v ? VARIANTS[v] : undefined];
  };
  return {
    spec: (id) => runner.spec(split(id)[0]),
    async run(id, feeds, signal) {
      const [base, v] = split(id);
      if (!v) return runner.run(id, feeds, signal);
      const pre = warpTarget(runner.spec(base).inputs[0]!.preprocess!);
      const mapped: TensorMap = {};
      for (const [name, t] of Object.entries(feeds)) {
        const d = new Float32Array(t.data.length);
        for (let i = 0; i < d.length; i += 3)
          for (let c = 0; c < 3; c++) {
            const pixel = (t.data[i + (v.bgr ? 2 - c : c)]! - pre.offset) / pre.scale;
            d[i + c] = pixel * v.scale + v.offset;
          }
        mapped[name] = { data: d, dims: t.dims };
      }
      return runner.run(base, mapped, signal);
    },
  };
}
