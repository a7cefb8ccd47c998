import { cropRgb, resizeRgb } from '../inference';
import type { Color } from '../shared/spec';
import { analyzeColor, chromaStats, isBlackAndWhite, type ChromaStats } from './color';
import { measureInk, type ImageTypeEvidence, type InkStats } from './image-type';
import { buildPixelField, letterboxContent, measureTexture, MID_SIDE_PX, statisticsScale, thumbnail, type TextureStats } from './pixels';
import type { RgbImage } from '../inference';
import { measureScene, type SceneCues } from './scene';

/** Longer side at which flat fills are measured, px. */
export const TEXTURE_SIDE_PX = 640;

/** Everything measured from the pixels alone (no model). */
export interface PixelEvidence {
  color: Color;
  chroma: ChromaStats;
  scene: SceneCues;
  ink: InkStats;
  texture: TextureStats;
}

/**
 * The image type's evidence: the pixel statistics with the NSFW net's P(Drawing) and the photo
 * probe's P(photo) (image-type/photo-probe.ts), each when its model ran.
 */
export function imageTypeEvidence(pixels: PixelEvidence, drawingProb?: number, photoProb?: number): ImageTypeEvidence {
  const { chroma, scene, ink, texture } = pixels;
  return {
    texture,
    ink,
    chromaP90: chroma.p90,
    isBW: isBlackAndWhite(chroma),
    drawingProb,
    textLines: scene.textLines,
    photoProb,
    levelSpan: scene.levelSpan,
    brightness: scene.brightness,
  };
}

/**
 * The pixel half of the evidence: colour, chroma statistics, scene cues, ink and texture. Every
 * statistic runs at a normalised scale so results do not depend on the input resolution: the
 * ≤ 320 px thumbnail (edges, ink, text lines, and the 160 px Lab field) and a ≤ 640 px copy for
 * flat fills (at native resolution a large or upscaled photo has neighbours differing by ≤ 2
 * levels almost everywhere and would pass for clip art). A letterboxed picture is measured
 * without its bars.
 */
export async function measurePixels(image: RgbImage): Promise<PixelEvidence> {
  // Letterbox bars are no part of the picture (pixels/letterbox.ts).
  const box = letterboxContent(image);
  const img = box ? { ...cropRgb(image, box), ...(image.lossy !== undefined && { lossy: image.lossy }) } : image;
  // Both libvips resizes at once (its threads), then the JS statistics.
  const [mid, large] = await Promise.all([shrinkTo(img, MID_SIDE_PX), shrinkTo(img, TEXTURE_SIDE_PX)]);
  const field = buildPixelField(img, mid);
  const chroma = chromaStats(field);
  return {
    color: analyzeColor(field, chroma),
    chroma,
    scene: measureScene(field, mid),
    ink: measureInk(img, mid),
    texture: measureTexture(large, mid, img.lossy === true),
  };
}

/**
 * The image shrunk so its longer side is ≤ `sidePx`, or a thin image to `statisticsScale`
 * (libvips, area-averaging; JS box filter for tiny results).
 */
export async function shrinkTo(img: RgbImage, sidePx: number): Promise<RgbImage> {
  const scale = statisticsScale(img.width, img.height, sidePx);
  if (scale >= 1) return img;
  const w = Math.max(1, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  if (w < 8 || h < 8) return thumbnail(img, sidePx);
  return resizeRgb(img, w, h, { fit: 'fill', kernel: 'linear' });
}
