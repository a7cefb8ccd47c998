import type { Command } from 'commander';
import { loadConfig } from '../../config';
import { AppError } from '../../core';
import { withBackend } from '../with-backend';
import { MIN_HEAD_SCALE, SELECTORS } from '../../shared/spec';
import { detectExitCode } from '../spec-exit-codes';

interface DetectFlags {
  minHeadScale?: string;
  selector?: string;
  maxFaces?: string;
  timings?: boolean;
  db?: string;
}

/** Checks the options before any model loads: a bad value is a bad command line (exit 2). */
function checkFlags(o: DetectFlags): number {
  const maxFaces = Number(o.maxFaces);
  if (!Number.isInteger(maxFaces) || maxFaces < 1)
    throw new AppError('invalid-parameter', `--max-faces must be a positive integer, not "${o.maxFaces}".`);
  const scale = Number(o.minHeadScale);
  if (!(scale >= MIN_HEAD_SCALE.min && scale <= MIN_HEAD_SCALE.max))
    throw new AppError(
      'invalid-parameter',
      `--min-head-scale must be from ${MIN_HEAD_SCALE.min} to ${MIN_HEAD_SCALE.max}, not "${o.minHeadScale}".`,
    );
  for (const s of (o.selector ?? '').split(',').map((x) => x.trim())) {
    if (s !== '' && !(SELECTORS as readonly string[]).includes(s.toUpperCase()))
      throw new AppError('invalid-parameter', `"${s}" is not a selector; use ${SELECTORS.join(', ')}.`);
  }
  return maxFaces;
}

/**
 * `picscan detect <url-or-file>`: the `ai/faces/detect` operation on one image; prints the
 * Kairos response JSON. Exit codes (README): 0 for faces or a spec-level answer ("no faces
 * found", "too many faces"), 1 when the image could not be used (unreachable, 404, not an image,
 * too large; the reason goes to stderr) or a model failed, 2 for a bad option.
 */
export function registerDetect(program: Command): void {
  program
    .command('detect')
    .description('detect faces in one image (URL or file) and print the Kairos-style JSON response')
    .argument('<image>', 'http(s) URL, file: URL or local path of a JPG/PNG image')
    .option(
      '--min-head-scale <n>',
      `smallest face to find, as a fraction of the shorter side (${MIN_HEAD_SCALE.min}..${MIN_HEAD_SCALE.max})`,
      String(MIN_HEAD_SCALE.default),
    )
    .option('--selector <s>', 'FRONTAL (default), FULL, ROLL, PARTIAL; comma-separated to combine (e.g. frontal,roll)')
    .option('--max-faces <n>', 'answer 5010 (too many faces) above this many faces', '50')
    .option('--timings', 'print load/faces/total wall times (ms) to stderr')
    .option('--db <file>', 'database file (default: the app-data database; detect reads no data from it)')
    .action(async (image: string, o: DetectFlags) => {
      const maxFaces = checkFlags(o);
      let loadError: unknown;
      const options = { detect: { maxFaces, onLoadError: (err: unknown) => (loadError = err) } };
      await withBackend(loadConfig({ dbPath: o.db }), options, async (backend) => {
        const out = await backend.detect().detect({ image, minHeadScale: o.minHeadScale, selector: o.selector });
        process.stdout.write(`${JSON.stringify(out.response, null, 2)}\n`);
        if (o.timings) process.stderr.write(`timings (ms): ${JSON.stringify(roundAll(out.timingsMs))}\n`);
        const errors = 'Errors' in out.response ? out.response.Errors : [];
        // The Kairos message is the reference's generic one; say what really happened.
        if (loadError instanceof AppError) process.stderr.write(`picscan: ${loadError.message}\n`);
        process.exitCode = detectExitCode(errors.map((e) => e.ErrCode));
      });
    });
}

function roundAll(t: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)]));
}
