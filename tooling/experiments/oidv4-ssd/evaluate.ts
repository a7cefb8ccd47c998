/**
 * Phase-1 measurement of oidv4-ssd on the 18 shared fixtures (tooling, not CI):
 *   npx tsx tooling/experiments/oidv4-ssd/evaluate.ts [--min 0.3]
 * Per image: the SSD's detections >= min (label, score, box in image px), the ground-truth
 * `objects` of the fixture manifest, and for comparison the app's CenterNet (letterboxed, as
 * src-main/analysis/objects) at the same threshold; plus one timed ORT inference (1 thread).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { centernetDecode } from '../../../src-main/analysis/objects/centernet';
import { imageInput, letterboxFit, letterboxTensor, loadManifest } from '../../../src-main/inference';
import { sigmoid } from '../../../src-main/inference/tensor';
import { fixturesDir } from '../../convert/fixtures';
import { convertSpec, labelsOf } from './build';
import { OIDV4_ANCHORS, decodeSsd, ssdAnchors } from './decode';
import { fixtureInput } from './inputs';
import { tfliteSpecs } from './specs';

interface Truth {
  file: string;
  width: number;
  height: number;
  truth: { objects?: string[] };
}

const minArg = process.argv.indexOf('--min');
const MIN = minArg >= 0 ? Number(process.argv[minArg + 1]) : 0.3;
/** Classes whose best anchor score is printed per image, whatever the threshold. */
const WATCH = ['Camera', 'Box', 'Mug', 'Coffee cup', 'Person', 'Footwear'];
const spec = tfliteSpecs.find((s) => s.id === 'oidv4-ssd')!;
const labels = labelsOf(spec);
const anchors = ssdAnchors(OIDV4_ANCHORS);
const truths = JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as Truth[];
const modelsDir = new URL('../../../models/', import.meta.url);

const opts = { intraOpNumThreads: 1, interOpNumThreads: 1 };

async function centernetLabels(centernet: ort.InferenceSession, t: Truth): Promise<string[]> {
  const { pre } = imageInput(loadManifest(new URL('manifest.json', modelsDir).pathname).models.get('centernet')!);
  const lb = letterboxFit(t.width, t.height, pre.size);
  const { data } = await sharp(join(fixturesDir, t.file))
    .removeAlpha()
    .toColourspace('srgb')
    .resize(lb.width, lb.height, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const input = letterboxTensor({ data: new Uint8Array(data), width: lb.width, height: lb.height }, pre);
  const out = await centernet.run({ input: new ort.Tensor('float32', input.data, input.dims) });
  const tensors = Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { data: v.data as Float32Array, dims: v.dims }]));
  return centernetDecode(tensors, t.width, t.height, { minScore: MIN, iouMax: 0.5, maxCount: 30 }).map(
    (d) => `${d.label} ${d.score.toFixed(2)}`,
  );
}

async function main(): Promise<void> {
  const ssd = await ort.InferenceSession.create(convertSpec(spec).bytes, opts);
  const centernet = await ort.InferenceSession.create(readFileSync(new URL('centernet.onnx', modelsDir)), opts);
  if (anchors.length !== 1917) throw new Error(`${anchors.length} anchors`);
  const shape = spec.input.shape;
  // Warm-up (session initialisation, first-run allocations) before timing.
  await ssd.run({ input: new ort.Tensor('float32', new Float32Array(shape.reduce((a, b) => a * b, 1)), shape) });
  const times: number[] = [];
  for (const t of truths) {
    const x = await fixtureInput(spec, t.file);
    const t0 = performance.now();
    const out = await ssd.run({ input: new ort.Tensor('float32', x, shape) });
    times.push(performance.now() - t0);
    const dets = decodeSsd(
      out['box_encodings']!.data as Float32Array,
      out['class_logits']!.data as Float32Array,
      anchors,
      labels.length,
      MIN,
    );
    const fmt = dets.map((d) => {
      const b = d.box;
      const [x0, y0] = [Math.round(b.left * t.width), Math.round(b.top * t.height)];
      const [w, h] = [Math.round(b.width * t.width), Math.round(b.height * t.height)];
      return `${labels[d.label]} ${d.score.toFixed(2)} [${x0},${y0},${w}x${h}]`;
    });
    const logits = out['class_logits']!.data as Float32Array;
    const best = WATCH.map((name) => {
      const c = labels.indexOf(name);
      let m = -Infinity;
      for (let i = 0; i < anchors.length; i++) m = Math.max(m, logits[i * labels.length + c]!);
      return `${name} ${sigmoid(m).toFixed(2)}`;
    });
    console.log(
      `| ${t.file} | ${(t.truth.objects ?? []).join(', ') || '-'} | ${fmt.join('; ') || '-'} | ${(await centernetLabels(centernet, t)).join('; ') || '-'} | ${best.join(', ')} | ${times.at(-1)!.toFixed(0)} |`,
    );
  }
  times.sort((a, b) => a - b);
  console.log(
    `oidv4-ssd ORT 1 thread: median ${times[times.length >> 1]!.toFixed(1)} ms, min ${times[0]!.toFixed(1)}, max ${times.at(-1)!.toFixed(1)} ms`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
