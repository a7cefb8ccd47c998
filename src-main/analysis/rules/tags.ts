import type { Tag } from '../../shared/spec';
import type { Evidence } from '../evidence';
import type { CocoLabel } from '../objects/coco';
import type { Derived } from './derive';
import { ANIMALS, FOOD, VEHICLES, WORDING } from './vocab';

/** Tags below this confidence are not reported. */
export const MIN_TAG_CONFIDENCE = 0.3;
/** `description.tags` lists the tag names from this confidence up. */
export const DESCRIPTION_TAG_CONFIDENCE = 0.5;

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
const ramp = (x: number, lo: number, hi: number): number => clamp01((x - lo) / (hi - lo));

/** The tag word of a COCO label. */
export function labelWord(label: CocoLabel): string {
  return WORDING[label] ?? label;
}

/**
 * The Tags feature. Confidences are calibrated so ≥ 0.5 usually means present:
 * - objects: calibrated detector confidence (derive.ts `objectConfidence`), hypernyms (animal,
 *   vehicle, food) at 0.95 × the best member;
 * - classifier: specific names, display words and WordNet general tags (classes.ts), merged with
 *   the detector's words by maximum;
 * - people: person from faces or person boxes; man/woman per adult face (face × gender
 *   confidence), child for age < 13, group for ≥ 3 people, smiling and glasses from attributes;
 * - scene: ramps over the pixel cues (sky 0.1→0.3 of the image, vegetation 0.1→0.3, water
 *   0.15→0.35, snow 0.2→0.4 on outdoor photos only; sky, grass and tree × (1 − frameFill)),
 *   outdoor/indoor/night/text from derive.ts;
 * - style: drawing, clipart, black and white from the ImageType and Color evidence.
 */
export function buildTags(e: Evidence, d: Derived): Tag[] {
  const tags = new Map<string, number>();
  const put = (name: string, c: number): void => {
    if (c > (tags.get(name) ?? 0)) tags.set(name, c);
  };
  for (const [label, c] of d.labels) {
    put(labelWord(label), c);
    if (ANIMALS.has(label)) put('animal', 0.95 * c);
    if (VEHICLES.has(label)) put('vehicle', 0.95 * c);
    if (FOOD.has(label)) put('food', 0.95 * c);
  }
  for (const [word, c] of d.classes.words) put(word, c);
  if (d.persons > 0 || d.personConf > 0) put('person', d.personConf);
  for (const f of e.faces) {
    const c = f.confidence;
    put('human face', c);
    if (f.age < 13) put('child', c * 0.85);
    else if (f.age >= 18) put(f.gender === 'Male' ? 'man' : 'woman', c * f.genderConfidence);
    if (f.smiling) put('smiling', c * 0.75);
    if (f.glasses) put('glasses', c * 0.8);
  }
  if (d.persons >= 3) put('group', 0.6 + 0.05 * Math.min(d.persons, 7));
  const photo = 1 - d.drawing;
  // Colour-only scene words give way to a thing that fills the frame.
  const open = photo * (1 - d.frameFill);
  const s = e.scene;
  put('outdoor', d.outdoor);
  put('indoor', d.indoor);
  put('sky', open * ramp(d.sky, 0.1, 0.3));
  put('grass', open * ramp(s.vegetation, 0.1, 0.3));
  put('tree', open * ramp(s.vegetation, 0.15, 0.35) * ramp(d.sky, 0.03, 0.15));
  put('water', photo * ramp(s.water, 0.15, 0.35));
  put('snow', photo * ramp(s.snow, 0.2, 0.4) * (d.outdoor >= 0.5 ? 1 : 0));
  put('night', d.night);
  put('text', d.text);
  put('drawing', d.lineDrawing ? 0.9 : d.clipArt ? 0.55 : 0);
  put('clipart', [0, 0.35, 0.7, 0.9][e.imageType.clipArtType] ?? 0);
  put('black and white', e.color.isBWImg ? 0.9 : 0);
  return [...tags]
    .filter(([, c]) => c >= MIN_TAG_CONFIDENCE)
    .sort((p, q) => q[1] - p[1] || p[0].localeCompare(q[0]))
    .map(([name, c]) => ({ name, confidence: Math.round(c * 10000) / 10000 }));
}
