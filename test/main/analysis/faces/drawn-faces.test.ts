/**
 * Drawn human faces count as faces (docs/faces.md, "Drawn, painted and cartoon faces"): the
 * verification stage rejects non-human faces, not drawings. Shaded cartoon portraits of people
 * are reported; non-human cartoons (monkeys, cats, robots, smileys, skulls) never are
 * (negatives.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negativesDir, openFaceStack, type FaceStack } from './fixture-eval';

const drawnDir = join(negativesDir, 'drawn-human-faces');
const drawn = JSON.parse(readFileSync(join(drawnDir, 'manifest.json'), 'utf8')) as Array<{ file: string; shaded: boolean }>;

let stack: FaceStack;
beforeAll(() => {
  stack = openFaceStack(2);
});
afterAll(async () => stack?.close());

describe('drawn human faces (real models)', () => {
  it('reports the shaded cartoon portraits of people as faces', async () => {
    const shaded = drawn.filter((d) => d.shaded);
    expect(shaded.length).toBeGreaterThanOrEqual(3);
    for (const d of shaded) {
      const r = (await stack.service.detect({ image: join(drawnDir, d.file), selector: 'FULL' })).response;
      expect('images' in r ? r.images[0]!.faces.length : 0, d.file).toBeGreaterThanOrEqual(1);
    }
  });
});
