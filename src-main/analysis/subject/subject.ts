import type { Box, RgbImage } from '../../inference';
import type { ColorName } from '../../shared/spec';
import { maskedColorName } from '../color/foreground';
import type { CocoLabel } from '../objects/coco';
import type { ClassMask } from './segment';
import { cocoOfVoc, VOC21 } from './voc';

/**
 * Region sizes (shares of the image): a VOC class is a region from `minRegion`; its box spans the
 * cells between the `trim` and 1 − `trim` quantiles of its columns and rows (stray cells of a
 * class elsewhere do not stretch it); the main subject's own colour replaces the centre-weighted
 * foreground colour from `minColour` (smaller subjects give too few pixels to beat the centre guess).
 */
export const SUBJECT = { minRegion: 0.01, trim: 0.01, minColour: 0.05 } as const;

/** Furniture is what things rest on, never the main subject. */
const SUPPORTS: ReadonlySet<CocoLabel> = new Set(['couch', 'chair', 'dining table']);

/** One segmented class: its COCO label, share of the image and box in source pixels. */
export interface SubjectRegion {
  label: CocoLabel;
  share: number;
  box: Box;
}

/** What the segmenter tells the rules: the regions, the main subject and its own colour. */
export interface SubjectEvidence {
  /** Regions ≥ SUBJECT.minRegion, largest first. */
  regions: SubjectRegion[];
  /**
   * The main subject: the largest region, not furniture, of a thing the detector or the
   * classifier saw (DeepLab paints things it does not know as one of its 20 classes).
   */
  main?: SubjectRegion;
  /**
   * Region of interest for smart thumbnails (internal, not in the response yet): the main
   * subject's box.
   */
  roi?: Box;
  /** Colour name of most of the main subject's pixels, when it covers ≥ SUBJECT.minColour. */
  foreground?: ColorName;
}

/** Regions, main subject (among the `seen` things) and its colour from DeepLab's class mask over `img`. */
export function subjectFromMask(mask: ClassMask, img: RgbImage, seen: ReadonlySet<CocoLabel>): SubjectEvidence {
  const { width: w, height: h, classes } = mask;
  const n = VOC21.length;
  const counts = new Float64Array(n);
  const cols = Array.from({ length: n }, () => new Uint32Array(w));
  const rows = Array.from({ length: n }, () => new Uint32Array(h));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const k = classes[y * w + x]!;
      if (k === 0) continue;
      counts[k]!++;
      cols[k]![x]!++;
      rows[k]![y]!++;
    }
  }
  const regions: Array<SubjectRegion & { index: number }> = [];
  for (let k = 1; k < n; k++) {
    const share = counts[k]! / (w * h);
    const label = cocoOfVoc(k);
    if (share < SUBJECT.minRegion || !label) continue;
    const [x0, x1] = quantileSpan(cols[k]!, counts[k]!);
    const [y0, y1] = quantileSpan(rows[k]!, counts[k]!);
    const sx = img.width / w;
    const sy = img.height / h;
    regions.push({ index: k, label, share, box: { left: x0 * sx, top: y0 * sy, width: (x1 - x0 + 1) * sx, height: (y1 - y0 + 1) * sy } });
  }
  regions.sort((a, b) => b.share - a.share);
  const main = regions.find((r) => !SUPPORTS.has(r.label) && seen.has(r.label));
  const foreground =
    main && main.share >= SUBJECT.minColour
      ? maskedColorName(img, { width: w, height: h, inside: (i) => classes[i] === main.index })
      : undefined;
  const strip = ({ label, share, box }: SubjectRegion): SubjectRegion => ({ label, share, box });
  return { regions: regions.map(strip), main: main && strip(main), roi: main?.box, foreground };
}

/** First and last index between the SUBJECT.trim and 1 − trim quantiles of a histogram with `total` counts. */
function quantileSpan(hist: Uint32Array, total: number): [number, number] {
  const lo = SUBJECT.trim * total;
  const hi = (1 - SUBJECT.trim) * total;
  let acc = 0;
  let first = 0;
  let last = hist.length - 1;
  let seenFirst = false;
  for (let i = 0; i < hist.length; i++) {
    acc += hist[i]!;
    if (!seenFirst && acc > lo) {
      first = i;
      seenFirst = true;
    }
    if (acc >= hi) {
      last = i;
      break;
    }
  }
  return [first, Math.max(first, last)];
}
