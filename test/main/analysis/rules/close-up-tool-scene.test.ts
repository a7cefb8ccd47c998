import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels } from '../../../../src-main/analysis';
import { decodeImage } from '../../../../src-main/inference';
import { repoRoot } from '../../../helpers/paths';
import { createEngine, runnerOf } from '../fixtures';

// A tool photographed close up fills the frame (CLOSE_UP_KINDS): the grey-blue table or ground
// around it is no sky and no water. Before tools were a close-up kind both photos below were
// "… outdoors" (the screwdriver tagged sky and outdoor). Real models, gcompris photographs.
const FEATURES = new Set(['Tags', 'Description'] as const);
const scene = (file: string): string => join(repoRoot, 'test/fixtures/scenes', file);

describe('close-ups of tools (real models)', () => {
  const engine = createEngine();
  const runModel = runnerOf(engine);
  afterAll(() => engine.dispose());

  it.each([
    ['tool_screwDriver1.jpg', /screwdriver/],
    ['tool_tweezer.jpg', /opener|tweezer|tool/],
  ])('%s is named, with no setting read from its background', async (file, name) => {
    const img = await decodeImage(new Uint8Array(readFileSync(scene(file))), { maxPixels: 1e7 });
    const { data } = await analyzePixels(img, FEATURES, new Set(), { runModel });
    const caption = data.description!.captions[0]!.text;
    const tags = new Map(data.tags!.map((t) => [t.name, t.confidence]));
    expect(caption).toMatch(name);
    expect(caption).not.toMatch(/outdoors|grassy|night/);
    for (const t of ['outdoor', 'sky']) expect(tags.get(t) ?? 0, t).toBeLessThan(0.5);
    expect(tags.get('tool') ?? 0).toBeGreaterThanOrEqual(0.5);
  });
});
