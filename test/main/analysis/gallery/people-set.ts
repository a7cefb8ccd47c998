/**
 * The person-gallery calibration set: every fixture face (test/fixtures/images, identities from
 * the manifest) and every face crop of test/fixtures/people, each described as analyze would
 * (detect → describeFace), plus synthetic variations of each face (rotation, affine warp, gamma,
 * blur, JPEG quality, scale) that are re-detected before being described.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { detectFacesInImage, selectorPlan } from '../../../../src-main/analysis/faces';
import { describeFace, type FaceBox } from '../../../../src-main/analysis/gallery/index';
import { cropRgb, type InferenceEngine, type ModelRunner, type RgbImage } from '../../../../src-main/inference';
import type { ImageLoader } from '../../../../src-main/intake';
import type { PeopleManifestEntry } from '../../../fixtures/people/manifest-types';
import { fixture, repoRoot } from '../../../helpers/paths';
import { iou } from './support';

export const peopleDir = join(repoRoot, 'test', 'fixtures', 'people');

/** One described face: `person` is its identity key, `photo` the original photo it comes from. */
export interface FaceSample {
  person: string;
  /** True when the identity is unknown: then `group` tells which other unknown faces it may repeat. */
  unknown: boolean;
  group: string;
  photo: string;
  /** 'original' or the variation's name. */
  variant: string;
  vector: Float32Array;
}

/** A synthetic variation of a face crop (RGB in, RGB out). */
export interface Variation {
  name: string;
  apply(img: RgbImage): Promise<RgbImage>;
}

const rawOf = (img: RgbImage) =>
  sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length), { raw: { width: img.width, height: img.height, channels: 3 } });
async function toRgb(s: sharp.Sharp): Promise<RgbImage> {
  const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 3 };
}
const GREY = { r: 128, g: 128, b: 128 };
function gamma(img: RgbImage, g: number): RgbImage {
  const lut = Array.from({ length: 256 }, (_, v) => Math.round(255 * (v / 255) ** g));
  return { ...img, data: img.data.map((v) => lut[v]!) };
}

/**
 * Pose, light and quality changes a second photo of the same person plausibly shows. Rotations
 * and the shear stay within what the mesh alignment is meant to absorb (±12°).
 */
export const VARIATIONS: readonly Variation[] = [
  { name: 'rotate+10', apply: (img) => toRgb(rawOf(img).rotate(10, { background: GREY })) },
  { name: 'rotate-12', apply: (img) => toRgb(rawOf(img).rotate(-12, { background: GREY })) },
  { name: 'affine', apply: (img) => toRgb(rawOf(img).affine([1.1, 0.12, 0, 0.92], { background: GREY })) },
  { name: 'gamma0.6', apply: async (img) => gamma(img, 0.6) },
  { name: 'gamma1.6', apply: async (img) => gamma(img, 1.6) },
  { name: 'blur1.5', apply: (img) => toRgb(rawOf(img).blur(1.5)) },
  { name: 'jpeg20', apply: async (img) => toRgb(sharp(await rawOf(img).jpeg({ quality: 20 }).toBuffer())) },
  {
    name: 'scale0.5',
    apply: (img) => toRgb(rawOf(img).resize(Math.max(48, Math.round(img.width / 2)), Math.max(48, Math.round(img.height / 2)))),
  },
];

const detectOptions = { minHeadScale: 0.015, selector: selectorPlan(['FRONTAL']), skipAttributes: true };

/** The detected face closest to `expected` (IoU), or for a variation the largest near the centre. */
async function findFace(img: RgbImage, runner: ModelRunner, expected?: FaceBox): Promise<FaceBox | null> {
  const faces = (await detectFacesInImage(img, detectOptions, runner)).map((f) => f.box);
  if (faces.length === 0) return null;
  if (expected) {
    const best = faces.reduce((a, b) => (iou(a, expected) >= iou(b, expected) ? a : b));
    return iou(best, expected) > 0.3 ? best : null;
  }
  const centreDistance = (b: FaceBox): number =>
    Math.hypot(b.left + b.width / 2 - img.width / 2, b.top + b.height / 2 - img.height / 2) / Math.max(b.width, 1);
  const near = faces.filter((b) => centreDistance(b) < 0.5);
  return near.length ? near.reduce((a, b) => (a.width >= b.width ? a : b)) : null;
}

interface FaceSource {
  person: string;
  unknown: boolean;
  group: string;
  photo: string;
  image: RgbImage;
  box: FaceBox;
}

/** The fixture faces (full images) and the people crops, with their identities. */
async function faceSources(loader: ImageLoader, runner: ModelRunner): Promise<FaceSource[]> {
  const out: FaceSource[] = [];
  interface Truth {
    file: string;
    truth: { faces: (FaceBox & { name?: string })[] };
  }
  const fixtures = JSON.parse(readFileSync(fixture('manifest.json'), 'utf8')) as Truth[];
  for (const m of fixtures.filter((x) => x.truth.faces.length > 0)) {
    const image = (await loader.load(fixture(m.file))).image;
    for (const [k, t] of m.truth.faces.entries()) {
      const box = await findFace(image, runner, t);
      // Unnamed fixture faces are distinct people (different faces of one photo).
      if (box) out.push({ person: t.name ?? `${m.file} face ${k + 1}`, unknown: false, group: 'fixtures', photo: m.file, image, box });
    }
  }
  const people = JSON.parse(readFileSync(join(peopleDir, 'manifest.json'), 'utf8')) as PeopleManifestEntry[];
  for (const p of people) {
    const image = (await loader.load(join(peopleDir, p.file))).image;
    const box = await findFace(image, runner, p.face);
    if (!box) continue;
    const photo = `${p.source.package}/${p.source.path}`;
    out.push({ person: p.person ?? `${photo} face ${p.source.faceNumber}`, unknown: p.person === null, group: p.group, photo, image, box });
  }
  return out;
}

/**
 * Describes every calibration face, and each of `variations` of it (applied to a square crop of
 * 2 × the face box; a variation whose face is not re-detected is left out), by the shipped person
 * descriptor.
 */
export async function describeCalibrationFaces(
  engine: InferenceEngine,
  loader: ImageLoader,
  variations: readonly Variation[] = VARIATIONS,
  onProgress?: (done: number, total: number) => void,
): Promise<FaceSample[]> {
  const shipped = async (img: RgbImage, box: FaceBox, runner: ModelRunner): Promise<Float32Array | null> =>
    (await describeFace(img, box, runner))?.vector ?? null;
  return (await describeCalibrationFacesBy(engine, loader, [shipped], variations, onProgress))[0]!;
}

/**
 * The same by several describers at once (faces are detected once; test/eval/gallery-candidates.ts):
 * one sample list per describer, in order.
 */
export async function describeCalibrationFacesBy(
  runner: ModelRunner,
  loader: ImageLoader,
  describers: readonly ((img: RgbImage, box: FaceBox, runner: ModelRunner) => Promise<Float32Array | null>)[],
  variations: readonly Variation[] = VARIATIONS,
  onProgress?: (done: number, total: number) => void,
): Promise<FaceSample[][]> {
  const sources = await faceSources(loader, runner);
  const out: FaceSample[][] = describers.map(() => []);
  // Every recipe starts from the same refined mesh: all describe a face or none does.
  const describeAll = async (img: RgbImage, box: FaceBox, base: Omit<FaceSample, 'vector'>): Promise<boolean> => {
    let described = false;
    for (const [k, describe] of describers.entries()) {
      const vector = await describe(img, box, runner);
      if (vector) out[k]!.push({ ...base, vector });
      described ||= vector !== null;
    }
    return described;
  };
  for (const [i, s] of sources.entries()) {
    const base = { person: s.person, unknown: s.unknown, group: s.group, photo: s.photo };
    if (!(await describeAll(s.image, s.box, { ...base, variant: 'original' }))) continue;
    const side = 2 * Math.max(s.box.width, s.box.height);
    const crop = cropRgb(s.image, {
      left: s.box.left + s.box.width / 2 - side / 2,
      top: s.box.top + s.box.height / 2 - side / 2,
      width: side,
      height: side,
    });
    for (const v of variations) {
      const img = await v.apply(crop);
      const box = await findFace(img, runner);
      if (box) await describeAll(img, box, { ...base, variant: v.name });
    }
    onProgress?.(i + 1, sources.length);
  }
  return out;
}
