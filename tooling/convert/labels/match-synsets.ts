// Maps ImageNet label lines (WordNet synonym lists, "Granny Smith" or "crane") to noun synsets.
import type { NounDatabase, Synset } from './wordnet';

/** A label line's synset and how well the lemma sets agreed (Jaccard, 1 = identical). */
export interface SynsetMatch {
  synset: Synset;
  agreement: number;
}

const key = (lemma: string): string => lemma.trim().replace(/ /g, '_');

/**
 * Lemma-set agreement of a label line with a synset: Jaccard index of the lower-cased lemma sets,
 * plus a small bonus per lemma whose case also matches ("Crane" the poet vs "crane" the bird).
 */
function agreement(line: string[], s: Synset): number {
  const a = new Set(line.map((l) => l.toLowerCase()));
  const b = new Set(s.lemmas.map((l) => l.toLowerCase()));
  const common = [...a].filter((l) => b.has(l)).length;
  const exactCase = line.filter((l) => s.lemmas.includes(l)).length;
  return common / (a.size + b.size - common) + 0.01 * exactCase;
}

/**
 * Picks, for each label line in order, the noun synset whose lemma set matches best. The ImageNet
 * class order is the order of the WordNet 3.0 offsets (wnids), which WordNet 3.1 keeps, so ties
 * (the bird and the machine both listed as just "crane") go to the first tied synset after the
 * previous class's synset.
 */
export function matchSynsets(db: NounDatabase, lines: readonly string[]): SynsetMatch[] {
  let previous = -1;
  return lines.map((line) => {
    const lemmas = line.split(',').map(key).filter(Boolean);
    const candidates = new Map<number, Synset>();
    for (const l of lemmas) for (const s of db.byLemma.get(l.toLowerCase()) ?? []) candidates.set(s.offset, s);
    if (!candidates.size) throw new Error(`no WordNet noun synset for "${line}"`);
    const scored = [...candidates.values()].map((s) => ({ synset: s, agreement: agreement(lemmas, s) }));
    const best = Math.max(...scored.map((c) => c.agreement));
    const tied = scored.filter((c) => c.agreement >= best - 1e-9).sort((p, q) => p.synset.offset - q.synset.offset);
    const pick = tied.find((c) => c.synset.offset > previous) ?? tied[0]!;
    previous = pick.synset.offset;
    return pick;
  });
}
