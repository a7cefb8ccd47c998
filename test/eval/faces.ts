/**
 * `npm run eval:faces`: recall/precision on the shared fixtures (facesComplete images), false
 * faces on face-free images, gender of the named people and per-image timings, for the default
 * selector (FRONTAL) and for FULL; false faces on the negative images (test/fixtures/negatives) per
 * split, the verification evidence (descriptor spread) the threshold was chosen on, and gender
 * and age at the `full` and `summary` attribute levels (attribute-levels.ts), then the gender
 * fusion's fit (both models' log-odds, the shipped weights, a refit and its leave-one-out count)
 * and the glasses rule's confusion on the labelled faces (attribute-fit.ts). Prints markdown
 * (copied into docs/benchmarks.md, "## Faces", and docs/faces.md, "Verification", "Gender", "Glasses").
 */
import { GENDER_LOGIT_CLIP } from '../../src-main/analysis/faces/attributes';
import { FACE_VERIFY_RULES } from '../../src-main/analysis/faces/face-verify';
import {
  evaluate,
  evaluateNegatives,
  loadFixtures,
  openFaceStack,
  type EvalSummary,
  type NegativeEval,
} from '../main/analysis/faces/fixture-eval';
import { collectEvidence, type CandidateEvidence } from '../main/analysis/faces/verification-evidence';
import { compareLevels, summarizeLevels, type LevelPair } from '../main/analysis/faces/attribute-levels';
import { collectAttributeFaces, genderFigures, sign, type GenderFace, type GlassesFace } from '../main/analysis/faces/attribute-fit';

const stack = openFaceStack(2);
const pct = (x: number): string => x.toFixed(3);

// The truth is pose-agnostic; the manifest notes mark profile faces, which FRONTAL leaves out by definition.
const profiles = new Set(
  loadFixtures()
    .filter((e) => /profile/i.test(e.notes ?? ''))
    .map((e) => e.file),
);

function print(label: string, s: EvalSummary): void {
  console.log(`\n### ${label}\n`);
  console.log(
    `recall ${pct(s.recall)} · precision ${pct(s.precision)} · false faces on face-free images ${s.falseFacesOnEmpty} · gender ${s.genderCorrect}/${s.genderTotal}`,
  );
  const scored = s.images.filter((i) => i.facesComplete && !profiles.has(i.file));
  const truth = scored.reduce((n, i) => n + i.truth, 0);
  console.log(`recall without the profile face (${[...profiles].join(', ')}): ${pct(scored.reduce((n, i) => n + i.matched, 0) / truth)}\n`);
  const conf = s.images.flatMap((i) => i.confidences).sort((a, b) => a - b);
  if (conf.length) console.log(`confidence of reported faces: min ${conf[0]!.toFixed(3)}, median ${conf[conf.length >> 1]!.toFixed(3)}\n`);
  console.log('| image | truth | found | matched | ms | gender (maleConfidence) | error |');
  console.log('|---|---:|---:|---:|---:|---|---|');
  for (const i of s.images) {
    const g = i.gender.map((x) => `${x.name}: ${x.got}${x.got === x.expected ? '' : ' ✗'} (${x.maleConfidence ?? '-'})`).join('; ');
    console.log(
      `| ${i.file}${i.facesComplete ? '' : ' (incomplete truth)'} | ${i.truth} | ${i.predicted} | ${i.matched} | ${Math.round(i.ms)} | ${g} | ${i.errCode ?? ''} |`,
    );
  }
  const glasses = s.images.flatMap((i) => i.glasses);
  const wrong = s.images.flatMap((i) =>
    i.glasses.filter((g) => g.got !== g.expected).map((g) => `${i.file}: ${g.got} (truth ${g.expected})`),
  );
  console.log(
    `\nglasses: ${glasses.length - wrong.length}/${glasses.length} correct${wrong.length ? ` — wrong: ${wrong.join('; ')}` : ''}`,
  );
  const timed = s.images.map((i) => i.ms).sort((a, b) => a - b);
  console.log(
    `per-image time: median ${timed[timed.length >> 1]!.toFixed(0)} ms, max ${timed[timed.length - 1]!.toFixed(0)} ms (detect service incl. decode)`,
  );
  const eyes = s.images.flatMap((i) => i.eyeErrors);
  if (eyes.length) console.log(`\neye error / inter-ocular distance: max ${Math.max(...eyes).toFixed(3)} over ${eyes.length} faces`);
}

function printNegatives(label: string, r: NegativeEval[]): void {
  console.log(`\n### Negative images, ${label}\n`);
  console.log('| split | images | images with a face | false faces | max confidence |');
  console.log('|---|---:|---:|---:|---:|');
  for (const split of ['tune', 'holdout'] as const) {
    const part = r.filter((i) => i.split === split);
    const conf = part.flatMap((i) => i.confidences);
    console.log(
      `| ${split} | ${part.length} | ${part.filter((i) => i.faces > 0).length} | ${conf.length} | ${conf.length ? Math.max(...conf).toFixed(2) : '-'} |`,
    );
  }
  const hit = r.filter((i) => i.faces > 0).map((i) => `${i.file} (${i.confidences.join(', ')})`);
  if (hit.length) console.log(`\nfalse faces: ${hit.join('; ')}`);
}

function printLevels(r: { fixtures: LevelPair[]; people: LevelPair[] }): void {
  console.log("\n### Gender and age by attribute level (analyze's search: minHeadScale 0.1, FRONTAL)\n");
  console.log(
    '`full`: faceres + gear on every face (detect); `summary`: gear on the two largest faces of an image, faceres alone beyond (analyze), so on single-face crops the levels agree. Age has no truth: the difference between the levels.\n',
  );
  console.log(
    '| faces | found | gender labelled | full right | summary right | unlabelled, levels disagree | age \\|Δ\\| median / p90 / max | age Δ mean (summary − full) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---|---:|');
  const wrong: string[] = [];
  for (const [label, pairs] of [
    ['fixture named faces', r.fixtures],
    ['people crops (named + visually labelled)', r.people],
  ] as const) {
    const s = summarizeLevels(pairs);
    const a = s.ageAbsDiff;
    console.log(
      `| ${label} | ${s.found} | ${s.labelled} | ${s.fullRight} | ${s.summaryRight} | ${s.unlabelledDisagreements} | ${a.median.toFixed(1)} / ${a.p90.toFixed(1)} / ${a.max.toFixed(1)} | ${a.meanSigned.toFixed(1)} |`,
    );
    wrong.push(...s.wrong);
  }
  if (wrong.length) console.log(`\nwrong at a level: ${wrong.join('; ')}`);
}

function printEvidence(ev: CandidateEvidence[]): void {
  console.log('\n### Verification evidence: faceres descriptor spread\n');
  console.log(
    `(candidates with detector ≥ 0.35 and face flag ≥ 0.2, FULL yaw range; threshold minDescriptorSpread ${FACE_VERIFY_RULES.minDescriptorSpread})\n`,
  );
  console.log('| candidates | n | spread min | median | max | face flag ≥ 0.8 | rejected by the spread rule |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const kind of ['face', 'hard face', 'tune', 'holdout'] as const) {
    const part = ev.filter((e) => e.kind === kind);
    const s = part.map((e) => e.spread).sort((a, b) => a - b);
    const label = kind === 'face' ? 'fixture truth faces' : kind === 'hard face' ? 'degraded truth faces' : `negatives, ${kind}`;
    if (!s.length) {
      console.log(`| ${label} | 0 | - | - | - | 0 | 0 |`);
      continue;
    }
    const rejected = part.filter((e) => e.spread < FACE_VERIFY_RULES.minDescriptorSpread).length;
    console.log(
      `| ${label} | ${s.length} | ${s[0]!.toFixed(2)} | ${s[s.length >> 1]!.toFixed(2)} | ${s[s.length - 1]!.toFixed(2)} | ${part.filter((e) => e.faceFlag >= 0.8).length} | ${rejected} |`,
    );
  }
  const lowFaces = ev
    .filter((x) => x.kind === 'hard face')
    .sort((a, b) => a.spread - b.spread)
    .slice(0, 5);
  for (const e of [...lowFaces, ...ev.filter((x) => x.kind === 'tune' || x.kind === 'holdout')]) {
    console.log(
      `- ${e.kind} ${e.file}: detector ${e.detectorScore.toFixed(2)}, flag ${e.faceFlag.toFixed(2)}, spread ${e.spread.toFixed(2)}`,
    );
  }
}

function median(v: readonly number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1]! : NaN;
}

function printGenderFit(faces: GenderFace[], labelled: number): void {
  console.log("\n### Gender fusion: fit over the labelled faces (analyze's search: minHeadScale 0.1, FRONTAL)\n");
  const women = faces.filter((f) => f.gender === 'F');
  const men = faces.filter((f) => f.gender === 'M');
  console.log(
    `${faces.length} of ${labelled} labelled faces found (${women.length} women, ${men.length} men; the fixtures' named persons and the people crops, attribute-levels.ts). L = each model's male log-odds clipped to ±${GENDER_LOGIT_CLIP}, as attributes.ts computes them; right = male probability ≥ 0.5 for a man. Refit: maximum-likelihood logistic regression (Newton, L2 0.01 on the weights); leave-one-out predicts each face by a fit without it.\n`,
  );
  const g = genderFigures(faces);
  console.log('| form | shipped | shipped right | refit | refit right | leave-one-out right |');
  console.log('|---|---|---:|---|---:|---:|');
  for (const r of g.rows) {
    const w = r.refit.weights;
    const refit =
      w.length === 2
        ? `${w[0]!.toFixed(2)} · L(faceres) + ${w[1]!.toFixed(2)} · L(gear) ${sign(r.refit.bias, 2)}`
        : `${w[0]!.toFixed(2)} · L(faceres) ${sign(r.refit.bias, 2)}`;
    console.log(`| ${r.form} | ${r.shipped} | ${r.shippedRight} | ${refit} | ${r.refitRight} | ${r.looRight} |`);
  }
  console.log(`| plain mean of the two log-odds | (L(faceres) + L(gear)) / 2 | ${g.meanRight} | - | - | - |`);
  console.log(
    `\nmedian L: faceres men ${median(men.map((f) => f.faceres)).toFixed(2)}, women ${median(women.map((f) => f.faceres)).toFixed(2)}; gear men ${median(men.map((f) => f.gear)).toFixed(2)}, women ${median(women.map((f) => f.gear)).toFixed(2)}. Women called men (L > 0): faceres ${women.filter((f) => f.faceres > 0).length}, gear ${women.filter((f) => f.gear > 0).length}; men called women (L < 0): faceres ${men.filter((f) => f.faceres < 0).length}, gear ${men.filter((f) => f.gear < 0).length}.`,
  );
  console.log(`faces whose re-run fusion differs from the search's own male probability by more than 0.001: ${g.searchMismatches}`);
  const wrong = faces
    .filter((f) => f.fusionMale >= 0.5 !== (f.gender === 'M') || f.faceresAloneMale >= 0.5 !== (f.gender === 'M'))
    .map(
      (f) =>
        `${f.label} (${f.gender}): L(faceres) ${f.faceres.toFixed(2)}, L(gear) ${f.gear.toFixed(2)}, fusion ${f.fusionMale.toFixed(2)}, faceres alone ${f.faceresAloneMale.toFixed(2)}`,
    );
  if (wrong.length) console.log(`\nwrong by a shipped form: ${wrong.join('; ')}`);
}

function printGlassesConfusion(faces: GlassesFace[]): void {
  console.log("\n### Glasses: the shipped rule on the labelled faces (analyze's search: minHeadScale 0.1, FRONTAL)\n");
  console.log(
    "Truth: `PEOPLE_GLASSES` (people crops, all of them) and `GLASSES_TRUTH` (the fixtures' named faces); rows truth, columns the rule's call.\n",
  );
  const kinds = ['None', 'Eye', 'Sun'] as const;
  const part = (label: string, set: GlassesFace[]): void => {
    const found = set.filter((f) => f.got);
    const bare = found.filter((f) => f.truth === 'None');
    console.log(
      `${label}: right ${found.filter((f) => f.got === f.truth).length} of ${found.length} found; bare faces called "Eye" ${bare.filter((f) => f.got === 'Eye').length} of ${bare.length}`,
    );
  };
  console.log('| truth | labelled | not found | None | Eye | Sun |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const t of kinds) {
    const row = faces.filter((f) => f.truth === t);
    console.log(
      `| ${t} | ${row.length} | ${row.filter((f) => !f.got).length} | ${kinds.map((k) => row.filter((f) => f.got === k).length).join(' | ')} |`,
    );
  }
  console.log('');
  part('all', faces);
  part(
    'people crops',
    faces.filter((f) => f.set === 'people'),
  );
  part(
    "fixtures' named faces",
    faces.filter((f) => f.set === 'fixtures'),
  );
  const wrong = faces.filter((f) => f.got && f.got !== f.truth).map((f) => `${f.label}: ${f.got} (truth ${f.truth})`);
  if (wrong.length) console.log(`\nwrong: ${wrong.join('; ')}`);
}

try {
  // Warm the sessions so the first image's timing is not model loading.
  await evaluate(stack.service, { minHeadScale: 0.5 });
  print('FRONTAL (default), minHeadScale 0.015', await evaluate(stack.service));
  print('FULL, minHeadScale 0.015', await evaluate(stack.service, { selector: 'FULL' }));
  print('FULL + PARTIAL (occlusion-tolerant), minHeadScale 0.015', await evaluate(stack.service, { selector: ['full', 'partial'] }));
  printNegatives('FRONTAL (default), minHeadScale 0.015', await evaluateNegatives(stack.service));
  printNegatives('FULL, minHeadScale 0.015', await evaluateNegatives(stack.service, { selector: 'FULL' }));
  printEvidence(await collectEvidence(stack));
  printLevels(await compareLevels(stack.runner, stack.loader));
  const attributeFaces = await collectAttributeFaces(stack.runner, stack.loader);
  printGenderFit(attributeFaces.gender, attributeFaces.genderLabelled);
  printGlassesConfusion(attributeFaces.glasses);
} finally {
  await stack.close();
}
