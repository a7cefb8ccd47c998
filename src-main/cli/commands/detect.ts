import type { Command } from 'commander';
import { loadConfig } from '../../config';
import { openDetectService } from '../../services/detect-open';
import { ExitCode } from '../exit-codes';

interface DetectFlags {
  minHeadScale?: string;
  selector?: string;
  maxFaces?: string;
  timings?: boolean;
}

/**
 * `picscan detect <url-or-file>`: the `ai/faces/detect` operation on one image; prints the
 * Kairos response JSON. A Kairos `{ Errors }` body (no faces, bad parameter, unreachable URL…)
 * is a normal result: exit 0. Model failures exit 1.
 */
export function registerDetect(program: Command): void {
  program
    .command('detect')
    .description('detect faces in one image (URL or file) and print the Kairos-style JSON response')
    .argument('<image>', 'http(s) URL, file: URL or local path of a JPG/PNG image')
    .option('--min-head-scale <n>', 'smallest face to find, as a fraction of the shorter side (0.015..0.5)', '0.015')
    .option('--selector <s>', 'FRONTAL (default), FULL, ROLL, PARTIAL; comma-separated to combine (e.g. frontal,roll)')
    .option('--max-faces <n>', 'answer 5010 (too many faces) above this many faces', '50')
    .option('--timings', 'print load/faces/total wall times (ms) to stderr')
    .action(async (image: string, o: DetectFlags) => {
      const maxFaces = Number(o.maxFaces);
      if (!Number.isInteger(maxFaces) || maxFaces < 1) {
        process.stderr.write(`picscan: --max-faces must be a positive integer, not "${o.maxFaces}"\n`);
        process.exitCode = ExitCode.usage;
        return;
      }
      const open = openDetectService(loadConfig(), { maxFaces });
      try {
        const out = await open.service.detect({ image, minHeadScale: o.minHeadScale, selector: o.selector });
        process.stdout.write(`${JSON.stringify(out.response, null, 2)}\n`);
        if (o.timings) process.stderr.write(`timings (ms): ${JSON.stringify(roundAll(out.timingsMs))}\n`);
        process.exitCode = ExitCode.ok;
      } finally {
        await open.close();
      }
    });
}

function roundAll(t: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)]));
}
