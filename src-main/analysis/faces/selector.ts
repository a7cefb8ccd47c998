/**
 * Kairos `selector` and `minHeadScale` parsing. Selectors arrive as a string (any case, also
 * comma-separated) or an array (`["frontal","roll"]`, as Kairos' own demo sends them).
 */
import { MIN_HEAD_SCALE, SELECTORS, type Selector } from '../../shared/spec';

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
 * Parses a selector value; `undefined`/empty means FRONTAL. Returns null for an unknown name or
 * a value of the wrong type (the caller answers 1003). ROLL or PARTIAL alone keep FRONTAL's yaw
 * range; with FULL the wider range wins.
 */
export function parseSelector(raw: unknown): SelectorPlan | null {
  let names: string[];
  if (raw === undefined || raw === null || raw === '') names = [];
  else if (typeof raw === 'string') names = raw.split(',');
  else if (Array.isArray(raw) && raw.every((s) => typeof s === 'string')) names = raw as string[];
  else return null;
  const selectors: Selector[] = [];
  for (const n of names.map((s) => s.trim().toUpperCase()).filter((s) => s !== '')) {
    if (!(SELECTORS as readonly string[]).includes(n)) return null;
    if (!selectors.includes(n as Selector)) selectors.push(n as Selector);
  }
  if (selectors.length === 0) selectors.push('FRONTAL');
  return {
    maxAbsYawDeg: selectors.includes('FULL') ? YAW_LIMIT_DEG.FULL : YAW_LIMIT_DEG.FRONTAL,
    roll: selectors.includes('ROLL'),
    partial: selectors.includes('PARTIAL'),
    selectors,
  };
}

/**
 * Parses `minHeadScale`: a number or numeric string within 0.015..0.5; absent → 0.015.
 * Returns null when invalid (not a number, out of range).
 */
export function parseMinHeadScale(raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === '') return MIN_HEAD_SCALE.default;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n < MIN_HEAD_SCALE.min || n > MIN_HEAD_SCALE.max) return null;
  return n;
}
