/**
 * Reference descriptors for enrolment: the one face of a person's reference photo (or the face
 * the user picked), and the pooled scene descriptor of a place's reference photo.
 */
import { AppError } from '../../core';
import { cropRgb, makeThumbnail, type ModelRunner, type RgbImage, type Thumbnail } from '../../inference';
import { detectFacesInImage, selectorPlan } from '../faces';
import { describeFace, type FaceBox } from './face-descriptor';
import { describePlace } from './place-descriptor';

/** Longest side of stored reference thumbnails (JPEG), px. */
export const REFERENCE_THUMBNAIL_PX = 160;

/** A computed reference: L2-normalised descriptor, the face box (people) and a thumbnail. */
export interface ReferenceDescriptor {
  vector: Float32Array;
  /** People: the enrolled face in image px (rounded). */
  face: FaceBox | null;
  thumbnail: Thumbnail;
}

/**
 * Finds the faces of a reference photo (frontal search, as the detect operation) and describes
 * one: the only face, or face `faceNumber` (1-based, left to right as detect's face_id).
 * Throws `no-faces`, `too-many-faces` (listing the boxes) or `invalid-parameter`.
 */
export async function describePersonReference(
  img: RgbImage,
  engine: ModelRunner,
  opts: { source: string; faceNumber?: number },
  signal?: AbortSignal,
): Promise<ReferenceDescriptor> {
  const faces = await detectFacesInImage(
    img,
    { minHeadScale: 0.015, selector: selectorPlan(['FRONTAL']), skipAttributes: true },
    engine,
    signal,
  );
  if (faces.length === 0)
    throw new AppError(
      'no-faces',
      `No face was found in ${opts.source}. Use a photo where the person's face is clearly visible and roughly frontal.`,
    );
  const list = faces.map((f, i) => `#${i + 1} at ${boxText(f.box)}`).join(', ');
  let index = 0;
  if (opts.faceNumber !== undefined) {
    if (!Number.isInteger(opts.faceNumber) || opts.faceNumber < 1 || opts.faceNumber > faces.length) {
      throw new AppError('invalid-parameter', `${opts.source} has ${faces.length} face(s) (${list}); --face must be 1..${faces.length}.`);
    }
    index = opts.faceNumber - 1;
  } else if (faces.length > 1) {
    throw new AppError(
      'too-many-faces',
      `${opts.source} shows ${faces.length} faces (${list}, numbered left to right); choose one with --face <n>.`,
      {
        details: { faces: faces.length },
      },
    );
  }
  const box = faces[index]!.box;
  const d = await describeFace(img, box, engine, signal);
  if (!d)
    throw new AppError('no-faces', `The face ${boxText(box)} in ${opts.source} could not be aligned; use a sharper, more frontal photo.`);
  const face = { left: Math.round(box.left), top: Math.round(box.top), width: Math.round(box.width), height: Math.round(box.height) };
  const pad = face.width * 0.25;
  const crop = cropRgb(img, { left: face.left - pad, top: face.top - pad, width: face.width + 2 * pad, height: face.height + 2 * pad });
  return { vector: d.vector, face, thumbnail: await makeThumbnail(crop, REFERENCE_THUMBNAIL_PX, 'jpeg') };
}

/** Describes a place's reference photo (the whole frame). */
export async function describePlaceReference(img: RgbImage, engine: ModelRunner, signal?: AbortSignal): Promise<ReferenceDescriptor> {
  const d = await describePlace(img, engine, signal);
  return { vector: d.vector, face: null, thumbnail: await makeThumbnail(img, REFERENCE_THUMBNAIL_PX, 'jpeg') };
}

const boxText = (b: FaceBox): string => `(${Math.round(b.left)}, ${Math.round(b.top)}, ${Math.round(b.width)}×${Math.round(b.height)})`;
