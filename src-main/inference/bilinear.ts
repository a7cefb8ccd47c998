/**
 * TF.js-style bilinear resize straight into a float tensor (the align-corners preprocessing of
 * the nsfwjs model). Pure.
 */
import type { RgbImage } from './image';
import type { FloatTensor } from './tensor';

/** How a bilinear resize maps target to source coordinates (TF.js `resizeBilinear` flags). */
export interface BilinearOptions {
  /** `src = dst × (in−1)/(out−1)`: corners map to corners (nsfwjs passes true). */
  alignCorners: boolean;
  /** Output layout: NHWC `[1,h,w,3]` or NCHW `[1,3,h,w]`. */
  layout: 'NHWC' | 'NCHW';
  /** Each channel value becomes `value × scale + offset` (e.g. 1/255 and 0 for 0..1 inputs). */
  scale: number;
  offset: number;
}

/**
 * Bilinear resize of the whole image to `outW × outH` (aspect not kept) straight into a float
 * tensor, reproducing TF.js `tf.image.resizeBilinear` without half-pixel centres: with
 * alignCorners the scale is (in−1)/(out−1), otherwise in/out. No antialiasing, as in TF.js: the
 * models were trained and calibrated on exactly this sampling.
 */
export function resizeBilinearToTensor(img: RgbImage, outW: number, outH: number, o: BilinearOptions): FloatTensor {
  const { data, width: inW, height: inH } = img;
  const sx = o.alignCorners && outW > 1 ? (inW - 1) / (outW - 1) : inW / outW;
  const sy = o.alignCorners && outH > 1 ? (inH - 1) / (outH - 1) : inH / outH;
  const out = new Float32Array(outW * outH * 3);
  const plane = outW * outH;
  for (let y = 0; y < outH; y++) {
    const fy = y * sy;
    const y0 = Math.min(inH - 1, Math.floor(fy));
    const y1 = Math.min(inH - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < outW; x++) {
      const fx = x * sx;
      const x0 = Math.min(inW - 1, Math.floor(fx));
      const x1 = Math.min(inW - 1, x0 + 1);
      const wx = fx - x0;
      const p00 = (y0 * inW + x0) * 3;
      const p01 = (y0 * inW + x1) * 3;
      const p10 = (y1 * inW + x0) * 3;
      const p11 = (y1 * inW + x1) * 3;
      for (let c = 0; c < 3; c++) {
        const top = data[p00 + c]! + (data[p01 + c]! - data[p00 + c]!) * wx;
        const bottom = data[p10 + c]! + (data[p11 + c]! - data[p10 + c]!) * wx;
        const v = (top + (bottom - top) * wy) * o.scale + o.offset;
        if (o.layout === 'NHWC') out[(y * outW + x) * 3 + c] = v;
        else out[c * plane + y * outW + x] = v;
      }
    }
  }
  return { data: out, dims: o.layout === 'NHWC' ? [1, outH, outW, 3] : [1, 3, outH, outW] };
}
