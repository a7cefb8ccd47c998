/**
 * Person matching: each face's best and second-best enrolled person, then a one-to-one
 * assignment per image (a person appears at most once in a photo), strongest matches first.
 */
import type { EntryScore } from './gallery-index';
import { PERSON_MATCH } from './thresholds';

/** The ranked candidates of one face (`best(…, 2)` of the person index); empty if no descriptor. */
export type FaceCandidates = readonly EntryScore[];

/** An accepted face → person assignment. */
export interface PersonAssignment {
  face: number;
  entryId: number;
  score: number;
}

/**
 * Accepts a face's best person when it clears `minScore` and beats the runner-up person by
 * `minMargin`, then assigns greedily by score so that no person and no face is used twice.
 * Returned in face order.
 */
export function assignPeople(
  faces: readonly FaceCandidates[],
  rule: { minScore: number; minMargin: number } = PERSON_MATCH,
): PersonAssignment[] {
  const accepted: PersonAssignment[] = [];
  faces.forEach((cands, face) => {
    const [best, second] = cands;
    if (!best || best.score < rule.minScore) return;
    if (second && best.score - second.score < rule.minMargin) return;
    accepted.push({ face, entryId: best.entryId, score: best.score });
  });
  accepted.sort((a, b) => b.score - a.score);
  const usedPeople = new Set<number>();
  const out: PersonAssignment[] = [];
  for (const a of accepted) {
    if (usedPeople.has(a.entryId)) continue;
    usedPeople.add(a.entryId);
    out.push(a);
  }
  return out.sort((a, b) => a.face - b.face);
}
