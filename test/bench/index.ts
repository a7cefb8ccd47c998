// `npm run bench [-- name…]`: runs every bench file of this folder (or the named ones) in its own
// Node process, one after another, so memory and timings of one never leak into the next.
// Files starting with "_" are scratch files and are skipped.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
// Bench names come first; everything from the first `-`-flag on (e.g. `--rounds 3`) goes to every
// selected bench. A name that is no bench is an error, not a silent run of everything.
const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith('-'));
const wanted = firstFlag < 0 ? args : args.slice(0, firstFlag);
const passThrough = firstFlag < 0 ? [] : args.slice(firstFlag);
const benches = new Set(
  readdirSync(here)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.startsWith('_'))
    .map((f) => basename(f, '.ts')),
);
const unknown = wanted.filter((w) => !benches.has(w));
if (unknown.length > 0) {
  process.stderr.write(`unknown bench ${unknown.join(', ')}; benches: ${[...benches].sort().join(', ')}\n`);
  process.exit(2);
}
const files = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.startsWith('_'))
  .filter((f) => wanted.length === 0 || wanted.includes(basename(f, '.ts')))
  .sort();

let failed = 0;
for (const file of files) {
  process.stdout.write(`\n=== bench: ${basename(file, '.ts')} ===\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(here, file), ...passThrough], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    process.stdout.write(`bench ${file} failed (exit ${r.status ?? r.signal})\n`);
  }
}
process.exitCode = failed ? 1 : 0;
