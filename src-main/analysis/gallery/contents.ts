/** The gallery data a matcher is built from: entries and their reference descriptors. */
import type { GalleryKind } from './descriptor-spec';

/** One enrolled person or place. */
export interface GalleryEntryInfo {
  id: number;
  kind: GalleryKind;
  name: string;
  /** Places: knowledge-graph style entity id, if the user gave one. */
  mid: string | null;
  /** Places: WGS84 degrees. */
  latitude: number | null;
  longitude: number | null;
}

/** One reference descriptor (L2-normalised, as stored). */
export interface GalleryReference {
  entryId: number;
  vector: Float32Array;
}

/** A consistent snapshot of both galleries; `version` changes whenever any of it changes. */
export interface GalleryContents {
  version: string;
  entries: readonly GalleryEntryInfo[];
  people: readonly GalleryReference[];
  places: readonly GalleryReference[];
}
