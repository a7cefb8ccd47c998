/**
 * An int8 manifest entry names the float model it was quantised from (`quantizedFrom`); these
 * helpers give back the float entry, for the quantiser itself (a rebuild starts from the float
 * file) and for tools that compare with float (parity with TF.js, fp32-vs-int8 measurements).
 */
import type { ManifestEntry } from '../build';

/** The float entry an entry was quantised from; the entry itself when it is not an int8 rewrite. */
export function floatEntry(e: ManifestEntry): ManifestEntry {
  if (!e.quantizedFrom) return e;
  const { precision: _p, quantizedFrom: q, ...rest } = e;
  return { ...rest, file: q.file, sha256: q.sha256, bytes: q.bytes };
}

/** A manifest (parsed JSON) with every int8 rewrite replaced by its float source. */
export function floatManifestJson(json: { version: number; models: ManifestEntry[] }): { version: number; models: ManifestEntry[] } {
  return { ...json, models: json.models.map(floatEntry) };
}
