// The drawing vocabulary (analysis/drawings, rules/drawings.ts) on real drawings: Open Clip Art
// drawings of the held-out part (not in the table; test/fixtures/drawings, public domain),
// rendered here as eval:unseen renders them, through the real classifier and the whole analysis.
import { afterAll, describe, expect, it } from 'vitest';
import { analyzePixels, classifyWithFeatures } from '../../../../src-main/analysis';
import { DRAWING_TABLE, drawingVotes } from '../../../../src-main/analysis/drawings';
import { acceptedDrawingLabels } from '../../../../src-main/analysis/rules/drawings';
import type { VisualFeature } from '../../../../src-main/shared/spec';
import { renderDrawing } from '../../../helpers/render-drawing';
import { createEngine, decodeFixture, runnerOf } from '../fixtures';

const engine = createEngine();
const runModel = runnerOf(engine);
afterAll(() => engine.dispose());
const features = new Set<VisualFeature>(['Tags', 'Description', 'ImageType']);

describe('drawing vocabulary', () => {
  it('is a compact table of labelled reference drawings with WordNet hypernyms', () => {
    // 64-d int8 vectors, one label list per drawing; labels carry their hypernyms in the vocabulary.
    expect(DRAWING_TABLE.dims).toBe(64);
    expect(Buffer.from(DRAWING_TABLE.vectors, 'base64').length).toBe(DRAWING_TABLE.drawings.length * DRAWING_TABLE.dims);
    expect(DRAWING_TABLE.drawings.every((labels) => labels.length > 0)).toBe(true);
    const words = DRAWING_TABLE.vocabulary.map((l) => l.word);
    expect(new Set(words).size).toBe(words.length);
    const parents = (w: string): string[] => DRAWING_TABLE.vocabulary[words.indexOf(w)]!.parents.map((p) => words[p]!);
    expect(parents('beverage')).toContain('food');
    expect(parents('balloon')).toContain('vehicle');
  });

  it('names held-out drawings by their nearest reference drawings (balloon, clock, a drink, flags)', async () => {
    // The flags' keywords ("europe", "united_nations_member", "flag") once made the vocabulary vote
    // "member" and "continent"; the regions' flags are flags (tooling/drawings/vocabulary.ts).
    for (const [file, word] of [
      ['balloon-white-aj.svg', 'balloon'],
      ['clock07.svg', 'clock'],
      ['coffee_bw_ganson.svg', 'beverage'],
      ['ukraine.svg', 'flag'],
      ['australia_victoria.svg', 'flag'],
    ] as const) {
      const img = await renderDrawing(file);
      const [best] = acceptedDrawingLabels(drawingVotes((await classifyWithFeatures(img, runModel)).features!, DRAWING_TABLE));
      expect(best?.word, file).toBe(word);
      const { data } = await analyzePixels(img, features, new Set(), { runModel });
      expect(data.imageType!.clipArtType, file).toBeGreaterThanOrEqual(2);
      expect(data.description!.captions[0]!.text, file).toContain(word);
      expect(data.tags!.find((t) => t.name === word)?.confidence ?? 0, file).toBeGreaterThanOrEqual(0.5);
    }
  });

  it('names colouring-book pages of held-out drawings through its line-art rows', async () => {
    // The same drawings restyled as line art (white shapes, black outlines): their nearest colour
    // drawings are far (the classifier's features of an outline and of a coloured shape differ),
    // the line-art renderings of the reference drawings are near.
    expect(DRAWING_TABLE.lineArtFrom).toBeGreaterThan(0);
    expect(DRAWING_TABLE.lineArtFrom).toBeLessThan(DRAWING_TABLE.drawings.length);
    for (const [file, word] of [
      ['australia_victoria.svg', 'flag'],
      ['balloon-white-aj.svg', 'balloon'],
      ['clock07.svg', 'clock'],
    ] as const) {
      const img = await renderDrawing(file, { lineArt: true });
      const f = (await classifyWithFeatures(img, runModel)).features!;
      expect(acceptedDrawingLabels(drawingVotes(f, DRAWING_TABLE, { lineDrawing: true }))[0]?.word, file).toBe(word);
      // Without the line-art rows (as colour clip art is compared): not this word.
      expect(acceptedDrawingLabels(drawingVotes(f, DRAWING_TABLE))[0]?.word, file).not.toBe(word);
      const { data } = await analyzePixels(img, features, new Set(), { runModel });
      expect(data.imageType!.lineDrawingType, file).toBe(1);
      expect(data.description!.captions[0]!.text, file).toBe(`a ${word} drawn in black and white`);
    }
  });

  it('is not consulted on photos', async () => {
    // The cat photo's nearest reference drawings may vote for something; the pipeline asks the
    // vocabulary on drawings and clip art only, so its words stay out of the photo's tags.
    const cat = await decodeFixture('cat_chelsea.jpg');
    const votes = drawingVotes((await classifyWithFeatures(cat, runModel)).features!, DRAWING_TABLE);
    const loose = acceptedDrawingLabels(votes, { minShare: 0, minSimilarity: 0 }).map((v) => v.word);
    expect(loose.length).toBeGreaterThan(0);
    const { data } = await analyzePixels(cat, features, new Set(), { runModel });
    expect(data.description!.captions[0]!.text).toBe('a cat');
    const catTags = new Set(data.tags!.map((t) => t.name));
    const onlyDrawing = loose.filter((w) => !catTags.has(w));
    expect(onlyDrawing.length).toBeGreaterThan(0);
  });
});
