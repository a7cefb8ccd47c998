/**
 * What Kairos selectors ask of the face search. Parsing (a string in any case, comma-separated,
 * or an array, as Kairos' own demo sends them) is the contract's `selectorList`
 * (shared/contract); this turns the parsed names into search settings.
 */
import type { Selector } from '../../shared/spec';

/** What the selectors ask of the search. */
export interface SelectorPlan {
  /** Faces with |yaw| above this (degrees) are dropped: 30 FRONTAL, 100 FULL. */
  maxAbsYawDeg: number;
  /** Also search copies rotated by 90°, 180° and 270° (ROLL). */
  roll: boolean;
  /** Lower acceptance thresholds so half-occluded faces pass (PARTIAL). */
  partial: boolean;
  /** The selectors as given, upper-cased, de-duplicated. */
  selectors: Selector[];
}

/** Yaw limits of the primary selectors (Kairos: FRONTAL −30…30°, FULL −100…100°). */
export const YAW_LIMIT_DEG = { FRONTAL: 30, FULL: 100 } as const;

/**
 * The search plan of parsed selectors; none means FRONTAL. ROLL or PARTIAL alone keep FRONTAL's
 * yaw range; with FULL the wider range wins.
 *
 * @example selectorPlan(['FRONTAL', 'ROLL']) // { maxAbsYawDeg: 30, roll: true, partial: false, … }
 */
export function selectorPlan(names: readonly Selector[]): SelectorPlan {
  const selectors: Selector[] = [];
  for (const n of names) if (!selectors.includes(n)) selectors.push(n);
  if (selectors.length === 0) selectors.push('FRONTAL');
  return {
    maxAbsYawDeg: selectors.includes('FULL') ? YAW_LIMIT_DEG.FULL : YAW_LIMIT_DEG.FRONTAL,
    roll: selectors.includes('ROLL'),
    partial: selectors.includes('PARTIAL'),
    selectors,
  };
}
