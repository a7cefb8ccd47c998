import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { loadConfig } from '../../../src-main/config';
import { AppError, sleep } from '../../../src-main/core';
import { intakeOptions, type IntakeOptions } from '../../../src-main/intake';
import { createIntakeFetcher, type ImageProcessor } from '../../../src-main/jobs';
import { BatchService, type BatchServiceDeps } from '../../../src-main/services/batches.service';
import type { BatchOptions } from '../../../src-main/shared/batch';
import type { AnalyzeData } from '../../../src-main/shared/spec';
import type { Db } from '../../../src-main/store';
import type { FixtureServer } from '../../helpers/http-server';
import { fixture, fixturesDir } from '../../helpers/paths';

interface ManifestEntry {
  file: string;
  truth: { faces?: unknown[]; isBW?: boolean; clipArt?: boolean; lineDrawing?: boolean };
}

/** Fixture images with their ground truth. */
export const manifest: ManifestEntry[] = JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as ManifestEntry[];

/** Test processor: real decoded metadata, everything else derived from the file name and manifest. */
export function fakeProcessor(
  opts: { delayMs?: number; onProcess?: (sha256: string, url: string) => void; failOn?: RegExp } = {},
): ImageProcessor & {
  calls: string[];
} {
  const calls: string[] = [];
  return {
    calls,
    async process(image, operation, signal) {
      calls.push(image.sha256);
      opts.onProcess?.(image.sha256, image.source);
      if (opts.delayMs) await sleep(opts.delayMs, signal).catch(() => {});
      if (opts.failOn?.test(image.source)) throw new AppError('model-failed', 'The model failed on this image.');
      const truth = manifest.find((m) => m.file === image.fileName)?.truth;
      const words = image.fileName.replace(/\.\w+$/, '').split('_');
      if (operation.kind === 'detect') return { kind: 'detect', response: { Errors: [{ Message: 'no faces', ErrCode: 5002 }] } };
      const data: AnalyzeData = {
        requestId: '00000000-0000-4000-8000-000000000000',
        metadata: image.metadata,
        tags: words.map((name, i) => ({ name, confidence: 0.9 - i * 0.1 })),
        categories: [{ name: `${words[0]}_`, score: 0.8 }],
        description: { tags: words, captions: [{ text: `a picture of ${words.join(' ')}`, confidence: 0.7 }] },
        faces: (truth?.faces ?? []).map(() => ({
          age: 30,
          gender: 'Female' as const,
          faceRectangle: { left: 0, top: 0, width: 10, height: 10 },
        })),
        adult: { isAdultContent: false, isRacyContent: false, adultScore: 0.01, racyScore: words[0] === 'dancer' ? 0.6 : 0.02 },
        color: {
          dominantColorForeground: truth?.isBW ? 'Black' : 'Brown',
          dominantColorBackground: truth?.isBW ? 'White' : 'Green',
          dominantColors: truth?.isBW ? ['Black', 'White'] : ['Brown', 'Green'],
          accentColor: truth?.isBW ? '000000' : 'A05020',
          isBWImg: truth?.isBW ?? false,
        },
        imageType: { clipArtType: truth?.clipArt ? 3 : 0, lineDrawingType: truth?.lineDrawing ? 1 : 0 },
      };
      return { kind: 'analyze', data };
    },
  };
}

/** Every feature and detail, as the CLI's default. */
export const ANALYZE_ALL: BatchOptions['operation'] = {
  kind: 'analyze',
  features: ['Categories', 'Tags', 'Description', 'Faces', 'ImageType', 'Adult', 'Color'],
  details: ['Landmarks', 'Celebrities'],
};

export function batchOptions(extra: Partial<BatchOptions> = {}): BatchOptions {
  return { name: 'test', operation: ANALYZE_ALL, backend: { kind: 'local' }, downloadConcurrency: 8, analysisConcurrency: 2, ...extra };
}

/** A BatchService over `db` with the real intake fetcher (fast retries) and the given processor. */
export function makeService(
  db: Db,
  processor: ImageProcessor,
  intake: Partial<IntakeOptions> = {},
  deps: Partial<Pick<BatchServiceDeps, 'fetcher' | 'pixelBudget'>> = {},
): BatchService {
  const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-batch-')) }, {});
  const fetcher = createIntakeFetcher(
    intakeOptions('desktop', { retryBaseDelayMs: 5, maxRetryDelayMs: 50, totalTimeoutMs: 10_000, ...intake }),
  );
  return new BatchService({
    db,
    config,
    processor,
    fetcher,
    retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
    progressIntervalMs: 20,
    ...deps,
  });
}

export const listOf = (lines: string[]): Readable => Readable.from([lines.join('\n')]);

export { fixture };

/** Distinct synthetic PNGs, so no two items share bytes. */
export async function routeUniqueImages(s: FixtureServer, n: number, prefix = '/u'): Promise<string[]> {
  const urls: string[] = [];
  for (let i = 0; i < n; i++) {
    const body = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: i % 256, g: (i >> 8) % 256, b: 99 } } })
      .png()
      .toBuffer();
    s.route(`${prefix}/${i}.png`, { body });
    urls.push(s.url(`${prefix}/${i}.png`));
  }
  return urls;
}
