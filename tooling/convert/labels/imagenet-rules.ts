// The reviewed rules that turn WordNet's hypernym chains into picscan's words and categories. A
// rule names a WordNet 3.1 noun synset (NLTK-style `lemma.n.NN`) and applies to every ImageNet
// class below it; the generator fails when a named synset does not exist or no class uses it.
import type { CategoryName } from '../../../src-main/analysis/rules/categories';

/** What one synset contributes to the classes below it. */
export interface SynsetRule {
  synset: string;
  /** The everyday word for classes below it ("dog" for a golden retriever); the nearest one wins. */
  display?: string;
  /** A general tag for every class below it ("fruit", "animal"); all tags on the chain are kept. */
  tag?: string;
  /** Taxonomy category; the nearest one on the chain wins. */
  category?: CategoryName;
  /** Stop the walk here: higher synsets add nothing (a drink is not also tagged food). */
  stop?: boolean;
}

// prettier-ignore
export const SYNSET_RULES: readonly SynsetRule[] = [
  // Animals. COCO words ("bird", "cat", "dog", "horse", "sheep", "cow", "elephant", "bear",
  // "zebra") are used as display words so classifier and detector tags merge.
  { synset: 'animal.n.01', tag: 'animal', category: 'animal_' },
  { synset: 'mammal.n.01', tag: 'mammal' },
  { synset: 'bird.n.01', display: 'bird', tag: 'bird', category: 'animal_bird' },
  { synset: 'fish.n.01', display: 'fish', tag: 'fish' },
  { synset: 'shark.n.01', display: 'shark' },
  { synset: 'goldfish.n.01', display: 'goldfish' },
  { synset: 'reptile.n.01', tag: 'reptile' },
  { synset: 'snake.n.01', display: 'snake' },
  { synset: 'lizard.n.01', display: 'lizard' },
  { synset: 'turtle.n.02', display: 'turtle' },
  { synset: 'crocodilian_reptile.n.01', display: 'crocodile' },
  { synset: 'amphibian.n.03', tag: 'amphibian' },
  { synset: 'frog.n.01', display: 'frog' },
  // The nearest first: an eft is a newt, a newt a salamander.
  { synset: 'newt.n.01', display: 'newt' },
  { synset: 'salamander.n.01', display: 'salamander' },
  { synset: 'insect.n.01', display: 'insect', tag: 'insect' },
  // Insects people name by their own word ("a bee on a flower", not "an insect"); when the
  // classes disagree, the caption still falls back to "an insect" (the kind rules of
  // rules/classes.ts). Leafhoppers and lacewings stay "insect": few users know the word.
  { synset: 'bee.n.01', display: 'bee' },
  { synset: 'ant.n.01', display: 'ant' },
  { synset: 'fly.n.01', display: 'fly' },
  { synset: 'grasshopper.n.01', display: 'grasshopper' },
  { synset: 'cricket.n.01', display: 'cricket' },
  { synset: 'cockroach.n.01', display: 'cockroach' },
  { synset: 'mantis.n.01', display: 'mantis' },
  { synset: 'cicada.n.01', display: 'cicada' },
  { synset: 'odonate.n.01', display: 'dragonfly' },
  { synset: 'butterfly.n.01', display: 'butterfly' },
  { synset: 'ladybug.n.01', display: 'ladybug' },
  { synset: 'beetle.n.01', display: 'beetle', tag: 'beetle' },
  { synset: 'spider.n.01', display: 'spider' },
  { synset: 'crab.n.01', display: 'crab' },
  { synset: 'dog.n.01', display: 'dog', tag: 'dog', category: 'animal_dog' },
  { synset: 'wolf.n.01', display: 'wolf' },
  { synset: 'fox.n.01', display: 'fox' },
  { synset: 'cat.n.01', display: 'cat', tag: 'cat', category: 'animal_cat' },
  { synset: 'big_cat.n.01', tag: 'big cat' },
  { synset: 'bear.n.01', display: 'bear', tag: 'bear' },
  { synset: 'giant_panda.n.01', display: 'panda', tag: 'bear', category: 'animal_panda' },
  { synset: 'horse.n.01', display: 'horse', tag: 'horse', category: 'animal_horse' },
  { synset: 'zebra.n.01', display: 'zebra' },
  { synset: 'elephant.n.01', display: 'elephant' },
  { synset: 'camel.n.01', display: 'camel' },
  { synset: 'cattle.n.01', display: 'cow' },
  { synset: 'sheep.n.01', display: 'sheep' },
  { synset: 'primate.n.02', tag: 'primate' },
  { synset: 'lemur.n.01', display: 'lemur' },
  { synset: 'monkey.n.01', display: 'monkey', tag: 'monkey' },
  { synset: 'ape.n.01', display: 'ape', tag: 'ape' },
  // The great apes everyone names; gibbons and siamangs stay "ape".
  { synset: 'gorilla.n.01', display: 'gorilla' },
  { synset: 'chimpanzee.n.01', display: 'chimpanzee' },
  { synset: 'orangutan.n.01', display: 'orangutan' },
  { synset: 'rodent.n.01', tag: 'rodent' },
  { synset: 'squirrel.n.01', display: 'squirrel' },
  // Food and drink.
  { synset: 'food.n.01', tag: 'food', category: 'food_' },
  { synset: 'food.n.02', tag: 'food', category: 'food_' },
  { synset: 'edible_fruit.n.01', tag: 'fruit' },
  { synset: 'apple.n.01', display: 'apple' },
  { synset: 'citrus.n.01', tag: 'citrus' },
  { synset: 'orange.n.01', display: 'orange' },
  { synset: 'vegetable.n.01', tag: 'vegetable' },
  { synset: 'bread.n.01', display: 'bread', tag: 'bread', category: 'food_bread' },
  { synset: 'sandwich.n.01', tag: 'sandwich', category: 'food_fastfood' },
  { synset: 'dessert.n.01', tag: 'dessert' },
  { synset: 'beverage.n.01', tag: 'drink', category: 'drink_', stop: true },
  // Vehicles.
  { synset: 'vehicle.n.01', tag: 'vehicle' },
  { synset: 'public_transport.n.01', tag: 'vehicle' },
  { synset: 'car.n.01', display: 'car', tag: 'car', category: 'trans_car' },
  { synset: 'truck.n.01', display: 'truck', tag: 'truck', category: 'trans_car' },
  { synset: 'bus.n.01', display: 'bus', tag: 'bus', category: 'trans_bus' },
  { synset: 'bicycle.n.01', display: 'bicycle', tag: 'bicycle', category: 'trans_bicycle' },
  { synset: 'motorcycle.n.01', display: 'motorcycle', tag: 'motorcycle', category: 'trans_bicycle' },
  { synset: 'locomotive.n.01', display: 'train', tag: 'train', category: 'outdoor_railway' },
  { synset: 'boat.n.01', display: 'boat' },
  { synset: 'ship.n.01', display: 'ship' },
  { synset: 'vessel.n.02', tag: 'boat' },
  { synset: 'aircraft.n.01', tag: 'aircraft', category: 'sky_object' },
  { synset: 'airplane.n.01', display: 'airplane' },
  // Buildings, places and scenes.
  { synset: 'building.n.01', tag: 'building', category: 'building_' },
  { synset: 'place_of_worship.n.01', category: 'building_church' },
  // Not a display word: palaces and monasteries are houses in WordNet, not in English.
  { synset: 'house.n.01', tag: 'house', category: 'outdoor_house' },
  { synset: 'tower.n.01', tag: 'tower', category: 'building_' },
  { synset: 'arch.n.04', category: 'building_arch' },
  { synset: 'bridge.n.01', display: 'bridge', tag: 'bridge', category: 'outdoor_waterside' },
  { synset: 'shop.n.01', tag: 'shop', category: 'indoor_marketstore' },
  { synset: 'mercantile_establishment.n.01', tag: 'shop', category: 'indoor_marketstore' },
  { synset: 'theater.n.01', category: 'indoor_venue' },
  { synset: 'geological_formation.n.01', tag: 'outdoor', category: 'outdoor_', stop: true },
  { synset: 'mountain.n.01', display: 'mountain', tag: 'mountain', category: 'outdoor_mountain' },
  { synset: 'shore.n.01', tag: 'water', category: 'outdoor_waterside' },
  { synset: 'seashore.n.01', tag: 'beach', category: 'outdoor_oceanbeach' },
  { synset: 'natural_depression.n.01', category: 'outdoor_field' },
  { synset: 'reef.n.01', tag: 'underwater', category: 'outdoor_water' },
  // Plants.
  { synset: 'plant.n.02', tag: 'plant', category: 'plant_' },
  { synset: 'flower.n.01', display: 'flower', tag: 'flower', category: 'plant_flower' },
  { synset: 'fungus.n.01', tag: 'fungus' },
  // Furniture, screens and household things.
  { synset: 'furniture.n.01', tag: 'furniture', category: 'indoor_room' },
  { synset: 'chair.n.01', display: 'chair' },
  { synset: 'sofa.n.01', display: 'couch' },
  { synset: 'bed.n.01', display: 'bed' },
  { synset: 'table.n.03', display: 'table' },
  { synset: 'computer.n.01', tag: 'computer', category: 'object_screen' },
  { synset: 'laptop.n.01', display: 'laptop' },
  { synset: 'telephone.n.01', display: 'phone', category: 'object_screen' },
  { synset: 'display.n.06', display: 'screen', category: 'object_screen' },
  { synset: 'clock.n.01', display: 'clock', tag: 'clock' },
  { synset: 'bottle.n.01', display: 'bottle', tag: 'bottle', category: 'drink_' },
  { synset: 'drinking_vessel.n.01', tag: 'cup', category: 'drink_' },
  { synset: 'musical_instrument.n.01', tag: 'musical instrument' },
  { synset: 'guitar.n.01', display: 'guitar' },
  { synset: 'camera.n.01', display: 'camera', tag: 'camera' },
  { synset: 'clothing.n.01', tag: 'clothing' },
  { synset: 'footwear.n.01', tag: 'footwear' },
  { synset: 'headdress.n.01', tag: 'hat' },
  { synset: 'ball.n.01', display: 'ball', tag: 'ball' },
  // Kinds that name a thing the classes disagree on (hatchet, hammer: "a tool"; frying pan,
  // coffeepot, teapot: "a kitchen utensil").
  { synset: 'tool.n.01', tag: 'tool' },
  { synset: 'kitchen_utensil.n.01', tag: 'kitchen utensil' },
];

/**
 * Per-class corrections, keyed by the label line's first lemma, or by the whole line where two lines
 * share it (the whole line is looked up first); each says why.
 */
export interface ClassOverride {
  /** The specific name to report instead of the first lemma. */
  name?: string;
  display?: string;
  tags?: string[];
  category?: CategoryName;
}

export const CLASS_OVERRIDES: Readonly<Record<string, ClassOverride>> = {
  // WordNet lists "beacon" first; people call it a lighthouse.
  beacon: { name: 'lighthouse', tags: ['building', 'tower'], category: 'building_' },
  // ImageNet's "cup" is a punch drink in WordNet, but its photos show cups.
  cup: { display: 'cup', tags: ['cup', 'drink'], category: 'drink_' },
  // "television system" in WordNet; the photos show television sets.
  television: { display: 'television', tags: ['screen'], category: 'object_screen' },
  monitor: { tags: ['screen', 'computer'], category: 'object_screen' },
  'web site': { name: 'website', tags: ['text', 'screen'], category: 'text_' },
  menu: { tags: ['text'], category: 'text_menu' },
  'comic book': { tags: ['text'], category: 'text_mag' },
  'book jacket': { tags: ['text'], category: 'text_mag' },
  'street sign': { tags: ['sign', 'text'], category: 'text_sign' },
  'traffic light': { tags: ['outdoor'], category: 'outdoor_street' },
  'parking meter': { category: 'outdoor_street' },
  teddy: { name: 'teddy bear', tags: ['toy'] },
  'giant panda': { name: 'giant panda', display: 'panda' },
  mouse: { name: 'computer mouse', tags: ['computer'] },
  hotdog: { name: 'hot dog', category: 'food_fastfood' },
  pizza: { tags: ['food', 'fast food'], category: 'food_pizza' },
  plate: { name: 'plate of food' },
  'motor scooter': { display: 'scooter', tags: ['vehicle', 'motorcycle'], category: 'trans_bicycle' },
  streetcar: { display: 'tram', tags: ['vehicle', 'train'], category: 'outdoor_railway' },
  'passenger car': { name: 'railway carriage', display: 'train', tags: ['vehicle', 'train'], category: 'outdoor_railway' },
  library: { tags: ['indoor', 'book'], category: 'indoor_room' },
  restaurant: { category: 'indoor_' },
  'grocery store': { tags: ['shop', 'food'] },
  lakeside: { tags: ['water', 'lake'] },
  cliff: { category: 'outdoor_stonerock' },
  valley: { category: 'outdoor_field' },
  promontory: { category: 'outdoor_waterside' },
  missile: { name: 'missile', display: 'rocket' },
  'space shuttle': { tags: ['spacecraft', 'vehicle'], category: 'sky_object' },
  // First lemmas that name something else in a caption: "a hip" reads as the body part (the
  // class is the rose's fruit), "an ear" as the organ (an ear of corn), "a nipple" as the body
  // part (a baby bottle's teat; the photos show baby bottles), "a tusker" means nothing to most
  // users (its photos show elephants).
  hip: { name: 'rose hip', tags: ['fruit'] },
  ear: { name: 'ear of corn', display: 'corn', tags: ['plant'] },
  nipple: { name: 'baby bottle nipple', display: 'baby bottle' },
  tusker: { display: 'elephant' },
  // Likewise "a chest" (a storage box), "an organ" (the instrument), "a brass" (a memorial plaque)
  // and "a pot" (a flowerpot): the label line's later lemmas say what the photos show.
  chest: { name: 'storage chest' },
  organ: { name: 'pipe organ' },
  brass: { name: 'memorial plaque' },
  pot: { name: 'flowerpot' },
  // First lemmas that name another, commoner thing: the label line's later lemma is what the
  // photos show ("a plane" is a carpenter's plane, "an amphibian" an amphibious vehicle, "a
  // Madagascar cat" a ring-tailed lemur, "a file" a filing cabinet, "a swab" a mop).
  plane: { name: "carpenter's plane" },
  amphibian: { name: 'amphibious vehicle' },
  'Madagascar cat': { name: 'ring-tailed lemur' },
  file: { name: 'filing cabinet' },
  swab: { name: 'mop' },
  washer: { name: 'washing machine' },
  iron: { name: 'clothes iron' },
  pick: { name: 'guitar pick' },
  rule: { name: 'ruler' },
  slot: { name: 'slot machine' },
  upright: { name: 'upright piano' },
  sax: { name: 'saxophone' },
  jean: { name: 'jeans' },
  sunglass: { name: 'sunglasses' },
  Angora: { name: 'Angora rabbit' },
  // "a walking stick" reads as a cane; the class is the insect.
  'walking stick': { name: 'stick insect' },
  // Two label lines share the first lemma "maillot" (WordNet's dancers' tights and the one-piece
  // swimsuit), so they are keyed by the whole line: a caption's "maillot" means nothing to most users.
  maillot: { name: 'tights' },
  'maillot, tank suit': { name: 'swimsuit' },
  // A role no photo shows: on men in suits the class is as probable as "suit" itself, so a formal
  // portrait was tagged "groom". What its photos show is the suit.
  groom: { name: 'suit', tags: ['clothing'] },
};

/**
 * Label lines whose synset the lemma match gets wrong: WordNet 3.1 renamed the trousers to
 * "jeans" and kept "jean" only on the fabric.
 */
export const SYNSET_OVERRIDES: Readonly<Record<string, string>> = {
  'jean, blue jean, denim': 'jeans.n.01',
};
