/**
 * Measures candidate detectors on the shared fixtures (tooling, not CI):
 *   npx tsx tooling/experiments/compare-detectors.ts
 * Faces: blazeface-back vs facemesh-detection-full, recall of ground-truth faces (IoU >= 0.3) with
 * the image shrunk inside the letterboxed input (small faces). Objects: centernet vs nanodet,
 * ground-truth labels found and other labels reported at score >= 0.3.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { iou, type Box } from '../../src-main/inference/tensor';
import { buildModel } from '../convert/build';
import { decodeBlazefaceBack, decodeCenternet, decodeFullRange, decodeNanodet, type Detection } from './decoders';
import { buildSpecs } from '../convert/specs';
import { candidateSpecs } from './candidate-specs';
import { fixturesDir } from '../convert/fixtures';

interface Truth {
  file: string;
  width: number;
  height: number;
  truth: { faces?: Box[]; objects?: string[] };
}

const truths = JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as Truth[];
const coco = JSON.parse(readFileSync(new URL('../../models/labels/coco80.json', import.meta.url), 'utf8')) as string[];

/** Image shrunk by `f` after fitting into size x size, at the top-left of a black square. */
async function letterbox(
  file: string,
  size: number,
  f: number,
  scale: number,
  offset: number,
  nchw = false,
): Promise<{ data: Float32Array; k: number }> {
  const meta = await sharp(join(fixturesDir, file)).metadata();
  const k = (size / Math.max(meta.width!, meta.height!)) * f;
  const w = Math.max(1, Math.round(meta.width! * k));
  const h = Math.max(1, Math.round(meta.height! * k));
  const { data } = await sharp(join(fixturesDir, file))
    .removeAlpha()
    .toColourspace('srgb')
    .resize(w, h, { fit: 'fill' })
    .extend({ right: size - w, bottom: size - h, background: { r: 0, g: 0, b: 0 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: toFloat(data, size, scale, offset, nchw), k };
}

/** Whole image stretched to size x size (how human feeds the object models). */
async function stretch(file: string, size: number, scale: number, offset: number, nchw = false): Promise<Float32Array> {
  const { data } = await sharp(join(fixturesDir, file))
    .removeAlpha()
    .toColourspace('srgb')
    .resize(size, size, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return toFloat(data, size, scale, offset, nchw);
}

function toFloat(rgb: Uint8Array, size: number, scale: number, offset: number, nchw: boolean): Float32Array {
  const out = new Float32Array(size * size * 3);
  const plane = size * size;
  for (let i = 0; i < plane; i++) for (let c = 0; c < 3; c++) out[nchw ? c * plane + i : i * 3 + c] = rgb[i * 3 + c]! * scale + offset;
  return out;
}

async function session(dir: string, id: string): Promise<{ s: ort.InferenceSession; shape: number[] }> {
  const spec = [...buildSpecs, ...candidateSpecs].find((s) => s.id === id)!;
  const entry = await buildModel(spec, dir);
  return { s: await ort.InferenceSession.create(join(dir, entry.file)), shape: spec.input.shape };
}

async function run(
  s: ort.InferenceSession,
  shape: number[],
  data: Float32Array,
): Promise<Record<string, { data: Float32Array; dims: readonly number[] }>> {
  const r = await s.run({ input: new ort.Tensor('float32', data, shape) });
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, { data: v.data as Float32Array, dims: v.dims }]));
}

function matchFaces(truth: Box[], dets: Detection[], k: number): { hit: number; fp: number } {
  const used = new Set<number>();
  let hit = 0;
  for (const t of truth) {
    const tb = { left: t.left * k, top: t.top * k, width: t.width * k, height: t.height * k };
    let best = -1;
    let bestIou = 0.3;
    dets.forEach((d, i) => {
      const v = iou(tb, d.box);
      if (!used.has(i) && v >= bestIou) [best, bestIou] = [i, v];
    });
    if (best >= 0) {
      used.add(best);
      hit++;
    }
  }
  return { hit, fp: dets.length - used.size };
}

async function faces(dir: string): Promise<void> {
  const models = [
    { id: 'blazeface-back', size: 256, decode: decodeBlazefaceBack },
    { id: 'facemesh-detection-full', size: 192, decode: decodeFullRange },
  ];
  const scales = [1, 0.75, 0.5, 0.35, 0.25];
  const withFaces = truths.filter((t) => t.truth.faces?.length);
  const total = withFaces.reduce((n, t) => n + t.truth.faces!.length, 0);
  console.log(`\nFaces: ${total} ground-truth faces in ${withFaces.length} images; recall (IoU>=0.3) / false positives at score>=0.5`);
  console.log(`| model | ${scales.map((f) => `scale ${f}`).join(' | ')} | family_six_faces by scale |`);
  console.log(`|---|${scales.map(() => '---|').join('')}---|`);
  for (const m of models) {
    const { s, shape } = await session(dir, m.id);
    const cells: string[] = [];
    const family: string[] = [];
    for (const f of scales) {
      let hit = 0;
      let fp = 0;
      for (const t of truths) {
        const { data, k } = await letterbox(t.file, m.size, f, 1 / 127.5, -1);
        const dets = m.decode(await run(s, shape, data), 0.5);
        const r = matchFaces(t.truth.faces ?? [], dets, k);
        hit += r.hit;
        fp += r.fp;
        if (t.file === 'family_six_faces.jpg') family.push(`${r.hit}/6`);
      }
      cells.push(`${hit}/${total}, fp ${fp}`);
    }
    console.log(`| ${m.id} | ${cells.join(' | ')} | ${family.join(' ')} |`);
  }
}

async function objects(dir: string): Promise<void> {
  const models = [
    { id: 'centernet', input: (f: string) => stretch(f, 512, 1, 0), decode: decodeCenternet },
    { id: 'nanodet', input: (f: string) => stretch(f, 416, 1 / 255, 0, true), decode: decodeNanodet },
  ];
  console.log('\nObjects at score >= 0.3 (ground-truth COCO labels found; other labels listed)');
  for (const m of models) {
    const { s, shape } = await session(dir, m.id);
    let found = 0;
    let expected = 0;
    let others = 0;
    let ms = 0;
    const lines: string[] = [];
    for (const t of truths) {
      const data = await m.input(t.file);
      const t0 = performance.now();
      const out = await run(s, shape, data);
      ms += performance.now() - t0;
      const dets = m.decode(out, 0.3);
      const labels = dets.map((d) => `${coco[d.label!]}:${d.score.toFixed(2)}`);
      const want = (t.truth.objects ?? []).filter((o) => coco.includes(o));
      expected += want.length;
      const got = want.filter((o) => dets.some((d) => coco[d.label!] === o));
      found += got.length;
      others += dets.filter((d) => !want.includes(coco[d.label!]!)).length;
      lines.push(`  ${t.file}: want [${want.join(', ')}] got ${labels.slice(0, 6).join(' ')}`);
    }
    console.log(
      `${m.id}: ${found}/${expected} ground-truth labels, ${others} other detections, ${(ms / truths.length).toFixed(1)} ms/image`,
    );
    console.log(lines.join('\n'));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'picscan-models-'));
await faces(dir);
await objects(dir);
