/** ImageType feature: clip-art grade and line-drawing flag from pixel statistics. */
export { classifyImageType, clipArtScore, isLineDrawing, IMAGE_TYPE_RULES, type ImageTypeEvidence } from './classify';
export { measureInk, type InkStats } from './strokes';
