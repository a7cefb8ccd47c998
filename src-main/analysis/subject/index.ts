/** The subject: DeepLabV3 (PASCAL VOC) regions, the main subject's box and its own colour. */
export { SEGMENT_MODEL_ID, segmentImage, type ClassMask } from './segment';
export { SUBJECT, subjectFromMask, type SubjectEvidence, type SubjectRegion } from './subject';
export { SUBJECT_GATE, seenVocThings } from './gate';
export { SEGMENTABLE, VOC21, cocoOfVoc } from './voc';
