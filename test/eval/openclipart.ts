// Open Clip Art (Debian openclipart-svg; public domain): the SVG files, their title and keywords,
// and the split of the collection into a reference part (the drawing vocabulary's table and its
// calibration) and a held-out part (`npm run eval:unseen`), by a hash of the path.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { decodeImage, type RgbImage } from '../../src-main/inference/image';

/** Default location of the Debian package's SVGs; PICSCAN_OPENCLIPART points elsewhere. */
export const OPENCLIPART_DIR = process.env.PICSCAN_OPENCLIPART ?? '/usr/share/openclipart/svg';

/**
 * Drawings the test fixtures were made from (file-name parts), left out of everything built or
 * measured here. The horse silhouette's Open Clip Art source (Andreas Preuss) is not in the
 * package; cheese_clipart.png and lion_line_drawing.png come from Azure's sample files, not from
 * Open Clip Art. `tooling/drawings/table.ts` also leaves out any drawing that is a near copy of a
 * fixture (NEAR_COPY_COSINE); none is.
 */
export const FIXTURE_SOURCES = ['dancer_sketch_erich_schu_01.svg', 'Minduka_Present_Blue_Pack'];

/** Share of the collection held out for evaluation: a drawing is held out when hash mod 1 000 < this × 1 000. */
export const HELD_OUT_SHARE = 0.25;

export type Split = 'reference' | 'held-out';

/**
 * Which part a drawing (path relative to the collection) belongs to: a stable hash of its file
 * name, not of its path, since the package files one drawing under several sections
 * (animals/x.svg and animals/amphibian/x.svg): copies stay on one side.
 */
export function splitOf(rel: string): Split {
  const h = createHash('sha256').update(basename(rel)).digest().readUInt32BE(0);
  return h % 1000 < HELD_OUT_SHARE * 1000 ? 'held-out' : 'reference';
}

/** Every SVG under `dir` (paths relative to it, sorted), without the duplicates folder and the fixtures' sources. */
export function svgFiles(dir = OPENCLIPART_DIR, sub = ''): string[] {
  return readdirSync(join(dir, sub))
    .sort()
    .flatMap((name) => {
      const rel = sub ? `${sub}/${name}` : name;
      if (statSync(join(dir, rel)).isDirectory()) return name === 'duplicates' ? [] : svgFiles(dir, rel);
      return name.endsWith('.svg') && !FIXTURE_SOURCES.some((s) => rel.includes(s)) ? [rel] : [];
    });
}

/** Title and keywords of a drawing (its Dublin Core metadata). */
export interface DrawingMeta {
  title: string;
  keywords: string[];
  creator: string;
}

const unescape = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

/** The first `<dc:title>` (the drawing's; later ones name the publisher and creator) and the `rdf:li` of `<dc:subject>`. */
export function drawingMeta(svg: string): DrawingMeta {
  const title = /<dc:title>([^<]*)<\/dc:title>/.exec(svg)?.[1] ?? '';
  const subject = /<dc:subject>([\s\S]*?)<\/dc:subject>/.exec(svg)?.[1] ?? '';
  const keywords = [...subject.matchAll(/<rdf:li>([^<]*)<\/rdf:li>/g)].map((m) => unescape(m[1]!)).filter(Boolean);
  const creator = /<dc:creator>[\s\S]*?<dc:title>([^<]*)<\/dc:title>/.exec(svg)?.[1] ?? '';
  return { title: unescape(title), keywords, creator: unescape(creator) };
}

/** The metadata of one file of the collection. */
export function readMeta(dir: string, rel: string): DrawingMeta {
  return drawingMeta(readFileSync(join(dir, rel), 'utf8'));
}

/** Drawings `npm run eval:unseen` rates: this many of the held-out part, evenly spread over it in path order. */
export const EVAL_SAMPLE = 240;

/**
 * The eval:unseen sample: every k-th held-out drawing (one path per file name), so it spreads over
 * all sections. The rest of the held-out part calibrates the vocabulary's thresholds.
 */
export function evalSample(files: readonly string[]): string[] {
  const seen = new Set<string>();
  const held = files.filter((f) => {
    const b = basename(f);
    if (splitOf(f) !== 'held-out' || seen.has(b)) return false;
    seen.add(b);
    return true;
  });
  const step = held.length / EVAL_SAMPLE;
  return Array.from({ length: Math.min(EVAL_SAMPLE, held.length) }, (_, i) => held[Math.floor(i * step)]!);
}

/**
 * CSS that restyles a drawing as line art, as a colouring-book page draws it: every shape filled
 * white and outlined in black, 1.5 px at any scale (librsvg honours `!important` over
 * presentation attributes and inline styles, and `non-scaling-stroke`).
 */
export const LINE_ART_STYLE =
  '<style>*{fill:#ffffff !important;fill-opacity:1 !important;stroke:#000000 !important;stroke-opacity:1 !important;' +
  'stroke-width:1.5px !important;vector-effect:non-scaling-stroke !important}</style>';

/**
 * The drawing as line art (LINE_ART_STYLE as the first child of its root element). The drawing
 * vocabulary holds such a rendering of each colour drawing beside the drawing itself, so a line
 * drawing of a thing finds the coloured drawings of it; `npm run eval:unseen` rates the held-out
 * sample this way too.
 */
export function lineArtSvg(svg: string): string {
  return svg.replace(/(<svg\b[^>]*>)/, `$1${LINE_ART_STYLE}`);
}

/** Longer side of a rendered drawing, px: eval:unseen, the drawing vocabulary's tools and the tests render at this size. */
export const DRAWING_RENDER_PX = 256;

/** An SVG rendered by sharp (librsvg) to RGB: longer side `side` px, flattened on white, decoded as the product decodes a file. */
export async function renderDrawingSvg(svg: Uint8Array, side = DRAWING_RENDER_PX): Promise<RgbImage> {
  const meta = await sharp(svg).metadata();
  const density = Math.min(2400, (72 * side) / Math.max(meta.width ?? side, meta.height ?? side));
  const png = await sharp(svg, { density }).resize(side, side, { fit: 'inside' }).flatten({ background: '#ffffff' }).png().toBuffer();
  return decodeImage(new Uint8Array(png), { maxPixels: 100e6 });
}
