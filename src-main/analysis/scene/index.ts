/** Scene cues (sky, vegetation, water, snow, darkness, text-like regions, edges) from pixels. */
export { measureScene, CUE_BOXES, type SceneCues } from './cues';
export { measureRepetition, REPETITION } from './repetition';
export { measureTextLines, type TextLines } from './text-lines';
