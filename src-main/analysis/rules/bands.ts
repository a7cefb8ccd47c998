import type { ColorName } from '../../shared/spec';
import type { Evidence } from '../evidence';
import { IMAGE_TYPE_RULES } from '../image-type';
import type { Derived } from './derive';
import { QUANTITIES, type QuantityName } from './quantities';

/**
 * `uniform` (scene cue) from which an image is blank: at the 160 px statistics scale, ≤ 38 of
 * 19 200 pixels off the flat colour. A 60 px logo on a 1 000 px page is ≈ 100 of them; empty SVG
 * renders, solid placeholders and JPEG-coded flat fills are ≥ 0.9999; no photo, drawing or stamp
 * of the fixtures, eval:unseen's sets and the Open Clip Art sample that the renderer drew reached 0.992.
 */
export const BLANK_UNIFORM = 0.998;

/**
 * `levelSpan` (scene cue, 8-bit levels) below which a photo was taken far too dark to read its
 * setting: its smooth dark top is no more a night sky than a dim room. Fixture photos dimmed to
 * 12 % of their levels span 23–34, to 20 % 39–55; the dim fixture photos (the rocket at night,
 * dark portraits) 144 and more; five flat dark renders and textures among eval:unseen's packages'
 * wallpapers span less (docs/analysis.md "ImageType"). It is the upper end of the clip-art score's
 * ramp (IMAGE_TYPE_RULES.underexposed): one count for both readings of an underexposed photo.
 */
export const FEW_LEVELS = IMAGE_TYPE_RULES.underexposed.levels[1];

/**
 * Inputs of bands that derive.ts reads per detection rather than per image (not in QUANTITIES).
 * Descriptions for the generated docs.
 */
export const LOCAL_INPUTS = {
  boxShare: 'area of one confidently detected non-person box / image area',
  closeUpConf: "calibrated confidence of the classifier's best thing of a close-up kind, or of such a kind (not animal) summed",
  regionShare: "share of the image one DeepLab class covers (a segmented region's own pixels)",
  maskShare: 'share of the image one segmented non-person region covers',
} as const;

/**
 * A named cue band: 0 at `from`, 1 at `to`, linear between (a descending band when to < from).
 * Several rules share a band where they mean the same thing ("a green scene").
 */
export interface Band {
  of: QuantityName | keyof typeof LOCAL_INPUTS;
  from: number;
  to: number;
  /** Why these numbers, one line. */
  why: string;
}

/**
 * The cue bands of the category, tag and derived rules (docs/analysis.md renders this table).
 * Named `<quantity>.<meaning>`.
 */
export const BANDS = {
  // People.
  'faceShare.portrait': { of: 'faceShare', from: 0.02, to: 0.06, why: 'a face this large is a portrait subject' },
  'water.swim': { of: 'water', from: 0.2, to: 0.4, why: 'a pool or a swim fills much of the frame with water' },
  'brightSpots.stage': { of: 'brightSpots', from: 0.01, to: 0.05, why: 'stage lights: several bright spots in the dark' },
  'skin.hand': { of: 'skin', from: 0.25, to: 0.5, why: 'a hand close up is mostly skin' },
  'skin.tattoo': { of: 'skin', from: 0.3, to: 0.5, why: 'a tattoo is shown on much bare skin' },
  'textBlocks.ink': { of: 'textBlocks', from: 0.05, to: 0.15, why: 'ink strokes on skin read as a few text-like blocks' },
  // Buildings.
  'straightEdges.building': { of: 'straightEdges', from: 0.05, to: 0.12, why: 'façades have long straight edges' },
  'sky.some': { of: 'sky', from: 0.05, to: 0.2, why: 'some sky: the scene is outdoors' },
  'edges.rough': { of: 'edges', from: 0.15, to: 0.3, why: 'stone and masonry: many small edges' },
  'straightEdges.brick': { of: 'straightEdges', from: 0.08, to: 0.15, why: 'brick courses: dense straight edges' },
  'straightEdges.facade': { of: 'straightEdges', from: 0.12, to: 0.2, why: 'doors, windows, city blocks: many straight edges' },
  'verticalShare.pillar': { of: 'verticalShare', from: 0.6, to: 0.75, why: 'pillars: mostly vertical edges' },
  'horizontalShare.stair': { of: 'horizontalShare', from: 0.65, to: 0.8, why: 'stairs: mostly horizontal edges' },
  // Dark scenes.
  'dark.scene': { of: 'dark', from: 0.4, to: 0.7, why: 'a dark photo: most pixels below L* 20' },
  'dark.night': { of: 'dark', from: 0.25, to: 0.45, why: 'night: a quarter to half of the pixels dark' },
  'warmGlow.fire': { of: 'warmGlow', from: 0.04, to: 0.12, why: 'fire: warm glow in the dark' },
  'brightSpots.fireworks': { of: 'brightSpots', from: 0.02, to: 0.06, why: 'fireworks: many bright spots' },
  'colorfulness.fireworks': { of: 'colorfulness', from: 0.4, to: 0.7, why: 'fireworks are colourful' },
  'brightSpots.lights': { of: 'brightSpots', from: 0.005, to: 0.03, why: 'lights at night: a few bright spots' },
  // Indoors.
  'objectKinds.store': { of: 'objectKinds', from: 4, to: 7, why: 'a market or store shows many kinds of goods' },
  'dark.churchwindow': { of: 'dark', from: 0.3, to: 0.5, why: 'stained glass glows in a dark interior' },
  'colorfulness.stainedGlass': { of: 'colorfulness', from: 0.6, to: 0.9, why: 'stained glass is very colourful' },
  'straightEdges.frames': { of: 'straightEdges', from: 0.1, to: 0.18, why: 'door and window frames indoors' },
  // Outdoors and plants.
  'vegetation.green': { of: 'vegetation', from: 0.15, to: 0.35, why: 'a green scene: grass, trees, a pitch' },
  'vegetation.field': { of: 'vegetation', from: 0.3, to: 0.5, why: 'a field: green over much of the image' },
  'vegetation.some': { of: 'vegetation', from: 0.05, to: 0.2, why: 'some greenery beside water or a house, or branches' },
  'vegetation.lawn': { of: 'vegetation', from: 0.1, to: 0.3, why: 'a lawn or grass under people' },
  'vegetation.plants': { of: 'vegetation', from: 0.25, to: 0.5, why: 'plants fill a quarter to half of the image' },
  'vegetation.foliage': { of: 'vegetation', from: 0.5, to: 0.7, why: 'leaves fill most of the frame' },
  'vegetation.natural': { of: 'vegetation', from: 0.08, to: 0.25, why: 'greenery makes a natural (outdoor) setting' },
  'water.body': { of: 'water', from: 0.15, to: 0.35, why: 'a body of water' },
  'water.shore': { of: 'water', from: 0.08, to: 0.2, why: 'a waterside: water beside land' },
  'water.sea': { of: 'water', from: 0.15, to: 0.3, why: 'the sea at a beach' },
  'sky.beach': { of: 'sky', from: 0.1, to: 0.25, why: 'a beach view includes sky' },
  'skinOrGlow.beach': { of: 'skinOrGlow', from: 0.05, to: 0.15, why: 'sand and sunbathers: skin tones or warm glow' },
  'straightEdges.poolEdge': { of: 'straightEdges', from: 0.04, to: 0.1, why: 'a pool has straight edges' },
  'sky.wide': { of: 'sky', from: 0.15, to: 0.3, why: 'a wide sky: mountains, the sun' },
  'edges.mountain': { of: 'edges', from: 0.08, to: 0.16, why: 'mountain ridges and rock: moderate natural edges' },
  'sky.tree': { of: 'sky', from: 0.05, to: 0.15, why: 'trees stand against some sky' },
  'edges.leaves': { of: 'edges', from: 0.1, to: 0.2, why: 'leaves are textured' },
  'sky.open': { of: 'sky', from: 0.3, to: 0.5, why: 'much sky: branches or things against it' },
  'edges.branches': { of: 'edges', from: 0.08, to: 0.15, why: 'branches draw edges across the sky' },
  'sky.natural': { of: 'sky', from: 0.08, to: 0.25, why: 'sky makes a natural (outdoor) setting' },
  'snow.natural': { of: 'snow', from: 0.15, to: 0.35, why: 'snow makes a natural (outdoor) setting' },
  // Sky.
  'sky.cloud': { of: 'sky', from: 0.2, to: 0.4, why: 'clouds need much sky' },
  'cloudShare.cloud': { of: 'cloudShare', from: 0.2, to: 0.5, why: 'clouds: a fifth to half of the sky grey-white' },
  'warmGlow.sun': { of: 'warmGlow', from: 0.03, to: 0.1, why: 'the sun: warm glow in the sky' },
  // Text.
  'textBlocks.page': { of: 'textBlocks', from: 0.25, to: 0.45, why: 'a page of text: many text-like blocks' },
  'textLines.page': { of: 'textLines', from: 2, to: 5, why: 'several lines of writing' },
  'colorfulness.magazine': { of: 'colorfulness', from: 0.3, to: 0.5, why: 'magazines are colourful' },
  'colorfulness.map': { of: 'colorfulness', from: 0.4, to: 0.6, why: 'maps are colourful' },
  // Patterns.
  'repetition.pattern': {
    of: 'repetition',
    from: 0.8,
    to: 0.95,
    why: 'a motif repeating in both directions: drawn patterns 0.92–1, a sudoku grid 0.85, text and charts 0',
  },
  // Lettering.
  'letteringInk.most': {
    of: 'letteringInk',
    from: 0.6,
    to: 0.9,
    why: 'most of the ink is lettering: word marks and banners 0.98–1; a drawing with a title well below',
  },
  // QR codes.
  'qrCode.main': {
    of: 'qrCode',
    from: 0.05,
    to: 0.15,
    why: 'the code is what the image shows: a code alone 0.15–0.7 (on a wide white canvas the least), one in a photo a few %',
  },
  'barcode.main': {
    of: 'barcode',
    from: 0.15,
    to: 0.3,
    why: 'the barcode is what the image shows: a code alone 0.34–0.62; a drawn label with a barcode under its picture 0.13',
  },
  // Star fields.
  'starPoints.field': {
    of: 'starPoints',
    from: 0.5,
    to: 2,
    why: 'points of light spread over the frame: photos of the night sky 2–29 per 10 000 px, other photos 0',
  },
  'dark.starField': { of: 'dark', from: 0.5, to: 0.7, why: 'a star field is mostly dark sky: sky photos 0.67–0.99 of their pixels' },
  // Abstract.
  'chromaP50.pale': { of: 'chromaP50', from: 40, to: 0, why: 'few colours: the paler the clip art, the more a shape' },
  'straightEdges.rect': { of: 'straightEdges', from: 0.1, to: 0.2, why: 'rectangles and nets: dense straight edges' },
  'edges.net': { of: 'edges', from: 0.3, to: 0.45, why: 'a net: very dense edges' },
  'edges.texture': { of: 'edges', from: 0.25, to: 0.4, why: 'a texture: dense edges everywhere' },
  // Tags.
  'sky.tag': { of: 'sky', from: 0.1, to: 0.3, why: 'the sky tag from a tenth of the image' },
  'sky.treeTag': { of: 'sky', from: 0.03, to: 0.15, why: 'the tree tag needs a little sky above the green' },
  'snow.cover': { of: 'snow', from: 0.2, to: 0.4, why: 'snow on the ground' },
  // Frame filling (derive.ts).
  'boxShare.fill': { of: 'boxShare', from: 0.3, to: 0.6, why: 'one big confident box fills the frame' },
  'closeUpConf.fill': { of: 'closeUpConf', from: 0.5, to: 0.9, why: 'a surely named close-up thing fills the frame' },
  'maskShare.fill': { of: 'maskShare', from: 0.25, to: 0.5, why: "a thing's own pixels cover a quarter to half of the frame" },
  'faceShare.fill': {
    of: 'faceShare',
    from: 0.1,
    to: 0.25,
    why: 'a close-up face fills the frame: the thin margin around it (a backdrop, hair) tells no setting by its colour',
  },
  // Segmented regions (opinions.ts REGION_CONF).
  'regionShare.thing': { of: 'regionShare', from: 0.01, to: 0.1, why: 'a region of a tenth of the image is surely there' },
} as const satisfies Record<string, Band>;

export type BandName = keyof typeof BANDS;

/** A named condition over a quantity: every bound given must hold. */
export interface RangeTest {
  of: QuantityName;
  /** Strict lower bound (>). */
  above?: number;
  /** Strict upper bound (<). */
  below?: number;
  /** Inclusive lower bound (≥). */
  min?: number;
  /** Inclusive upper bound (≤). */
  max?: number;
  why: string;
}
/** A named condition on the colour names of the Color feature. */
export interface ColourTest {
  /** Foreground or background name among `in`, or every name of `in` dominant. */
  colour: 'foreground' | 'background' | 'dominant';
  in: readonly ColorName[];
  why: string;
}
/** A named condition that needs code (geometry, counts); its numbers are named constants. */
export interface CheckTest {
  check(e: Evidence, d: Derived): boolean;
  what: string;
  why: string;
}
export type NamedTest = RangeTest | ColourTest | CheckTest;

/** An image is tall (portrait format) when its height exceeds this × its width. */
export const TALL_ASPECT = 1.2;
/** A bottle box is squat (a can) when its height is under this × its width. */
export const SQUAT_ASPECT = 1.8;
/** Share of the people that must be children for people_young. */
export const CHILD_MAJORITY = 0.5;
/** Largest face share from which a face is a portrait (backdrops behind it are not sky). */
export const PORTRAIT_FACE_SHARE = 0.02;

/** The named conditions of the rules (docs/analysis.md renders this table). */
export const TESTS = {
  // People counts.
  'people.none': { of: 'persons', max: 0, why: 'nobody counted' },
  'people.any': { of: 'persons', above: 0, why: 'somebody counted' },
  'people.portrait': { of: 'persons', max: 2, why: 'a portrait shows one or two people' },
  'people.pair': { of: 'persons', min: 2, max: 2, why: 'two people: half a group' },
  'people.group': { of: 'persons', min: 3, max: 7, why: 'a group: 3 to 7 people' },
  'people.many': { of: 'persons', min: 8, max: 15, why: 'many people: 8 to 15' },
  'people.crowd': { of: 'persons', above: 15, why: 'a crowd: more than 15' },
  'people.venue': { of: 'persons', min: 5, why: 'an audience: 5 people or more' },
  'children.any': { of: 'children', above: 0, why: 'a child face' },
  'babies.any': { of: 'babies', above: 0, why: 'a baby face' },
  'children.most': {
    check: (_e, d) => d.children > 0 && d.children >= d.persons * CHILD_MAJORITY,
    what: `children > 0 and ≥ ${CHILD_MAJORITY} × persons`,
    why: 'young people: at least half the people are children',
  },
  'face.any': { of: 'faceShare', above: 0, why: 'a face was found' },
  'face.portrait': { of: 'faceShare', above: PORTRAIT_FACE_SHARE, why: 'a portrait face (backdrops behind it look like sky)' },
  'face.noLarge': { of: 'faceShare', below: PORTRAIT_FACE_SHARE, why: 'no portrait face: a tattoo, not a face, is the subject' },
  'face.building': { of: 'faceShare', above: 0.05, why: 'a portrait subject in front of a building' },
  'faces.none': { of: 'faces', max: 0, why: 'no face detected' },
  'personConf.sure': { of: 'personConf', min: 0.5, why: 'a person is present' },
  'personBox.sure': { of: 'personBox', min: 0.5, why: 'a person-shaped box is present' },
  'labels.none': { of: 'labelKinds', max: 0, why: 'the detector found nothing' },
  'objectKinds.none': { of: 'objectKinds', max: 0, why: 'no object other than people' },
  // Style.
  'uniform.blank': { of: 'uniform', min: BLANK_UNIFORM, why: 'a blank image: all but a few pixels in 1 000 are one flat colour' },
  'uniform.notBlank': { of: 'uniform', below: BLANK_UNIFORM, why: 'not a blank image' },
  'bw.yes': { of: 'bw', min: 1, why: 'a black-and-white image' },
  'clipArtType.good': { of: 'clipArtType', min: 3, max: 3, why: 'clip art, type 3' },
  'clipArtType.normal': { of: 'clipArtType', min: 2, max: 2, why: 'clip art, type 2' },
  'clipArtType.ambiguous': { of: 'clipArtType', min: 1, max: 1, why: 'ambiguous clip art, type 1' },
  'bw.not': { of: 'bw', max: 0, why: 'a colour image (a B&W photo is not a bronze sculpture)' },
  'lineDrawing.yes': { of: 'lineDrawing', min: 1, why: 'a line drawing' },
  'lineDrawing.not': { of: 'lineDrawing', max: 0, why: 'not a line drawing' },
  'clipArt.yes': { of: 'clipArt', min: 1, why: 'clip art' },
  'drawing.little': { of: 'drawing', below: 0.5, why: 'mostly a photo' },
  'chromaP50.stone': { of: 'chromaP50', below: 12, why: 'stone-coloured: a low median chroma' },
  'chromaP90.colourless': { of: 'chromaP90', below: 12, why: 'colourless (stone, bronze): low chroma everywhere' },
  // Setting.
  'indoor.not': { of: 'indoor', below: 0.5, why: 'not indoors' },
  'indoor.little': { of: 'indoor', below: 0.3, why: 'hardly indoors' },
  'outdoor.notMostly': { of: 'outdoor', below: 0.5, why: 'not clearly outdoors' },
  'outdoor.little': { of: 'outdoor', below: 0.3, why: 'hardly outdoors' },
  'outdoor.sign': { of: 'outdoor', above: 0.4, why: 'text outdoors is a sign' },
  'outdoor.likely': { of: 'outdoor', above: 0.5, why: 'outdoors' },
  'outdoor.sure': { of: 'outdoor', min: 0.5, why: 'snow is reported outdoors only (white paper is not snow)' },
  'page.yes': { of: 'page', min: 0.65, why: 'page-like: grass and gravel make text-like blocks too, but not a paper tone' },
  'colorfulness.plainPage': { of: 'colorfulness', below: 0.35, why: 'a plain page; colourful text blocks count less (TEXT_WEIGHT)' },
  'drawing.much': { of: 'drawing', min: 0.5, why: 'mostly a drawing: no setting words, no sky view' },
  'figure.isolated': {
    of: 'isolatedFigure',
    min: 0.5,
    why: 'a thing cut out on a plain page: the page is no setting (no snow, grass, outdoors)',
  },
  'night.setting': { of: 'night', min: 0.7, why: '"at night" needs a night sky or lights (a dark portrait alone scores below 0.5)' },
  'outdoor.setting': { of: 'outdoor', min: 0.6, why: '"outdoors" a little above present' },
  'indoor.setting': { of: 'indoor', min: 0.6, why: '"indoors" a little above present' },
  'snow.setting': { of: 'snow', above: 0.3, why: '"in the snow": snow on a third of the lower half' },
  'vegetation.setting': { of: 'vegetation', above: 0.25, why: '"in a grassy area": a quarter of the image green' },
  'text.little': { of: 'text', below: 0.3, why: 'hardly text' },
  'qrCode.found': { of: 'qrCode', above: 0, why: 'a QR code: three finder patterns at right angles with timing patterns between them' },
  'barcode.found': { of: 'barcode', above: 0, why: 'an upright barcode: a block of alike rows of ≥ 15 bars of mixed widths in two tones' },
  'text.present': { of: 'text', min: 0.5, why: 'writing: with page.yes a page of text, whose dark paper is no dark scene' },
  // Sky and light.
  'sky.none': { of: 'sky', below: 0.03, why: 'no sky: a wall fills the frame' },
  'sky.little': { of: 'sky', below: 0.05, why: 'hardly any sky' },
  'sky.any': { of: 'sky', above: 0.05, why: 'some sky' },
  'sky.corner': { of: 'sky', above: 0.1, below: 0.4, why: 'a building corner: sky on part of the frame' },
  'sky.poolside': { of: 'sky', below: 0.1, why: 'a pool seen from close by shows little sky' },
  'blueSky.clear': { of: 'blueSky', above: 0.05, why: 'blue sky between the clouds' },
  'brightness.dim': { of: 'brightness', below: 0.3, why: 'a dark image (mean L* < 30)' },
  'brightness.venue': { of: 'brightness', below: 0.4, why: 'a dimmed hall' },
  'skyPixels.night': { of: 'skyPixels', above: 0.1, why: 'a night sky makes a dark photo a night scene' },
  'levelSpan.few': {
    of: 'levelSpan',
    below: FEW_LEVELS,
    why: 'a photo taken far too dark: its dark top may be a room as well as a night sky',
  },
  'brightSpots.pointLights': { of: 'brightSpots', above: 0.01, why: 'point lights make a dark photo a night scene' },
  'brightSpots.many': { of: 'brightSpots', above: 0.05, why: 'many bright spots: stained-glass panes' },
  // Structure.
  'straightEdges.none': { of: 'straightEdges', below: 0.04, why: 'no built structure' },
  'straightEdges.few': { of: 'straightEdges', below: 0.06, why: 'little built structure' },
  'straightEdges.structure': { of: 'straightEdges', above: 0.06, why: 'a station: platforms and roofs' },
  tall: {
    check: (e) => e.height > TALL_ASPECT * e.width,
    what: `height > ${TALL_ASPECT} × width`,
    why: 'tall images: church towers, menus',
  },
  // Colours.
  'colours.panda': { colour: 'dominant', in: ['Black', 'White'], why: 'a panda is black and white' },
  'background.brick': { colour: 'background', in: ['Red', 'Brown', 'Orange'], why: 'brick colours' },
  'foreground.grilled': { colour: 'foreground', in: ['Brown'], why: 'grilled food is brown' },
  'foreground.flower': { colour: 'foreground', in: ['Red', 'Pink', 'Purple', 'Yellow'], why: 'flower colours' },
  // Objects.
  'bottle.squat': {
    check: (e) => e.objects.some((o) => o.label === 'bottle' && o.box.height < SQUAT_ASPECT * o.box.width),
    what: `a bottle box with height < ${SQUAT_ASPECT} × width`,
    why: 'a can: COCO has no can class, a can is a squat bottle',
  },
} as const satisfies Record<string, NamedTest>;

export type TestName = keyof typeof TESTS;
/** Tests that are a range over one quantity (usable on a bare value, see `holds`). */
export type RangeTestName = { [K in TestName]: (typeof TESTS)[K] extends { of: QuantityName } ? K : never }[TestName];

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** A band's value at x: 0..1. */
export function band(name: BandName, x: number): number {
  const b: Band = BANDS[name];
  return clamp01((x - b.from) / (b.to - b.from));
}

/** Whether a range test holds for the value x. */
export function inRange(t: RangeTest, x: number): boolean {
  return (
    (t.above === undefined || x > t.above) &&
    (t.below === undefined || x < t.below) &&
    (t.min === undefined || x >= t.min) &&
    (t.max === undefined || x <= t.max)
  );
}

/** Whether a named test holds for the value x of its quantity (range tests only). */
export function holds(name: RangeTestName, x: number): boolean {
  return inRange(TESTS[name], x);
}

/** Whether a named test holds on the evidence. */
export function testHolds(name: TestName, e: Evidence, d: Derived): boolean {
  const t: NamedTest = TESTS[name];
  if ('check' in t) return t.check(e, d);
  if ('colour' in t) {
    if (t.colour === 'dominant') return t.in.every((c) => e.color.dominantColors.includes(c));
    return t.in.includes(t.colour === 'foreground' ? e.color.dominantColorForeground : e.color.dominantColorBackground);
  }
  return inRange(t, QUANTITIES[t.of].of(e, d));
}
