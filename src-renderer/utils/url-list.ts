import type { UrlListInput } from '../../src-main/shared';

// The preview is the import's own parser (src-main/shared), so its counts equal the import report.
export { previewUrlList, type UrlListPreview } from '../../src-main/shared/list-preview';

/** Guesses the list format from a file name (`.csv` → csv, anything else → txt). */
export function formatOf(fileName: string | null): UrlListInput['format'] {
  return fileName?.toLowerCase().endsWith('.csv') ? 'csv' : 'txt';
}
