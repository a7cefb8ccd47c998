/** Face evidence for the analysis rules, adapted from the faces module's detect output. */
export { faceEvidenceFromDetected, toAnalyzeFaces, type FaceEvidence } from './faces';
