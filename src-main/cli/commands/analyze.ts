import type { Command } from 'commander';
import { loadConfig } from '../../config';
import { buildEnvelope, localEnvelopeContext } from '../../services/analyze-envelope';
import { createBackend } from '../../app';
import { parseAnalyzeOptions } from '../../services/api';
import type { AnalyzeEnvelope } from '../../shared/spec';
import { AppError } from '../../core';
import { ExitCode } from '../exit-codes';
import { imageArgument } from '../flags';
import { analyzeFailureExitCode } from '../spec-exit-codes';

interface AnalyzeFlags {
  features?: string;
  feature?: string;
  details?: string;
  timings?: boolean;
  db?: string;
}

/**
 * `picscan analyze <url-or-file>`: the `ai/vision/analyze` operation on one image; prints the
 * spec §2.1 envelope JSON with local transaction/trace ids. Exit 0 when `status` is true; when the
 * envelope reports a failure, 2 for a bad command line (unknown feature or detail) and 1 for the
 * rest (unreachable image, not an image, too large, model error), with the reason on stderr.
 * Celebrities and landmarks come from the galleries of `--db` (default: the app database).
 */
export function registerAnalyze(program: Command): void {
  program
    .command('analyze')
    .description('analyze one image (URL or file): categories, tags, caption, faces, image type, adult, colour; prints the envelope JSON')
    .argument('<image>', 'http(s) URL, file: URL or local path of an image, or - to read it from standard input')
    .option('--features <list>', 'comma-separated: Categories, Tags, Description, Faces, ImageType, Adult, Color (default: all)')
    .option('--feature <list>', 'alternative spelling of --features')
    .option('--details <list>', 'comma-separated: Landmarks, Celebrities (default: both)')
    .option('--timings', 'print per-stage wall times (ms) to stderr')
    .option('--db <file>', 'database file whose galleries name celebrities and landmarks (default: the app-data database)')
    .action(async (image: string, o: AnalyzeFlags) => {
      const ctx = localEnvelopeContext();
      const backend = createBackend(loadConfig({ dbPath: o.db }));
      let analyzer;
      try {
        analyzer = backend.analyze(); // a missing model fails the command, not the envelope
      } catch (err) {
        await backend.close();
        throw err;
      }
      let envelope: AnalyzeEnvelope;
      let failure: unknown;
      try {
        const options = parseAnalyzeOptions({ features: o.features, feature: o.feature, details: o.details });
        const out = await analyzer.analyze(imageArgument(image), options);
        envelope = buildEnvelope({ data: out.data }, ctx);
        if (o.timings) process.stderr.write(`timings (ms): ${JSON.stringify(roundAll(out.timingsMs))}\n`);
      } catch (error) {
        failure = error;
        envelope = buildEnvelope({ error }, ctx);
      } finally {
        await backend.close();
      }
      process.stdout.write(`${JSON.stringify(envelope, null, 2)}\n`);
      if (failure instanceof AppError) process.stderr.write(`picscan: ${failure.message}\n`);
      process.exitCode = envelope.status ? ExitCode.ok : analyzeFailureExitCode(failure instanceof AppError ? failure.code : undefined);
    });
}

function roundAll(t: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v * 10) / 10]));
}
