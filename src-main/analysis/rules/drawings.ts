import type { DrawingVote } from '../drawings';
import { CALIBRATED } from './classes';

/**
 * When the drawing vocabulary's vote names a drawing's thing: the label's weighted vote share
 * among the nearest reference drawings and the best similarity among its voters must pass both.
 * Chosen with `npx tsx tooling/drawings/calibrate.ts` on the held-out part of Open Clip Art outside the
 * eval:unseen sample for a subject precision ≥ 0.8 against the drawings' own keywords
 * (docs/analysis.md). Confidence: `minShare` maps to CALIBRATED.present, a unanimous vote to
 * CALIBRATED.sure.
 */
export const DRAWING_LABEL = { minShare: 0.5, minSimilarity: 0.7 } as const satisfies DrawingLabelRule;

export interface DrawingLabelRule {
  minShare: number;
  minSimilarity: number;
}

/** An accepted label of the drawing vocabulary with its calibrated confidence. */
export interface DrawingThing {
  label: number;
  word: string;
  conf: number;
}

/**
 * The votes that pass `rule`, the most specific first (a label before its hypernyms: "lion",
 * then "big cat", "animal"), with calibrated confidences.
 */
export function acceptedDrawingLabels(votes: readonly DrawingVote[], rule: DrawingLabelRule = DRAWING_LABEL): DrawingThing[] {
  const passed = votes.filter((v) => v.share >= rule.minShare && v.similarity >= rule.minSimilarity);
  const ancestors = new Set(passed.flatMap((v) => v.parents));
  const specific = (v: DrawingVote): number => (ancestors.has(v.label) ? 1 : 0);
  const span = CALIBRATED.sure - CALIBRATED.present;
  return [...passed]
    .sort((a, b) => specific(a) - specific(b) || b.share - a.share || a.label - b.label)
    .map((v) => ({
      label: v.label,
      word: v.word,
      conf: CALIBRATED.present + (span * (v.share - rule.minShare)) / Math.max(1e-6, 1 - rule.minShare),
    }));
}
