/** Face evidence for the analysis rules, adapted from the faces module's detect output. */
export {
  faceEvidenceFromDetected,
  faceEvidenceFromResults,
  insideImage,
  toAnalyzeFaces,
  SMILE_MIN_HAPPY,
  type FaceEvidence,
} from './faces';
