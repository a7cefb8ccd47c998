// `npm run bench -- ui [--rounds N]`: the results view with 100 000 stored items in web mode,
// driven in Debian's Chromium by test/e2e/results-100k.test.ts (ten filter changes per round,
// default 3 rounds). Prints the best round's times and judges them against the target of
// issue 10: a filter change shows the new results in ≤ 200 ms (the median of a round).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/paths';

const TARGET_MS = 200;
const roundsFlag = process.argv.indexOf('--rounds');
const rounds = roundsFlag >= 0 ? Number(process.argv[roundsFlag + 1]) : 3;
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write('--rounds must be a positive integer\n');
  process.exit(2);
}

const run = spawnSync(
  process.execPath,
  [
    join(repoRoot, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    'test/vitest.config.ts',
    '--project',
    'e2e',
    'test/e2e/results-100k.test.ts',
  ],
  {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PICSCAN_UI_BENCH_ROUNDS: String(rounds), PICSCAN_REQUIRE_BROWSER: '1' },
  },
);
if (run.status !== 0) {
  process.stderr.write(`the results-view run failed (exit ${run.status ?? run.signal}); see its output above\n`);
  process.exit(1);
}

interface Summary {
  items: number;
  rounds: number;
  roundMediansMs: number[];
  medianMs: number;
  p90Ms: number;
  maxMs: number;
  facetsMedianMs: number;
  runs: Array<{ step: string; resultsMs: number; facetsMs: number; total: string }>;
}
const summary = JSON.parse(readFileSync(join(repoRoot, 'test-results', 'ui-bench.json'), 'utf8')) as Summary;
console.log(
  `results view, ${summary.items.toLocaleString('en')} items, ${summary.rounds} rounds (round medians ${summary.roundMediansMs.join(', ')} ms); best round:`,
);
console.log('step                     results shown (ms)  facets in (ms)  total');
for (const r of summary.runs)
  console.log(`${r.step.padEnd(24)} ${String(r.resultsMs).padStart(18)} ${String(r.facetsMs).padStart(15)}  ${r.total}`);
console.log(
  `median / p90 / max: ${summary.medianMs} / ${summary.p90Ms} / ${summary.maxMs} ms (facets median ${summary.facetsMedianMs} ms)`,
);
const met = summary.medianMs <= TARGET_MS;
console.log(`target: median ≤ ${TARGET_MS} ms: ${met ? 'met' : 'MISSED'}`);
process.exitCode = met ? 0 : 1;
