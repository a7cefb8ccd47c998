// The WordNet-generated ImageNet hierarchy: known classes land on the expected words and
// categories (regeneration from WordNet is checked by the tooling package: npm run test:models).
import { describe, expect, it } from 'vitest';
import { CATEGORY_NAMES } from '../../../../src-main/analysis';
import { IMAGENET_HIERARCHY, type ImagenetClass } from '../../../../src-main/analysis/classifier/hierarchy';

const byName = (name: string): ImagenetClass => {
  const c = IMAGENET_HIERARCHY.classes.find((x) => x.name === name);
  if (!c) throw new Error(`no class ${name}`);
  return c;
};
/** Every word a class contributes: specific name, display word and general tags. */
const words = (c: ImagenetClass): string[] => [c.name, ...(c.display ? [c.display] : []), ...c.tags];

describe('ImageNet hierarchy (models/labels/imagenet-hierarchy.json)', () => {
  it('has the 1 001 outputs of the classifier, background first, and only taxonomy category names', () => {
    expect(IMAGENET_HIERARCHY.classes).toHaveLength(1001);
    expect(IMAGENET_HIERARCHY.classes[IMAGENET_HIERARCHY.background]!.name).toBe('background');
    const names = new Set<string>(CATEGORY_NAMES);
    for (const c of IMAGENET_HIERARCHY.classes) if (c.category) expect(names.has(c.category), c.name).toBe(true);
  });

  it.each([
    ['Granny Smith', 'apple', ['fruit', 'food'], 'food_'],
    ['tabby', 'cat', ['animal'], 'animal_cat'],
    ['Egyptian cat', 'cat', ['animal'], 'animal_cat'],
    ['golden retriever', 'dog', ['animal', 'mammal'], 'animal_dog'],
    ['church', 'church', ['building'], 'building_church'],
    ['sports car', 'car', ['vehicle'], 'trans_car'],
    ['school bus', 'bus', ['vehicle'], 'trans_bus'],
    ['mountain bike', 'bicycle', ['vehicle'], 'trans_bicycle'],
    ['sorrel', 'horse', ['animal'], 'animal_horse'],
    ['giant panda', 'panda', ['animal'], 'animal_panda'],
    ['baboon', 'monkey', ['primate', 'animal'], 'animal_'],
    ['admiral', 'butterfly', ['insect', 'animal'], 'animal_'],
    ['bee', 'bee', ['insect', 'animal'], 'animal_'],
    ['ladybug', 'ladybug', ['beetle', 'insect', 'animal'], 'animal_'],
    ['dung beetle', 'beetle', ['insect', 'animal'], 'animal_'],
    ['damselfly', 'dragonfly', ['insect', 'animal'], 'animal_'],
    ['leafhopper', 'insect', ['animal'], 'animal_'],
    ['stick insect', 'insect', ['animal'], 'animal_'],
    ['gorilla', 'gorilla', ['ape', 'primate', 'animal'], 'animal_'],
    ['gibbon', 'ape', ['primate', 'animal'], 'animal_'],
    ['hammerhead', 'shark', ['fish', 'animal'], 'animal_'],
    ['tench', 'fish', ['animal'], 'animal_'],
    ['fox squirrel', 'squirrel', ['rodent', 'animal'], 'animal_'],
    ['orange', 'orange', ['fruit', 'food'], 'food_'],
    ['French loaf', 'bread', ['food'], 'food_bread'],
    ['pizza', 'pizza', ['food'], 'food_pizza'],
    ['espresso', 'espresso', ['drink'], 'drink_'],
    ['daisy', 'flower', ['plant'], 'plant_flower'],
    ['lighthouse', 'lighthouse', ['building'], 'building_'],
    ['alp', 'mountain', ['outdoor'], 'outdoor_mountain'],
    ['laptop', 'laptop', ['computer'], 'object_screen'],
    ['eft', 'newt', ['amphibian', 'animal'], 'animal_'],
    ['axolotl', 'salamander', ['amphibian', 'animal'], 'animal_'],
    ['indri', 'lemur', ['primate', 'animal'], 'animal_'],
  ])('%s → %s, %j, %s', (name, display, tags, category) => {
    const c = byName(name);
    expect(c.display ?? c.name).toBe(display);
    expect(words(c)).toEqual(expect.arrayContaining(tags));
    expect(c.category).toBe(category);
  });

  it.each([
    ['rose hip', 'rose hip', ['fruit']],
    ['ear of corn', 'corn', ['plant']],
    ['baby bottle nipple', 'baby bottle', []],
    ['storage chest', 'storage chest', []],
    ['pipe organ', 'pipe organ', ['musical instrument']],
    ["carpenter's plane", "carpenter's plane", ['tool']],
    ['amphibious vehicle', 'amphibious vehicle', ['vehicle']],
    ['ring-tailed lemur', 'lemur', ['primate', 'animal']],
    ['filing cabinet', 'filing cabinet', ['furniture']],
    ['jeans', 'jeans', ['clothing']],
  ])('names %s, whose first lemma reads as something else in a caption, %s', (name, display, tags) => {
    const c = byName(name);
    expect(c.display ?? c.name).toBe(display);
    expect(words(c)).toEqual(expect.arrayContaining(tags));
    expect(
      IMAGENET_HIERARCHY.classes.some((x) =>
        ['hip', 'ear', 'nipple', 'chest', 'organ', 'plane', 'amphibian', 'file', 'swab', 'jean'].includes(x.display ?? x.name),
      ),
    ).toBe(false);
  });

  it('tells the two "maillot" lines apart by the whole line, and names the groom class by the suit its photos show', () => {
    expect(IMAGENET_HIERARCHY.classes.filter((c) => c.name === 'maillot' || c.name === 'groom')).toEqual([]);
    expect(words(byName('tights'))).toContain('clothing');
    expect(words(byName('swimsuit'))).toContain('clothing');
    const suits = IMAGENET_HIERARCHY.classes.filter((c) => c.name === 'suit');
    expect(suits).toHaveLength(2);
    for (const c of suits) expect(c.display ?? c.name).toBe('suit');
  });

  it('shows the tusker as an elephant', () => {
    expect(byName('tusker').display).toBe('elephant');
  });

  it('tells the crane bird from the crane machine by WordNet order', () => {
    const cranes = IMAGENET_HIERARCHY.classes.filter((c) => c.name === 'crane');
    expect(cranes.map((c) => c.tags.includes('animal'))).toEqual([true, false]);
  });
});
