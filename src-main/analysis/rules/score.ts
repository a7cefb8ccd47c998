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

/** A product or factor compiled to a function of the evidence (once per table entry). */
type Compiled = (e: Evidence, d: Derived) => number;

function compileFactor(f: Factor): Compiled {
  if (typeof f === 'number') return () => f;
  if (typeof f === 'string') {
    if (f.startsWith('label:')) {
      const label = f.slice('label:'.length) as CocoLabel;
      return (_e, d) => labelConf(d, label);
    }
    if (f.startsWith('any:')) {
      const labels = [...LABEL_GROUPS[f.slice('any:'.length) as LabelGroupName]];
      return (_e, d) => labels.reduce((m, l) => Math.max(m, labelConf(d, l)), 0);
    }
    if (f in BANDS) {
      const name = f as BandName;
      const of = BANDS[name].of;
      if (!(of in QUANTITIES)) throw new BugError(`rules: band ${f} is over ${of}, which is not a rule quantity`);
      const q = QUANTITIES[of as QuantityName].of;
      return (e, d) => band(name, q(e, d));
    }
    if (!(f in QUANTITIES)) throw new BugError(`rules: unknown factor ${f}`);
    return QUANTITIES[f as QuantityName].of;
  }
  if ('when' in f) {
    const { when, then = 1, else: otherwise = 0 } = f;
    return (e, d) => (conditionHolds(when, e, d) ? then : otherwise);
  }
  if ('first' in f) {
    const { first, else: otherwise = 0 } = f;
    return (e, d) => first.find(([c]) => conditionHolds(c, e, d))?.[1] ?? otherwise;
  }
  if ('max' in f) {
    const parts = f.max.map(compileProduct);
    return (e, d) => parts.reduce((m, p) => Math.max(m, p(e, d)), -Infinity);
  }
  if ('min' in f) {
    const parts = f.min.map(compileProduct);
    return (e, d) => parts.reduce((m, p) => Math.min(m, p(e, d)), Infinity);
  }
  if ('sum' in f) {
    const parts = f.sum.map(compileProduct);
    return (e, d) => parts.reduce((s, p) => s + p(e, d), 0);
  }
  return compileProduct(TERMS[f.term]);
}

/** Factors multiplied left to right; 0 as soon as a factor is 0 (a gate that does not hold). */
function compileProduct(p: Product): Compiled {
  const factors = p.map(compileFactor);
  return (e, d) => {
    let v = 1;
    for (const f of factors) {
      v *= f(e, d);
      if (v === 0) return 0;
    }
    return v;
  };
}

const compiled = new WeakMap<Product, Compiled>();

/** The value of a product on the evidence (compiled on first use). */
export function scoreProduct(p: Product, e: Evidence, d: Derived): number {
  let c = compiled.get(p);
  if (!c) compiled.set(p, (c = compileProduct(p)));
  return c(e, d);
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
