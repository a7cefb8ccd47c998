import { BugError } from '../../core';
import type { Evidence } from '../evidence';
import type { CocoLabel } from '../objects/coco';
import { band, BANDS, testHolds, type BandName, type TestName } from './bands';
import type { Derived } from './derive';
import { QUANTITIES, type QuantityName } from './quantities';
import { LABEL_GROUPS, type LabelGroupName } from './vocab';

/** A condition: a named test, or a combination of conditions. */
export type Condition = TestName | { all: readonly Condition[] } | { any: readonly Condition[] };

/**
 * One factor of a rule's product:
 * - a quantity's value, a band's 0..1 ramp, or a constant weight;
 * - `label:<coco>`: the calibrated confidence of a detected label (0 when absent);
 * - `any:<group>`: the best confidence among a label group (vocab.ts);
 * - `{ when, then, else }`: `then` (default 1) when the condition holds, else `else` (default 0);
 * - `{ first }`: the weight of the first condition that holds, else `else` (default 0);
 * - `{ max | min | sum }`: of several products;
 * - `{ term }`: a shared product (TERMS, e.g. the building evidence).
 */
export type Factor =
  | QuantityName
  | BandName
  | number
  | `label:${CocoLabel}`
  | `any:${LabelGroupName}`
  | { when: Condition; then?: number; else?: number }
  | { first: ReadonlyArray<readonly [Condition, number]>; else?: number }
  | { max: readonly Product[] }
  | { min: readonly Product[] }
  | { sum: readonly Product[] }
  | { term: TermName };

/** Factors multiplied left to right (the order is kept: floating-point products are not associative). */
export type Product = readonly Factor[];

/** Products shared by several rules. */
export const TERMS = {
  /** Building evidence: long straight edges under a sky in an outdoor photo without a portrait subject. */
  building: ['photo', 'straightEdges.building', { max: [['sky.some'], [0.5, 'outdoor']] }, { when: 'face.building', then: 0.3, else: 1 }],
} as const satisfies Record<string, Product>;
export type TermName = keyof typeof TERMS;

/** The confidence of a detected label (0 when absent). */
export const labelConf = (d: Derived, label: CocoLabel): number => d.labels.get(label) ?? 0;

/** Whether a condition holds on the evidence. */
export function conditionHolds(c: Condition, e: Evidence, d: Derived): boolean {
  if (typeof c === 'string') return testHolds(c, e, d);
  if ('all' in c) return c.all.every((x) => conditionHolds(x, e, d));
  return c.any.some((x) => conditionHolds(x, e, d));
}

function factorValue(f: Factor, e: Evidence, d: Derived): number {
  if (typeof f === 'number') return f;
  if (typeof f === 'string') {
    if (f.startsWith('label:')) return labelConf(d, f.slice('label:'.length) as CocoLabel);
    if (f.startsWith('any:'))
      return Math.max(0, ...[...LABEL_GROUPS[f.slice('any:'.length) as LabelGroupName]].map((l) => labelConf(d, l)));
    if (f in BANDS) {
      const of = BANDS[f as BandName].of;
      if (!(of in QUANTITIES)) throw new BugError(`rules: band ${f} is over ${of}, which is not a rule quantity`);
      return band(f as BandName, QUANTITIES[of as QuantityName].of(e, d));
    }
    return QUANTITIES[f as QuantityName].of(e, d);
  }
  if ('when' in f) return conditionHolds(f.when, e, d) ? (f.then ?? 1) : (f.else ?? 0);
  if ('first' in f) {
    for (const [c, w] of f.first) if (conditionHolds(c, e, d)) return w;
    return f.else ?? 0;
  }
  if ('max' in f) return Math.max(...f.max.map((p) => scoreProduct(p, e, d)));
  if ('min' in f) return Math.min(...f.min.map((p) => scoreProduct(p, e, d)));
  if ('sum' in f) return f.sum.reduce((s, p) => s + scoreProduct(p, e, d), 0);
  return scoreProduct(TERMS[f.term], e, d);
}

/** The value of a product on the evidence; 0 as soon as a factor is 0 (a gate that does not hold). */
export function scoreProduct(p: Product, e: Evidence, d: Derived): number {
  let v = 1;
  for (const f of p) {
    v *= factorValue(f, e, d);
    if (v === 0) return 0;
  }
  return v;
}

/** Readable form of a condition (docs). */
export function conditionText(c: Condition): string {
  if (typeof c === 'string') return c;
  if ('all' in c) return c.all.map(conditionText).join(' and ');
  return `(${c.any.map(conditionText).join(' or ')})`;
}

/** Readable form of a product (docs): `photo × vegetation.green × …`. */
export function productText(p: Product): string {
  return p.length ? p.map(factorText).join(' × ') : '1';
}

function factorText(f: Factor): string {
  if (typeof f === 'number') return String(f);
  if (typeof f === 'string') return f;
  if ('when' in f) {
    const then = f.then ?? 1;
    const otherwise = f.else ?? 0;
    return otherwise === 0 && then === 1 ? `[${conditionText(f.when)}]` : `(${conditionText(f.when)} ? ${then} : ${otherwise})`;
  }
  if ('first' in f) return `(${f.first.map(([c, w]) => `${conditionText(c)} → ${w}`).join('; ')}; else ${f.else ?? 0})`;
  if ('max' in f) return `max(${f.max.map(productText).join(', ')})`;
  if ('min' in f) return `min(${f.min.map(productText).join(', ')})`;
  if ('sum' in f) return `(${f.sum.map(productText).join(' + ')})`;
  return f.term;
}
