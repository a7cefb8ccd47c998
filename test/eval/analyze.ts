// `npm run eval:analyze`: runs every feature of analyze on the shared fixtures (files read and
// decoded by intake, as the CLI does) and prints accuracy figures, every caption and timings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { COCO80, IMAGENET_HIERARCHY } from '../../src-main/analysis';
import { InferenceEngine, loadManifest } from '../../src-main/inference';
import { createImageLoader, intakeOptions } from '../../src-main/intake';
import { analyzeModelsFromEngine, createAnalyzeService } from '../../src-main/services/analyze.service';
import { labelWord } from '../../src-main/analysis/rules';
import { fixture, repoRoot } from '../helpers/paths';
import { manifest } from '../main/analysis/fixtures';
import { accumulate, captionNamesObject, emptySummary, GENERIC_CAPTIONS, precision, ratio, recall, scoreTags } from './analyze-metrics';

const modelsDir = join(repoRoot, 'models');
const engine = new InferenceEngine(loadManifest(join(modelsDir, 'manifest.json')), { modelsDir, intraOpNumThreads: 2 });
const intake = intakeOptions('desktop');
const loader = createImageLoader(intake);
const service = createAnalyzeService({ ...analyzeModelsFromEngine(engine), loader });
const cocoWords = [...COCO80, ...COCO80.map(labelWord)];
/** COCO words plus the ImageNet classes' names and display words: every word that names a thing. */
const thingWords = [...cocoWords, ...IMAGENET_HIERARCHY.classes.slice(1).flatMap((c) => [c.name, ...(c.display ? [c.display] : [])])];
const things = { predicted: 0, correct: 0 };
const withObject = { named: 0, generic: 0, total: 0 };
/** Counts an image with an annotated object: does its caption name one, or say nothing? */
const countCaption = (counts: typeof withObject, caption: string, m: (typeof manifest)[number]): void => {
  if (!m.truth.objects?.length) return;
  counts.total++;
  if (captionNamesObject(caption, m)) counts.named++;
  if (GENERIC_CAPTIONS.has(caption)) counts.generic++;
};

// Load every model once so the first image's figures are not load times.
await service.analyze(fixture(manifest[0]!.file));

const summary = emptySummary();
const stageTimes: Record<string, number[]> = {};
const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
console.log('image | caption (confidence) | isBW clipArtType lineDrawing | faces found/truth | object tags: wrong / missed | ms');
for (const m of manifest) {
  const { data, timingsMs } = await service.analyze(fixture(m.file));
  const tags = accumulate(summary, data, m, cocoWords);
  const all = scoreTags(data, m, thingWords);
  things.predicted += all.predicted.length;
  things.correct += all.correct.length;
  countCaption(withObject, data.description!.captions[0]!.text, m);
  for (const [k, v] of Object.entries(timingsMs)) (stageTimes[k] ??= []).push(v);
  const cap = data.description!.captions[0]!;
  console.log(
    `${m.file} | "${cap.text}" (${cap.confidence.toFixed(2)}) | ${data.color!.isBWImg} ${data.imageType!.clipArtType} ${data.imageType!.lineDrawingType}` +
      ` | ${data.faces!.length}/${m.truth.faces.length} | ${tags.wrong.join(',') || '-'} / ${tags.missed.join(',') || '-'} | ${Math.round(timingsMs['total']!)}`,
  );
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log('\nSummary over', manifest.length, 'fixtures');
console.log(`isBW accuracy            ${pct(ratio(summary.isBW))} (${summary.isBW.right}/${summary.isBW.total}; target ≥ 95 %)`);
console.log(
  `clip-art accuracy        ${pct(ratio(summary.clipArt))} (${summary.clipArt.right}/${summary.clipArt.total}; clipArtType ≥ 2 vs manifest; target ≥ 85 %)`,
);
console.log(
  `line-drawing accuracy    ${pct(ratio(summary.lineDrawing))} (${summary.lineDrawing.right}/${summary.lineDrawing.total}; target ≥ 85 %)`,
);
console.log(`object-tag precision     ${precision(summary).toFixed(2)} (${summary.tags.correct}/${summary.tags.predicted}; target ≥ 0.8)`);
console.log(`object-tag recall        ${recall(summary).toFixed(2)} (${summary.tags.found}/${summary.tags.truth}; target ≥ 0.8)`);
console.log(
  `thing-tag precision      ${(things.correct / Math.max(1, things.predicted)).toFixed(2)} (${things.correct}/${things.predicted}; COCO and ImageNet words)`,
);
console.log(
  `caption names an object  ${pct(withObject.named / Math.max(1, withObject.total))} (${withObject.named}/${withObject.total} images with one; target ≥ 90 %)`,
);
console.log(`generic captions         ${withObject.generic} of ${withObject.total} images with an object (target 0)`);
console.log(`adult / racy false pos.  ${summary.adultFalsePositives} / ${summary.racyFalsePositives} (target 0)`);
console.log(`main subject in caption  ${pct(ratio(summary.subject))} (${summary.subject.right}/${summary.subject.total}; target ≥ 80 %)`);
console.log(`faces found / annotated  ${summary.faces.found} / ${summary.faces.truth}`);

// The same fixtures as the thumbnails URL lists often hold (THUMBNAIL_PX on the longer side, PNG):
// what holds at full size and what does not.
const THUMBNAIL_PX = 96;
const thumbDir = mkdtempSync(join(tmpdir(), 'picscan-thumbnails-'));
const thumbs = emptySummary();
const thumbObjects = { named: 0, generic: 0, total: 0 };
const thumbLines: string[] = [];
for (const m of manifest) {
  const file = join(thumbDir, `${m.file}.png`);
  // The smallest side intake accepts bounds the shorter side of a wide one (the text page).
  const scale = Math.max(THUMBNAIL_PX / Math.max(m.width, m.height), intake.minSidePx / Math.min(m.width, m.height));
  const [width, height] = [Math.round(m.width * scale), Math.round(m.height * scale)];
  await sharp(fixture(m.file)).rotate().resize(width, height, { fit: 'fill' }).png().toFile(file);
  const { data } = await service.analyze(file);
  const tags = accumulate(thumbs, data, m, cocoWords);
  thumbLines.push(`  ${m.file} (${width} × ${height}): "${data.description!.captions[0]!.text}"; missed ${tags.missed.join(',') || '-'}`);
  countCaption(thumbObjects, data.description!.captions[0]!.text, m);
}
rmSync(thumbDir, { recursive: true, force: true });
const of = (x: { right: number; total: number }): string => `${x.right}/${x.total}`;
console.log(`\nThumbnails (the same fixtures, ${THUMBNAIL_PX} px on the longer side, PNG)`);
console.log(`isBW / clip-art / line drawing right  ${of(thumbs.isBW)} / ${of(thumbs.clipArt)} / ${of(thumbs.lineDrawing)}`);
console.log(`object-tag precision / recall          ${precision(thumbs).toFixed(2)} / ${recall(thumbs).toFixed(2)}`);
console.log(
  `caption names an object / generic      ${thumbObjects.named} / ${thumbObjects.generic} of ${thumbObjects.total} images with one`,
);
console.log(`main subject in caption; faces found   ${of(thumbs.subject)}; ${thumbs.faces.found} / ${thumbs.faces.truth}`);
console.log(thumbLines.join('\n'));
console.log('\nMedian wall time per stage (ms; model stages run concurrently, so they overlap):');
console.log(
  Object.entries(stageTimes)
    .map(([k, v]) => `${k} ${median(v).toFixed(1)}`)
    .join(' | '),
);
await loader.close();
await engine.dispose();
