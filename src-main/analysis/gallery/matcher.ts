/**
 * The gallery matcher analyze calls (its `GalleryMatcher` hook): faces → enrolled people,
 * whole image → enrolled places. Built from one immutable snapshot of the galleries.
 */
import type { ModelRunner } from '../../inference';
import type { Celebrity } from '../../shared/spec';
import type { GalleryMatcher, LandmarkMatch } from '../details';
import { insideImage, type FaceEvidence } from '../people';
import { centred } from './centre';
import type { GalleryContents, GalleryEntryInfo } from './contents';
import { cosine, FACE_DESCRIPTOR, PLACE_DESCRIPTOR } from './descriptor-spec';
import { describeFace } from './face-descriptor';
import { GalleryIndex } from './gallery-index';
import { toLandmarkAnnotations, toLandmarkDetails, type PlaceHit } from './landmark-document';
import { assignPeople } from './match-people';
import { describePlace } from './place-descriptor';
import { matchConfidence, PERSON_MATCH, PLACE_MATCH } from './thresholds';

/** A matcher over one snapshot; `dispose` frees the large-gallery scan sessions. */
export interface SnapshotMatcher extends Required<GalleryMatcher> {
  readonly version: string;
  dispose(): Promise<void>;
}

/** Builds the matcher for `contents`, running models through `engine`. */
export function createSnapshotMatcher(engine: ModelRunner, contents: GalleryContents): SnapshotMatcher {
  const entries = new Map<number, GalleryEntryInfo>(contents.entries.map((e) => [e.id, e]));
  const people = GalleryIndex.build(FACE_DESCRIPTOR.dim, contents.people);
  // Places are indexed centred (centre.ts); queries are centred the same way.
  const places = GalleryIndex.build(
    PLACE_DESCRIPTOR.dim,
    contents.places.map((r) => ({ entryId: r.entryId, vector: centred(r.vector) })),
  );

  return {
    version: contents.version,

    async matchCelebrities(img, faces: readonly FaceEvidence[], signal): Promise<Celebrity[]> {
      if (people.rows === 0 || faces.length === 0) return [];
      const candidates = [];
      for (const f of faces) {
        const d = await describeFace(img, f.box, engine, signal);
        candidates.push(d ? await people.best(d.vector, 2, signal) : []);
      }
      return assignPeople(candidates).map((a) => ({
        name: entries.get(a.entryId)?.name ?? '',
        faceRectangle: insideImage(roundBox(faces[a.face]!.box), img.width, img.height),
        confidence: matchConfidence(a.score, PERSON_MATCH.minScore, PERSON_MATCH.confidenceScale),
      }));
    },

    async matchLandmarks(img, signal): Promise<LandmarkMatch> {
      if (places.rows === 0) return { details: [] };
      const d = await describePlace(img, engine, signal);
      const query = centred(d.vector);
      const crops = d.crops.map((c) => ({ rect: c.rect, vector: centred(c.vector) }));
      const hits: PlaceHit[] = [];
      for (const best of await places.best(query, PLACE_MATCH.maxResults, signal)) {
        const entry = entries.get(best.entryId);
        if (!entry || best.score < PLACE_MATCH.minScore) continue;
        // The matched region: the crop most similar to the best reference (whole frame on ties).
        const ref = places.matrix.subarray(best.row * places.dim, (best.row + 1) * places.dim);
        let rect = crops[0]!.rect;
        let top = -Infinity;
        for (const c of crops) {
          const s = cosine(c.vector, ref);
          if (s > top) [top, rect] = [s, c.rect];
        }
        hits.push({ entry, rect, confidence: matchConfidence(best.score, PLACE_MATCH.minScore, PLACE_MATCH.confidenceScale) });
      }
      return hits.length ? { details: toLandmarkDetails(hits), annotations: toLandmarkAnnotations(hits) } : { details: [] };
    },

    async dispose() {
      await Promise.all([people.dispose(), places.dispose()]);
    },
  };
}

const roundBox = (b: FaceEvidence['box']): Celebrity['faceRectangle'] => ({
  left: Math.round(b.left),
  top: Math.round(b.top),
  width: Math.round(b.width),
  height: Math.round(b.height),
});
