/**
 * Re-describing person references stored by an older recipe (docs/galleries.md "Model changes").
 * A reference keeps its source (local path or URL) and the enrolled face box, not the image: when
 * the source still loads and still shows a face at the stored box, the face is described again by
 * the current recipe; otherwise the reference is reported as needing re-enrolment. Nothing is
 * deleted here: the caller stores the new vector beside the old row (which the matcher ignores).
 */
import { iou, type ModelRunner, type RgbImage } from '../../inference';
import { detectFacesInImage, selectorPlan } from '../faces';
import { FACE_DESCRIPTOR, type FaceDescriptorSpec } from './descriptor-spec';
import { describeFace, type FaceBox } from './face-descriptor';

/** What a stored person reference tells about its origin. */
export interface StoredPersonReference {
  id: number;
  source: string;
  face: FaceBox | null;
}

/** The outcome for one stored reference. */
export type RedescribeOutcome =
  { id: number; status: 'redescribed'; vector: Float32Array; face: FaceBox } | { id: number; status: 'needs-re-enrolment'; reason: string };

/**
 * Minimum overlap (IoU) of a face found now with the stored face box: a lower one means the file
 * at the source changed (another photo, re-cropped) and the stored box no longer points at the
 * enrolled face. Detect boxes of one face in one image vary by far less than this.
 */
export const REDESCRIBE_MIN_IOU = 0.5;

/**
 * Describes `ref`'s face again by `spec` (default the shipped recipe) from its source, read by
 * `load`: the face found now that overlaps the stored box most (the same frontal search as
 * enrolment).
 */
export async function redescribePersonReference(
  ref: StoredPersonReference,
  load: (source: string, signal?: AbortSignal) => Promise<RgbImage>,
  runner: ModelRunner,
  signal?: AbortSignal,
  spec: FaceDescriptorSpec = FACE_DESCRIPTOR,
): Promise<RedescribeOutcome> {
  if (!ref.face) return { id: ref.id, status: 'needs-re-enrolment', reason: 'no face box was stored with it' };
  let img: RgbImage;
  try {
    img = await load(ref.source, signal);
  } catch (err) {
    signal?.throwIfAborted();
    return { id: ref.id, status: 'needs-re-enrolment', reason: `its source ${ref.source} cannot be read (${(err as Error).message})` };
  }
  const faces = await detectFacesInImage(
    img,
    { minHeadScale: 0.015, selector: selectorPlan(['FRONTAL']), skipAttributes: true },
    runner,
    signal,
  );
  const stored = ref.face;
  const best = faces.map((f) => f.box).reduce<FaceBox | null>((a, b) => (a && iou(a, stored) >= iou(b, stored) ? a : b), null);
  if (!best || iou(best, stored) < REDESCRIBE_MIN_IOU)
    return { id: ref.id, status: 'needs-re-enrolment', reason: `${ref.source} no longer shows the enrolled face at the stored position` };
  const d = await describeFace(img, best, runner, signal, spec);
  if (!d) return { id: ref.id, status: 'needs-re-enrolment', reason: `the face in ${ref.source} could not be aligned` };
  const face = { left: Math.round(best.left), top: Math.round(best.top), width: Math.round(best.width), height: Math.round(best.height) };
  return { id: ref.id, status: 'redescribed', vector: d.vector, face };
}
