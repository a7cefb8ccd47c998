/**
 * The inputs both sides of the parity check feed: real fixture images (whole, or a face crop from
 * the fixture ground truth) decoded and resized by sharp, normalized per the manifest, plus one
 * seeded random input over the model's input range. reference.ts (TF.js) and the vitest parity
 * test (ONNX Runtime) call this same code, so the two runtimes see identical bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { fixturesDir } from './fixtures';
import type { BuildSpec } from './specs';

export interface ParityCase {
  name: string;
  data: Float32Array;
}

interface FaceBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Which images each model is checked on; faces are cropped from the first ground-truth face. */
const plan: Record<string, { images: string[]; crop: 'whole' | 'face' }> = {
  'blazeface-back': { images: ['family_six_faces.jpg', 'obama_biden_two_people.jpg', 'cat_chelsea.jpg'], crop: 'whole' },
  facemesh: { images: ['grace_hopper.jpg', 'obama_portrait.jpg', 'tom_cruise.jpg'], crop: 'face' },
  gear: { images: ['grace_hopper.jpg', 'biden_portrait.jpg', 'tom_cruise.jpg'], crop: 'face' },
  faceres: { images: ['grace_hopper.jpg', 'obama_portrait.jpg', 'biden_portrait.jpg'], crop: 'face' },
  emotion: { images: ['grace_hopper.jpg', 'obama_portrait.jpg', 'astronaut_eileen_collins.jpg'], crop: 'face' },
  'nsfw-mobilenet-v2-mid': { images: ['cat_chelsea.jpg', 'dancer_sketch_line_drawing.png', 'family_six_faces.jpg'], crop: 'whole' },
  centernet: { images: ['cat_chelsea.jpg', 'coffee_cup.jpg', 'family_six_faces.jpg'], crop: 'whole' },
  'dlib-face-descriptor': { images: ['obama_portrait.jpg', 'biden_portrait.jpg', 'grace_hopper.jpg'], crop: 'face' },
};

function firstFace(file: string): FaceBox {
  const truth = JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as { file: string; truth: { faces?: FaceBox[] } }[];
  const face = truth.find((t) => t.file === file)?.truth.faces?.[0];
  if (!face) throw new Error(`no ground-truth face in ${file}`);
  return face;
}

/** RGB bytes, HWC, exactly w x h. Face crops are the ground-truth box grown 1.5x (square), clipped. */
async function pixels(file: string, crop: 'whole' | 'face', w: number, h: number): Promise<Uint8Array> {
  let img = sharp(join(fixturesDir, file)).removeAlpha().toColourspace('srgb');
  if (crop === 'face') {
    const meta = await sharp(join(fixturesDir, file)).metadata();
    const f = firstFace(file);
    const side = Math.round(Math.max(f.width, f.height) * 1.5);
    const left = Math.max(0, Math.round(f.left + f.width / 2 - side / 2));
    const top = Math.max(0, Math.round(f.top + f.height / 2 - side / 2));
    img = img.extract({ left, top, width: Math.min(side, meta.width! - left), height: Math.min(side, meta.height! - top) });
  }
  const { data } = await img.resize(w, h, { fit: 'fill', kernel: 'linear' }).raw().toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

/** Per-model normalization of 0..255 RGB, as documented in the manifest. */
function normalize(spec: Pick<BuildSpec, 'id' | 'input'>, rgb: Uint8Array): Float32Array {
  const [, a, b, c] = spec.input.shape as [number, number, number, number];
  const nchw = spec.input.layout === 'NCHW';
  const plane = nchw ? b * c : a * b;
  const out = new Float32Array(spec.input.shape.reduce((x, y) => x * y, 1));
  for (let i = 0; i < plane; i++) {
    const [r, g, bl] = [rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!];
    if (spec.id === 'emotion') {
      const grey = 0.2989 * (r / 255) + 0.587 * (g / 255) + 0.114 * (bl / 255);
      out[i] = (grey - 0.5) * 2;
      continue;
    }
    const [lo, hi] = spec.input.range;
    // Affine map 0..255 -> [lo, hi]: x/127.5-1, x/255 or x.
    for (let ch = 0; ch < 3; ch++) out[nchw ? ch * plane + i : i * 3 + ch] = (rgb[i * 3 + ch]! / 255) * (hi - lo) + lo;
  }
  return out;
}

/** Seeded uniform values over a model input's range (mulberry32); shared with the TFLite tooling. */
export function randomInput(spec: { input: { shape: readonly number[]; range: readonly [number, number] } }, seed: number): Float32Array {
  const n = spec.input.shape.reduce((x, y) => x * y, 1);
  const [lo, hi] = spec.input.range;
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = lo + (((t ^ (t >>> 14)) >>> 0) / 4294967296) * (hi - lo);
  }
  return out;
}

export async function parityCases(spec: Pick<BuildSpec, 'id' | 'input'>): Promise<ParityCase[]> {
  const p = plan[spec.id];
  if (!p) throw new Error(`no parity plan for ${spec.id}`);
  const [h, w] = spec.input.layout === 'NCHW' ? [spec.input.shape[2]!, spec.input.shape[3]!] : [spec.input.shape[1]!, spec.input.shape[2]!];
  const cases: ParityCase[] = [];
  for (const file of p.images) cases.push({ name: file, data: normalize(spec, await pixels(file, p.crop, w, h)) });
  cases.push({ name: 'random', data: randomInput(spec, 1234) });
  return cases;
}

export function sha256(data: Float32Array): string {
  return createHash('sha256')
    .update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
    .digest('hex');
}
