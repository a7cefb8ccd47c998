/** Pixel statistics shared by colour, scene and image-type analysis. */
export { buildPixelField, measureTexture, FIELD_SIDE_PX, MID_SIDE_PX, type PixelField, type TextureStats } from './pixel-field';
export { rgbToLab, chroma, hueDeg, deltaE2, toHex, type Lab } from './lab';
export { histogramQuantile } from './histogram';
export { statisticsScale, thumbnail, THIN_IMAGE, toGray } from './thumbnail';
export { letterboxContent, LETTERBOX } from './letterbox';
