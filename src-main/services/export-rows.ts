import type { ExportRow } from '../store';

/** CSV columns, in order. Lists are joined with "; "; `metadata` holds the input CSV's other columns as JSON. */
export const CSV_COLUMNS = [
  'url',
  'status',
  'error',
  'width',
  'height',
  'format',
  'caption',
  'caption_confidence',
  'tags',
  'categories',
  'face_count',
  'ages',
  'genders',
  'adult_score',
  'racy_score',
  'dominant_colors',
  'accent_color',
  'is_bw',
  'clip_art_type',
  'line_drawing_type',
  'celebrities',
  'landmarks',
  'worker',
  'metadata',
] as const;

/** One CSV column name. */
export type CsvColumn = (typeof CSV_COLUMNS)[number];

const TOP_TAGS = 10;
/** Joins list cells (tags, colours, ages…) in CSV. */
export const LIST_SEPARATOR = '; ';

interface FaceLike {
  age?: unknown;
  gender?: unknown;
  attributes?: { age?: unknown; gender?: { type?: unknown } };
}

/** Ages and genders from a stored response: analyze `faces`, or detect `images[0].faces` (attributes). */
export function facesOf(response: unknown): { ages: string[]; genders: string[] } {
  const r = response as { faces?: FaceLike[]; images?: Array<{ faces?: FaceLike[] }> } | null;
  const faces = r?.faces ?? r?.images?.[0]?.faces ?? [];
  return {
    ages: faces.map((f) => String(f.age ?? f.attributes?.age ?? '')),
    genders: faces.map((f) => String(f.gender ?? f.attributes?.gender?.type ?? '')),
  };
}

/** One item flattened to CSV cells (strings, numbers, booleans or empty). */
export function flattenRow(x: ExportRow, response: unknown): Record<CsvColumn, string | number | boolean | null> {
  const { row } = x;
  const { ages, genders } = facesOf(response);
  return {
    url: row.url,
    status: row.status,
    error: row.error_code ? `${row.error_code}: ${row.error_message ?? ''}` : null,
    width: row.width,
    height: row.height,
    format: row.format,
    caption: row.caption,
    caption_confidence: row.caption_confidence,
    tags: x.tags
      .slice(0, TOP_TAGS)
      .map((t) => t.name)
      .join(LIST_SEPARATOR),
    categories: x.categories.map((c) => c.name).join(LIST_SEPARATOR),
    face_count: row.face_count,
    ages: ages.join(LIST_SEPARATOR),
    genders: genders.join(LIST_SEPARATOR),
    adult_score: row.adult_score,
    racy_score: row.racy_score,
    dominant_colors: x.colors.join(LIST_SEPARATOR),
    accent_color: row.accent_color,
    is_bw: row.is_bw === null ? null : row.is_bw === 1,
    clip_art_type: row.clip_art_type,
    line_drawing_type: row.line_drawing_type,
    celebrities: x.celebrities.join(LIST_SEPARATOR),
    landmarks: x.landmarks.join(LIST_SEPARATOR),
    worker: row.worker,
    metadata: row.metadata,
  };
}

/**
 * Neutralises spreadsheet formulas (OWASP "CSV injection"): a text cell starting with
 * = + - @ tab or CR gets a leading apostrophe, so Excel/LibreOffice show it as text.
 */
export function excelSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
