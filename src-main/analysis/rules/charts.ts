import type { ChartEvidence } from '../drawings/charts';
import { CALIBRATED } from './classes';

/**
 * When the nearest reference charts (drawings/charts.ts) name an image a chart: their best cosine
 * similarity must reach `minSimilarity` and beat the drawing vocabulary's best neighbour by
 * `overDrawings` (a grid icon is nearer its own kind of drawing), and at least `minBorderFlat` of
 * the image's outer band must be exactly flat, as rendered charts' margins are (≥ 0.80 on every
 * reference and calibration chart, 0.60–0.98 on JPEG q85 ones; a brick wall or a photographed
 * notebook page, which the features put near charts, 0.37–0.42); the kind ("bar chart") is said
 * when that share of the nearest charts' vote agrees on it, else "chart". Chosen with
 * `npx tsx tooling/drawings/charts-calibrate.ts` (docs/analysis.md "Charts"): matplotlib charts of
 * another seed 219/220 named, gnuplot charts 39/40, kinds right 190/190 and 22/25; non-charts
 * named chart 0 of 802 Tux Paint stamps and 245 wallpapers, 6 of 3 568 Open Clip Art renderings
 * (grid and text-alignment icons, a grey skyline, resistors). Confidence: `minSimilarity` → present,
 * `sureSimilarity` → sure.
 */
export const CHART_RULE = {
  minSimilarity: 0.7,
  overDrawings: 0.05,
  minBorderFlat: 0.5,
  kindShare: 0.75,
  sureSimilarity: 0.9,
} as const satisfies ChartRule;

/** The thresholds of CHART_RULE (the calibration tries others). */
export interface ChartRule {
  minSimilarity: number;
  overDrawings: number;
  minBorderFlat: number;
  kindShare: number;
  sureSimilarity: number;
}

/** An accepted chart: the caption's phrase word and its calibrated confidence. */
export interface AcceptedChart {
  /** "chart", or its kind ("bar chart") when the nearest charts agree on it. */
  word: string;
  /** The kind's word even when it is not sure enough for the caption (a tag below "present"). */
  kind: string;
  conf: number;
}

/** The chart the evidence names, if any. */
export function acceptedChart(c: ChartEvidence | undefined, rule: ChartRule = CHART_RULE): AcceptedChart | undefined {
  if (!c || c.similarity < rule.minSimilarity || c.similarity < c.drawingSimilarity + rule.overDrawings) return undefined;
  if (c.borderFlat < rule.minBorderFlat) return undefined;
  const span = CALIBRATED.sure - CALIBRATED.present;
  const conf = Math.min(
    CALIBRATED.sure,
    CALIBRATED.present + (span * (c.similarity - rule.minSimilarity)) / (rule.sureSimilarity - rule.minSimilarity),
  );
  return { word: c.kindShare >= rule.kindShare ? c.kind : 'chart', kind: c.kind, conf };
}
