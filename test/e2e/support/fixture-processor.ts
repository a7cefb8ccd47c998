import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from '../../../src-main/core';
import type { ImageProcessor } from '../../../src-main/jobs';
import type { AnalyzeData, Category } from '../../../src-main/shared';
import { fixturesDir } from '../../helpers/paths';

interface Truth {
  faces?: Array<{ left: number; top: number; width: number; height: number; name?: string }>;
  objects?: string[];
  isBW?: boolean;
  clipArt?: boolean | null;
  lineDrawing?: boolean | null;
  celebrity?: string;
}

const manifest = JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as Array<{ file: string; truth: Truth }>;

/** Fixture files with at least one face in their ground truth. */
export const FILES_WITH_FACES = manifest.filter((m) => (m.truth.faces ?? []).length > 0).map((m) => m.file);
export const FIXTURE_FILES = manifest.map((m) => m.file);

/**
 * The analysis step of the end-to-end tests. The UI's job is to show results, so the analysis
 * answers from the fixtures' ground truth (faces with their real boxes, names, objects as tags,
 * B&W, clip art, line drawings); everything before it (loopback HTTP, intake, decoding,
 * thumbnails, the batch pipeline and the store) is the real thing.
 */
export function fixtureProcessor(opts: { delayMs?: number } = {}): ImageProcessor {
  return {
    async process(image, _operation, signal) {
      // A little model-like time, so a batch is seen running (progress, rate, ETA) before it is done.
      if (opts.delayMs) await sleep(opts.delayMs, signal).catch(() => undefined);
      const truth = manifest.find((m) => m.file === image.fileName)?.truth ?? {};
      const words = image.fileName.replace(/\.\w+$/, '').split('_');
      const tags = [...new Set([...(truth.objects ?? []), ...words])].map((name, i) => ({
        name,
        confidence: Math.max(0.55, 0.95 - i * 0.05),
      }));
      const faces = (truth.faces ?? []).map((f, i) => ({
        age: 30 + i,
        gender: i % 2 ? ('Female' as const) : ('Male' as const),
        faceRectangle: { left: f.left, top: f.top, width: f.width, height: f.height },
      }));
      const celebrities = (truth.faces ?? [])
        .filter((f) => f.name)
        .map((f) => ({ name: f.name!, confidence: 0.9, faceRectangle: { left: f.left, top: f.top, width: f.width, height: f.height } }));
      const categories: Category[] = [
        faces.length
          ? { name: 'people_', score: 0.8, ...(celebrities.length ? { detail: { celebrities } } : {}) }
          : { name: truth.clipArt ? 'others_' : 'outdoor_', score: 0.6 },
      ];
      const data: AnalyzeData = {
        requestId: '00000000-0000-4000-8000-000000000000',
        metadata: image.metadata,
        tags,
        categories,
        description: { tags: words, captions: [{ text: `a picture of ${words.join(' ')}`, confidence: 0.7 }] },
        faces,
        adult: { isAdultContent: false, isRacyContent: false, adultScore: 0.01, racyScore: 0.02 },
        color: {
          dominantColorForeground: truth.isBW ? 'Black' : 'Brown',
          dominantColorBackground: truth.isBW ? 'White' : 'Blue',
          dominantColors: truth.isBW ? ['Black', 'White'] : ['Brown', 'Blue'],
          accentColor: truth.isBW ? '000000' : 'A05020',
          isBWImg: truth.isBW ?? false,
        },
        imageType: { clipArtType: truth.clipArt ? 3 : 0, lineDrawingType: truth.lineDrawing ? 1 : 0 },
      };
      return { kind: 'analyze', data };
    },
  };
}
