import type { AnalyzeData, DetectResponse } from '../shared/spec';

/** What the results table indexes from one response: scalar columns plus child rows. */
export interface ResultColumns {
  width: number | null;
  height: number | null;
  format: string | null;
  caption: string | null;
  captionConfidence: number | null;
  faceCount: number | null;
  adultScore: number | null;
  racyScore: number | null;
  isBW: boolean | null;
  clipArtType: number | null;
  lineDrawingType: number | null;
  accentColor: string | null;
  dominantForeground: string | null;
  dominantBackground: string | null;
  tags: Array<{ name: string; confidence: number }>;
  categories: Array<{ name: string; score: number }>;
  colors: string[];
  names: Array<{ kind: 'celebrity' | 'landmark'; name: string; confidence: number }>;
}

/** Image facts known from intake, used where a response does not carry them (detect). */
export interface ImageFacts {
  width: number | null;
  height: number | null;
  format: string | null;
}

/** Pure mapping from an analyze response's `data` to the indexed columns. */
export function analyzeColumns(data: AnalyzeData, facts: ImageFacts): ResultColumns {
  const caption = data.description?.captions?.[0] ?? null;
  const names: ResultColumns['names'] = [];
  for (const c of data.categories ?? []) {
    for (const p of c.detail?.celebrities ?? []) names.push({ kind: 'celebrity', name: p.name, confidence: p.confidence });
    for (const l of c.detail?.landmarks ?? []) names.push({ kind: 'landmark', name: l.name, confidence: l.confidence });
  }
  for (const l of data.Landmarks ?? []) names.push({ kind: 'landmark', name: l.description, confidence: l.score });
  return {
    width: data.metadata?.width ?? facts.width,
    height: data.metadata?.height ?? facts.height,
    format: data.metadata?.format ?? facts.format,
    caption: caption?.text ?? null,
    captionConfidence: caption?.confidence ?? null,
    faceCount: data.faces ? data.faces.length : null,
    adultScore: data.adult?.adultScore ?? null,
    racyScore: data.adult?.racyScore ?? null,
    isBW: data.color ? data.color.isBWImg : null,
    clipArtType: data.imageType?.clipArtType ?? null,
    lineDrawingType: data.imageType?.lineDrawingType ?? null,
    accentColor: data.color?.accentColor ?? null,
    dominantForeground: data.color?.dominantColorForeground ?? null,
    dominantBackground: data.color?.dominantColorBackground ?? null,
    tags: uniqueBy(data.tags ?? [], (t) => t.name),
    categories: uniqueBy(data.categories ?? [], (c) => c.name).map((c) => ({ name: c.name, score: c.score })),
    colors: [...new Set(data.color?.dominantColors ?? [])],
    names: uniqueBy(names, (n) => `${n.kind}\u0000${n.name}`),
  };
}

/** Pure mapping from a detect response (success or the Kairos error body) to the indexed columns. */
export function detectColumns(response: DetectResponse, facts: ImageFacts): ResultColumns {
  const image = 'images' in response ? response.images[0] : undefined;
  return {
    ...emptyColumns(facts),
    width: image?.width ?? facts.width,
    height: image?.height ?? facts.height,
    faceCount: image ? image.faces.length : 0,
  };
}

function emptyColumns(facts: ImageFacts): ResultColumns {
  return {
    ...facts,
    caption: null,
    captionConfidence: null,
    faceCount: null,
    adultScore: null,
    racyScore: null,
    isBW: null,
    clipArtType: null,
    lineDrawingType: null,
    accentColor: null,
    dominantForeground: null,
    dominantBackground: null,
    tags: [],
    categories: [],
    colors: [],
    names: [],
  };
}

// A response may repeat a name (e.g. a landmark in two categories); child tables key on it.
function uniqueBy<T>(list: readonly T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return list.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
