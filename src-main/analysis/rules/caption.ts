import type { Caption } from '../../shared/spec';
import type { Evidence } from '../evidence';
import type { CocoLabel } from '../objects/coco';
import type { DetectedObject } from '../objects/types';
import { holds } from './bands';
import type { CategoryName } from './categories';
import { CAPTION_KINDS, CLASS_SUBJECT_CONFIDENCE, PRESENT, type ClassSubject } from './classes';
import { BLANK_CAPTION_CONF, isBlank } from './blank';
import { AGE_YEARS, type Derived } from './derive';
import { QUANTITIES, type QuantityName } from './quantities';
import { conditionHolds, type Condition } from './score';
import { labelWord } from './tags';
import { ANIMALS, FURNITURE, WATER_LIFE, article, plural } from './vocab';

/** A noun phrase with the confidence of the evidence behind it. */
interface Phrase {
  text: string;
  conf: number;
  /** Scenes and phrases already placed ("… on a couch") take no setting words. */
  kind: 'people' | 'thing' | 'placed' | 'scene' | 'chart' | 'blank' | 'pattern' | 'lettering' | 'code';
  /** A thing that lives in water (WATER_LIFE): no setting words either. */
  inWater?: boolean;
}

const NUMBER_WORDS = ['no', 'a', 'two', 'three', 'four', 'five'];
/** Furniture people sit on, and things named as what people are with (animals, vehicles, gear). */
const SEATS: ReadonlySet<CocoLabel> = new Set(['couch', 'chair', 'bench', 'bed']);
const COMPANIONS: ReadonlySet<CocoLabel> = new Set([
  ...ANIMALS,
  'bicycle',
  'motorcycle',
  'surfboard',
  'skateboard',
  'umbrella',
  'laptop',
  'cake',
  'pizza',
  'kite',
]);
/** The caption of a page of writing, never wrapped in a style phrase. */
export const TEXT_PHRASE = 'a page of text';

/** Calibrated confidence of a detected thing people sit on or are with (a little above present). */
export const CONTEXT_CONF = 0.6;
/** A companion ("with a dog") must cover this share of the image. */
export const COMPANION_MIN_SHARE = 0.02;
/** A box rests on another when its bottom centre lies inside the other, extended downwards by this factor. */
export const SUPPORT_SLACK = 1.05;
/** Gender words (man, woman) need this gender confidence. */
export const GENDER_WORD_CONF = 0.7;
/** "smiling" when more than this share of the faces smile. */
export const SMILING_MAJORITY = 0.5;
/** Subject confidence factors of two people and of a group (counting is less sure). */
export const PEOPLE_CONF = { pair: 0.95, group: 0.9 } as const;
/** Confidence of "an outdoor scene" / "an indoor scene": the setting is sure, the picture is not described. */
export const SETTING_SCENE_CONF = 0.4;
/** Confidence of "a view of the sky" (colour evidence only). */
export const SKY_VIEW_CONF = 0.6;
/** A setting phrase changes the confidence to subject × (base + span × setting confidence). */
export const SETTING_CONF = { base: 0.9, span: 0.1 } as const;
/** Confidence of the bare style sentences ("a clip art image") and of "an image". */
export const FALLBACK_CONF = { style: 0.5, image: 0.2 } as const;
/** Caption confidences are clamped to this range and rounded to 3 decimals. */
export const CAPTION_CONF = { min: 0.05, max: 0.98, steps: 1000 } as const;

/** What people are with: a seat they rest on ("sitting on a couch") or a companion ("with a dog"). */
function peopleContext(e: Evidence, d: Derived): { text: string; placed: boolean } | undefined {
  const confident = d.things.filter((o) => o.label !== 'person' && (d.labels.get(o.label) ?? 0) >= CONTEXT_CONF);
  const people = e.objects.filter((o) => o.label === 'person' && (d.labels.get('person') ?? 0) >= PRESENT);
  const seat = confident.find((o) => SEATS.has(o.label) && people.some((p) => restsOn(p, o)));
  if (seat) return { text: ` sitting on ${article(labelWord(seat.label))}`, placed: true };
  const area = e.width * e.height;
  const companion = confident.find((o) => COMPANIONS.has(o.label) && (o.box.width * o.box.height) / area >= COMPANION_MIN_SHARE);
  if (companion) return { text: ` with ${article(labelWord(companion.label))}`, placed: false };
  return undefined;
}

/** The place the classifier names confidently (a triumphal arch, a lakeside), if any. */
function classifiedPlace(d: Derived): ClassSubject | undefined {
  return d.classes.subjects.find((s) => s.scene && s.conf >= CLASS_SUBJECT_CONFIDENCE);
}

/**
 * People this small are passers-by in a view of a place, not its subject: every person box under
 * this share of the image, every face under `faceShare`.
 */
export const PASSERS_BY = { boxShare: 0.03, faceShare: 0.005 } as const;

/**
 * A classified place with passers-by in front of it: "a triumphal arch with people" rather than
 * "a person outdoors" for tourists at a landmark.
 */
function placeWithPassersBy(e: Evidence, d: Derived): Phrase | undefined {
  if (d.persons === 0 || d.personConf < PRESENT || d.largestFaceShare >= PASSERS_BY.faceShare) return undefined;
  const area = e.width * e.height;
  if (e.objects.some((o) => o.label === 'person' && (o.box.width * o.box.height) / area >= PASSERS_BY.boxShare)) return undefined;
  const place = classifiedPlace(d);
  if (!place) return undefined;
  // Small people are counted poorly (boxes merge and go missing): no number beyond one.
  const people = d.persons === 1 ? 'a person' : 'people';
  return { text: `${article(place.word)} with ${people}`, conf: place.conf, kind: 'scene' };
}

function peoplePhrase(e: Evidence, d: Derived): Phrase | undefined {
  const p = peopleNoun(e, d);
  if (!p) return undefined;
  const ctx = peopleContext(e, d);
  return ctx ? { ...p, text: p.text + ctx.text, kind: ctx.placed ? 'placed' : 'people' } : p;
}

function peopleNoun(e: Evidence, d: Derived): Phrase | undefined {
  const n = d.persons;
  if (n === 0 || d.personConf < PRESENT) return undefined;
  const smiling = e.faces.length > 0 && d.smiling > e.faces.length * SMILING_MAJORITY;
  if (n === 1) {
    const f = e.faces[0];
    let noun = 'person';
    if (f && f.age < AGE_YEARS.baby) noun = 'baby';
    else if (f && f.age < AGE_YEARS.child) noun = 'child';
    else if (f && f.age >= AGE_YEARS.adult && f.genderConfidence >= GENDER_WORD_CONF) noun = f.gender === 'Male' ? 'man' : 'woman';
    const adjective = smiling ? 'smiling ' : '';
    const glasses = f?.glasses && !smiling ? ' wearing glasses' : '';
    return { text: `${article(adjective + noun)}${glasses}`, conf: d.personConf, kind: 'people' };
  }
  if (n === 2) {
    const adults = e.faces.filter((f) => f.age >= AGE_YEARS.adult && f.genderConfidence >= GENDER_WORD_CONF);
    let text = 'two people';
    if (adults.length === 2) {
      const men = adults.filter((f) => f.gender === 'Male').length;
      text = men === 2 ? 'two men' : men === 0 ? 'two women' : 'a man and a woman';
    }
    return { text: text + (smiling ? ' smiling' : ''), conf: d.personConf * PEOPLE_CONF.pair, kind: 'people' };
  }
  const group = holds('people.group', n) ? 'a group of people' : 'a crowd of people';
  return { text: group + (smiling ? ' smiling' : ''), conf: d.personConf * PEOPLE_CONF.group, kind: 'people' };
}

/** Bottom centre of `a` inside `b`: a rests on b. */
function restsOn(a: DetectedObject, b: DetectedObject): boolean {
  const x = a.box.left + a.box.width / 2;
  const y = a.box.top + a.box.height;
  return x >= b.box.left && x <= b.box.left + b.box.width && y >= b.box.top && y <= b.box.top + b.box.height * SUPPORT_SLACK;
}

/** The phrase for a detected thing: count, and what it rests on or a second thing. */
function detectedPhrase(e: Evidence, d: Derived): Phrase | undefined {
  const area = e.width * e.height;
  const confident = d.things.filter((o) => o.label !== 'person' && (d.labels.get(o.label) ?? 0) >= PRESENT);
  if (!confident.length) return undefined;
  // Main subject: confidence × √(area share), so a big clear object beats a small sure one;
  // furniture is the subject only when nothing else was found (it is usually the support).
  const things = confident.filter((o) => !FURNITURE.has(o.label));
  const main = [...(things.length ? things : confident)].sort((p, q) => weight(q, area) - weight(p, area))[0]!;
  const count = d.counts.get(main.label) ?? 1;
  const word = labelWord(main.label);
  const counted = count < NUMBER_WORDS.length;
  let text = count === 1 ? article(word) : counted ? `${NUMBER_WORDS[count]} ${plural(word)}` : `a group of ${plural(word)}`;
  const support = confident.find((o) => o !== main && FURNITURE.has(o.label) && restsOn(main, o));
  if (support) {
    const verb = ANIMALS.has(main.label) ? ' lying on ' : ' on ';
    text += `${verb}${article(labelWord(support.label))}`;
  } else {
    const second = confident.find((o) => o.label !== main.label && !FURNITURE.has(o.label));
    if (second) text += ` and ${article(labelWord(second.label as CocoLabel))}`;
  }
  return { text, conf: d.labels.get(main.label) ?? PRESENT, kind: support ? 'placed' : 'thing' };
}

/**
 * Things (not places) the classifier or the drawing vocabulary names confidently, best first;
 * none on a page of text (a handwritten page reads as a ruler). A second thing must be of a known
 * kind (an orange is a fruit; "projectile" beside "rocket" is the same thing twice) and not the
 * first one's kind.
 */
function classifiedThings(d: Derived): ClassSubject[] {
  if (d.text >= PRESENT) return [];
  const things = d.classes.subjects.filter((s) => !s.scene && s.conf >= CLASS_SUBJECT_CONFIDENCE && s.coco !== 'person');
  const main = things[0];
  // Not the main thing's own kind or a thing of which it is a kind ("a box and a container").
  return things.filter(
    (s, i) => i === 0 || (s.tags.some((t) => CAPTION_KINDS.has(t)) && !main!.tags.includes(s.word) && !s.tags.includes(main!.word)),
  );
}

/** A classified thing that lives in water (WATER_LIFE, or filed under fish by WordNet). */
const livesInWater = (s: ClassSubject): boolean => WATER_LIFE.has(s.word) || s.tags.includes('fish');

/**
 * The phrase for a thing only the classifier names (a close-up the detector misses): "an apple
 * and an orange" when it names a second thing, "a cat lying on a couch" when the detector sees
 * furniture.
 */
function classifiedPhrase(e: Evidence, d: Derived): Phrase | undefined {
  const [main, second] = classifiedThings(d);
  if (!main) return undefined;
  let text = article(main.word);
  // Where the thing is located too (a segmented region), it must rest on the furniture.
  const located = d.things.find((o) => o.label === main.coco);
  const support = d.things.find(
    (o) => FURNITURE.has(o.label) && o.label !== main.coco && (d.labels.get(o.label) ?? 0) >= PRESENT && (!located || restsOn(located, o)),
  );
  if (support) text += `${main.animal ? ' lying on ' : ' on '}${article(labelWord(support.label))}`;
  else if (second) text += ` and ${article(second.word)}`;
  // A kind the classes agree on ("an animal": goldfish, tench, coho) lives in water when every
  // animal the classifier names does.
  const others = d.classes.subjects.filter((x) => x !== main && x.animal);
  const inWater = livesInWater(main) || (main.animal && others.length > 0 && others.every(livesInWater));
  return { text, conf: main.conf, kind: support ? 'placed' : 'thing', ...(inWater ? { inWater } : {}) };
}

/**
 * The main thing: the detector's when it found a thing (not only furniture) at least as sure as
 * the classifier's best thing (its boxes give counts and supports), else the classifier's.
 */
function objectPhrase(e: Evidence, d: Derived): Phrase | undefined {
  const detected = detectedPhrase(e, d);
  const classified = classifiedPhrase(e, d);
  if (!detected || !classified) return detected ?? classified;
  // Furniture is the detector's subject only when it found nothing else: the classified thing
  // (a cat on a sofa the detector missed) is then the subject, placed on it.
  const detectedThing = d.things.some((o) => o.label !== 'person' && !FURNITURE.has(o.label) && (d.labels.get(o.label) ?? 0) >= PRESENT);
  if (!detectedThing) return classified;
  // A drink in a detected cup or glass: "a cup of espresso".
  const [drink] = classifiedThings(d);
  const vessel = (['cup', 'wine glass'] as const).find((l) => (d.labels.get(l) ?? 0) >= PRESENT);
  if (drink && vessel && drink.tags.includes('drink') && drink.word !== labelWord(vessel))
    return { text: `${article(labelWord(vessel))} of ${drink.word}`, conf: Math.max(drink.conf, d.labels.get(vessel)!), kind: 'thing' };
  // The drawing vocabulary's kind ("a mammal") names less than a detected thing ("a horse").
  if (classifiedThings(d)[0]?.kind) return detected;
  return detected.conf >= classified.conf ? detected : classified;
}

/**
 * A classified place names the picture instead of a thing when it is this much surer (calibrated
 * confidence): a palace at 0.95 with a clock on its front at 0.51 is "a palace", not "a clock".
 */
export const PLACE_OVER_THING = 0.3;

/** The main thing, unless a classified place is far surer than it (PLACE_OVER_THING). */
function thingOrPlace(e: Evidence, d: Derived): Phrase | undefined {
  const thing = objectPhrase(e, d);
  const place = thing && classifiedPlace(d);
  return place && place.conf >= thing.conf + PLACE_OVER_THING ? undefined : thing;
}

function weight(o: DetectedObject, area: number): number {
  return o.score * Math.sqrt((o.box.width * o.box.height) / area);
}

/** Where a scene phrase's score comes from: a category score or a quantity. */
type SceneSource = { category: CategoryName } | { quantity: QuantityName };

/**
 * Scene phrases after a page of text and a classified place, first match wins: a source scoring
 * ≥ PRESENT names the scene (with the confidence of the source, or `conf`); `refined` replaces
 * the text when its source is present too; `unless` vetoes.
 */
export const SCENE_PHRASES: ReadonlyArray<{
  from: SceneSource;
  text: string;
  refined?: { from: SceneSource; text: string };
  unless?: Condition;
  conf?: number;
}> = [
  {
    from: { category: 'building_' },
    text: 'a building',
    refined: { from: { category: 'building_arch' }, text: 'an old stone building with arches' },
  },
  { from: { quantity: 'night' }, text: 'a dark scene at night' },
  { from: { category: 'outdoor_water' }, text: 'a body of water' },
  { from: { category: 'outdoor_grass' }, text: 'a grassy field' },
  { from: { quantity: 'openSky' }, text: 'a view of the sky', unless: 'drawing.much', conf: SKY_VIEW_CONF },
  // A dark photo with nothing named in it and no night sky or lights (a photo taken far too dark).
  { from: { category: 'dark_' }, text: 'a dark scene' },
  // Last: a colour photo whose setting is clear though nothing in it is named (a storm over a
  // road). Not in black and white, where white paper counts as overcast sky (GREY_SKY_WEIGHT).
  { from: { quantity: 'outdoor' }, text: 'an outdoor scene', unless: { any: ['drawing.much', 'bw.yes'] }, conf: SETTING_SCENE_CONF },
  { from: { quantity: 'indoor' }, text: 'an indoor scene', unless: { any: ['drawing.much', 'bw.yes'] }, conf: SETTING_SCENE_CONF },
];

function scenePhrase(e: Evidence, d: Derived, categories: ReadonlyMap<string, number>): Phrase | undefined {
  const value = (s: SceneSource): number => ('category' in s ? (categories.get(s.category) ?? 0) : QUANTITIES[s.quantity].of(e, d));
  if (d.text >= PRESENT) return { text: TEXT_PHRASE, conf: d.text, kind: 'scene' };
  const place = classifiedPlace(d);
  if (place) return { text: article(place.word), conf: place.conf, kind: 'scene' };
  for (const p of SCENE_PHRASES) {
    const v = value(p.from);
    if (v < PRESENT || (p.unless && conditionHolds(p.unless, e, d))) continue;
    const text = p.refined && value(p.refined.from) >= PRESENT ? p.refined.text : p.text;
    return { text, conf: p.conf ?? v, kind: 'scene' };
  }
  return undefined;
}

/**
 * Setting words appended to a people/thing subject in a photo, first match wins, with the
 * confidence of the quantity named by `conf`. None for a thing cut out on a plain page
 * (figure.isolated): its white page is no snow, and it stands in no setting at all.
 */
export const SETTINGS: ReadonlyArray<{ when: Condition; text: string; conf: QuantityName }> = [
  { when: 'night.setting', text: 'at night', conf: 'night' },
  { when: { all: ['outdoor.setting', 'snow.setting'] }, text: 'in the snow', conf: 'outdoor' },
  { when: { all: ['outdoor.setting', 'vegetation.setting'] }, text: 'in a grassy area', conf: 'outdoor' },
  { when: 'outdoor.setting', text: 'outdoors', conf: 'outdoor' },
  { when: 'indoor.setting', text: 'indoors', conf: 'indoor' },
];

function setting(e: Evidence, d: Derived): { text: string; conf: number } | undefined {
  if (conditionHolds({ any: ['drawing.much', 'figure.isolated'] }, e, d)) return undefined;
  const s = SETTINGS.find((x) => conditionHolds(x.when, e, d));
  return s && { text: s.text, conf: QUANTITIES[s.conf].of(e, d) };
}

/**
 * "a black and white pattern": a drawn pattern (Derived.pattern) unless a thing or people are
 * named surer (a striped flag the drawing vocabulary knows stays "a flag").
 */
function patternPhrase(e: Evidence, d: Derived, named: Phrase | undefined): Phrase | undefined {
  if (d.pattern < PRESENT || (named && named.conf > d.pattern)) return undefined;
  return { text: e.color.isBWImg ? 'a black and white pattern' : 'a pattern', conf: d.pattern, kind: 'pattern' };
}

/**
 * "a line of text" (one band) or "text": drawn lettering (Derived.lettering: a word mark, a
 * banner) unless a thing or people are named surer.
 */
function letteringPhrase(e: Evidence, d: Derived, named: Phrase | undefined): Phrase | undefined {
  if (d.lettering < PRESENT || (named && named.conf > d.lettering)) return undefined;
  return { text: e.scene.letteringBands === 1 ? 'a line of text' : 'text', conf: d.lettering, kind: 'lettering' };
}

/**
 * "a QR code" or "a barcode": a machine-readable code is what the image shows (Derived.qrCode,
 * Derived.barcode) unless people or a thing are named surer.
 */
function codePhrase(d: Derived, named: Phrase | undefined): Phrase | undefined {
  const [text, conf] = d.qrCode >= d.barcode ? ['a QR code', d.qrCode] : ['a barcode', d.barcode];
  if (conf < PRESENT || (named && named.conf > conf)) return undefined;
  return { text, conf, kind: 'code' };
}

/**
 * "a starry sky": a photo of the night sky full of stars (Derived.starField) unless people or a
 * thing are named surer.
 */
function starFieldPhrase(d: Derived, named: Phrase | undefined): Phrase | undefined {
  if (d.starField < PRESENT || (named && named.conf > d.starField)) return undefined;
  return { text: 'a starry sky', conf: d.starField, kind: 'scene' };
}

/** "a blank white image": a blank image (blank.ts), named by its colour. */
function blankPhrase(e: Evidence): Phrase | undefined {
  if (!isBlank(e)) return undefined;
  return { text: `a blank ${e.color.dominantColorBackground.toLowerCase()} image`, conf: BLANK_CAPTION_CONF, kind: 'blank' };
}

/**
 * The Description caption: one English sentence from detected and classified things only.
 * Subject = a blank image, a chart (rules/charts.ts), a QR code or barcode, a drawn pattern or lettering, a starry sky, people (count, gender/age words, smiling) or the main thing, detected or classified
 * (with "lying on"/"on" when it rests on furniture, or "and" a second thing; a classified place far
 * surer than it wins, PLACE_OVER_THING) or a scene phrase (a classified place, then colour-cue scenes); wrapped as "… drawn in black and white" (B&W line
 * drawings), "a drawing of …", "a clip art image of …", "a black and white photo of …" by style; followed by a setting ("outdoors",
 * "at night", "indoors") when confident. Confidence = subject confidence, lowered by 10 % for
 * each uncertain wrapper; a fallback "an image" sentence gets 0.2.
 */
export function buildCaption(e: Evidence, d: Derived, categories: ReadonlyMap<string, number>): Caption {
  const chart: Phrase | undefined = d.chart && { text: article(d.chart.word), conf: d.chart.conf, kind: 'chart' };
  const named = placeWithPassersBy(e, d) ?? peoplePhrase(e, d) ?? thingOrPlace(e, d);
  const subject =
    blankPhrase(e) ??
    chart ??
    codePhrase(d, named) ??
    patternPhrase(e, d, named) ??
    letteringPhrase(e, d, named) ??
    starFieldPhrase(d, named) ??
    named ??
    scenePhrase(e, d, categories);
  let text: string;
  let conf: number;
  if (!subject) {
    text = d.lineDrawing
      ? 'a black and white line drawing'
      : d.clipArt
        ? 'a clip art image'
        : e.color.isBWImg
          ? 'a black and white photo'
          : 'an image';
    conf = d.lineDrawing || d.clipArt ? FALLBACK_CONF.style : FALLBACK_CONF.image;
  } else {
    text = subject.text;
    conf = subject.conf;
    if ((subject.kind === 'people' || subject.kind === 'thing') && !subject.inWater) {
      const where = setting(e, d);
      if (where) {
        text += ` ${where.text}`;
        conf *= SETTING_CONF.base + SETTING_CONF.span * where.conf;
      }
    }
    if (
      subject.text === TEXT_PHRASE ||
      subject.kind === 'chart' ||
      subject.kind === 'blank' ||
      subject.kind === 'pattern' ||
      subject.kind === 'lettering' ||
      subject.kind === 'code'
    ) {
      // A page of writing, a chart, a blank image, a pattern, lettering and a code are described as such, whatever their colours and style.
    } else if (d.lineDrawing) text = e.color.isBWImg ? `${text} drawn in black and white` : `a drawing of ${text}`;
    else if (d.clipArt) text = `a clip art image of ${text}`;
    else if (e.color.isBWImg) text = `a black and white photo of ${text}`;
  }
  const c = CAPTION_CONF;
  return { text, confidence: Math.round(Math.min(c.max, Math.max(c.min, conf)) * c.steps) / c.steps };
}
