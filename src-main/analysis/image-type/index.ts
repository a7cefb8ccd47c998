/** ImageType feature: clip-art grade and line-drawing flag from pixel statistics. */
export { classifyImageType, clipArtScore, isLineDrawing, IMAGE_TYPE_RULES, type ClipArtEvidence, type ImageTypeEvidence } from './classify';
export { photoProbability, PHOTO_PROBE, type PhotoProbe } from './photo-probe';
export { measureInk, type InkStats } from './strokes';
