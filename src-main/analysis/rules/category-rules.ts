import type { Evidence } from '../evidence';
import type { CocoLabel } from '../objects/coco';
import type { CategoryName } from './categories';
import type { Derived } from './derive';
import { ANIMALS, FOOD, FURNITURE, SCREENS, SPORTS, STREET } from './vocab';

/** One category rule: a 0..1 score from the evidence. Several rules may feed one name (max wins). */
export interface CategoryRule {
  name: CategoryName;
  score(e: Evidence, d: Derived): number;
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
/** 0 below lo, 1 above hi, linear between. */
const ramp = (x: number, lo: number, hi: number): number => clamp01((x - lo) / (hi - lo));
const has = (d: Derived, label: CocoLabel): number => d.labels.get(label) ?? 0;
const anyOf = (d: Derived, set: ReadonlySet<CocoLabel>): number => Math.max(0, ...[...set].map((l) => has(d, l)));
const photo = (d: Derived): number => 1 - d.drawing;
/** Distinct confidently detected labels other than person. */
const objectKinds = (d: Derived): number => [...d.counts.keys()].filter((l) => l !== 'person').length;

/** Building evidence: long straight edges under a sky in an outdoor photo without a portrait subject. */
function building(e: Evidence, d: Derived): number {
  const s = e.scene;
  return (
    photo(d) * ramp(s.straightEdges, 0.05, 0.12) * Math.max(ramp(d.sky, 0.05, 0.2), 0.5 * d.outdoor) * (d.largestFaceShare > 0.05 ? 0.3 : 1)
  );
}

/**
 * The rule table. Every one of the 86 names has at least one rule (a test checks this). Object
 * rules use calibrated detector confidences; scene rules use the pixel cues of scene/cues.ts.
 */
export const CATEGORY_RULES: readonly CategoryRule[] = [
  // people_: faces and person boxes; sub-classes from face count, size and age.
  { name: 'people_', score: (_e, d) => d.personConf },
  {
    name: 'people_portrait',
    score: (_e, d) => (d.persons <= 2 && d.largestFaceShare > 0 ? d.personConf * ramp(d.largestFaceShare, 0.02, 0.06) : 0),
  },
  {
    name: 'people_group',
    score: (_e, d) => (d.persons >= 3 && d.persons <= 7 ? d.personConf * 0.9 : d.persons === 2 ? d.personConf * 0.5 : 0),
  },
  { name: 'people_many', score: (_e, d) => (d.persons >= 8 && d.persons <= 15 ? d.personConf * 0.85 : 0) },
  { name: 'people_crowd', score: (_e, d) => (d.persons > 15 ? d.personConf * 0.85 : 0) },
  { name: 'people_young', score: (_e, d) => (d.children > 0 && d.children >= d.persons / 2 ? d.personConf * 0.8 : 0) },
  { name: 'people_baby', score: (_e, d) => (d.babies > 0 ? d.personConf * 0.7 : 0) },
  { name: 'people_swimming', score: (e, d) => (d.persons > 0 ? d.personConf * ramp(e.scene.water, 0.2, 0.4) : 0) },
  { name: 'people_show', score: (e, d) => (d.persons > 0 ? d.personConf * d.night * ramp(e.scene.brightSpots, 0.01, 0.05) : 0) },
  // Hands: much skin and no face; tattoos: ink-like strokes on a skin-dominated image.
  { name: 'people_hand', score: (e, d) => (d.persons === 0 && d.labels.size === 0 ? photo(d) * ramp(e.scene.skin, 0.25, 0.5) * 0.7 : 0) },
  {
    name: 'people_tattoo',
    score: (e, d) =>
      d.personConf >= 0.5 && d.largestFaceShare < 0.02 ? ramp(e.scene.skin, 0.3, 0.5) * ramp(e.scene.textBlocks, 0.05, 0.15) * 0.6 : 0,
  },
  // animal_: COCO animals.
  { name: 'animal_', score: (_e, d) => anyOf(d, ANIMALS) },
  { name: 'animal_bird', score: (_e, d) => has(d, 'bird') },
  { name: 'animal_cat', score: (_e, d) => has(d, 'cat') },
  { name: 'animal_dog', score: (_e, d) => has(d, 'dog') },
  { name: 'animal_horse', score: (_e, d) => has(d, 'horse') },
  {
    name: 'animal_panda',
    score: (e, d) => has(d, 'bear') * (e.color.dominantColors.includes('Black') && e.color.dominantColors.includes('White') ? 0.9 : 0),
  },
  // building_: straight-edge structure outdoors; sub-classes by edge orientation, colour, context.
  { name: 'building_', score: (e, d) => building(e, d) },
  { name: 'building_arch', score: (e, d) => building(e, d) * ramp(e.scene.edges, 0.15, 0.3) * (e.chroma.p50 < 12 ? 0.9 : 0.4) },
  {
    name: 'building_brickwall',
    score: (e, d) =>
      photo(d) *
      ramp(e.scene.straightEdges, 0.08, 0.15) *
      (d.sky < 0.03 && ['Red', 'Brown', 'Orange'].includes(e.color.dominantColorBackground) ? 0.8 : 0),
  },
  { name: 'building_church', score: (e, d) => building(e, d) * (e.height > 1.2 * e.width ? 0.7 : 0) },
  { name: 'building_corner', score: (e, d) => building(e, d) * (d.sky > 0.1 && d.sky < 0.4 ? 0.6 : 0) },
  {
    name: 'building_doorwindows',
    score: (e, d) => photo(d) * (d.indoor < 0.5 ? 1 : 0) * ramp(e.scene.straightEdges, 0.12, 0.2) * (d.sky < 0.05 ? 0.7 : 0),
  },
  { name: 'building_pillar', score: (e, d) => building(e, d) * ramp(e.scene.verticalShare, 0.6, 0.75) },
  { name: 'building_stair', score: (e, d) => building(e, d) * ramp(1 - e.scene.verticalShare, 0.65, 0.8) },
  { name: 'building_street', score: (e, d) => building(e, d) * anyOf(d, STREET) },
  // dark_: dark photos; fire = warm glow, fireworks = colourful bright spots, light = other lights.
  { name: 'dark_', score: (e, d) => photo(d) * ramp(e.scene.dark, 0.4, 0.7) * (e.scene.brightness < 0.3 ? 1 : 0) },
  { name: 'dark_fire', score: (e, d) => d.night * ramp(e.scene.warmGlow, 0.04, 0.12) },
  { name: 'dark_fireworks', score: (e, d) => d.night * ramp(e.scene.brightSpots, 0.02, 0.06) * ramp(e.scene.colorfulness, 0.4, 0.7) },
  { name: 'dark_light', score: (e, d) => d.night * ramp(e.scene.brightSpots, 0.005, 0.03) * 0.8 },
  // drink_ / food_: COCO tableware and food.
  { name: 'drink_', score: (_e, d) => Math.max(has(d, 'cup'), has(d, 'wine glass'), has(d, 'bottle')) },
  { name: 'drink_can', score: (e, d) => canLike(e, d) },
  { name: 'food_', score: (_e, d) => anyOf(d, FOOD) },
  { name: 'food_bread', score: (_e, d) => Math.max(has(d, 'sandwich') * 0.7, has(d, 'donut') * 0.6) },
  { name: 'food_fastfood', score: (_e, d) => Math.max(has(d, 'hot dog'), has(d, 'sandwich') * 0.8, has(d, 'pizza') * 0.7) },
  {
    name: 'food_grilled',
    score: (e, d) => Math.max(has(d, 'hot dog') * 0.7, anyOf(d, FOOD) * (e.color.dominantColorForeground === 'Brown' ? 0.6 : 0)),
  },
  { name: 'food_pizza', score: (_e, d) => has(d, 'pizza') },
  // indoor_: furniture, screens, many goods, crowds in the dark, stained glass, ball sports.
  { name: 'indoor_', score: (_e, d) => d.indoor },
  { name: 'indoor_room', score: (_e, d) => Math.max(anyOf(d, FURNITURE) * 0.9, has(d, 'tv') * 0.8) * photo(d) * (d.outdoor < 0.5 ? 1 : 0) },
  { name: 'indoor_marketstore', score: (_e, d) => d.indoor * ramp(objectKinds(d), 4, 7) },
  { name: 'indoor_venue', score: (e, d) => d.indoor * (d.persons >= 5 ? 0.8 : 0) * (e.scene.brightness < 0.4 ? 1 : 0.6) },
  {
    name: 'indoor_court',
    score: (_e, d) => Math.max(d.indoor, 0.5) * anyOf(d, SPORTS) * (d.persons > 0 ? 0.9 : 0.5) * (d.outdoor < 0.5 ? 1 : 0),
  },
  {
    name: 'indoor_churchwindow',
    score: (e, d) =>
      photo(d) *
      (d.outdoor < 0.3 ? 1 : 0) *
      ramp(e.scene.dark, 0.3, 0.5) *
      ramp(e.scene.colorfulness, 0.6, 0.9) *
      (e.scene.brightSpots > 0.05 ? 0.8 : 0),
  },
  { name: 'indoor_doorwindows', score: (e, d) => d.indoor * ramp(e.scene.straightEdges, 0.1, 0.18) },
  // object_: screens; sculpture = a person shape without a face in a colourless photo.
  { name: 'object_screen', score: (_e, d) => anyOf(d, SCREENS) },
  {
    name: 'object_sculpture',
    score: (e, d) =>
      e.faces.length === 0 && has(d, 'person') >= 0.5 && e.chroma.p90 < 12 && !e.color.isBWImg ? has(d, 'person') * 0.7 : 0,
  },
  // outdoor_: sky, vegetation, water, snow and outdoor objects.
  { name: 'outdoor_', score: (_e, d) => d.outdoor },
  { name: 'outdoor_grass', score: (e, d) => photo(d) * ramp(e.scene.vegetation, 0.15, 0.35) },
  { name: 'outdoor_field', score: (e, d) => photo(d) * ramp(e.scene.vegetation, 0.3, 0.5) * ramp(d.sky, 0.05, 0.2) },
  { name: 'outdoor_water', score: (e, d) => photo(d) * ramp(e.scene.water, 0.15, 0.35) },
  {
    name: 'outdoor_waterside',
    score: (e, d) => photo(d) * ramp(e.scene.water, 0.08, 0.2) * Math.max(ramp(e.scene.vegetation, 0.05, 0.2), building(e, d)),
  },
  {
    name: 'outdoor_oceanbeach',
    score: (e, d) => photo(d) * ramp(e.scene.water, 0.15, 0.3) * ramp(d.sky, 0.1, 0.25) * ramp(e.scene.skin + e.scene.warmGlow, 0.05, 0.15),
  },
  {
    name: 'outdoor_pool',
    score: (e, d) => photo(d) * ramp(e.scene.water, 0.2, 0.4) * ramp(e.scene.straightEdges, 0.04, 0.1) * (d.sky < 0.1 ? 0.8 : 0.3),
  },
  {
    name: 'outdoor_mountain',
    score: (e, d) =>
      photo(d) *
      ramp(d.sky, 0.15, 0.3) *
      (e.scene.straightEdges < 0.04 ? 1 : 0) *
      ramp(e.scene.edges, 0.08, 0.16) *
      (d.persons === 0 && objectKinds(d) === 0 ? 0.7 : 0),
  },
  {
    name: 'outdoor_stonerock',
    score: (e, d) => d.outdoor * (e.chroma.p50 < 12 ? 1 : 0) * ramp(e.scene.edges, 0.15, 0.3) * (e.scene.straightEdges < 0.06 ? 0.8 : 0.3),
  },
  { name: 'outdoor_house', score: (e, d) => building(e, d) * ramp(e.scene.vegetation, 0.05, 0.2) },
  { name: 'outdoor_city', score: (e, d) => building(e, d) * Math.max(anyOf(d, STREET), ramp(e.scene.straightEdges, 0.12, 0.2)) },
  {
    name: 'outdoor_street',
    score: (e, d) =>
      photo(d) *
      Math.max(
        has(d, 'traffic light'),
        has(d, 'stop sign'),
        has(d, 'parking meter'),
        has(d, 'fire hydrant'),
        Math.min(has(d, 'car'), building(e, d) + 0.3),
      ),
  },
  {
    name: 'outdoor_road',
    score: (e, d) => photo(d) * Math.max(has(d, 'car'), has(d, 'truck'), has(d, 'bus')) * (d.sky > 0.05 || d.outdoor > 0.5 ? 0.9 : 0.5),
  },
  { name: 'outdoor_railway', score: (_e, d) => has(d, 'train') * 0.9 },
  { name: 'outdoor_sportsfield', score: (e, d) => anyOf(d, SPORTS) * ramp(e.scene.vegetation, 0.15, 0.35) },
  { name: 'outdoor_playground', score: (e, d) => (d.children > 0 ? d.outdoor * ramp(e.scene.vegetation, 0.1, 0.3) * 0.8 : 0) },
  // plant_: vegetation cues and potted plants.
  { name: 'plant_', score: (e, d) => Math.max(has(d, 'potted plant'), photo(d) * ramp(e.scene.vegetation, 0.25, 0.5)) },
  { name: 'plant_tree', score: (e, d) => photo(d) * ramp(e.scene.vegetation, 0.15, 0.35) * ramp(d.sky, 0.05, 0.15) },
  { name: 'plant_leaves', score: (e, d) => photo(d) * ramp(e.scene.vegetation, 0.5, 0.7) * ramp(e.scene.edges, 0.1, 0.2) },
  {
    name: 'plant_branch',
    score: (e, d) => photo(d) * ramp(e.scene.vegetation, 0.05, 0.2) * ramp(d.sky, 0.3, 0.5) * ramp(e.scene.edges, 0.08, 0.15),
  },
  {
    name: 'plant_flower',
    score: (e, d) =>
      Math.max(has(d, 'vase') * 0.8, has(d, 'potted plant') * 0.5) *
      (['Red', 'Pink', 'Purple', 'Yellow'].includes(e.color.dominantColorForeground) ? 1 : 0.5),
  },
  // sky_ (no parent in the taxonomy): clouds, objects against the sky, the sun.
  {
    name: 'sky_cloud',
    score: (e, d) =>
      photo(d) *
      ramp(d.sky, 0.2, 0.4) *
      ramp(e.scene.skyGrey / Math.max(e.scene.sky, 1e-6), 0.2, 0.5) *
      (e.scene.sky - e.scene.skyGrey > 0.05 ? 1 : 0.6),
  },
  {
    name: 'sky_object',
    score: (e, d) => photo(d) * ramp(d.sky, 0.3, 0.5) * Math.max(has(d, 'airplane'), has(d, 'kite'), has(d, 'bird')),
  },
  { name: 'sky_sun', score: (e, d) => photo(d) * ramp(d.sky, 0.15, 0.3) * ramp(e.scene.warmGlow, 0.03, 0.1) },
  // text_: text-like block cue; sub-classes from context.
  { name: 'text_', score: (_e, d) => d.text },
  { name: 'text_sign', score: (e, d) => Math.max(has(d, 'stop sign'), d.text * (d.outdoor > 0.4 ? 0.9 : 0)) },
  { name: 'text_mag', score: (e, d) => d.text * (d.persons > 0 ? 0.8 : 0) * ramp(e.scene.colorfulness, 0.3, 0.5) },
  { name: 'text_map', score: (e, d) => d.text * ramp(e.scene.colorfulness, 0.4, 0.6) * (d.persons === 0 ? 0.7 : 0) },
  { name: 'text_menu', score: (e, d) => d.text * (e.height > 1.2 * e.width ? 0.7 : 0) * (d.persons === 0 ? 1 : 0) },
  // trans_ (no parent in the taxonomy): vehicles.
  { name: 'trans_bicycle', score: (_e, d) => Math.max(has(d, 'bicycle'), has(d, 'motorcycle') * 0.6) },
  { name: 'trans_bus', score: (_e, d) => has(d, 'bus') },
  { name: 'trans_car', score: (_e, d) => Math.max(has(d, 'car'), has(d, 'truck') * 0.8) },
  { name: 'trans_trainstation', score: (e, d) => has(d, 'train') * (e.scene.straightEdges > 0.06 || d.persons > 0 ? 0.9 : 0.5) },
  // abstract_: non-photos and patterns without recognised content.
  { name: 'abstract_nonphoto', score: (_e, d) => (d.persons === 0 && objectKinds(d) === 0 ? d.drawing * 0.8 : 0) },
  {
    name: 'abstract_shape',
    score: (e, d) => (d.persons === 0 && objectKinds(d) === 0 && d.clipArt && !d.lineDrawing ? 0.7 * ramp(40 - e.chroma.p50, 0, 40) : 0),
  },
  {
    name: 'abstract_rect',
    score: (e, d) => (d.persons === 0 && objectKinds(d) === 0 ? d.drawing * ramp(e.scene.straightEdges, 0.1, 0.2) : 0),
  },
  {
    name: 'abstract_net',
    score: (e, d) =>
      d.persons === 0 && objectKinds(d) === 0 ? ramp(e.scene.edges, 0.3, 0.45) * ramp(e.scene.straightEdges, 0.1, 0.2) * 0.8 : 0,
  },
  {
    name: 'abstract_texture',
    score: (e, d) => (d.persons === 0 && objectKinds(d) === 0 && d.outdoor < 0.3 ? photo(d) * ramp(e.scene.edges, 0.25, 0.4) * 0.7 : 0),
  },
  // others_: the fallback, strongest when nothing else is recognised.
  {
    name: 'others_',
    score: (_e, d) =>
      d.persons === 0 && objectKinds(d) === 0 && d.outdoor < 0.3 && d.indoor < 0.3 && d.text < 0.3 && d.drawing < 0.5 ? 0.45 : 0,
  },
];

/** Cans: a small upright bottle-like box (COCO has no can class). */
function canLike(e: Evidence, d: Derived): number {
  const bottles = e.objects.filter((o) => o.label === 'bottle');
  const squat = bottles.some((o) => o.box.h < 1.8 * o.box.w);
  return squat ? has(d, 'bottle') * 0.8 : 0;
}
