import type { CategoryName } from './categories';
import type { Product } from './score';

/**
 * One category rule: a 0..1 score as a product of factors over named quantities, bands and tests
 * (score.ts, bands.ts). Several rules may feed one name (max wins).
 */
export interface CategoryRule {
  name: CategoryName;
  score: Product;
}

/**
 * The rule table. Every one of the 86 names has at least one rule (a test checks this). Object
 * rules use calibrated detector confidences; scene rules use the pixel cues of scene/cues.ts.
 * docs/analysis.md renders this table (`npm run docs:rules`).
 */
export const CATEGORY_RULES: readonly CategoryRule[] = [
  // people_: faces and person boxes; sub-classes from face count, size and age.
  { name: 'people_', score: ['personConf'] },
  { name: 'people_portrait', score: [{ when: { all: ['people.portrait', 'face.any'] } }, 'personConf', 'faceShare.portrait'] },
  {
    name: 'people_group',
    score: [
      'personConf',
      {
        first: [
          ['people.group', 0.9],
          ['people.pair', 0.5],
        ],
      },
    ],
  },
  { name: 'people_many', score: [{ when: 'people.many' }, 'personConf', 0.85] },
  { name: 'people_crowd', score: [{ when: 'people.crowd' }, 'personConf', 0.85] },
  { name: 'people_young', score: [{ when: 'children.most' }, 'personConf', 0.8] },
  { name: 'people_baby', score: [{ when: 'babies.any' }, 'personConf', 0.7] },
  { name: 'people_swimming', score: [{ when: 'people.any' }, 'personConf', 'water.swim'] },
  { name: 'people_show', score: [{ when: 'people.any' }, 'personConf', 'night', 'brightSpots.stage'] },
  // Hands: much skin and no face; tattoos: ink-like strokes on a skin-dominated image.
  { name: 'people_hand', score: [{ when: { all: ['people.none', 'labels.none'] } }, 'photo', 'skin.hand', 0.7] },
  { name: 'people_tattoo', score: [{ when: { all: ['personConf.sure', 'face.noLarge'] } }, 'skin.tattoo', 'textBlocks.ink', 0.6] },
  // animal_: COCO animals.
  { name: 'animal_', score: ['any:animals'] },
  { name: 'animal_bird', score: ['label:bird'] },
  { name: 'animal_cat', score: ['label:cat'] },
  { name: 'animal_dog', score: ['label:dog'] },
  { name: 'animal_horse', score: ['label:horse'] },
  { name: 'animal_panda', score: ['label:bear', { when: 'colours.panda', then: 0.9 }] },
  // building_: straight-edge structure outdoors; sub-classes by edge orientation, colour, context.
  { name: 'building_', score: [{ term: 'building' }] },
  { name: 'building_arch', score: [{ term: 'building' }, 'edges.rough', { when: 'chromaP50.stone', then: 0.9, else: 0.4 }] },
  {
    name: 'building_brickwall',
    score: ['photo', 'straightEdges.brick', { when: { all: ['sky.none', 'background.brick'] }, then: 0.8 }],
  },
  { name: 'building_church', score: [{ term: 'building' }, { when: 'tall', then: 0.7 }] },
  { name: 'building_corner', score: [{ term: 'building' }, { when: 'sky.corner', then: 0.6 }] },
  { name: 'building_doorwindows', score: ['photo', { when: 'indoor.not' }, 'straightEdges.facade', { when: 'sky.little', then: 0.7 }] },
  { name: 'building_pillar', score: [{ term: 'building' }, 'verticalShare.pillar'] },
  { name: 'building_stair', score: [{ term: 'building' }, 'horizontalShare.stair'] },
  { name: 'building_street', score: [{ term: 'building' }, 'any:street'] },
  // dark_: dark photos; fire = warm glow, fireworks = colourful bright spots, light = other lights.
  {
    name: 'dark_',
    score: ['photo', 'dark.scene', { when: 'brightness.dim' }, { when: { all: ['page.yes', 'text.present'] }, then: 0, else: 1 }],
  },
  { name: 'dark_fire', score: ['night', 'warmGlow.fire'] },
  { name: 'dark_fireworks', score: ['night', 'brightSpots.fireworks', 'colorfulness.fireworks'] },
  { name: 'dark_light', score: ['night', 'brightSpots.lights', 0.8] },
  // drink_ / food_: COCO tableware and food.
  { name: 'drink_', score: ['any:drink'] },
  { name: 'drink_can', score: [{ when: 'bottle.squat' }, 'label:bottle', 0.8] },
  { name: 'food_', score: ['any:food'] },
  {
    name: 'food_bread',
    score: [
      {
        max: [
          ['label:sandwich', 0.7],
          ['label:donut', 0.6],
        ],
      },
    ],
  },
  { name: 'food_fastfood', score: [{ max: [['label:hot dog'], ['label:sandwich', 0.8], ['label:pizza', 0.7]] }] },
  {
    name: 'food_grilled',
    score: [
      {
        max: [
          ['label:hot dog', 0.7],
          ['any:food', { when: 'foreground.grilled', then: 0.6 }],
        ],
      },
    ],
  },
  { name: 'food_pizza', score: ['label:pizza'] },
  // indoor_: furniture, screens, many goods, crowds in the dark, stained glass, ball sports.
  { name: 'indoor_', score: ['indoor'] },
  {
    name: 'indoor_room',
    score: [
      {
        max: [
          ['any:furniture', 0.9],
          ['label:tv', 0.8],
        ],
      },
      'photo',
      { when: 'outdoor.notMostly' },
    ],
  },
  { name: 'indoor_marketstore', score: ['indoor', 'objectKinds.store'] },
  { name: 'indoor_venue', score: ['indoor', { when: 'people.venue', then: 0.8 }, { when: 'brightness.venue', then: 1, else: 0.6 }] },
  {
    name: 'indoor_court',
    score: [{ max: [['indoor'], [0.5]] }, 'any:sports', { when: 'people.any', then: 0.9, else: 0.5 }, { when: 'outdoor.notMostly' }],
  },
  {
    name: 'indoor_churchwindow',
    score: ['photo', { when: 'outdoor.little' }, 'dark.churchwindow', 'colorfulness.stainedGlass', { when: 'brightSpots.many', then: 0.8 }],
  },
  { name: 'indoor_doorwindows', score: ['indoor', 'straightEdges.frames'] },
  // object_: screens; sculpture = a person shape without a face in a colourless photo.
  { name: 'object_screen', score: ['any:screens'] },
  {
    name: 'object_sculpture',
    score: [{ when: { all: ['faces.none', 'personBox.sure', 'chromaP90.colourless', 'bw.not'] } }, 'personBox', 0.7],
  },
  // outdoor_: sky, vegetation, water, snow and outdoor objects.
  { name: 'outdoor_', score: ['outdoor'] },
  { name: 'outdoor_grass', score: ['photo', 'vegetation.green'] },
  { name: 'outdoor_field', score: ['photo', 'vegetation.field', 'sky.some'] },
  { name: 'outdoor_water', score: ['photo', 'water.body'] },
  { name: 'outdoor_waterside', score: ['photo', 'water.shore', { max: [['vegetation.some'], [{ term: 'building' }]] }] },
  { name: 'outdoor_oceanbeach', score: ['photo', 'water.sea', 'sky.beach', 'skinOrGlow.beach'] },
  { name: 'outdoor_pool', score: ['photo', 'water.swim', 'straightEdges.poolEdge', { when: 'sky.poolside', then: 0.8, else: 0.3 }] },
  {
    name: 'outdoor_mountain',
    score: [
      'photo',
      'sky.wide',
      { when: 'straightEdges.none' },
      'edges.mountain',
      { when: { all: ['people.none', 'objectKinds.none'] }, then: 0.7 },
    ],
  },
  {
    name: 'outdoor_stonerock',
    score: ['outdoor', { when: 'chromaP50.stone' }, 'edges.rough', { when: 'straightEdges.few', then: 0.8, else: 0.3 }],
  },
  { name: 'outdoor_house', score: [{ term: 'building' }, 'vegetation.some'] },
  { name: 'outdoor_city', score: [{ term: 'building' }, { max: [['any:street'], ['straightEdges.facade']] }] },
  {
    name: 'outdoor_street',
    score: [
      'photo',
      {
        max: [
          ['label:traffic light'],
          ['label:stop sign'],
          ['label:parking meter'],
          ['label:fire hydrant'],
          [{ min: [['label:car'], [{ sum: [[{ term: 'building' }], [0.3]] }]] }],
        ],
      },
    ],
  },
  {
    name: 'outdoor_road',
    score: [
      'photo',
      { max: [['label:car'], ['label:truck'], ['label:bus']] },
      { when: { any: ['sky.any', 'outdoor.likely'] }, then: 0.9, else: 0.5 },
    ],
  },
  { name: 'outdoor_railway', score: ['label:train', 0.9] },
  { name: 'outdoor_sportsfield', score: ['any:sports', 'vegetation.green'] },
  { name: 'outdoor_playground', score: [{ when: 'children.any' }, 'outdoor', 'vegetation.lawn', 0.8] },
  // plant_: vegetation cues and potted plants.
  { name: 'plant_', score: [{ max: [['label:potted plant'], ['photo', 'vegetation.plants']] }] },
  { name: 'plant_tree', score: ['photo', 'vegetation.green', 'sky.tree'] },
  { name: 'plant_leaves', score: ['photo', 'vegetation.foliage', 'edges.leaves'] },
  { name: 'plant_branch', score: ['photo', 'vegetation.some', 'sky.open', 'edges.branches'] },
  {
    name: 'plant_flower',
    score: [
      {
        max: [
          ['label:vase', 0.8],
          ['label:potted plant', 0.5],
        ],
      },
      { when: 'foreground.flower', then: 1, else: 0.5 },
    ],
  },
  // sky_ (no parent in the taxonomy): clouds, objects against the sky, the sun.
  { name: 'sky_cloud', score: ['photo', 'sky.cloud', 'cloudShare.cloud', { when: 'blueSky.clear', then: 1, else: 0.6 }] },
  { name: 'sky_object', score: ['photo', 'sky.open', { max: [['label:airplane'], ['label:kite'], ['label:bird']] }] },
  { name: 'sky_sun', score: ['photo', 'sky.wide', 'warmGlow.sun'] },
  // text_: text-like block cue; sub-classes from context.
  { name: 'text_', score: [{ max: [['text'], ['lettering']] }] },
  { name: 'text_sign', score: [{ max: [['label:stop sign'], ['text', { when: 'outdoor.sign', then: 0.9 }]] }] },
  { name: 'text_mag', score: ['text', { when: 'people.any', then: 0.8 }, 'colorfulness.magazine'] },
  { name: 'text_map', score: ['text', 'colorfulness.map', { when: 'people.none', then: 0.7 }] },
  { name: 'text_menu', score: ['text', { when: 'tall', then: 0.7 }, { when: 'people.none' }] },
  // trans_ (no parent in the taxonomy): vehicles.
  { name: 'trans_bicycle', score: [{ max: [['label:bicycle'], ['label:motorcycle', 0.6]] }] },
  { name: 'trans_bus', score: ['label:bus'] },
  { name: 'trans_car', score: [{ max: [['label:car'], ['label:truck', 0.8]] }] },
  {
    name: 'trans_trainstation',
    score: ['label:train', { when: { any: ['straightEdges.structure', 'people.any'] }, then: 0.9, else: 0.5 }],
  },
  // abstract_: non-photos and patterns without recognised content.
  { name: 'abstract_nonphoto', score: [{ when: { all: ['people.none', 'objectKinds.none'] } }, 'drawing', 0.8] },
  {
    name: 'abstract_shape',
    score: [
      { when: { all: ['people.none', 'objectKinds.none', 'clipArt.yes', 'lineDrawing.not', 'uniform.notBlank'] } },
      0.7,
      'chromaP50.pale',
    ],
  },
  { name: 'abstract_rect', score: [{ when: { all: ['people.none', 'objectKinds.none'] } }, 'drawing', 'straightEdges.rect'] },
  {
    name: 'abstract_net',
    score: [{ when: { all: ['people.none', 'objectKinds.none'] } }, 'edges.net', 'straightEdges.rect', 0.8],
  },
  {
    name: 'abstract_texture',
    // A photographed texture, or a drawn pattern (checks, dots, tiles).
    score: [
      { when: { all: ['people.none', 'objectKinds.none', 'outdoor.little'] } },
      { max: [['photo', 'edges.texture'], ['pattern']] },
      0.7,
    ],
  },
  // others_: the fallback, strongest when nothing else is recognised.
  {
    name: 'others_',
    score: [
      {
        when: { all: ['people.none', 'objectKinds.none', 'outdoor.little', 'indoor.little', 'text.little', 'drawing.little'] },
        then: 0.45,
      },
    ],
  },
];
