/**
 * Face descriptors for the person gallery. Enrolment and matching both start from a face box
 * (the detect operation's square mesh box) and go through the same steps, so stored and query
 * vectors are made identically:
 *
 * box → facemesh twice (MediaPipe landmarks-to-ROI) → the crop of the recipe (`crop` of the
 * `FaceDescriptorSpec`) → the recipe's model → its output, optionally averaged with the mirrored
 * crop's → L2-normalised.
 */
import { l2Normalize, outputData, windowFeeds, type Box, type ModelRunner, type RgbImage, type Window } from '../../inference';
// The faces module's mesh refinement and warp are not in its public index; reusing them keeps one
// alignment for detection and galleries instead of a copy here. The recipe depends on them: a
// change there that moves descriptors must bump FACE_DESCRIPTOR.method (the golden-descriptor
// test in test/main/analysis/gallery fails when it does).
import { arcfaceWindow, eyeLineAngle, fivePoints, keyPoints, meshCandidate, windowFromMesh } from '../faces';
import { FACE_DESCRIPTOR, type FaceDescriptorSpec } from './descriptor-spec';

/** An axis-aligned face box in image px. */
export type FaceBox = Box;

/**
 * Crop side relative to the mesh extent for the `upright-1.5x` crop. faceres was trained on loose
 * crops; 1.3–1.7 measured alike (docs/galleries.md).
 */
export const FACE_CROP_SCALE = 1.5;

/** A descriptor and the crop window it was computed from. */
export interface FaceDescriptor {
  vector: Float32Array;
  window: Window;
}

type Mesh = NonNullable<Awaited<ReturnType<typeof meshCandidate>>>['mesh'];

/** The recipe's crop window from the refined mesh. */
function cropWindow(mesh: Mesh, spec: FaceDescriptorSpec): Window {
  if (spec.crop === 'arcface-5pt') return arcfaceWindow(fivePoints(mesh));
  const eyes = keyPoints(mesh);
  return windowFromMesh(mesh, eyeLineAngle(eyes.rightEye, eyes.leftEye), FACE_CROP_SCALE);
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

/** The recipe's raw output for one window (and, with `flip`, plus the mirrored window's). */
async function embed(
  img: RgbImage,
  window: Window,
  runner: ModelRunner,
  spec: FaceDescriptorSpec,
  signal?: AbortSignal,
): Promise<Float32Array> {
  const model = runner.spec(spec.modelId);
  const feeds = windowFeeds(img, model, window);
  const read = async (): Promise<Float32Array> => {
    const raw = outputData(await runner.run(spec.modelId, feeds, signal))[spec.output];
    if (!raw || raw.length !== spec.dim) throw new Error(`${spec.modelId}: expected a ${spec.dim}-d ${spec.output} output`);
    return raw;
  };
  const a = Float32Array.from(await read());
  if (!spec.flip) return a;
  const [name] = Object.keys(feeds) as [string];
  const input = feeds[name]!;
  const dims = input.dims;
  // The flip test-time augmentation: a mirrored face is the same person; the mean of both
  // normalised embeddings is steadier against pose and lighting asymmetry.
  mirrorNhwc(input.data as Float32Array, dims[1]!, dims[3]!);
  const b = await read();
  const na = l2Normalize(a);
  const nb = l2Normalize(b);
  for (let i = 0; i < na.length; i++) na[i] = na[i]! + nb[i]!;
  return na;
}

/**
 * The L2-normalised descriptor of the face in `box` by `spec` (default: the shipped person
 * descriptor), or null when facemesh finds no face there (the box came from elsewhere and holds
 * no face).
 */
export async function describeFace(
  img: RgbImage,
  box: FaceBox,
  runner: ModelRunner,
  signal?: AbortSignal,
  spec: FaceDescriptorSpec = FACE_DESCRIPTOR,
): Promise<FaceDescriptor | null> {
  const side = Math.max(box.width, box.height);
  const cx = box.left + box.width / 2;
  const cy = box.top + box.height / 2;
  // A level pseudo eye line (angle 0) for the first mesh pass; the second pass levels the real one.
  const candidate = { score: 1, cx, cy, size: side, keypoints: [cx - 1, cy, cx + 1, cy, cx, cy, cx, cy, cx, cy, cx, cy] };
  const meshed = await meshCandidate(img, candidate, runner, signal);
  if (!meshed) return null;
  const window = cropWindow(meshed.mesh, spec);
  return { vector: l2Normalize(await embed(img, window, runner, spec, signal)), window };
}
