/** Whole-percent progress of `done` out of `total` (0 when empty). */
export function percent(done: number, total: number): number {
  return total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
}

/** "12.5 img/s", or an em dash when unknown. */
export function formatRate(perSecond: number | null | undefined): string {
  if (perSecond === null || perSecond === undefined || !Number.isFinite(perSecond) || perSecond <= 0) return '—';
  return `${perSecond >= 10 ? Math.round(perSecond) : perSecond.toFixed(1)} img/s`;
}

/** "3 h 5 min", "4 min 10 s", "12 s"; an em dash when unknown. */
export function formatEta(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.round(seconds);
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

/** A score 0..1 as "0.42". */
export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined ? '—' : score.toFixed(2);
}

/** Local date and time of an ISO 8601 string. */
export function formatDate(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/**
 * The name a person knows an image by: the last path segment of its URL, percent-decoded
 * ("photo 1.jpg" for `https://host/a/photo%201.jpg?size=2`); the host when the path is empty,
 * the text itself when it is not a URL.
 */
export function imageName(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const last = parsed.pathname.split('/').filter(Boolean).pop();
  if (!last) return parsed.host || url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
