/**
 * A decoded image as the analysis layer consumes it: HWC interleaved RGB, 8 bits per channel,
 * row-major, origin top-left. Structurally identical to `inference/image.ts`'s decoded image, so
 * either can be passed without conversion.
 */
export interface RgbPixels {
  /** width × height × 3 bytes, R G B per pixel. */
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}
