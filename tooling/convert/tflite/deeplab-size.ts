/**
 * Which input size DeepLab can run at (issue #19): the free-spatial graph (quantized.ts
 * `freeSpatial`) at 513 (the source size) and smaller 16k + 1 sizes, on the fixtures and the
 * labelled photos of eval:unseen. Per size: IoU of the main subject (the largest VOC thing at 513,
 * ≥ 1 % of the image) with the 513 mask, both compared on the 513 grid (nearest cell), also over
 * the images whose labels (fixture truth, unseen-photos.json words) name that VOC thing, pixel
 * agreement of the whole class map, and CPU time per run (process.cpuUsage, 1 thread, sizes
 * alternated image by image so shared load falls on all alike).
 *   npx tsx tooling/convert/tflite/deeplab-size.ts [--sizes 513,385,321,257] [--images N]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { cocoOfVoc } from '../../../src-main/analysis/subject/voc';
import { arg } from '../build';
import { fixturesDir } from '../fixtures';
import { convertQuantizedTflite } from './quantized';
import { loadCoral } from './quantized-build';
import { quantizedSpecs } from './quantized-specs';

const SOURCE = 513;
/** Main subject: the largest VOC thing covering at least this share of the 513 map. */
const MIN_SUBJECT = 0.01;

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Fixture images, then the labelled photos of eval:unseen that are installed, with the words naming their objects. */
function images(): { file: string; words: string[] }[] {
  const truth = JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as { file: string; truth: { objects?: string[] } }[];
  const files = readdirSync(fixturesDir)
    .filter((f) => /\.(jpe?g|png|webp)$/i.test(f))
    .sort()
    .map((f) => ({ file: join(fixturesDir, f), words: truth.find((t) => t.file === f)?.truth.objects ?? [] }));
  const labels = JSON.parse(readFileSync(join(repoRoot, 'test/eval/unseen-photos.json'), 'utf8')) as {
    packages: Record<string, { dir: string; env: string; photos: Record<string, string[]> }>;
  };
  for (const s of Object.values(labels.packages)) {
    const dir = process.env[s.env] ?? s.dir;
    for (const [p, objects] of Object.entries(s.photos))
      if (existsSync(join(dir, p))) files.push({ file: join(dir, p), words: objects.flatMap((o) => o.split('|')) });
  }
  return files;
}

async function pixels(file: string, size: number): Promise<Uint8Array> {
  // As the app decodes (src-main/inference/image.ts): transparency flattened onto white.
  const { data } = await sharp(file)
    .flatten({ background: { r: 255, g: 255, b: 255 } })
    .toColourspace('srgb')
    .resize(size, size, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

/** The class map at `size`, resampled (nearest cell) to the 513 grid. */
function onSourceGrid(m: BigInt64Array, size: number): Uint8Array {
  const out = new Uint8Array(SOURCE * SOURCE);
  for (let y = 0; y < SOURCE; y++) {
    const sy = Math.min(size - 1, Math.floor(((y + 0.5) * size) / SOURCE));
    for (let x = 0; x < SOURCE; x++)
      out[y * SOURCE + x] = Number(m[sy * size + Math.min(size - 1, Math.floor(((x + 0.5) * size) / SOURCE))]);
  }
  return out;
}

async function main(): Promise<void> {
  const sizes = (arg('--sizes') ?? '513,385,321,257').split(',').map(Number);
  if (sizes.some((s) => (s - 1) % 16 !== 0)) throw new Error('sizes must be 16k + 1');
  const spec = quantizedSpecs.find((s) => s.id === 'deeplabv3-pascal')!;
  const { graph } = convertQuantizedTflite(loadCoral(spec), {
    inputName: 'input',
    outputs: spec.outputs,
    mode: 'qlinear',
    freeSpatial: true,
  });
  const session = await ort.InferenceSession.create(graph.serialize({ docString: 'deeplab-size', props: {} }), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  const files = images().slice(0, Number(arg('--images') ?? Infinity));
  const stats = new Map(sizes.map((s) => [s, { cpu: [] as number[], iou: [] as number[], named: [] as number[], agree: [] as number[] }]));
  const run = async (file: string, size: number) => {
    const feed = new ort.Tensor('uint8', await pixels(file, size), [1, size, size, 3]);
    const c0 = process.cpuUsage();
    const out = await session.run({ input: feed });
    const c = process.cpuUsage(c0);
    return { map: onSourceGrid(out['classes']!.data as BigInt64Array, size), cpuMs: (c.user + c.system) / 1000 };
  };
  for (const s of sizes) await run(files[0]!.file, s); // warm-up per size
  let subjects = 0;
  let namedSubjects = 0;
  for (const { file, words } of files) {
    const maps = new Map<number, Uint8Array>();
    for (const s of sizes) {
      const r = await run(file, s);
      maps.set(s, r.map);
      stats.get(s)!.cpu.push(r.cpuMs);
    }
    const ref = maps.get(SOURCE) ?? maps.get(Math.max(...sizes))!;
    const counts = new Uint32Array(21);
    for (const k of ref) counts[k]!++;
    let main = 0;
    for (let k = 1; k < counts.length; k++) if (counts[k]! > (main ? counts[main]! : 0)) main = k;
    const hasSubject = main > 0 && counts[main]! / ref.length >= MIN_SUBJECT;
    const label = cocoOfVoc(main);
    const named = hasSubject && label !== undefined && words.includes(label);
    if (hasSubject) subjects++;
    if (named) namedSubjects++;
    const line: string[] = [];
    for (const s of sizes) {
      const m = maps.get(s)!;
      let inter = 0;
      let union = 0;
      let same = 0;
      for (let i = 0; i < m.length; i++) {
        if (m[i] === ref[i]) same++;
        const a = ref[i] === main;
        const b = m[i] === main;
        if (a && b) inter++;
        if (a || b) union++;
      }
      const st = stats.get(s)!;
      st.agree.push(same / m.length);
      if (hasSubject) st.iou.push(inter / union);
      if (named) st.named.push(inter / union);
      line.push(`${s}: ${hasSubject ? (inter / union).toFixed(3) : '  -  '} ${((100 * same) / m.length).toFixed(1)}%`);
    }
    process.stdout.write(
      `${file.split('/').slice(-2).join('/').padEnd(44)} ${hasSubject ? `main ${main}${named ? '*' : ' '}` : 'no subject'}  ${line.join('  ')}\n`,
    );
  }
  await session.release();
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1] ?? NaN;
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  process.stdout.write(
    `\n${files.length} images, ${subjects} with a main subject at ${SOURCE}, ${namedSubjects} of them a thing the labels name (*)\n`,
  );
  for (const [s, st] of stats) {
    const low = st.iou.filter((v) => v < 0.8).length;
    process.stdout.write(
      `${s}: CPU median ${median(st.cpu).toFixed(0)} ms; subject IoU mean ${mean(st.iou).toFixed(3)} median ${median(st.iou).toFixed(3)} min ${Math.min(...st.iou).toFixed(3)} (< 0.8: ${low}); named subjects mean ${mean(st.named).toFixed(3)} min ${Math.min(...st.named).toFixed(3)}; pixel agreement mean ${(100 * mean(st.agree)).toFixed(1)} %\n`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
