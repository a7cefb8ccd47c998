// To the photo-trained classifier a drawing looks like printed matter: drawn people were "a comic
// book" (tagged text too), a drawn hen "a jigsaw puzzle". On an image rated clip art those classes
// name the medium, not the subject (PRINTED_PICTURE_CLASSES). Real models on two Arts4Apps word
// pictures (test/fixtures/drawings, CC-BY-SA-3.0).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels } from '../../../../src-main/analysis';
import { decodeImage } from '../../../../src-main/inference';
import { repoRoot } from '../../../helpers/paths';
import { createEngine, runnerOf } from '../fixtures';

const FEATURES = new Set(['Tags', 'Description', 'ImageType'] as const);

describe('printed-picture classes on clip art (real models)', () => {
  const engine = createEngine();
  const runModel = runnerOf(engine);
  afterAll(() => engine.dispose());

  it.each(['arts4apps_man.jpg', 'arts4apps_chicken.jpg'])('%s is clip art, not a comic book or a jigsaw puzzle', async (file) => {
    const img = await decodeImage(new Uint8Array(readFileSync(join(repoRoot, 'test/fixtures/drawings', file))), { maxPixels: 1e7 });
    const { data } = await analyzePixels(img, FEATURES, new Set(), { runModel });
    const caption = data.description!.captions[0]!.text;
    const tags = new Map(data.tags!.map((t) => [t.name, t.confidence]));
    expect(data.imageType!.clipArtType).toBeGreaterThanOrEqual(2);
    expect(caption).toMatch(/^a clip art image/);
    expect(caption).not.toMatch(/comic book|jigsaw|puzzle/);
    for (const t of ['comic book', 'jigsaw puzzle', 'book jacket', 'text']) expect(tags.get(t) ?? 0, t).toBeLessThan(0.5);
  });
});
