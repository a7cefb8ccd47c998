/**
 * Genuine and impostor comparisons over described calibration faces (people-set.ts): every face
 * (and variation) against every enrolled identity — an identity enrolled from the original photos
 * of one person — scored as the gallery does (best reference of the entry, cosine).
 */
import { cosine } from '../../../../src-main/analysis/gallery/index';
import type { FaceSample } from './people-set';

/** An enrolled identity: the original (unvaried) photos of one person. */
export interface Identity {
  person: string;
  unknown: boolean;
  group: string;
  refs: { photo: string; vector: Float32Array }[];
}

/** Identities from the original samples, one per person. */
export function enrolIdentities(samples: readonly FaceSample[]): Identity[] {
  const byPerson = new Map<string, Identity>();
  for (const s of samples.filter((x) => x.variant === 'original')) {
    const id = byPerson.get(s.person) ?? { person: s.person, unknown: s.unknown, group: s.group, refs: [] };
    id.refs.push({ photo: s.photo, vector: s.vector });
    byPerson.set(s.person, id);
  }
  return [...byPerson.values()];
}

/**
 * True when the face and the identity are known to be different people: different identities,
 * and not two unknown faces of one group (which may repeat a person).
 */
export const knownDifferent = (s: FaceSample, id: Identity): boolean =>
  s.person !== id.person && !(s.unknown && id.unknown && s.group === id.group);

const bestRef = (s: FaceSample, refs: Identity['refs']): number => Math.max(...refs.map((r) => cosine(s.vector, r.vector)));

/** Every impostor comparison's score (face × identity known to be someone else). */
export function impostorScores(samples: readonly FaceSample[], ids: readonly Identity[]): Float64Array {
  const out: number[] = [];
  for (const s of samples) for (const id of ids) if (knownDifferent(s, id)) out.push(bestRef(s, id.refs));
  return Float64Array.from(out);
}

/**
 * Genuine scores: each face against its own identity enrolled from its *other* photos
 * (`crossPhoto`), and each variation against the original of the same photo (`variation`).
 */
export function genuineScores(samples: readonly FaceSample[], ids: readonly Identity[]): { crossPhoto: number[]; variation: number[] } {
  const byPerson = new Map(ids.map((i) => [i.person, i]));
  const crossPhoto: number[] = [];
  const variation: number[] = [];
  for (const s of samples) {
    const refs = byPerson.get(s.person)?.refs ?? [];
    const other = refs.filter((r) => r.photo !== s.photo);
    if (other.length) crossPhoto.push(bestRef(s, other));
    const same = refs.filter((r) => r.photo === s.photo);
    if (s.variant !== 'original' && same.length) variation.push(bestRef(s, same));
  }
  return { crossPhoto, variation };
}

/** The rule analyze applies to one face (thresholds.ts `PERSON_MATCH`). */
export interface NamingRule {
  minScore: number;
  minMargin: number;
}

/** Best and second-best identity scores of a face over a gallery. */
function topTwo(
  s: FaceSample,
  gallery: readonly Identity[],
  refsOf: (id: Identity) => Identity['refs'],
): { best?: Identity; s1: number; s2: number } {
  let best: Identity | undefined;
  let s1 = -Infinity;
  let s2 = -Infinity;
  for (const id of gallery) {
    const refs = refsOf(id);
    if (!refs.length) continue;
    const score = bestRef(s, refs);
    if (score > s1) [best, s1, s2] = [id, score, s1];
    else if (score > s2) s2 = score;
  }
  return { best, s1, s2 };
}

const named = (t: { s1: number; s2: number }, rule: NamingRule): boolean => t.s1 >= rule.minScore && t.s1 - t.s2 >= rule.minMargin;

/**
 * Open-set naming with every identity enrolled: each face against the gallery of all identities
 * known to be other people (false names), and against all identities with its own enrolled from
 * its other photos only (true names; faces whose person has no other photo are not counted).
 */
export function openSetNaming(
  samples: readonly FaceSample[],
  ids: readonly Identity[],
  rule: NamingRule,
): { probes: number; falseNames: number; genuineProbes: number; trueNames: number; wrongNames: number } {
  let falseNames = 0;
  let genuineProbes = 0;
  let trueNames = 0;
  let wrongNames = 0;
  for (const s of samples) {
    const impostors = ids.filter((id) => knownDifferent(s, id));
    if (
      named(
        topTwo(s, impostors, (id) => id.refs),
        rule,
      )
    )
      falseNames++;
    const own = ids.find((id) => id.person === s.person);
    if (!own?.refs.some((r) => r.photo !== s.photo)) continue;
    genuineProbes++;
    const t = topTwo(s, [own, ...impostors], (id) => (id === own ? id.refs.filter((r) => r.photo !== s.photo) : id.refs));
    if (!named(t, rule)) continue;
    if (t.best === own) trueNames++;
    else wrongNames++;
  }
  return { probes: samples.length, falseNames, genuineProbes, trueNames, wrongNames };
}

/** Fraction of `scores` at or above `t`. */
export const rateAtOrAbove = (scores: ArrayLike<number>, t: number): number => {
  let n = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i]! >= t) n++;
  return n / scores.length;
};

/**
 * One-sided 95 % upper confidence bound of a rate with `k` events in `n` trials (Clopper–Pearson,
 * by bisection on the binomial tail; k = 0 gives ≈ 3 / n).
 */
export function upperBound95(k: number, n: number): number {
  const cdf = (p: number): number => {
    // P(X ≤ k) for X ~ Binomial(n, p), summed in log space.
    let sum = 0;
    let logTerm = n * Math.log1p(-p);
    for (let i = 0; i <= k; i++) {
      sum += Math.exp(logTerm);
      logTerm += Math.log((n - i) / (i + 1)) + Math.log(p) - Math.log1p(-p);
    }
    return sum;
  };
  let lo = k / n;
  let hi = 1;
  for (let it = 0; it < 60; it++) {
    const mid = (lo + hi) / 2;
    if (cdf(mid) > 0.05) lo = mid;
    else hi = mid;
  }
  return hi;
}
