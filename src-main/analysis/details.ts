/**
 * Category details from the galleries: the matcher hook analysis calls for the requested
 * `details` (celebrities, landmarks) and where their results attach. The galleries themselves
 * live in `gallery/`.
 */
import type { Category, Celebrity, Detail, LandmarkAnnotation, LandmarkDetail } from '../shared/spec';
import type { FaceEvidence } from './people/faces';
import type { RgbImage } from '../inference';

/** Landmark gallery result: category detail items plus, optionally, the spec §2.3 document. */
export interface LandmarkMatch {
  details: LandmarkDetail[];
  annotations?: LandmarkAnnotation[];
}

/**
 * Hook for the celebrity and landmark galleries (their own issue). Analysis calls it only for
 * the requested `details`; without a matcher, `people_` still carries `celebrities: []`.
 */
export interface GalleryMatcher {
  matchCelebrities?(img: RgbImage, faces: readonly FaceEvidence[], signal?: AbortSignal): Promise<Celebrity[]>;
  matchLandmarks?(img: RgbImage, signal?: AbortSignal): Promise<LandmarkMatch>;
}

/**
 * Attaches `detail` to the most general matching category (Azure: `people_` rather than
 * `people_young`): celebrities on `people_` (an empty list when none matched), landmarks on
 * `building_` or else `outdoor_`; a landmark match without either category adds `outdoor_`
 * with the best landmark confidence.
 */
export function attachDetails(
  categories: Category[],
  details: ReadonlySet<Detail>,
  celebrities: Celebrity[],
  landmarks: LandmarkDetail[],
): Category[] {
  const out = categories.map((c) => ({ ...c }));
  if (details.has('Celebrities')) {
    const people = out.find((c) => c.name === 'people_');
    if (people) people.detail = { ...people.detail, celebrities };
  }
  if (details.has('Landmarks') && landmarks.length) {
    let host = out.find((c) => c.name === 'building_') ?? out.find((c) => c.name === 'outdoor_');
    if (!host) {
      host = { name: 'outdoor_', score: Math.max(...landmarks.map((l) => l.confidence)) };
      out.push(host);
      out.sort((p, q) => q.score - p.score);
    }
    host.detail = { ...host.detail, landmarks };
  }
  return out;
}
