/**
 * SSD anchor grids of the BlazeFace family (MediaPipe "SsdAnchorsCalculator" with fixed anchor
 * size 1, so an anchor is just a centre). Centres are in detector-input pixels.
 */

/** A detector layout: square input side and, per output layer, its stride and anchors per cell. */
export interface AnchorLayout {
  /** Square input side in px. */
  inputSize: number;
  /** Feature-map strides in px, one per output layer, in output order. */
  strides: readonly number[];
  /** Anchors per grid cell for each stride. */
  perCell: readonly number[];
}

/** `blazeface-back` (256 px): 16×16×2 + 8×8×6 = 896 anchors. */
export const BLAZEFACE_BACK_LAYOUT: AnchorLayout = { inputSize: 256, strides: [16, 32], perCell: [2, 6] };

/**
 * Anchor centres as a flat Float32Array `[x0, y0, x1, y1, …]` in input px, row-major per layer,
 * layers concatenated in order (the order of the model's 896/2304 output rows).
 */
export function generateAnchors(layout: AnchorLayout): Float32Array {
  const out: number[] = [];
  layout.strides.forEach((stride, layer) => {
    const cells = Math.ceil(layout.inputSize / stride);
    const n = layout.perCell[layer] ?? 1;
    for (let gy = 0; gy < cells; gy++) {
      for (let gx = 0; gx < cells; gx++) {
        for (let k = 0; k < n; k++) out.push(stride * (gx + 0.5), stride * (gy + 0.5));
      }
    }
  });
  return Float32Array.from(out);
}
