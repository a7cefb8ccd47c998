// `npm run eval:unseen`: the pixel rules (ImageType), the object tags and the captions on images
// the rules were not written on, from Debian packages rather than the shared fixtures:
//   - photos: Tux Paint's photographic stamps (animals, fruit, vegetables, vehicles, household
//     things cut out on white; tuxpaint-stamps-default), MATE's nature wallpapers
//     (mate-backgrounds), KDE's photographic wallpapers (plasma-workspace-wallpapers; its
//     abstract renders and paintings left out) and Palapeli's puzzle photos (palapeli-data),
//     labelled by hand with the objects they show in unseen-photos.json, plus greyscale copies of
//     the wallpapers, the puzzle photos and the fixtures' colour photos, and the labelled stamps
//     small on a white canvas, JPEG-coded and on plain backdrops (backdrops.ts);
//   - GCompris' pictures (gcompris-qt-data, read from its Qt resource bundles): the
//     categorization activity's photographs (tools, household things, fish, monuments, wind and
//     solar power; public domain or CC0, many product shots on plain backgrounds) and the
//     vocabulary activity's cartoon word pictures (Arts4Apps, CC-BY-SA-3.0): photo or drawing,
//     and generic captions;
//   - graphics: matplotlib's logo (python-matplotlib-data);
//   - drawings: an evenly spread sample of the held-out part of Open Clip Art (openclipart-svg;
//     openclipart.ts: the drawing vocabulary is built from the other part), rendered at 256 px by
//     sharp, as PNG and as JPEG q80 and q70, and as line art (a colouring-book page of each:
//     lineArtSvg); their captions are checked against their keywords.
// Install the data with
//   apt-get install tuxpaint-stamps-default mate-backgrounds plasma-workspace-wallpapers palapeli-data \
//     python-matplotlib-data openclipart-svg gcompris-qt-data
// (or point the variables named in unseen-photos.json, PICSCAN_MPL_DATA, PICSCAN_GCOMPRIS_RCC and PICSCAN_OPENCLIPART at
// copies). Prints the figures quoted in docs/analysis.md; tooling, not a CI test (the data is not
// in CI). PICSCAN_UNSEEN_PHOTOS_ONLY=1 rates the labelled photos only (a few minutes instead of
// the 720 drawing analyses).
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import { analyzePixels, COCO80, IMAGENET_HIERARCHY } from '../../src-main/analysis';
import type { AnalyzeData, VisualFeature } from '../../src-main/shared/spec';
import { labelWord } from '../../src-main/analysis/rules';
import { BLANK_UNIFORM } from '../../src-main/analysis/rules/bands';
import { measurePixels } from '../../src-main/analysis/pixel-evidence';
import { cropRgb, decodeImage, type RgbImage } from '../../src-main/inference/image';
import { fixture, repoRoot } from '../helpers/paths';
import { createEngine, manifest, runnerOf } from '../main/analysis/fixtures';
import { GENERIC_CAPTIONS, sameThing } from './analyze-metrics';
import { drawingMeta, evalSample, lineArtSvg, OPENCLIPART_DIR, renderDrawingSvg, svgFiles } from './openclipart';
import { BACKDROPS, onBackdrop } from './backdrops';
import { readQtResources } from './qt-resources';

interface PhotoSet {
  dir: string;
  env: string;
  /** Path inside `dir` → objects shown, each as accepted words separated by `|`. */
  photos: Record<string, string[]>;
}
const labels = JSON.parse(readFileSync(join(repoRoot, 'test/eval/unseen-photos.json'), 'utf8')) as { packages: Record<string, PhotoSet> };
const sets = Object.entries(labels.packages).map(([pkg, s]) => ({ pkg, ...s, dir: process.env[s.env] ?? s.dir }));
const dirs = {
  mpl: process.env.PICSCAN_MPL_DATA ?? '/usr/share/matplotlib/mpl-data/sample_data',
  openclipart: OPENCLIPART_DIR,
  gcompris: process.env.PICSCAN_GCOMPRIS_RCC ?? '/usr/share/gcompris-qt/rcc',
};
for (const [name, dir] of [...sets.map((s) => [s.pkg, s.dir] as const), ...Object.entries(dirs)]) {
  if (!existsSync(dir)) {
    console.error(
      `${name}: ${dir} not found (apt-get install tuxpaint-stamps-default mate-backgrounds plasma-workspace-wallpapers palapeli-data python-matplotlib-data openclipart-svg gcompris-qt-data)`,
    );
    process.exit(2);
  }
}

/** Graphics among the sample images (logos). */
const GRAPHICS = [join(dirs.mpl, 'logo2.png')];
/** The repository's chart renders and the caption each should have ("a chart" is right for all; a wrong kind is not). */
const CHARTS: Record<string, string> = {
  'chart_area_log.jpg': 'an area chart',
  'chart_bars.jpg': 'a bar chart',
  'chart_heatmap.jpg': 'a chart',
  'chart_lines.jpg': 'a line chart',
  'chart_pie.jpg': 'a pie chart',
  'chart_scatter.jpg': 'a scatter plot',
  'chart_with_cartoon_monkey.jpg': 'a bar chart',
  'chart_with_robot_ganson.jpg': 'a bar chart',
  'chart_with_robot_saku.jpg': 'a bar chart',
};
const SAYS_CHART = /\b(chart|plot)\b/;

const engine = createEngine();
const runModel = runnerOf(engine);
const features = new Set<VisualFeature>(['ImageType', 'Tags', 'Description', 'Color']);
/** Words that name a thing: COCO words and the ImageNet classes' names and display words. */
const thingWords = new Set<string>([
  ...COCO80,
  ...COCO80.map(labelWord),
  ...IMAGENET_HIERARCHY.classes.slice(1).flatMap((c) => [c.name, ...(c.display ? [c.display] : [])]),
]);

interface Rated {
  name: string;
  clipArtType: number;
  lineDrawing: boolean;
  caption: string;
  /** Thing tags ≥ 0.5 with their confidences. */
  things: string[];
  strongTags: string[];
}

async function rate(name: string, img: RgbImage): Promise<Rated> {
  const { data } = await analyzePixels(img, features, new Set(), { runModel });
  return summarise(name, data);
}

function summarise(name: string, data: Omit<AnalyzeData, 'requestId' | 'metadata'>): Rated {
  const tags = (data.tags ?? []).filter((t) => t.confidence >= 0.5);
  return {
    name,
    clipArtType: data.imageType!.clipArtType,
    lineDrawing: data.imageType!.lineDrawingType === 1,
    caption: data.description!.captions[0]!.text,
    things: tags.filter((t) => thingWords.has(t.name)).map((t) => `${t.name} ${t.confidence.toFixed(2)}`),
    strongTags: tags.map((t) => t.name),
  };
}

const decode = (bytes: Uint8Array): Promise<RgbImage> => decodeImage(bytes, { maxPixels: 100e6 });
const encode = async (img: RgbImage, format: 'png' | 'grey' | 'jpeg85' | 'jpeg80' | 'jpeg70'): Promise<Uint8Array> => {
  let s = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
  if (format === 'grey') s = s.greyscale();
  const out = format.startsWith('jpeg') ? s.jpeg({ quality: Number(format.slice(4)) }) : s.png();
  return new Uint8Array(await out.toBuffer());
};

/** How many of the shown objects (each a list of accepted words) the strong tags name, and whether the caption names one. */
function judge(r: Rated, shown: string[]): { alternatives: number; hits: number; says: boolean } {
  const alternatives = shown.map((o) => o.split('|'));
  const hits = alternatives.filter((alt) => alt.some((w) => r.strongTags.some((t) => sameThing(t.toLowerCase(), w.toLowerCase()))));
  const says = alternatives.some((alt) => alt.some((w) => new RegExp(`\\b${w}(e?s)?\\b`, 'i').test(r.caption)));
  return { alternatives: alternatives.length, hits: hits.length, says };
}

/** `img` at `share` of the side of a white square canvas, off centre (a product shot with wide margins). */
async function onCanvas(img: RgbImage, share: number): Promise<RgbImage> {
  const side = Math.round(Math.max(img.width, img.height) / share);
  const raw = { width: img.width, height: img.height, channels: 3 as const };
  const out = await sharp({ create: { width: side, height: side, channels: 3, background: '#ffffff' } })
    .composite([{ input: Buffer.from(img.data), raw, left: Math.round(side * 0.35), top: Math.round(side * 0.4) }])
    .removeAlpha()
    .png()
    .toBuffer();
  return decode(new Uint8Array(out));
}

// Labelled photos: tag recall, captions naming an object, generic captions.
const photos: Rated[] = [];
let objects = 0;
let found = 0;
let withObjects = 0;
let named = 0;
const misses: string[] = [];
/** The same figures per package: the sets differ in kind (small cut-outs, wallpapers, puzzles). */
const perSet = new Map<string, { photos: number; generic: number; objects: number; found: number; withObjects: number; named: number }>();
for (const set of sets) {
  const mine = { photos: 0, generic: 0, objects: 0, found: 0, withObjects: 0, named: 0 };
  perSet.set(set.pkg, mine);
  for (const [path, shown] of Object.entries(set.photos)) {
    const img = await decode(readFileSync(join(set.dir, path)));
    const r = await rate(`${set.pkg}/${path}`, img);
    photos.push(r);
    mine.photos++;
    if (GENERIC_CAPTIONS.has(r.caption)) mine.generic++;
    if (set.pkg !== 'tuxpaint-stamps-default') photos.push(await rate(`grey ${r.name}`, await decode(await encode(img, 'grey'))));
    if (!shown.length) continue;
    withObjects++;
    mine.withObjects++;
    const { alternatives, hits, says } = judge(r, shown);
    objects += alternatives;
    found += hits;
    mine.objects += alternatives;
    mine.found += hits;
    if (says) named++;
    if (says) mine.named++;
    if (hits < alternatives || !says)
      misses.push(`${r.name} (${shown.join(', ')}): "${r.caption}"; ${r.things.join(', ') || 'no thing tags'}`);
  }
}
// The same stamps as product shots often come: small on a large white canvas (the stamp 30 % of
// its side), and JPEG-coded. The classifier must see the subject, not the canvas, and a photo cut
// out on white must not pass for clip art when JPEG's noise roughens its background's edge.
const CANVAS_SHARE = 0.3;
const STAMP_VARIANTS = {
  [`on a white canvas (${CANVAS_SHARE * 100} % of its side)`]: (img: RgbImage) => onCanvas(img, CANVAS_SHARE),
  'as JPEG q85': async (img: RgbImage) => decode(await encode(img, 'jpeg85')),
  'on the canvas as JPEG q85': async (img: RgbImage) => decode(await encode(await onCanvas(img, CANVAS_SHARE), 'jpeg85')),
  // A studio card, dark table or grey sweep instead of a white page (backdrops.ts, in turn).
  'on a plain backdrop (black, greys, a sweep, muted colours) as 320 px JPEG q85': (_img: RgbImage, file: string, i: number) =>
    onBackdrop(file, BACKDROPS[i % BACKDROPS.length]!),
} as const satisfies Record<string, (img: RgbImage, file: string, index: number) => Promise<RgbImage>>;
/** The figures of one variant of the labelled photos. */
interface VariantTally {
  photos: number;
  generic: number;
  objects: number;
  found: number;
  named: number;
  clipArt: number;
}
const newTally = (): VariantTally => ({ photos: 0, generic: 0, objects: 0, found: 0, named: 0, clipArt: 0 });
/** Counts one rated photo of a variant against the objects it shows. */
function tally(v: VariantTally, r: Rated, shown: string[]): void {
  const { alternatives, hits, says } = judge(r, shown);
  v.photos++;
  v.objects += alternatives;
  v.found += hits;
  if (says) v.named++;
  if (GENERIC_CAPTIONS.has(r.caption)) v.generic++;
  if (r.clipArtType >= 2) v.clipArt++;
}
const stampVariants = new Map<string, VariantTally>();
const stampSet = sets.find((set) => set.pkg === 'tuxpaint-stamps-default');
for (const [variant, make] of Object.entries(STAMP_VARIANTS)) {
  const v = newTally();
  stampVariants.set(variant, v);
  for (const [i, [path, shown]] of Object.entries(stampSet?.photos ?? {}).entries()) {
    if (!shown.length) continue;
    const file = join(stampSet!.dir, path);
    tally(v, await rate(`${variant} ${path}`, await make(await decode(readFileSync(file)), file, i)), shown);
  }
}
// Panoramas and banners (docs/analysis.md "Wide images"): the full-size labelled photos made 3:1
// or wider, as three copies side by side (every object whole) and as their central 3:1 band.
const WIDE_SHAPE = 3;
/** `img` `n` times side by side. */
function sideBySide(img: RgbImage, n: number): RgbImage {
  const row = img.width * 3;
  const data = new Uint8Array(row * n * img.height);
  for (let y = 0; y < img.height; y++) for (let i = 0; i < n; i++) data.set(img.data.subarray(y * row, (y + 1) * row), (y * n + i) * row);
  return { data, width: img.width * n, height: img.height };
}
/** The central band of `img` whose long side is `shape` × its short side (the long side kept). */
function centralBand(img: RgbImage, shape: number): RgbImage {
  const wide = img.width >= img.height;
  const side = Math.min(wide ? img.height : img.width, Math.round((wide ? img.width : img.height) / shape));
  const box = wide
    ? { left: 0, top: Math.floor((img.height - side) / 2), width: img.width, height: side }
    : { left: Math.floor((img.width - side) / 2), top: 0, width: side, height: img.height };
  return cropRgb(img, box);
}
const WIDE_VARIANTS = {
  [`three side by side (${WIDE_SHAPE}:1 for a square photo)`]: (img: RgbImage) => sideBySide(img, WIDE_SHAPE),
  [`their central band of ${WIDE_SHAPE}:1`]: (img: RgbImage) => centralBand(img, WIDE_SHAPE),
} as const satisfies Record<string, (img: RgbImage) => RgbImage>;
const wideVariants = new Map<string, VariantTally>();
for (const [variant, make] of Object.entries(WIDE_VARIANTS)) {
  const v = newTally();
  wideVariants.set(variant, v);
  for (const set of sets.filter((x) => x.pkg !== 'tuxpaint-stamps-default'))
    for (const [path, shown] of Object.entries(set.photos))
      if (shown.length) tally(v, await rate(`${variant} ${path}`, make(await decode(readFileSync(join(set.dir, path))))), shown);
}
for (const m of manifest.filter((f) => !f.truth.isBW && f.truth.clipArt === false)) {
  const img = await decode(readFileSync(fixture(m.file)));
  photos.push(await rate(`grey ${m.file}`, await decode(await encode(img, 'grey'))));
}
const graphics = await Promise.all(GRAPHICS.map(async (f) => rate(relative(join(f, '..', '..'), f), await decode(readFileSync(f)))));
// Charts: the repository's gnuplot renders (face-free negatives, CHARTS), which the chart
// references (matplotlib) never saw; the caption should name the kind.
const charts = await Promise.all(
  Object.keys(CHARTS).map(async (f) => rate(f, await decode(readFileSync(join(repoRoot, 'test/fixtures/negatives', f))))),
);

// GCompris: photographs (many product shots on plain backgrounds, which the pixel terms read as
// synthetic) and cartoon word pictures, as the package ships them (WebP).
const GCOMPRIS = {
  photos: {
    bundle: 'categorization.rcc',
    under: /\/categorization\/resource\/images\/(fishes|monuments|others|renewable|tools)\/[^/]+\.webp$/,
  },
  cartoons: { bundle: 'lang.rcc', under: /\/lang\/resource\/words_sample\/[^/]+\.webp$/ },
} as const;
const gcompris: Record<keyof typeof GCOMPRIS, Rated[]> = { photos: [], cartoons: [] };
for (const [part, { bundle, under }] of Object.entries(GCOMPRIS) as [keyof typeof GCOMPRIS, (typeof GCOMPRIS)[keyof typeof GCOMPRIS]][]) {
  const files = [...readQtResources(join(dirs.gcompris, bundle))]
    .filter(([path]) => under.test(path))
    .sort((a, b) => a[0].localeCompare(b[0]));
  for (const [path, bytes] of files) gcompris[part].push(await rate(path.split('/').slice(-2).join('/'), await decode(bytes)));
}

// Drawings: the held-out sample (every k-th held-out SVG in path order, openclipart.ts).
const photosOnly = process.env.PICSCAN_UNSEEN_PHOTOS_ONLY === '1';
const all = photosOnly ? [] : svgFiles(dirs.openclipart);
const sample = photosOnly ? [] : evalSample(all).map((rel) => join(dirs.openclipart, rel));
const drawings: Record<'png' | 'jpeg80' | 'jpeg70' | 'line', Rated[]> = { png: [], jpeg80: [], jpeg70: [], line: [] };
let unrenderable = 0;
/** Title and keywords of each sampled drawing, lower case. */
const keywordsOf = new Map<string, string>();
for (const path of sample) {
  let img: RgbImage;
  let lineArt: RgbImage;
  try {
    const svg = readFileSync(path);
    img = await renderDrawingSvg(svg);
    lineArt = await renderDrawingSvg(Buffer.from(lineArtSvg(svg.toString('utf8'))));
  } catch {
    unrenderable++;
    continue;
  }
  // The renderer drew nothing of some SVGs: a blank page is no drawing to caption.
  if ((await measurePixels(img)).scene.uniform >= BLANK_UNIFORM) {
    unrenderable++;
    continue;
  }
  const name = relative(dirs.openclipart, path);
  const meta = drawingMeta(readFileSync(path, 'utf8'));
  keywordsOf.set(name, [meta.title, ...meta.keywords].join(' ').toLowerCase());
  drawings.png.push(await rate(name, img));
  drawings.jpeg80.push(await rate(name, await decode(await encode(img, 'jpeg80'))));
  drawings.jpeg70.push(await rate(name, await decode(await encode(img, 'jpeg70'))));
  drawings.line.push(await rate(name, lineArt));
}

const count = (xs: Rated[], f: (r: Rated) => boolean): string => `${xs.filter(f).length} / ${xs.length}`;
const pct = (a: number, b: number): string => `${((100 * a) / Math.max(1, b)).toFixed(1)} % (${a}/${b})`;
const labelled = photos.filter((p) => !p.name.startsWith('grey '));
console.log(`labelled photos (${labelled.length}, ${withObjects} with objects):`);
console.log(`  object recall in tags ≥ 0.5   ${pct(found, objects)} (target ≥ 80 %)`);
console.log(`  caption names an object       ${pct(named, withObjects)} (target ≥ 90 %)`);
console.log(
  `  generic captions              ${pct(labelled.filter((r) => GENERIC_CAPTIONS.has(r.caption)).length, labelled.length)} (target ≤ 5 %)`,
);
for (const [pkg, m] of perSet)
  console.log(
    `  ${pkg}: ${m.photos} photos; object recall ${pct(m.found, m.objects)}, caption names an object ${pct(m.named, m.withObjects)}, generic ${pct(m.generic, m.photos)}`,
  );
for (const [variant, v] of stampVariants)
  console.log(
    `  tuxpaint stamps ${variant}, ${v.photos}: object recall ${pct(v.found, v.objects)}, caption names an object ${pct(v.named, v.photos)}, generic ${pct(v.generic, v.photos)}, clip art (≥ 2) ${pct(v.clipArt, v.photos)}`,
  );
for (const [variant, v] of wideVariants)
  console.log(
    `  full-size photos ${variant}, ${v.photos}: object recall ${pct(v.found, v.objects)}, caption names an object ${pct(v.named, v.photos)}, generic ${pct(v.generic, v.photos)}`,
  );
// Setting words on things cut out on white (the stamps): their page is no setting (rules figure.isolated).
const SETTING = / (in the snow|outdoors|in a grassy area|indoors|at night)$/;
const stamps = labelled.filter((r) => r.name.startsWith('tuxpaint-stamps-default/'));
const withSetting = stamps.filter((r) => SETTING.test(r.caption));
console.log(
  `  cut-out stamps captioned with a setting: ${withSetting.length} of ${stamps.length}${withSetting.map((r) => `; ${r.name.split('/').pop()}: "${r.caption}"`).join('')}`,
);
console.log('  generic:');
for (const r of labelled.filter((x) => GENERIC_CAPTIONS.has(x.caption)))
  console.log(`    ${r.name}: "${r.caption}"; ${r.things.join(', ') || 'no thing tags'}`);
console.log('  misses:');
for (const m of misses) console.log(`    ${m}`);
console.log(
  `photos incl. greyscale copies (${photos.length}): clip art (≥ 2) ${count(photos, (r) => r.clipArtType >= 2)}, ambiguous (1) ${count(photos, (r) => r.clipArtType === 1)}, line drawing ${count(photos, (r) => r.lineDrawing)}`,
);
for (const r of photos.filter((p) => p.clipArtType >= 1 || p.lineDrawing))
  console.log(`  ${r.name}: clipArtType ${r.clipArtType}${r.lineDrawing ? ', line drawing' : ''}`);
console.log(`graphics: ${graphics.map((r) => `${r.name} clipArtType ${r.clipArtType}`).join('; ')}`);
const saysChart = [...photos, ...graphics, ...Object.values(drawings).flat()].filter((r) => SAYS_CHART.test(r.caption));
console.log(
  `charts (${charts.length} gnuplot renders): named a chart ${charts.filter((r) => SAYS_CHART.test(r.caption)).length}, ` +
    `with the right kind ${charts.filter((r) => r.caption === CHARTS[r.name] || r.caption === 'a chart').length}; ` +
    charts.map((r) => `${r.name} "${r.caption}"`).join('; '),
);
console.log(`  other images called a chart: ${saysChart.length}${saysChart.map((r) => `; ${r.name} "${r.caption}"`).join('')}`);
for (const [part, rated] of Object.entries(gcompris)) {
  console.log(
    `gcompris ${part} (${rated.length}): clip art (≥ 2) ${count(rated, (r) => r.clipArtType >= 2)}, line drawing ${count(rated, (r) => r.lineDrawing)}, generic caption ${count(rated, (r) => GENERIC_CAPTIONS.has(r.caption))}, with a setting ${count(rated, (r) => SETTING.test(r.caption))}`,
  );
  if (part === 'photos')
    for (const r of rated.filter((x) => x.clipArtType >= 2 || GENERIC_CAPTIONS.has(x.caption) || SETTING.test(x.caption)))
      console.log(`  ${r.name}: clipArtType ${r.clipArtType}, "${r.caption}"`);
  if (part === 'cartoons') {
    // Each word picture is named by its word (words_sample/apricot.webp): a thing tag is right when it is that word.
    const wordOf = (r: Rated): string =>
      r.name
        .split('/')
        .at(-1)!
        .replace(/\.webp$/, '')
        .replace(/_/g, ' ')
        .toLowerCase();
    const tagged = rated.filter((r) => r.things.length);
    const own = tagged.filter((r) => r.things.some((t) => t.slice(0, t.lastIndexOf(' ')).toLowerCase() === wordOf(r)));
    console.log(`  with a thing tag ≥ 0.5 ${tagged.length} / ${rated.length}, one of them the picture's own word ${own.length}`);
    for (const r of tagged) console.log(`    ${own.includes(r) ? '✓' : '✗'} ${r.name}: ${r.things.join(', ')}`);
  }
}
console.log(`\nOpen Clip Art sample: ${sample.length} of ${all.length} SVGs, ${unrenderable} not renderable or rendered blank`);
for (const [format, rated] of Object.entries(drawings)) {
  console.log(
    `  ${format}: clip art (≥ 2) ${count(rated, (r) => r.clipArtType >= 2)}, line drawing ${count(rated, (r) => r.lineDrawing)}, with a thing tag ≥ 0.5 ${count(rated, (r) => r.things.length > 0)}, generic caption ${count(rated, (r) => GENERIC_CAPTIONS.has(r.caption))}`,
  );
}
// A caption naming a thing whose word (or its plural) is in the drawing's title or keywords.
const subjectOf = (caption: string): string | undefined =>
  /^(?:a clip art image of |a drawing of )?(?:an? |two |three |four |five )?(.+?)(?: drawn in black and white| and an? .*| on an? .*| lying on .*)?$/.exec(
    caption,
  )?.[1];
const namedIn = (rated: Rated[]): Rated[] => rated.filter((r) => !GENERIC_CAPTIONS.has(r.caption));
const rightIn = (rated: Rated[]): Rated[] =>
  namedIn(rated).filter((r) => {
    const w = subjectOf(r.caption);
    return !!w && new RegExp(`\\b${w.replace(/[^a-z ]/gi, '')}(e?s)?\\b`, 'i').test(keywordsOf.get(r.name) ?? '');
  });
const namedDrawings = namedIn(drawings.png);
const right = rightIn(drawings.png);
console.log(
  `  PNG captions naming a thing: ${count(drawings.png, (r) => !GENERIC_CAPTIONS.has(r.caption))}; the thing in the title/keywords: ${right.length} / ${namedDrawings.length}`,
);
console.log(
  `  line-art captions naming a thing: ${count(drawings.line, (r) => !GENERIC_CAPTIONS.has(r.caption))}; the thing in the title/keywords: ${rightIn(drawings.line).length} / ${namedIn(drawings.line).length}`,
);
console.log('  thing tags ≥ 0.5 on the PNG drawings (judge by the file name):');
for (const r of drawings.png.filter((d) => d.things.length)) console.log(`    ${r.name}: ${r.things.join(', ')} — "${r.caption}"`);
console.log('  PNG captions naming a thing:');
for (const r of namedDrawings) console.log(`    ${right.includes(r) ? '  ' : '✗ '}${r.name}: "${r.caption}"`);
console.log('  line-art captions naming a thing:');
const rightLines = rightIn(drawings.line);
for (const r of namedIn(drawings.line)) console.log(`    ${rightLines.includes(r) ? '  ' : '✗ '}${r.name}: "${r.caption}"`);
await engine.dispose();
