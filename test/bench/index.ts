// `npm run bench [-- name…]`: runs every bench file of this folder (or the named ones) in its own
// Node process, one after another, so memory and timings of one never leak into the next.
// Files starting with "_" are scratch files and are skipped.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
// Arguments naming a bench select it; the rest (e.g. `--rounds 3`) go to every selected bench.
const names = new Set(readdirSync(here).map((f) => basename(f, '.ts')));
const wanted = process.argv.slice(2).filter((a) => names.has(a));
const passThrough = process.argv.slice(2).filter((a) => !names.has(a));
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
