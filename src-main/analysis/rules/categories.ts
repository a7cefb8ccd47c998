import type { Category, CategoryName } from '../../shared/spec';
import type { Evidence } from '../evidence';
import { CATEGORY_RULES } from './category-rules';
import { derive, type Derived } from './derive';
import { scoreProduct } from './score';

export { CATEGORY_NAMES, type CategoryName } from '../../shared/spec';

/** Categories are reported from this score up; below it the evidence is too weak. */
export const MIN_CATEGORY_SCORE = 0.4;
/** Groups whose generic parent (`group_`) exists in the taxonomy. */
const PARENTS = new Set(['abstract', 'animal', 'building', 'dark', 'drink', 'food', 'indoor', 'outdoor', 'people', 'plant', 'text']);

/**
 * Categories the rules derive from colour cues alone (green → grass, dark → dark_): scaled by
 * 1 − frameFill, since a thing filling the frame (a green apple, a black cat) is not a scene.
 */
export const COLOUR_SCENES: ReadonlySet<string> = new Set([
  'outdoor_grass',
  'outdoor_field',
  'plant_',
  'plant_tree',
  'plant_leaves',
  'plant_branch',
  'sky_cloud',
  'sky_sun',
  'dark_',
  'abstract_texture',
]);

/** Azure reports scores in 1/256 steps; we keep that granularity. */
export const SCORE_STEPS = 256;
const quantize = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * SCORE_STEPS) / SCORE_STEPS;
/** Score of the `others_` fallback when nothing qualifies (at least; its rule may score higher). */
export const OTHERS_FALLBACK_SCORE = 0.3;

/**
 * Scores every rule and the classifier's categories (max wins); a parent scores at least as high
 * as its best child.
 */
export function scoreCategories(e: Evidence, d: Derived = derive(e)): Map<CategoryName, number> {
  const scores = new Map<CategoryName, number>();
  const put = (name: CategoryName, s: number): void => {
    if (s > (scores.get(name) ?? 0)) scores.set(name, s);
  };
  for (const rule of CATEGORY_RULES) put(rule.name, scoreProduct(rule.score, e, d) * (COLOUR_SCENES.has(rule.name) ? 1 - d.frameFill : 1));
  for (const [name, s] of d.classes.categories) put(name, s);
  for (const [name, s] of [...scores]) {
    const group = name.slice(0, name.indexOf('_'));
    const parent = `${group}_` as CategoryName;
    if (name !== parent && PARENTS.has(group) && s >= MIN_CATEGORY_SCORE && s > (scores.get(parent) ?? 0)) scores.set(parent, s);
  }
  return scores;
}

/**
 * The Categories feature: taxonomy names scoring ≥ MIN_CATEGORY_SCORE, best first; `others_`
 * when nothing else qualifies, so the list is never empty.
 */
export function categorize(e: Evidence, d: Derived = derive(e)): Category[] {
  const scores = scoreCategories(e, d);
  const out = [...scores]
    .filter(([, s]) => s >= MIN_CATEGORY_SCORE)
    .sort((p, q) => q[1] - p[1])
    .map(([name, s]) => ({ name, score: quantize(s) }));
  return out.length ? out : [{ name: 'others_', score: quantize(Math.max(OTHERS_FALLBACK_SCORE, scores.get('others_') ?? 0)) }];
}
