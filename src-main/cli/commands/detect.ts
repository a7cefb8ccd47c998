import type { Command } from 'commander';
import { loadConfig } from '../../config';
import { AppError } from '../../core';
import { MIN_HEAD_SCALE, selectorList, type DetectRequest } from '../../shared/contract';
import { contractFlag, imageArgument, minHeadScaleFlag } from '../flags';
import { withBackend } from '../with-backend';
import { detectExitCode } from '../spec-exit-codes';

interface DetectFlags {
  minHeadScale?: string;
  selector?: string;
  maxFaces?: string;
  timings?: boolean;
  db?: string;
}

/**
 * Parses the options with the contract's detect schemas before any model loads: a bad value is
 * a bad command line (exit 2).
 */
function parseFlags(image: string, o: DetectFlags): { maxFaces: number; request: DetectRequest } {
  const maxFaces = Number(o.maxFaces);
  if (!Number.isInteger(maxFaces) || maxFaces < 1)
    throw new AppError('invalid-parameter', `--max-faces must be a positive integer, not "${o.maxFaces}".`);
  const selector = o.selector === undefined ? [] : contractFlag(selectorList, o.selector, '--selector');
  return {
    maxFaces,
    request: {
      image: imageArgument(image),
      minHeadScale: minHeadScaleFlag(o.minHeadScale),
      selector: selector.length > 0 ? selector : ['FRONTAL'],
    },
  };
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
    .argument('<image>', 'http(s) URL, file: URL or local path of an image, or - to read it from standard input')
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
      const { maxFaces, request } = parseFlags(image, o);
      let loadError: unknown;
      const options = { detect: { maxFaces, onLoadError: (err: unknown) => (loadError = err) } };
      await withBackend(loadConfig({ dbPath: o.db }), options, async (backend) => {
        const out = await backend.detect().detect(request);
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
