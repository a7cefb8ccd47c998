import type { CocoLabel } from '../objects/coco';

/** COCO labels grouped for the rules. */
export const ANIMALS: ReadonlySet<CocoLabel> = new Set([
  'bird',
  'cat',
  'dog',
  'horse',
  'sheep',
  'cow',
  'elephant',
  'bear',
  'zebra',
  'giraffe',
]);
export const FOOD: ReadonlySet<CocoLabel> = new Set([
  'banana',
  'apple',
  'sandwich',
  'orange',
  'broccoli',
  'carrot',
  'hot dog',
  'pizza',
  'donut',
  'cake',
]);
export const DRINK: ReadonlySet<CocoLabel> = new Set(['cup', 'wine glass', 'bottle']);
export const VEHICLES: ReadonlySet<CocoLabel> = new Set(['bicycle', 'car', 'motorcycle', 'airplane', 'bus', 'train', 'truck', 'boat']);
export const STREET: ReadonlySet<CocoLabel> = new Set([
  'car',
  'bus',
  'truck',
  'motorcycle',
  'bicycle',
  'traffic light',
  'fire hydrant',
  'stop sign',
  'parking meter',
]);
export const SPORTS: ReadonlySet<CocoLabel> = new Set([
  'sports ball',
  'baseball bat',
  'baseball glove',
  'tennis racket',
  'frisbee',
  'skateboard',
]);
/** Objects almost always photographed outdoors. */
export const OUTDOOR_OBJECTS: ReadonlySet<CocoLabel> = new Set([
  'car',
  'bus',
  'truck',
  'train',
  'boat',
  'airplane',
  'traffic light',
  'fire hydrant',
  'stop sign',
  'parking meter',
  'bench',
  'horse',
  'sheep',
  'cow',
  'elephant',
  'bear',
  'zebra',
  'giraffe',
  'kite',
  'skis',
  'snowboard',
  'surfboard',
]);
/** Objects almost always photographed indoors. */
export const INDOOR_OBJECTS: ReadonlySet<CocoLabel> = new Set([
  'couch',
  'bed',
  'dining table',
  'toilet',
  'tv',
  'laptop',
  'mouse',
  'remote',
  'keyboard',
  'microwave',
  'oven',
  'toaster',
  'sink',
  'refrigerator',
  'book',
  'clock',
  'vase',
  'hair drier',
  'toothbrush',
  'cup',
  'wine glass',
  'fork',
  'knife',
  'spoon',
]);
export const FURNITURE: ReadonlySet<CocoLabel> = new Set(['couch', 'bed', 'chair', 'dining table', 'bench']);
export const SCREENS: ReadonlySet<CocoLabel> = new Set(['tv', 'laptop', 'cell phone']);

/** The label groups rule tables name as `any:<group>` (score.ts). */
export const LABEL_GROUPS = {
  animals: ANIMALS,
  food: FOOD,
  drink: DRINK,
  vehicles: VEHICLES,
  street: STREET,
  sports: SPORTS,
  furniture: FURNITURE,
  screens: SCREENS,
} as const satisfies Record<string, ReadonlySet<CocoLabel>>;
export type LabelGroupName = keyof typeof LABEL_GROUPS;

/** Tag/caption wording of COCO labels that read badly as English nouns. */
export const WORDING: Partial<Record<CocoLabel, string>> = {
  'dining table': 'table',
  tv: 'television',
  'cell phone': 'phone',
  'potted plant': 'houseplant',
  'sports ball': 'ball',
  couch: 'couch',
};

/**
 * Nouns of the captions' vocabularies (COCO words, the ImageNet hierarchy's display words and
 * tags, the drawing vocabulary) that take no indefinite article: mass nouns ("bread", "food",
 * "chain mail") and plurals ("sunglasses", "french fries"). Reviewed against the generated
 * tables; whole phrases only ("a plate of food" keeps its article).
 */
export const NOUNS_WITHOUT_ARTICLE: ReadonlySet<string> = new Set([
  'air',
  'alcohol',
  'apple juice',
  'bacon',
  'baggage',
  'bread',
  'breakfast',
  'broccoli',
  'carbonara',
  'chain mail',
  'cheese',
  'chewing gum',
  'chocolate sauce',
  'clothing',
  'cocoa',
  'coffee',
  'consomme',
  'corn',
  'dough',
  'eggnog',
  'electricity',
  'equipment',
  'face powder',
  'fast food',
  'food',
  'french fries',
  'furniture',
  'garbage',
  'guacamole',
  'hair',
  'hair spray',
  'hardware',
  'hay',
  'ice cream',
  'ink',
  'jeans',
  'jewelry',
  'juice',
  'lasagna',
  'lightning',
  'lotion',
  'mashed potato',
  'merchandise',
  'milk',
  'orange juice',
  'paint',
  'pantyhose',
  'paper',
  'parallel bars',
  'pasta',
  'perfume',
  'poison',
  'radiation',
  'rapeseed',
  'red wine',
  'rubbish',
  'sand',
  'smoke',
  'snow',
  'soil',
  'straw',
  'sunglasses',
  'sunscreen',
  'swimming trunks',
  'tea',
  'text',
  'toast',
  'toilet tissue',
  'velvet',
  'water',
  'wine',
  'wood',
  'wool',
]);

/** Indefinite article for a noun phrase; none for mass nouns and plurals ("bread", "sunglasses"). */
export function article(noun: string): string {
  if (NOUNS_WITHOUT_ARTICLE.has(noun.toLowerCase())) return noun;
  return /^[aeiou]/i.test(noun) && !/^(uni|eu|one)/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** Plural of the nouns that occur (COCO words and people words). */
export function plural(noun: string): string {
  const irregular: Record<string, string> = {
    person: 'people',
    man: 'men',
    woman: 'women',
    child: 'children',
    mouse: 'mice',
    knife: 'knives',
    sheep: 'sheep',
    skis: 'skis',
    'hot dog': 'hot dogs',
    bus: 'buses',
    glass: 'glasses',
  };
  if (irregular[noun]) return irregular[noun]!;
  const last = noun.split(' ').pop()!;
  if (irregular[last]) return noun.slice(0, -last.length) + irregular[last]!;
  if (/(s|x|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/**
 * Classified things that live in water (display words; also every class WordNet files under
 * fish): their setting is the water, which the colour cues read as grass, sky or snow, so a
 * caption gives them no setting words ("a fish", not "a fish in a grassy area").
 */
export const WATER_LIFE: ReadonlySet<string> = new Set([
  'fish',
  'shark',
  'jellyfish',
  'sea anemone',
  'brain coral',
  'sea slug',
  'starfish',
  'sea urchin',
  'chambered nautilus',
  'grey whale',
  'killer whale',
  'dugong',
]);
