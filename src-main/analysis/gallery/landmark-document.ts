/**
 * Spec output shapes for matched places: the Azure category detail `{ name, confidence }` and the
 * spec §2.3 (Google Vision) landmark annotation with a four-vertex box and the place's location.
 */
import type { Box } from '../../inference';
import type { LandmarkAnnotation, LandmarkDetail } from '../../shared/spec';
import type { GalleryEntryInfo } from './contents';

/** A matched place with its confidence (0..1) and the image region that matched best (px). */
export interface PlaceHit {
  entry: GalleryEntryInfo;
  confidence: number;
  rect: Box;
}

/** Entity id reported when the user enrolled the place without a `mid`. */
export const localMid = (id: number): string => `/picscan/place/${id}`;

/** `categories[].detail.landmarks[]` items. */
export function toLandmarkDetails(hits: readonly PlaceHit[]): LandmarkDetail[] {
  return hits.map((h) => ({ name: h.entry.name, confidence: h.confidence }));
}

/**
 * Spec §2.3 items: vertices clockwise from the top-left corner in integer image px (Google's
 * order); `locations` is empty when the place has no coordinates.
 */
export function toLandmarkAnnotations(hits: readonly PlaceHit[]): LandmarkAnnotation[] {
  return hits.map((h) => {
    const x0 = Math.round(h.rect.left);
    const y0 = Math.round(h.rect.top);
    const x1 = Math.round(h.rect.left + h.rect.width);
    const y1 = Math.round(h.rect.top + h.rect.height);
    const { latitude, longitude } = h.entry;
    return {
      mid: h.entry.mid ?? localMid(h.entry.id),
      description: h.entry.name,
      score: h.confidence,
      boundingPoly: {
        vertices: [
          { x: x0, y: y0 },
          { x: x1, y: y0 },
          { x: x1, y: y1 },
          { x: x0, y: y1 },
        ],
      },
      locations: latitude !== null && longitude !== null ? [{ latLng: { latitude, longitude } }] : [],
    };
  });
}
