/** Colour analysis: 12-name vocabulary, dominant/accent colours and the black-and-white flag. */
export { analyzeColor, accentColor, dominantNames, namePixels } from './dominant';
export { chromaStats, isBlackAndWhite, BW_THRESHOLDS, type ChromaStats } from './bw';
export { nameLab, nameRgb, ACHROMATIC_CHROMA } from './names';
