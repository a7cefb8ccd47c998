/** What the detail shows of a stored analyze response beyond the item's columns. */
export interface AnalysisExtras {
  /** Confidence of the caption shown (the first). */
  captionConfidence: number | null;
  isAdultContent: boolean | null;
  isRacyContent: boolean | null;
  foreground: string | null;
  background: string | null;
  /** Landmarks named in the categories' details, best first. */
  landmarks: Array<{ name: string; confidence: number }>;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The analyze fields the item columns do not carry; all null (and no landmarks) for other responses. */
export function analysisExtras(response: unknown): AnalysisExtras {
  const r = isObj(response) ? response : {};
  const description = isObj(r.description) ? r.description : {};
  const caption = Array.isArray(description.captions) ? description.captions.find(isObj) : undefined;
  const adult = isObj(r.adult) ? r.adult : {};
  const color = isObj(r.color) ? r.color : {};
  const landmarks: AnalysisExtras['landmarks'] = [];
  for (const c of Array.isArray(r.categories) ? r.categories.filter(isObj) : []) {
    const list = isObj(c.detail) && Array.isArray(c.detail.landmarks) ? c.detail.landmarks.filter(isObj) : [];
    for (const l of list) {
      const name = str(l.name);
      if (name && !landmarks.some((x) => x.name === name))
        landmarks.push({ name, confidence: typeof l.confidence === 'number' ? l.confidence : 0 });
    }
  }
  return {
    captionConfidence: caption && typeof caption.confidence === 'number' ? caption.confidence : null,
    isAdultContent: bool(adult.isAdultContent),
    isRacyContent: bool(adult.isRacyContent),
    foreground: str(color.dominantColorForeground),
    background: str(color.dominantColorBackground),
    landmarks: landmarks.sort((a, b) => b.confidence - a.confidence),
  };
}

/** The spec's clipArtType values in words. */
export const CLIP_ART_TYPES = ['not clip art', 'ambiguous', 'normal clip art', 'good clip art'] as const;
