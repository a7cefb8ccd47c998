import type { Caption } from '../../shared/spec';
import type { Evidence } from '../evidence';
import type { CocoLabel } from '../objects/coco';
import type { DetectedObject } from '../objects/types';
import { CAPTION_KINDS, type ClassSubject } from './classes';
import type { Derived } from './derive';
import { labelWord } from './tags';
import { ANIMALS, FURNITURE, article, plural } from './vocab';

/** A noun phrase with the confidence of the evidence behind it. */
interface Phrase {
  text: string;
  conf: number;
  /** Scenes and phrases already placed ("… on a couch") take no setting words. */
  kind: 'people' | 'thing' | 'placed' | 'scene';
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
const TEXT_PHRASE = 'a page of text';

/** What people are with: a seat they rest on ("sitting on a couch") or a companion ("with a dog"). */
function peopleContext(e: Evidence, d: Derived): { text: string; placed: boolean } | undefined {
  const confident = e.objects.filter((o) => o.label !== 'person' && (d.labels.get(o.label) ?? 0) >= 0.6);
  const people = e.objects.filter((o) => o.label === 'person' && (d.labels.get('person') ?? 0) >= 0.5);
  const seat = confident.find((o) => SEATS.has(o.label) && people.some((p) => restsOn(p, o)));
  if (seat) return { text: ` sitting on ${article(labelWord(seat.label))}`, placed: true };
  const area = e.width * e.height;
  const companion = confident.find((o) => COMPANIONS.has(o.label) && (o.box.w * o.box.h) / area >= 0.02);
  if (companion) return { text: ` with ${article(labelWord(companion.label))}`, placed: false };
  return undefined;
}

function peoplePhrase(e: Evidence, d: Derived): Phrase | undefined {
  const p = peopleNoun(e, d);
  if (!p) return undefined;
  const ctx = peopleContext(e, d);
  return ctx ? { ...p, text: p.text + ctx.text, kind: ctx.placed ? 'placed' : 'people' } : p;
}

function peopleNoun(e: Evidence, d: Derived): Phrase | undefined {
  const n = d.persons;
  if (n === 0 || d.personConf < 0.5) return undefined;
  const smiling = e.faces.length > 0 && d.smiling * 2 > e.faces.length;
  if (n === 1) {
    const f = e.faces[0];
    let noun = 'person';
    if (f && f.age < 3) noun = 'baby';
    else if (f && f.age < 13) noun = 'child';
    else if (f && f.age >= 18 && f.genderConfidence >= 0.7) noun = f.gender === 'Male' ? 'man' : 'woman';
    const adjective = smiling ? 'smiling ' : '';
    const glasses = f?.glasses && !smiling ? ' wearing glasses' : '';
    return { text: `${article(adjective + noun)}${glasses}`, conf: d.personConf, kind: 'people' };
  }
  if (n === 2) {
    const adults = e.faces.filter((f) => f.age >= 18 && f.genderConfidence >= 0.7);
    let text = 'two people';
    if (adults.length === 2) {
      const men = adults.filter((f) => f.gender === 'Male').length;
      text = men === 2 ? 'two men' : men === 0 ? 'two women' : 'a man and a woman';
    }
    return { text: text + (smiling ? ' smiling' : ''), conf: d.personConf * 0.95, kind: 'people' };
  }
  const group = n <= 7 ? 'a group of people' : 'a crowd of people';
  return { text: group + (smiling ? ' smiling' : ''), conf: d.personConf * 0.9, kind: 'people' };
}

/** Bottom centre of `a` inside `b`: a rests on b. */
function restsOn(a: DetectedObject, b: DetectedObject): boolean {
  const x = a.box.x + a.box.w / 2;
  const y = a.box.y + a.box.h;
  return x >= b.box.x && x <= b.box.x + b.box.w && y >= b.box.y && y <= b.box.y + b.box.h * 1.05;
}

/** The phrase for a detected thing: count, and what it rests on or a second thing. */
function detectedPhrase(e: Evidence, d: Derived): Phrase | undefined {
  const area = e.width * e.height;
  const confident = e.objects.filter((o) => o.label !== 'person' && (d.labels.get(o.label) ?? 0) >= 0.5);
  if (!confident.length) return undefined;
  // Main subject: confidence × √(area share), so a big clear object beats a small sure one;
  // furniture is the subject only when nothing else was found (it is usually the support).
  const things = confident.filter((o) => !FURNITURE.has(o.label));
  const main = [...(things.length ? things : confident)].sort((p, q) => weight(q, area) - weight(p, area))[0]!;
  const count = d.counts.get(main.label) ?? 1;
  const word = labelWord(main.label);
  let text = count === 1 ? article(word) : count <= 5 ? `${NUMBER_WORDS[count]} ${plural(word)}` : `a group of ${plural(word)}`;
  const support = confident.find((o) => o !== main && FURNITURE.has(o.label) && restsOn(main, o));
  if (support) {
    const verb = ANIMALS.has(main.label) ? ' lying on ' : ' on ';
    text += `${verb}${article(labelWord(support.label))}`;
  } else {
    const second = confident.find((o) => o.label !== main.label && !FURNITURE.has(o.label));
    if (second) text += ` and ${article(labelWord(second.label as CocoLabel))}`;
  }
  return { text, conf: d.labels.get(main.label) ?? 0.5, kind: support ? 'placed' : 'thing' };
}

/**
 * Confidence from which the classifier's word names the subject of the caption (a little above
 * "present": a wrong name reads worse than a vague caption).
 */
const CLASS_SUBJECT_CONFIDENCE = 0.55;

/**
 * Things (not places) the classifier names confidently, best first; none on a page of text (a
 * handwritten page reads as a ruler). A second thing must be of a known kind (an orange is a
 * fruit; "projectile" beside "rocket" is the same thing twice).
 */
function classifiedThings(d: Derived): ClassSubject[] {
  if (d.text >= 0.5) return [];
  const things = d.classes.subjects.filter((s) => !s.scene && s.conf >= CLASS_SUBJECT_CONFIDENCE && s.coco !== 'person');
  return things.filter((s, i) => i === 0 || s.tags.some((t) => CAPTION_KINDS.has(t)));
}

/**
 * The phrase for a thing only the classifier names (a close-up the detector misses): "an apple
 * and an orange" when it names a second thing, "a cat lying on a couch" when the detector sees
 * furniture.
 */
function classifiedPhrase(e: Evidence, d: Derived): Phrase | undefined {
  const [main, second] = classifiedThings(d);
  if (!main) return undefined;
  let text = article(main.word);
  const support = e.objects.find((o) => FURNITURE.has(o.label) && o.label !== main.coco && (d.labels.get(o.label) ?? 0) >= 0.5);
  if (support) text += `${main.animal ? ' lying on ' : ' on '}${article(labelWord(support.label))}`;
  else if (second) text += ` and ${article(second.word)}`;
  return { text, conf: main.conf, kind: support ? 'placed' : 'thing' };
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
  const detectedThing = e.objects.some((o) => o.label !== 'person' && !FURNITURE.has(o.label) && (d.labels.get(o.label) ?? 0) >= 0.5);
  if (!detectedThing) return classified;
  // A drink in a detected cup or glass: "a cup of espresso".
  const [drink] = classifiedThings(d);
  const vessel = (['cup', 'wine glass'] as const).find((l) => (d.labels.get(l) ?? 0) >= 0.5);
  if (drink && vessel && drink.tags.includes('drink') && drink.word !== labelWord(vessel))
    return { text: `${article(labelWord(vessel))} of ${drink.word}`, conf: Math.max(drink.conf, d.labels.get(vessel)!), kind: 'thing' };
  return detected.conf >= classified.conf ? detected : classified;
}

function weight(o: DetectedObject, area: number): number {
  return o.score * Math.sqrt((o.box.w * o.box.h) / area);
}

function scenePhrase(e: Evidence, d: Derived, categories: ReadonlyMap<string, number>): Phrase | undefined {
  const cat = (n: string): number => categories.get(n) ?? 0;
  if (d.text >= 0.5) return { text: TEXT_PHRASE, conf: d.text, kind: 'scene' };
  const place = d.classes.subjects.find((s) => s.scene && s.conf >= CLASS_SUBJECT_CONFIDENCE);
  if (place) return { text: article(place.word), conf: place.conf, kind: 'scene' };
  if (cat('building_') >= 0.5)
    return {
      text: cat('building_arch') >= 0.5 ? 'an old stone building with arches' : 'a building',
      conf: cat('building_'),
      kind: 'scene',
    };
  if (d.night >= 0.5) return { text: 'a dark scene at night', conf: d.night, kind: 'scene' };
  if (cat('outdoor_water') >= 0.5) return { text: 'a body of water', conf: cat('outdoor_water'), kind: 'scene' };
  if (cat('outdoor_grass') >= 0.5) return { text: 'a grassy field', conf: cat('outdoor_grass'), kind: 'scene' };
  if (d.sky * (1 - d.frameFill) >= 0.5 && d.drawing < 0.5) return { text: 'a view of the sky', conf: 0.6, kind: 'scene' };
  return undefined;
}

/** Setting words appended to a people/thing subject in a photo. */
function setting(e: Evidence, d: Derived): { text: string; conf: number } | undefined {
  if (d.drawing >= 0.5) return undefined;
  if (d.night >= 0.7) return { text: 'at night', conf: d.night };
  if (d.outdoor >= 0.6) {
    if ((e.scene.snow ?? 0) > 0.3) return { text: 'in the snow', conf: d.outdoor };
    if (e.scene.vegetation > 0.25) return { text: 'in a grassy area', conf: d.outdoor };
    return { text: 'outdoors', conf: d.outdoor };
  }
  if (d.indoor >= 0.6) return { text: 'indoors', conf: d.indoor };
  return undefined;
}

/**
 * The Description caption: one English sentence from detected and classified things only.
 * Subject = people (count, gender/age words, smiling) or the main thing, detected or classified
 * (with "lying on"/"on" when it rests on furniture, or "and" a second thing) or a scene phrase
 * (a classified place, then colour-cue scenes); wrapped as "… drawn in black and white" (B&W line
 * drawings), "a drawing of …", "a clip art image of …", "a black and white photo of …" by style; followed by a setting ("outdoors",
 * "at night", "indoors") when confident. Confidence = subject confidence, lowered by 10 % for
 * each uncertain wrapper; a fallback "an image" sentence gets 0.2.
 */
export function buildCaption(e: Evidence, d: Derived, categories: ReadonlyMap<string, number>): Caption {
  const subject = peoplePhrase(e, d) ?? objectPhrase(e, d) ?? scenePhrase(e, d, categories);
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
    conf = d.lineDrawing || d.clipArt ? 0.5 : 0.2;
  } else {
    text = subject.text;
    conf = subject.conf;
    if (subject.kind === 'people' || subject.kind === 'thing') {
      const where = setting(e, d);
      if (where) {
        text += ` ${where.text}`;
        conf *= 0.9 + 0.1 * where.conf;
      }
    }
    if (subject.text === TEXT_PHRASE) {
      // A page of writing is described as such, whatever its colours.
    } else if (d.lineDrawing) text = e.color.isBWImg ? `${text} drawn in black and white` : `a drawing of ${text}`;
    else if (d.clipArt) text = `a clip art image of ${text}`;
    else if (e.color.isBWImg) text = `a black and white photo of ${text}`;
  }
  return { text, confidence: Math.round(Math.min(0.98, Math.max(0.05, conf)) * 1000) / 1000 };
}
