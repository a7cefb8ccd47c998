// What the rules make of segmented regions (DeepLab's subject evidence): a third opinion on COCO
// things, the furniture a thing rests on, and the frame a thing fills.
import { describe, expect, it } from 'vitest';
import { buildCaption, buildTags, derive, type Evidence } from '../../../../src-main/analysis';
import { scoreCategories } from '../../../../src-main/analysis/rules/categories';
import type { SubjectRegion } from '../../../../src-main/analysis/subject';
import { plainEvidence } from '../../../helpers/evidence';

const caption = (e: Evidence): string => {
  const d = derive(e);
  return buildCaption(e, d, scoreCategories(e, d)).text;
};
const region = (label: SubjectRegion['label'], share: number, left: number, top: number, width: number, height: number): SubjectRegion => ({
  label,
  share,
  box: { left, top, width, height },
});
const withRegions = (e: Evidence, regions: SubjectRegion[]): Evidence => ({
  ...e,
  subject: { regions, main: regions[0], roi: regions[0]?.box },
});

/** Plain evidence with one unsure detection (raw 0.3: some evidence, not "present"). */
const weak = (label: SubjectRegion['label'], left: number, top: number, width: number, height: number): Evidence => ({
  ...plainEvidence(),
  objects: [{ label, score: 0.3, box: { left, top, width, height } }],
});

describe('segmented regions in the rules', () => {
  it('names a segmented thing and the furniture it lies on', () => {
    // A dog lying on a sofa: the detector is unsure of the dog (raw 0.3) and misses the sofa.
    const e = withRegions(weak('dog', 150, 100, 250, 200), [
      region('couch', 0.4, 0, 120, 600, 280),
      region('dog', 0.15, 150, 100, 250, 200),
    ]);
    expect(caption(e)).toBe('a dog lying on a couch');
    const d = derive(e);
    expect(d.labels.get('dog')).toBeGreaterThan(0.7);
    expect(d.counts.get('dog')).toBe(1);
    expect(buildTags(e, d).map((t) => t.name)).toEqual(expect.arrayContaining(['dog', 'couch', 'animal']));
    // Beside the sofa, not on it: the dog, indoors (a sofa is indoor furniture).
    const apart = withRegions(weak('dog', 0, 100, 250, 200), [
      region('couch', 0.3, 300, 120, 300, 200),
      region('dog', 0.15, 0, 100, 250, 200),
    ]);
    expect(caption(apart)).toBe('a dog indoors');
    // DeepLab paints things it does not know as one of its 20 (a mug as a cat): a region nothing
    // else names is no opinion.
    const mug = withRegions(plainEvidence(), [region('cat', 0.4, 100, 50, 300, 300)]);
    expect(derive(mug).labels.has('cat')).toBe(false);
    expect(caption(mug)).not.toMatch(/cat/);
  });

  it('needs a region of a few per cent of the image, and agrees with the detector', () => {
    // Furniture counts alone, from a few per cent of the image.
    expect(derive(withRegions(plainEvidence(), [region('chair', 0.015, 0, 0, 60, 40)])).labels.get('chair')).toBeLessThan(0.5);
    expect(derive(withRegions(plainEvidence(), [region('chair', 0.1, 0, 0, 200, 120)])).labels.get('chair')).toBeGreaterThan(0.75);
    const weakCat = {
      ...plainEvidence(),
      objects: [{ label: 'cat' as const, score: 0.35, box: { left: 0, top: 0, width: 300, height: 300 } }],
    };
    const alone = derive(weakCat).labels.get('cat')!;
    const agreed = derive(withRegions(weakCat, [region('cat', 0.3, 0, 0, 300, 300)])).labels.get('cat')!;
    expect(alone).toBeLessThan(0.5);
    expect(agreed).toBeGreaterThan(0.85);
    // The detector's box is kept; the region adds no second located cat.
    expect(derive(withRegions(weakCat, [region('cat', 0.3, 0, 0, 300, 300)])).things).toHaveLength(1);
  });

  it('takes a thing that fills the frame for the subject, not the green around it', () => {
    const field = { ...plainEvidence(), scene: { ...plainEvidence().scene, vegetation: 0.6, sky: 0.3 } };
    expect(caption(field)).toBe('a grassy field');
    const sheep = withRegions({ ...field, objects: weak('sheep', 50, 20, 500, 360).objects }, [region('sheep', 0.55, 50, 20, 500, 360)]);
    expect(caption(sheep)).toMatch(/^a sheep/);
    expect(buildTags(sheep, derive(sheep)).map((t) => t.name)).not.toContain('grass');
    // People are counted from faces and person boxes, never from the mask.
    expect(derive(withRegions(plainEvidence(), [region('person', 0.5, 0, 0, 300, 400)])).persons).toBe(0);
  });
});
