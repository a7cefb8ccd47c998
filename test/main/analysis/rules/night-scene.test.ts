import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels } from '../../../../src-main/analysis';
import { decodeImage } from '../../../../src-main/inference';
import { fixture, repoRoot } from '../../../helpers/paths';
import { createEngine, runnerOf } from '../fixtures';

// A dark photo is a night scene when its dark top is sky or it has point lights. A shaded forest
// has both to a colour-blind rule (a dark canopy at the top, sunlit leaves as bright specks), but
// its foliage keeps its green: at night a camera sees little chroma in leaves. Before the
// green-scene check the forest path below was "a dark scene at night" with night and sky 1.00.
const FEATURES = new Set(['Tags', 'Description', 'ImageType'] as const);
const scene = (file: string): string => join(repoRoot, 'test/fixtures/scenes', file);

describe('night scenes (real models)', () => {
  const engine = createEngine();
  const runModel = runnerOf(engine);
  afterAll(() => engine.dispose());

  async function analyse(path: string) {
    const img = await decodeImage(new Uint8Array(readFileSync(path)), { maxPixels: 1e7 });
    const { data } = await analyzePixels(img, FEATURES, new Set(), { runModel });
    return { caption: data.description!.captions[0]!.text, tags: new Map(data.tags!.map((t) => [t.name, t.confidence])) };
  }

  it('a dark forest in daylight is a green outdoor scene, not night, and its canopy is no sky', async () => {
    const { caption, tags } = await analyse(scene('forest_path_shade.jpg'));
    expect(caption).not.toMatch(/night|dark scene/);
    expect(tags.get('night') ?? 0).toBeLessThan(0.5);
    expect(tags.get('sky') ?? 0).toBeLessThan(0.5);
    expect(tags.get('outdoor') ?? 0).toBeGreaterThanOrEqual(0.9);
  });

  it('the rocket on its floodlit pad stays a night scene', async () => {
    const { caption, tags } = await analyse(fixture('rocket_launchpad.jpg'));
    expect(caption).toMatch(/at night$/);
    expect(tags.get('night') ?? 0).toBeGreaterThanOrEqual(0.5);
    expect(tags.get('sky') ?? 0).toBeGreaterThanOrEqual(0.5);
  });
});
