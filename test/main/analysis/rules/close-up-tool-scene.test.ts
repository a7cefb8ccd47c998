import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels } from '../../../../src-main/analysis';
import { decodeImage } from '../../../../src-main/inference';
import { repoRoot } from '../../../helpers/paths';
import { createEngine, runnerOf } from '../fixtures';

// A tool photographed close up fills the frame (CLOSE_UP_KINDS): the grey-blue table or ground
// around it is no sky and no water. Before tools were a close-up kind the first two photos below
// were "… outdoors" (the screwdriver tagged sky and outdoor); the tweezers' blue cloth stayed
// "water" 1.0 until the water tag gave way to close-up objects (Derived.objectFill). The hammer,
// 0.68 beside a hatchet but surely a tool (0.90 summed), was tagged snow 1.0, sky and outdoor on
// its white backdrop until a close-up kind's summed confidence filled the frame too. Real
// models, gcompris photographs and a product shot.
const FEATURES = new Set(['Tags', 'Description'] as const);
const scene = (file: string): string => join(repoRoot, 'test/fixtures/scenes', file);

describe('close-ups of tools (real models)', () => {
  const engine = createEngine();
  const runModel = runnerOf(engine);
  afterAll(() => engine.dispose());

  it.each([
    ['tool_screwDriver1.jpg', /screwdriver/],
    ['tool_tweezer.jpg', /opener|tweezer|tool/],
    ['product_hammer.jpg', /hammer/],
  ])('%s is named, with no setting read from its background', async (file, name) => {
    const img = await decodeImage(new Uint8Array(readFileSync(scene(file))), { maxPixels: 1e7 });
    const { data } = await analyzePixels(img, FEATURES, new Set(), { runModel });
    const caption = data.description!.captions[0]!.text;
    const tags = new Map(data.tags!.map((t) => [t.name, t.confidence]));
    expect(caption).toMatch(name);
    expect(caption).not.toMatch(/outdoors|grassy|night/);
    for (const t of ['outdoor', 'sky', 'water', 'snow']) expect(tags.get(t) ?? 0, t).toBeLessThan(0.5);
    expect(tags.get('tool') ?? 0).toBeGreaterThanOrEqual(0.5);
  });
});
