/**
 * Which float models ship as static int8 (QDQ) rewrites, and why (figures in docs/models.md,
 * "Static int8 quantisation"). A model leaves this list — and the product runs its float file
 * again — when its int8 version loses accuracy beyond the tolerances stated there.
 */
export interface Int8Spec {
  /** Manifest id of the float model (built by `npm run models:build`); the int8 file replaces it under the same id. */
  id: string;
  /** Why it pays (measured speed-up, accuracy held). */
  why: string;
}

export const int8Specs: readonly Int8Spec[] = [
  { id: 'gear', why: 'age/gender/race per face: 1.7× faster, outputs agree (cosine ≥ 0.99)' },
  { id: 'faceres', why: 'face descriptor, age and gender per face: 2.1× faster, a third of the size' },
  { id: 'nsfw-mobilenet-v2-mid', why: 'adult/drawing classes and place features per image: 2.5× faster' },
];

/** The int8 file written for a float model id. */
export const int8File = (id: string): string => `${id}-int8.onnx`;
