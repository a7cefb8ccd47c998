/**
 * Person and place galleries: descriptors (dlib's ResNet for faces, pooled MobileNetV2 features for
 * scenes), a flat cosine index, calibrated thresholds and the matcher behind analyze's
 * `GalleryMatcher` hook (docs/galleries.md).
 *
 * @example
 * const matcher = createSnapshotMatcher(engine, contents);
 * const celebrities = await matcher.matchCelebrities(image, faces);
 * const { details, annotations } = await matcher.matchLandmarks(image);
 */
export {
  FACE_DESCRIPTOR,
  FACERES_DESCRIPTOR_V1,
  PLACE_DESCRIPTOR,
  descriptorSpec,
  cosine,
  type DescriptorSpec,
  type FaceCrop,
  type FaceDescriptorSpec,
  type GalleryKind,
} from './descriptor-spec';
export type { GalleryContents, GalleryEntryInfo, GalleryReference } from './contents';
export { describePersonReference, describePlaceReference, REFERENCE_THUMBNAIL_PX, type ReferenceDescriptor } from './enrol';
export { describeFace, type FaceBox, type FaceDescriptor } from './face-descriptor';
export { redescribePersonReference, REDESCRIBE_MIN_IOU, type RedescribeOutcome, type StoredPersonReference } from './redescribe';
export {
  describePlace,
  placeWindows,
  greyWorld,
  CONTENT_PLACE_NET,
  type PlaceNet,
  type PlaceDescriptor,
  type PlaceCrop,
} from './place-descriptor';
export { GalleryIndex, bestEntries, topRows, ORT_SCAN_MIN_ROWS, RESCORE_ROWS, type EntryScore, type IndexRow } from './gallery-index';
export { assignPeople, type PersonAssignment, type FaceCandidates } from './match-people';
export { toLandmarkAnnotations, toLandmarkDetails, localMid, type PlaceHit } from './landmark-document';
export { createSnapshotMatcher, type SnapshotMatcher } from './matcher';
export { PERSON_MATCH, PLACE_MATCH, matchConfidence } from './thresholds';
export { centred, decodeVector, encodeVector, PLACE_CENTRE } from './centre';
