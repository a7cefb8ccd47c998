/**
 * `npm run eval:faces`: recall/precision on the shared fixtures (facesComplete images), false
 * faces on face-free images, gender of the named people and per-image timings, for the default
 * selector (FRONTAL) and for FULL. Prints markdown (copied into docs/benchmarks.md, "## Faces").
 */
import { evaluate, loadFixtures, openFaceStack, type EvalSummary } from '../main/analysis/faces/fixture-eval';

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

try {
  // Warm the sessions so the first image's timing is not model loading.
  await evaluate(stack.service, { minHeadScale: 0.5 });
  print('FRONTAL (default), minHeadScale 0.015', await evaluate(stack.service));
  print('FULL, minHeadScale 0.015', await evaluate(stack.service, { selector: 'FULL' }));
  print('FULL + PARTIAL (occlusion-tolerant), minHeadScale 0.015', await evaluate(stack.service, { selector: ['full', 'partial'] }));
} finally {
  await stack.close();
}
