/**
 * Per-face CPU profile of analyze's face pipeline (docs/benchmarks.md "Per-face profile"):
 * `npx tsx test/main/analysis/faces/face-profile.ts [--rounds N]`.
 *
 * Runs the stages of `detectFacesInImage` one by one, as it does (analyze's search: minHeadScale
 * 0.1, FRONTAL), on `family_six_faces.jpg` and a 24-face photo composed from the people crops
 * like `npm run bench -- peers` (160 px tiles), and times each with `process.cpuUsage` (all
 * threads; the face models run at 1 intra-op thread as in the app). Model session time is taken
 * around `runner.run`, so a stage's "JS" part is its crop/resize (warp) and glue. Prints the
 * median over the rounds of each stage's CPU ms, per image and per face. Every stage of the `full`
 * attribute level runs; analyze's `summary` level is the same without the gear row.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gearWindow, req, runFaceresBatch } from '../../../../src-main/analysis/faces/attributes';
import { detectCandidates } from '../../../../src-main/analysis/faces/detector';
import { facePatch, laplacianStd } from '../../../../src-main/analysis/faces/face-patch';
import { meshBox, selectFaces } from '../../../../src-main/analysis/faces/face-filter';
import { descriptorSpread, verifyFace } from '../../../../src-main/analysis/faces/face-verify';
import { classifyGlasses, glassesFeatures } from '../../../../src-main/analysis/faces/glasses';
import { meshCandidates, MESH_MIN_SCORE } from '../../../../src-main/analysis/faces/landmarks';
import { eyeLineAngle, windowFromMesh } from '../../../../src-main/analysis/faces/mesh-align';
import { headPose, keyPoints, mouthOpening } from '../../../../src-main/analysis/faces/mesh-geometry';
import { faceQuality } from '../../../../src-main/analysis/faces/quality';
import { runOnWindows } from '../../../../src-main/analysis/faces/runner';
import { detectFacesInImage, searchLevels, selectorPlan, type FaceResult } from '../../../../src-main/analysis/faces';
import { faceEvidenceFromResults, toAnalyzeFaces } from '../../../../src-main/analysis/people';
import type { ModelRunner, RgbImage, TensorMap } from '../../../../src-main/inference';
import { composedGroupPhoto } from '../../../helpers/group-photo';
import { fixture } from '../../../helpers/paths';
import { openFaceStack } from './fixture-eval';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const ROUNDS = Number(arg('--rounds')) || 5;

/** CPU (user + system, all threads) and wall ms of one stage, summed over calls. */
interface Cost {
  cpu: number;
  wall: number;
}

// Model session time per model id (around runner.run), and crops run.
const sessions = new Map<string, Cost & { crops: number }>();
const stack = openFaceStack(2);
const runner: ModelRunner = {
  spec: (id) => stack.runner.spec(id),
  async run(id: string, feeds: TensorMap, signal?: AbortSignal) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    const out = await stack.runner.run(id, feeds, signal);
    const c = process.cpuUsage(c0);
    const s = sessions.get(id) ?? { cpu: 0, wall: 0, crops: 0 };
    s.cpu += (c.user + c.system) / 1000;
    s.wall += performance.now() - w0;
    s.crops += Object.values(feeds)[0]!.dims[0]!;
    sessions.set(id, s);
    return out;
  },
};

/** A composed group photo, decoded as the product decodes a file. */
async function groupPhoto(count: number, columns: number): Promise<RgbImage> {
  const path = join(mkdtempSync(join(tmpdir(), 'picscan-profile-')), 'group.jpg');
  writeFileSync(path, await composedGroupPhoto(count, columns));
  return (await stack.loader.load(path, undefined, { thumbnail: false })).image;
}

async function profile(img: RgbImage): Promise<{ stages: Map<string, Cost>; faces: number; candidates: number; meshCrops: number }> {
  const stages = new Map<string, Cost>();
  const timed = async <T>(name: string, f: () => T | Promise<T>): Promise<T> => {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    const r = await f();
    const c = process.cpuUsage(c0);
    const s = stages.get(name) ?? { cpu: 0, wall: 0 };
    s.cpu += (c.user + c.system) / 1000;
    s.wall += performance.now() - w0;
    stages.set(name, s);
    return r;
  };
  sessions.clear();
  const opts = { minHeadScale: 0.1, selector: selectorPlan(['FRONTAL']) };
  const candidates = await timed('search (blazeface windows)', () => detectCandidates(img, searchLevels(img, opts), runner));
  const meshed = await timed('facemesh, both passes', () => meshCandidates(img, candidates, runner, undefined, MESH_MIN_SCORE));
  const meshCrops = sessions.get('facemesh')?.crops ?? 0;
  const kept = await timed('selectFaces', () => selectFaces(meshed, opts.selector));
  const wins = await timed('face window', () =>
    kept.map((m) => {
      const kp = keyPoints(m.mesh);
      return windowFromMesh(m.mesh, eyeLineAngle(kp.rightEye, kp.leftEye), 1);
    }),
  );
  const faceres = await timed('faceres', () => runFaceresBatch(img, wins, runner));
  const verdicts = await timed('verification', () =>
    kept.map((m, i) =>
      verifyFace({
        detectorScore: m.candidate.score,
        faceFlag: m.faceScore,
        descriptorSpread: descriptorSpread(req(faceres[i]!, 'descriptor')),
      }),
    ),
  );
  const ok = kept.filter((_, i) => verdicts[i]!.accepted);
  const okWins = wins.filter((_, i) => verdicts[i]!.accepted);
  await timed('gear', () => runOnWindows(runner, 'gear', img, okWins.map(gearWindow)));
  await timed('emotion', () => runOnWindows(runner, 'emotion', img, okWins));
  for (const [i, m] of ok.entries()) {
    const kp = await timed('describe: keyPoints', () => keyPoints(m.mesh));
    const pose = await timed('describe: headPose', () => headPose(m.mesh));
    const patch = await timed('describe: facePatch (96 px luma warp)', () => facePatch(img, okWins[i]!));
    const box = await timed('describe: meshBox', () => meshBox(m.mesh));
    const sharp = await timed('describe: laplacianStd', () => laplacianStd(patch));
    await timed('describe: quality', () =>
      faceQuality({ sidePx: box.width, sharpness: sharp, yawDeg: pose.yaw, pitchDeg: pose.pitch, confidence: 1 }),
    );
    await timed('describe: glasses', () => classifyGlasses(glassesFeatures(patch, m.mesh), pose.yaw));
    await timed('describe: lips, roll', () => [mouthOpening(m.mesh), eyeLineAngle(kp.rightEye, kp.leftEye)]);
  }
  // The whole pipeline once more, for the people adapters' input (and as a cross-check).
  const results: FaceResult[] = await detectFacesInImage(img, opts, stack.runner);
  await timed('people: evidence + analyze faces', () => toAnalyzeFaces(faceEvidenceFromResults(results), img.width, img.height));
  return { stages, faces: ok.length, candidates: candidates.length, meshCrops };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const images: Array<[string, RgbImage]> = [
  ['family_six_faces.jpg', (await stack.loader.load(fixture('family_six_faces.jpg'), undefined, { thumbnail: false })).image],
  ['group of 24 (composed)', await groupPhoto(24, 6)],
];
// Warm-up (session creation, arenas), then the rounds.
for (const [, img] of images) await profile(img);
for (const [name, img] of images) {
  const rounds: Array<{ stages: Map<string, Cost>; sessions: Map<string, Cost & { crops: number }> }> = [];
  let info = { faces: 0, candidates: 0, meshCrops: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const p = await profile(img);
    info = p;
    rounds.push({ stages: p.stages, sessions: new Map(sessions) });
  }
  const n = info.faces;
  console.log(`\n### ${name}: ${img.width}×${img.height}, ${info.candidates} candidates, ${info.meshCrops} facemesh crops, ${n} faces\n`);
  console.log('| stage | CPU ms (image) | CPU ms per face | of it model session |');
  console.log('|---|---:|---:|---:|');
  const modelOf: Record<string, string> = {
    'search (blazeface windows)': 'blazeface-back',
    'facemesh, both passes': 'facemesh',
    faceres: 'faceres',
    gear: 'gear',
    emotion: 'emotion',
  };
  let total = 0;
  for (const stage of rounds[0]!.stages.keys()) {
    const cpu = median(rounds.map((r) => r.stages.get(stage)?.cpu ?? 0));
    const model = modelOf[stage];
    const sess = model ? median(rounds.map((r) => r.sessions.get(model)?.cpu ?? 0)) : undefined;
    total += cpu;
    console.log(`| ${stage} | ${cpu.toFixed(2)} | ${(cpu / n).toFixed(2)} | ${sess === undefined ? '' : sess.toFixed(2)} |`);
  }
  console.log(`| **sum** | ${total.toFixed(1)} | ${(total / n).toFixed(2)} | |`);
}
await stack.close();
